/**
 * `/work/shared/api-spec.md` transcribed as data, independently of the emulator's own types: every
 * endpoint row (method, path, inputs with placement, type and requiredness, response kind), every
 * record's fields with their spec types, and the envelope keys. The contract test drives the
 * emulator from this table alone.
 */

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** The spec's legend: `q:` query parameter, `p:` path parameter, `b:` JSON body field. */
export type Placement = "q" | "p" | "b";

/** The spec's type letters (`I` is how the catalog records write an integer), plus structured values. */
export type SpecType = "S" | "B" | "I64" | "I32" | "I" | "N" | "array" | "object";

/** The JSON type a spec type arrives as. */
export type JsonType = "string" | "boolean" | "integer" | "number" | "array" | "object";

export const JSON_TYPE: Record<SpecType, JsonType> = {
  S: "string",
  B: "boolean",
  I64: "integer",
  I32: "integer",
  I: "integer",
  N: "number",
  array: "array",
  object: "object",
};

export interface Input {
  name: string;
  in: Placement;
  type: SpecType;
  /** "spec": marked (req) in api-spec.md; "notes": required by the create table of api-notes.md. */
  required?: "spec" | "notes";
  /** The enumeration the spec gives for the input, if any. */
  values?: readonly string[];
}

/** A record field: a spec type, or an array whose elements are records of a named kind. */
export type FieldType = SpecType | { arrayOf: RecordName };
export type Fields = Readonly<Record<string, FieldType>>;

export type Response =
  /** `{count, [key]: [record...]}`; `extra` are further top-level fields beside count and the array. */
  | { kind: "envelope"; key: string; record: RecordName; extra?: Fields }
  /** A bare JSON `true`/`false`. */
  | { kind: "boolean" }
  /** One bare Cluster object. */
  | { kind: "cluster" }
  /** A bare array of Cluster objects. */
  | { kind: "clusterArray" }
  /** A named object shape without envelope, such as `{uuid, status}` or `{ipCost}`. */
  | { kind: "object"; shape: ShapeName }
  /** "Response: not shown". */
  | { kind: "notShown" };

export interface Row {
  /** The spec section the row comes from. */
  section: Section;
  method: Method;
  path: string;
  inputs: readonly Input[];
  response: Response;
  /** Success codes besides 200 that the spec allows ("also 202", "also 204"). */
  alsoStatus?: readonly (202 | 204)[];
  /** "Parameters and response(s): not shown". */
  parametersNotShown?: true;
  /** The spec's example omits the authentication headers (getpublickey). */
  noAuth?: true;
  /** Requires the administrator account ("Host listing is typically an administrator-scoped read"). */
  admin?: true;
}

export type Section =
  | "Host"
  | "VPC"
  | "Security Group"
  | "Instance"
  | "Network"
  | "Volume"
  | "Invoice"
  | "Kubernetes"
  | "IP Address"
  | "Cost Estimate Analyzer"
  | "VPN Customer Gateway"
  | "Load Balancer Rule"
  | "VPN Connection"
  | "Internal LB"
  | "VM Snapshot"
  | "Port Forwarding Rule"
  | "Snapshot Policy"
  | "Firewall Rule"
  | "Egress Rule"
  | "Resource Tags"
  | "Snapshot";

// ---------------------------------------------------------------------------------------------
// Records ("Record fields (as returned)")
// ---------------------------------------------------------------------------------------------

/**
 * As listed. "Every record below also has `status` (string) and `isActive` (boolean) unless stated":
 * `RECORD_FIELDS` adds them where a record does not list them (InstanceNetwork, Invoice, InvoiceTax,
 * TaxPendingInvoice, Cluster, Tag).
 */
const RESOURCE_RECORDS_AS_LISTED = {
  Host: {
    cpuAllocated: "S",
    memoryUsedPercentage: "S",
    cpuUsed: "S",
    memoryAllocatedPercentage: "S",
    isActive: "B",
    uuid: "S",
    cpuCores: "S",
    memoryTotal: "S",
    hypervisor: "S",
    name: "S",
    podName: "S",
    vmCount: "S",
    status: "S",
  },
  Vpc: {
    getcIDR: "S",
    domainName: "S",
    name: "S",
    zoneUuid: "S",
    description: "S",
    zoneName: "S",
    isActive: "B",
    uuid: "S",
    status: "S",
  },
  Network: {
    cleanUpNetwork: "B",
    getcIDR: "S",
    zoneUuid: "S",
    networkOfferingUuid: "S",
    isActive: "B",
    networkAclList: "S",
    uuid: "S",
    domainName: "S",
    name: "S",
    networkType: "S",
    gateway: "S",
    networkDomain: "S",
    status: "S",
  },
  SecurityGroup: {
    securityGroupFirewallRule: "array",
    securityGroupPortForwarding: "array",
    securityGroupEgressRule: "array",
    name: "S",
    description: "S",
    isActive: "B",
    uuid: "S",
    status: "S",
  },
  Instance: {
    templateUuid: "S",
    instanceOwnerName: "S",
    memory: "S",
    displayName: "S",
    rootDiskSize: "I64",
    networkName: "S",
    zoneUuid: "S",
    sshUuid: "S",
    description: "S",
    computeOfferingUuid: "S",
    isActive: "B",
    uuid: "S",
    volumeSize: "S",
    diskSize: "I64",
    templateName: "S",
    name: "S",
    state: "S",
    instancePrivateIp: "S",
    networkUuid: "S",
    storageOfferingUuid: "S",
    cpuCore: "S",
    status: "S",
  },
  InstanceNetwork: {
    netmask: "S",
    privateIp: "S",
    name: "S",
    defaultNetwork: "B",
    publicIp: "S",
    type: "S",
    uuid: "S",
    gateway: "S",
  },
  Volume: {
    volumeType: "S",
    vmInstanceName: "S",
    zoneUuid: "S",
    createdTimeStamp: "I64",
    errorMessage: "S",
    isShrink: "B",
    isActive: "B",
    uuid: "S",
    storageDiskSize: "S",
    jobId: "S",
    storageOfferingName: "S",
    vmUuid: "S",
    domainName: "S",
    name: "S",
    storageOfferingUuid: "S",
    status: "S",
  },
  Invoice: {
    domainUuid: "S",
    adjustmentCost: "N",
    clientEmail: "S",
    usageCost: "N",
    referenceNumber: "I64",
    invoiceNumber: "S",
    generatedDate: "I64",
    totalAdjustmentCost: "N",
    currency: "S",
    bandwidthFreeUsage: "N",
    totalCost: "N",
    billPeriod: "S",
    status: "S",
  },
  InvoiceTax: { realNumber: "S", clientEmail: "S", id: "S", status: "S" },
  /** "the update-tax response additionally has total N and taxes N". */
  InvoiceTaxWithTotals: { realNumber: "S", clientEmail: "S", id: "S", status: "S", total: "N", taxes: "N" },
  TaxPendingInvoice: { amount: "N", clientEmail: "S", currency: "S", id: "S", billPeriod: "S", status: "S" },
  Cluster: {
    nodeRootDiskSize: "I64",
    size: "I64",
    controlNodes: "I64",
    externalLoadbalancerIpaddress: "S",
    name: "S",
    description: "S",
    state: "S",
    uuid: "S",
    transNetworkUuid: "S",
  },
  IpAddress: {
    publicIpAddress: "S",
    zoneUuid: "S",
    zoneName: "S",
    state: "S",
    isActive: "B",
    uuid: "S",
    networkUuid: "S",
    isSourcenat: "B",
    status: "S",
  },
  StaticNat: { ipAddressUuid: "S", vmName: "S", vmUuid: "S", isActive: "B", networkUuid: "S", status: "S" },
  VpnCustomerGateway: {
    esplifetime: "S",
    cidrList: "S",
    forceencap: "B",
    ikepolicy: "S",
    ipsecPresharedKey: "S",
    ikeVersion: "S",
    splitConnection: "B",
    isActive: "B",
    ikelifetime: "S",
    uuid: "S",
    domainName: "S",
    name: "S",
    dpd: "B",
    esppolicy: "S",
    gateway: "S",
    status: "S",
  },
  VpnConnection: {
    ikePolicy: "S",
    publicIpAddress: "S",
    espPolicy: "S",
    ipsecPresharedKey: "S",
    zoneUuid: "S",
    isActive: "B",
    uuid: "S",
    customerGatewayUuid: "S",
    vpnGatewayUuid: "S",
    state: "S",
    vpcUuid: "S",
    gateway: "S",
    status: "S",
  },
  LoadBalancerRule: {
    ipAddressUuid: "S",
    stickinessName: "S",
    privatePort: "S",
    name: "S",
    publicPort: "S",
    zoneUuid: "S",
    state: "S",
    isActive: "B",
    uuid: "S",
    algorithm: "S",
    status: "S",
  },
  /** "The record carries no uuid field." */
  InternalLb: {
    instancePort: "S",
    sourcePort: "S",
    name: "S",
    zoneUuid: "S",
    description: "S",
    sourceIpAddress: "S",
    isActive: "B",
    networkUuid: "S",
    algorithm: "S",
    status: "S",
  },
  VmSnapshot: {
    jobId: "S",
    isCurrent: "B",
    domainName: "S",
    name: "S",
    createdTimeStamp: "I64",
    zoneUuid: "S",
    description: "S",
    isActive: "B",
    uuid: "S",
    status: "S",
  },
  PortForwardingRule: {
    ipAddressUuid: "S",
    protocol: "S",
    virtualMachineName: "S",
    privatePort: "S",
    privateEndPort: "S",
    publicPort: "S",
    publicEndPort: "S",
    zoneUuid: "S",
    isActive: "B",
    uuid: "S",
    status: "S",
  },
  SnapshotPolicy: {
    scheduleTime: "S",
    intervalType: "S",
    volumeUuid: "S",
    dayOfWeek: "S",
    dayOfMonth: "S",
    timeZone: "S",
    maximumSnapshots: "S",
    isActive: "B",
    uuid: "S",
    status: "S",
  },
  FirewallRule: {
    startPort: "S",
    ipAddressUuid: "S",
    icmpType: "S",
    protocol: "S",
    cidrList: "S",
    icmpCode: "S",
    zoneUuid: "S",
    isActive: "B",
    uuid: "S",
    endPort: "S",
    status: "S",
  },
  /** "The record omits cidrList." */
  EgressRule: {
    startPort: "S",
    icmpType: "S",
    protocol: "S",
    icmpCode: "S",
    zoneUuid: "S",
    isActive: "B",
    uuid: "S",
    endPort: "S",
    networkUuid: "S",
    status: "S",
  },
  Tag: { isActive: "B", uuid: "S", value: "S", resourceUuid: "S", key: "S", resourceType: "S" },
  Snapshot: {
    volumeUuid: "S",
    snapshotType: "S",
    domainName: "S",
    name: "S",
    zoneUuid: "S",
    snapshotTime: "S",
    isActive: "B",
    uuid: "S",
    status: "S",
  },
} as const satisfies Record<string, Fields>;

// ---------------------------------------------------------------------------------------------
// Catalog records ("Catalog records (cost estimate area)"): exactly as listed. They state isActive
// where they carry it (Zone, Kubernetes version), so the "also status and isActive" rule is read as
// covering the resource records only.
// ---------------------------------------------------------------------------------------------

const CATALOG_RECORDS = {
  MultiCurrency: { isDefaultCurrency: "S", cost: "N", currencySymbol: "S", currency: "S", uuid: "S" },
  Zone: { imageFlag: "S", name: "S", countryName: "S", isActive: "B", uuid: "S" },
  ServiceCategory: { name: "S", uuid: "S", resourceList: "array" },
  ComputePlanType: {
    displayName: "S",
    key: "S",
    payAsYouGoOfferingCost: "array",
    customOfferingCost: "array",
    reservedOfferingCost: "array",
    bundleOfferingCost: "array",
  },
  ComputeOfferingCategory: { name: "S", description: "S", planTypes: "array", uuid: "S" },
  PayAsYouGoOfferingCost: {
    instanceRunningCostVcpu: "N",
    memory: "N",
    instanceRunningCostMemory: "N",
    cpuMax: "I",
    uuid: "S",
    core: "I",
    categoryUuid: "S",
    setupCost: "N",
    clockSpeed: "I",
    name: "S",
    isCustom: "B",
    instanceStoppageCostMemory: "N",
    instanceStoppageCostVcpu: "N",
  },
  ReservedOfferingCost: {
    core: "I",
    categoryUuid: "S",
    memory: "N",
    clockSpeed: "I",
    name: "S",
    offeringPlans: "array",
    uuid: "S",
  },
  BundleOfferingCost: {
    core: "I",
    categoryUuid: "S",
    memory: "N",
    clockSpeed: "I",
    bandwidth: "I",
    diskSpace: "I",
    name: "S",
    ipAddress: "I",
    uuid: "S",
    bundlePlan: "array",
  },
  StorageCategory: { name: "S", description: "S", listStorageCost: "array", uuid: "S" },
  StorageCost: {
    costForGb: "N",
    categoryUuid: "S",
    diskSize: "I",
    name: "S",
    isCustom: "B",
    customCostPerGb: "N",
    uuid: "S",
  },
  NetworkOfferingCost: {
    displayText: "S",
    cost: "N",
    name: "S",
    haCost: "N",
    type: "S",
    uuid: "S",
    totalCost: "N",
  },
  VpcOfferingCost: { cost: "N", name: "S", haCost: "N", uuid: "S", totalCost: "N" },
  TemplatePlatform: { displayName: "S", key: "S" },
  TemplateDistribution: { displayName: "S", key: "S" },
  TemplateCategory: { categoryType: "S", imageName: "S", templates: "array", name: "S", uuid: "S" },
  TemplateCost: {
    categoryUuid: "S",
    imageName: "S",
    cost: "N",
    size: "I",
    name: "S",
    enablePerCoreLicense: "B",
    minimumMemory: "I",
    minimumRootdisk: "I",
    uuid: "S",
    minimumCore: "I",
    licensePerCoreCost: "N",
  },
  KubernetesVersion: { minMemory: "I", name: "S", description: "S", isActive: "B", uuid: "S", minCpuNumber: "I" },
} as const satisfies Record<string, Fields>;

export type ResourceRecordName = keyof typeof RESOURCE_RECORDS_AS_LISTED;
export type CatalogRecordName = keyof typeof CATALOG_RECORDS;
export type RecordName = ResourceRecordName | CatalogRecordName;

const COMMON_RECORD_FIELDS: Fields = { status: "S", isActive: "B" };

function withCommonFields(records: Record<ResourceRecordName, Fields>): Record<ResourceRecordName, Fields> {
  const entries = Object.entries(records).map(([name, fields]) => [name, { ...COMMON_RECORD_FIELDS, ...fields }]);
  return Object.fromEntries(entries) as Record<ResourceRecordName, Fields>;
}

/** Every record's fields as returned, with the spec's types. */
export const RECORD_FIELDS: Readonly<Record<RecordName, Fields>> = {
  ...withCommonFields(RESOURCE_RECORDS_AS_LISTED),
  ...CATALOG_RECORDS,
};

/** Named response objects that are not records in an envelope. */
export const SHAPES = {
  /** Volume and VM-snapshot deletes, VM Status. */
  UuidStatus: { uuid: "S", status: "S" },
  /** "Invoice action result (generate, change cost): invoiceNumber I32, message S, status S. No envelope." */
  InvoiceActionResult: { invoiceNumber: "I32", message: "S", status: "S" },
  /** "Public key pair: apiKey S, secretKey S". */
  PublicKeyPair: { apiKey: "S", secretKey: "S" },
  ComputePlanList: {
    payAsYouGoOfferingCost: { arrayOf: "PayAsYouGoOfferingCost" },
    reservedOfferingCost: { arrayOf: "ReservedOfferingCost" },
    bundleOfferingCost: { arrayOf: "BundleOfferingCost" },
    count: "I",
  },
  IpCost: { ipCost: "N" },
  PortForwardCost: { portForwardCost: "N" },
  LoadBalancerCost: { loadBalancerCost: "N" },
  VpnUserCost: { vpnUserCost: "N" },
  SnapshotCost: { snapshotCost: "N" },
  VmSnapshotCost: { vmSnapshotCost: "N" },
} as const satisfies Record<string, Fields>;
export type ShapeName = keyof typeof SHAPES;

// ---------------------------------------------------------------------------------------------
// Envelope keys
// ---------------------------------------------------------------------------------------------

/** The "Envelope keys" table (Cluster has none), plus the envelope named with each catalog record. */
export const ENVELOPE_KEYS: Readonly<Partial<Record<RecordName, string>>> = {
  Host: "listHostResponse",
  Vpc: "listVpcResponse",
  Network: "listNetworkResponse",
  SecurityGroup: "listSecurityGroupResponse",
  Instance: "listInstanceResponse",
  InstanceNetwork: "svcInstanceNetworkResponses",
  Volume: "listVolumeResponse",
  Invoice: "listInvoiceResponse",
  TaxPendingInvoice: "listInvoiceResponse",
  InvoiceTax: "invoiceTaxResponses",
  InvoiceTaxWithTotals: "invoiceTaxResponses",
  IpAddress: "listIpAddressResponse",
  StaticNat: "svcAttachStaticNatResponse",
  VpnCustomerGateway: "listVpnCustomerGatewayResponse",
  VpnConnection: "listVpnConnectionResponse",
  LoadBalancerRule: "listLoadBalancerRuleResponse",
  InternalLb: "listInternalLbResponse",
  VmSnapshot: "listVmSnapshotResponse",
  PortForwardingRule: "listPortForwardingResponse",
  SnapshotPolicy: "listSnapShotPoliciesResponse",
  FirewallRule: "listFirewallRuleResponse",
  EgressRule: "listEgressRuleResponse",
  Tag: "svcCreateTagsResponse",
  Snapshot: "listSnapShotResponse",
  // Catalog records
  MultiCurrency: "listMultiCurrency",
  Zone: "listZoneResponse",
  ServiceCategory: "serviceCategoryList",
  ComputePlanType: "computePlanTypeList",
  ComputeOfferingCategory: "listComputeOfferingCategory",
  StorageCategory: "listCategory",
  StorageCost: "listStorageCost",
  NetworkOfferingCost: "listOfferingCost",
  VpcOfferingCost: "vpcOfferingCost",
  TemplatePlatform: "templatePlatformList",
  TemplateDistribution: "templateDistributionList",
  TemplateCategory: "templateCategoryList",
  TemplateCost: "listTemplateCost",
  KubernetesVersion: "listKubernetesVersion",
};

// ---------------------------------------------------------------------------------------------
// Row builders
// ---------------------------------------------------------------------------------------------

interface InputOptions {
  required?: "spec" | "notes";
  values?: readonly string[];
}
const REQ = { required: "spec" } as const;
/** Required by api-notes.md's create table, not marked in the spec. */
const NOTES = { required: "notes" } as const;
const req = (values: readonly string[]): InputOptions => ({ required: "spec", values });
const oneOf = (values: readonly string[]): InputOptions => ({ values });

const input =
  (placement: Placement) =>
  (name: string, type: SpecType, options: InputOptions = {}): Input => ({ name, in: placement, type, ...options });
const q = input("q");
const p = input("p");
const b = input("b");
const UUID_IN_PATH = p("uuid", "S", REQ);

function envelopeOf(record: RecordName, extra?: Fields): Response {
  const key = ENVELOPE_KEYS[record];
  if (!key) throw new Error(`no envelope key for ${record}`);
  return extra ? { kind: "envelope", key, record, extra } : { kind: "envelope", key, record };
}
const BOOLEAN: Response = { kind: "boolean" };
const CLUSTER: Response = { kind: "cluster" };
const NOT_SHOWN: Response = { kind: "notShown" };
const shape = (name: ShapeName): Response => ({ kind: "object", shape: name });

const PROTOCOLS_TUI = ["TCP", "UDP", "ICMP"] as const;
const PROTOCOLS_TU = ["TCP", "UDP"] as const;
const ALGORITHMS = ["source", "roundrobin", "leastconn"] as const;
const INVOICE_STATUSES = ["DRAFT", "DUE", "PAID", "OVER_DUE", "CANCEL", "TAX_PENDING"] as const;
const RESOURCE_TYPES = [
  "UserVm",
  "Volume",
  "Snapshot",
  "VMSnapshot",
  "Network",
  "PublicIpAddress",
  "FirewallRule",
  "LoadBalancer",
  "PortForwardingRule",
  "Vpc",
  "StaticRoute",
  "NetworkACL",
  "Template",
  "ISO",
] as const;

/** "Set of body fields for add (required marked)" of the VPN customer gateway. */
const CUSTOMER_GATEWAY_FIELDS: ReadonlyArray<[string, SpecType, boolean]> = [
  ["esplifetime", "S", true],
  ["forceencap", "B", false],
  ["ikepolicy", "S", true],
  ["ikeEncryption", "S", true],
  ["ikeHash", "S", true],
  ["ikeVersion", "S", false],
  ["splitConnection", "B", false],
  ["ikelifetime", "S", true],
  ["ipsecpsk", "S", true],
  ["espHash", "S", true],
  ["espEncryption", "S", true],
  ["cidrlist", "S", true],
  ["name", "S", true],
  ["dpd", "B", false],
  ["esppolicy", "S", true],
  ["gateway", "S", true],
];

/** Rows of a section share the section name and base path. */
function section(name: Section, base: string, rows: ReadonlyArray<Omit<Row, "section" | "path"> & { path: string }>) {
  return rows.map((row): Row => ({ ...row, section: name, path: `${base}/${row.path}` }));
}

// ---------------------------------------------------------------------------------------------
// Endpoint rows, section by section in the spec's order
// ---------------------------------------------------------------------------------------------

const HOST = section("Host", "/restapi/host", [
  { method: "GET", path: "hostList", inputs: [q("uuid", "S")], response: envelopeOf("Host"), admin: true },
]);

const VPC = section("VPC", "/restapi/vpc", [
  {
    method: "POST",
    path: "createVpc",
    inputs: [
      b("publicLoadBalancerProvider", "S"),
      b("vpcOfferingUuid", "S", NOTES),
      b("getcIDR", "S", NOTES),
      b("name", "S", NOTES),
      b("zoneUuid", "S", NOTES),
      b("description", "S"),
      b("networkDomain", "S"),
    ],
    response: envelopeOf("Vpc"),
  },
  { method: "GET", path: "vpcList", inputs: [q("zoneUuid", "S", REQ), q("uuid", "S")], response: envelopeOf("Vpc") },
  { method: "GET", path: "vpcId", inputs: [q("uuid", "S", REQ)], response: envelopeOf("Vpc") },
  {
    method: "PUT",
    path: "updateVpc",
    inputs: [b("name", "S"), b("description", "S"), b("uuid", "S")],
    response: envelopeOf("Vpc"),
    alsoStatus: [202],
  },
  {
    method: "GET",
    path: "restartVpc",
    inputs: [q("uuid", "S", REQ), q("cleanUpVPC", "B", REQ), q("redundantVpcRouter", "B", REQ)],
    response: envelopeOf("Vpc"),
  },
  {
    method: "POST",
    path: "createVpcNetwork",
    inputs: [
      b("aclUuid", "S"),
      b("netmask", "S"),
      b("name", "S"),
      b("zoneUuid", "S"),
      b("networkOfferingUuid", "S"),
      b("vpcUuid", "S"),
      b("gateway", "S"),
    ],
    response: envelopeOf("Network"),
  },
  {
    method: "PUT",
    path: "updateVpcNetwork",
    inputs: [
      b("name", "S"),
      b("description", "S"),
      b("networkOfferingUuid", "S"),
      b("uuid", "S"),
      b("networkDomain", "S"),
    ],
    response: envelopeOf("Network"),
    alsoStatus: [202],
  },
  { method: "DELETE", path: "deleteVpc/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN, alsoStatus: [204] },
]);

const SECURITY_GROUP = section("Security Group", "/restapi/securitygroup", [
  {
    method: "POST",
    path: "createSecurityGroup",
    inputs: [b("name", "S", NOTES), b("description", "S")],
    response: envelopeOf("SecurityGroup"),
  },
  { method: "GET", path: "securityList", inputs: [q("uuid", "S")], response: envelopeOf("SecurityGroup") },
  {
    method: "POST",
    path: "createSecurityGroupFirewallRule",
    inputs: [
      b("startPort", "S"),
      b("icmpType", "S"),
      b("protocol", "S", oneOf(PROTOCOLS_TUI)),
      b("cidrList", "S"),
      b("icmpCode", "S"),
      b("securityGroupUuid", "S"),
      b("endPort", "S"),
    ],
    response: envelopeOf("SecurityGroup"),
  },
  {
    method: "POST",
    path: "createSecurityGroupEgressRule",
    inputs: [
      b("startPort", "S"),
      b("icmpType", "S"),
      b("protocol", "S", req(PROTOCOLS_TUI)),
      b("icmpCode", "S"),
      b("securityGroupUuid", "S"),
      b("endPort", "S"),
    ],
    response: envelopeOf("SecurityGroup"),
  },
  {
    method: "POST",
    path: "createSecurityGroupPortForwardingRule",
    inputs: [
      b("privateStartPort", "S"),
      b("publicStartPort", "S"),
      b("privateEndPort", "S"),
      b("publicEndPort", "S"),
      b("securityGroupUuid", "S"),
      b("protocolType", "S", oneOf(PROTOCOLS_TU)),
    ],
    response: envelopeOf("SecurityGroup"),
  },
  {
    method: "DELETE",
    path: "deleteSecurityGroupRule",
    inputs: [
      q("securityGroupUuid", "S", REQ),
      q("ruleType", "S", req(["EGRESSRULE", "FIREWALLRULE", "PORTFORWATDING"])),
      q("ruleUuid", "S", REQ),
    ],
    response: envelopeOf("SecurityGroup"),
  },
  { method: "DELETE", path: "deleteSecurityGroup/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN },
]);

const INSTANCE = section("Instance", "/restapi/instance", [
  {
    method: "POST",
    path: "createInstance",
    inputs: [
      b("templateUuid", "S", NOTES),
      b("memory", "S"),
      b("rootDiskSize", "I64"),
      b("zoneUuid", "S", NOTES),
      b("computeOfferingUuid", "S", NOTES),
      b("diskSize", "I64"),
      b("sshKeyName", "S"),
      b("securitygroupName", "S"),
      b("hypervisorName", "S"),
      b("name", "S", NOTES),
      b("networkUuid", "S", NOTES),
      b("storageOfferingUuid", "S"),
      b("cpuCore", "S"),
    ],
    response: envelopeOf("Instance"),
  },
  {
    method: "GET",
    path: "instanceList",
    inputs: [q("zoneUuid", "S", REQ), q("vmUuid", "S")],
    response: envelopeOf("Instance"),
  },
  { method: "GET", path: "vmStatus", inputs: [q("uuid", "S", REQ)], response: shape("UuidStatus") },
  { method: "GET", path: "startInstance", inputs: [q("uuid", "S", REQ)], response: envelopeOf("Instance") },
  {
    method: "GET",
    path: "stopInstance",
    inputs: [q("uuid", "S", REQ), q("forceStop", "B", REQ)],
    response: envelopeOf("Instance"),
  },
  {
    method: "GET",
    path: "resizeVm",
    inputs: [q("uuid", "S", REQ), q("offeringUuid", "S", REQ), q("cpuCore", "I64"), q("memory", "I64")],
    response: envelopeOf("Instance"),
  },
  { method: "GET", path: "recoverVm", inputs: [q("uuid", "S", REQ)], response: envelopeOf("Instance") },
  {
    method: "GET",
    path: "destroyInstance",
    inputs: [q("uuid", "S", REQ), q("expunge", "B", REQ)],
    response: envelopeOf("Instance"),
  },
  {
    method: "PUT",
    path: "updateInstanceName",
    inputs: [b("displayName", "S"), b("uuid", "S")],
    response: envelopeOf("Instance"),
    alsoStatus: [202],
  },
  {
    method: "GET",
    path: "instanceNetworkList",
    inputs: [q("uuid", "S", REQ)],
    response: envelopeOf("InstanceNetwork"),
  },
  {
    method: "POST",
    path: "attachNetwork",
    inputs: [b("uuid", "S"), b("networkUuid", "S")],
    response: envelopeOf("Instance"),
  },
  { method: "POST", path: "detachNetwork", inputs: [b("uuid", "S"), b("networkUuid", "S")], response: NOT_SHOWN },
  { method: "GET", path: "attachIso", inputs: [], response: NOT_SHOWN, parametersNotShown: true },
  { method: "GET", path: "detachIso", inputs: [], response: NOT_SHOWN, parametersNotShown: true },
  { method: "GET", path: "resetSSHkey", inputs: [], response: NOT_SHOWN, parametersNotShown: true },
  { method: "GET", path: "instancePasswordList", inputs: [], response: NOT_SHOWN, parametersNotShown: true },
]);

const NETWORK = section("Network", "/restapi/network", [
  {
    method: "POST",
    path: "createNetwork",
    inputs: [
      q("isPublic", "B"),
      q("securityGroupUuid", "S"),
      b("name", "S", NOTES),
      b("zoneUuid", "S", NOTES),
      b("virtualmachineUuid", "S"),
      b("networkOfferingUuid", "S", NOTES),
    ],
    response: envelopeOf("Network"),
  },
  {
    method: "GET",
    path: "networkList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S")],
    response: envelopeOf("Network"),
  },
  { method: "GET", path: "networkId", inputs: [q("uuid", "S", REQ)], response: envelopeOf("Network") },
  {
    method: "PUT",
    path: "updateNetwork",
    inputs: [b("getcIDR", "S"), b("name", "S"), b("description", "S"), b("uuid", "S"), b("networkDomain", "S")],
    response: envelopeOf("Network"),
    alsoStatus: [202],
  },
  {
    method: "GET",
    path: "restartNetwork",
    inputs: [q("uuid", "S", REQ), q("cleanUpNetwork", "B", REQ)],
    response: envelopeOf("Network"),
  },
  {
    method: "GET",
    path: "replaceAcl",
    inputs: [q("uuid", "S", REQ), q("aclUuid", "S", REQ)],
    response: envelopeOf("Network"),
  },
  {
    method: "GET",
    path: "changeSecurityGroup",
    inputs: [q("uuid", "S", REQ), q("securityGroupId", "I64", REQ)],
    response: envelopeOf("Network"),
  },
  { method: "DELETE", path: "deleteNetwork/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN },
]);

const VOLUME = section("Volume", "/restapi/volume", [
  {
    method: "POST",
    path: "createVolume",
    inputs: [
      b("diskSize", "I64", NOTES),
      b("name", "S", NOTES),
      b("zoneUuid", "S", NOTES),
      b("storageOfferingUuid", "S", NOTES),
    ],
    response: envelopeOf("Volume"),
  },
  {
    method: "GET",
    path: "volumeList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S"), q("vmUuid", "S"), q("jobId", "S")],
    response: envelopeOf("Volume"),
  },
  {
    method: "GET",
    path: "resizeVolume",
    inputs: [
      q("uuid", "S", REQ),
      q("storageOfferingUuid", "S", REQ),
      q("diskSize", "I64", REQ),
      q("isShrink", "B", REQ),
    ],
    response: envelopeOf("Volume"),
  },
  {
    method: "GET",
    path: "attachVolume",
    inputs: [q("uuid", "S", REQ), q("instanceUuid", "S", REQ)],
    response: envelopeOf("Volume"),
  },
  { method: "GET", path: "detachVolume", inputs: [q("uuid", "S", REQ)], response: envelopeOf("Volume") },
  {
    method: "POST",
    path: "uploadVolume",
    inputs: [
      b("name", "S"),
      b("checksum", "S"),
      b("format", "S", req(["QCOW2", "OVA", "RAW", "VHDX", "VHD"])),
      b("zoneUuid", "S"),
      b("url", "S"),
    ],
    response: envelopeOf("Volume"),
  },
  { method: "DELETE", path: "deleteVolume/{uuid}", inputs: [UUID_IN_PATH], response: shape("UuidStatus") },
]);

const INVOICE = section("Invoice", "/restapi/invoice", [
  {
    method: "GET",
    path: "listByClient",
    inputs: [q("clientEmail", "S"), q("status", "S", oneOf(INVOICE_STATUSES)), q("billPeriod", "S")],
    response: envelopeOf("Invoice"),
  },
  {
    method: "GET",
    path: "generateInvoice",
    inputs: [q("invoiceNumber", "I32", REQ)],
    response: shape("InvoiceActionResult"),
  },
  {
    method: "GET",
    path: "changeInvoiceCost",
    inputs: [q("invoiceNumber", "I32", REQ), q("payAmount", "N", REQ)],
    response: shape("InvoiceActionResult"),
  },
  { method: "GET", path: "getInvoicePaymentStatus", inputs: [q("id", "S", REQ)], response: envelopeOf("InvoiceTax") },
  {
    method: "POST",
    path: "updateInvoiceStatus",
    inputs: [b("realNumber", "S"), b("clientEmail", "S"), b("payment", "B"), b("id", "S")],
    response: envelopeOf("InvoiceTax"),
  },
  {
    method: "POST",
    path: "updateInvoiceTax",
    inputs: [
      b("total", "N"),
      b("realNumber", "S"),
      b("taxDetails", "array"),
      b("clientEmail", "S"),
      b("taxes", "N"),
      b("id", "S"),
    ],
    response: envelopeOf("InvoiceTaxWithTotals"),
  },
  {
    method: "GET",
    path: "listTaxPendingInvoice",
    inputs: [q("clientEmail", "S")],
    response: envelopeOf("TaxPendingInvoice"),
  },
]);

const KUBERNETES = section("Kubernetes", "/restapi/kubernetes", [
  {
    method: "POST",
    path: "createKubernetes",
    inputs: [
      b("dockerRegistryUsername", "S"),
      b("dockerRegistryUrl", "S"),
      b("dockerRegistryPassword", "S"),
      b("kubernetesSupportedVersionUuid", "S", NOTES),
      b("domainUuid", "S"),
      b("controlNodes", "I64"),
      b("zoneUuid", "S", NOTES),
      b("description", "S"),
      b("computeOfferingUuid", "S", NOTES),
      b("transNetworkUuid", "S", NOTES),
      b("haEnabled", "B"),
      b("sshKeyName", "S"),
      b("nodeRootDiskSize", "I64"),
      b("size", "I64", NOTES),
      b("externalLoadbalancerIpaddress", "S"),
      b("name", "S", NOTES),
    ],
    response: CLUSTER,
  },
  { method: "GET", path: "listCluster", inputs: [q("clusterUuid", "S")], response: { kind: "clusterArray" } },
  { method: "GET", path: "listNodes", inputs: [q("clusterUuid", "S", REQ)], response: envelopeOf("Instance") },
  { method: "PUT", path: "startKubernetes", inputs: [q("uuid", "S", REQ)], response: CLUSTER },
  { method: "PUT", path: "stopKubernetes", inputs: [q("uuid", "S", REQ)], response: CLUSTER },
  {
    method: "PUT",
    path: "scaleKubernetes",
    inputs: [q("uuid", "S", REQ), q("autoscalingEnabled", "B", REQ), q("size", "I64", REQ)],
    response: CLUSTER,
  },
  { method: "DELETE", path: "destroyKubernetes", inputs: [q("uuid", "S", REQ)], response: CLUSTER },
]);

const IP_ADDRESS = section("IP Address", "/restapi/ipaddress", [
  {
    method: "GET",
    path: "acquireIpAddress",
    inputs: [q("networkUuid", "S", REQ), q("networkType", "S", req(["NETWORK", "VPC"]))],
    response: envelopeOf("IpAddress"),
  },
  {
    method: "GET",
    path: "ipAddressList",
    inputs: [q("zoneUuid", "S", REQ), q("networkUuid", "S")],
    response: envelopeOf("IpAddress"),
  },
  { method: "DELETE", path: "releaseIpAddress", inputs: [q("uuid", "S", REQ)], response: BOOLEAN },
  {
    method: "POST",
    path: "enableStaticNat",
    inputs: [b("ipAddressUuid", "S"), b("vmUuid", "S"), b("networkUuid", "S")],
    response: envelopeOf("StaticNat"),
  },
  { method: "DELETE", path: "disableStaticNat", inputs: [q("ipAddressUuid", "S", REQ)], response: BOOLEAN },
  {
    method: "GET",
    path: "enableremotevpnaccess",
    inputs: [q("ipAddressUuid", "S", REQ)],
    response: envelopeOf("IpAddress"),
  },
  {
    method: "DELETE",
    path: "disableremotevpnaccess",
    inputs: [q("ipAddressUuid", "S", REQ)],
    response: envelopeOf("IpAddress"),
  },
]);

const ZONE_REQ = q("zoneUuid", "S", REQ);
/** "Parameters and responses: not shown" (one row of the spec names eight paths). */
const COST_PATHS_NOT_SHOWN = [
  "k8s-cost",
  "bandwidth-cost",
  "object-storage-cost",
  "additional-template-resize-cost",
  "list-sfs-storage-offerings",
  "list-all-support-category",
  "list-all-support-plans",
  "tax",
] as const;

const COST_ESTIMATE = section("Cost Estimate Analyzer", "/restapi/costestimate", [
  { method: "GET", path: "getpublickey", inputs: [], response: shape("PublicKeyPair"), noAuth: true },
  {
    method: "GET",
    path: "multicurrency",
    inputs: [],
    response: envelopeOf("MultiCurrency", { organizationName: "S" }),
  },
  { method: "GET", path: "zone-list", inputs: [], response: envelopeOf("Zone") },
  {
    method: "GET",
    path: "service-list",
    inputs: [q("languageUuid", "S", REQ)],
    response: envelopeOf("ServiceCategory"),
  },
  { method: "GET", path: "compute-plan-types", inputs: [], response: envelopeOf("ComputePlanType") },
  { method: "GET", path: "compute-category-list", inputs: [ZONE_REQ], response: envelopeOf("ComputeOfferingCategory") },
  {
    method: "GET",
    path: "compute-plan-list",
    inputs: [
      q("computeOfferingType", "S", req(["PAY_AS_YOU_GO", "BUNDLE_OFFER", "RESERVED_INSTANCE", "CUSTOM_PLAN"])),
      q("categoryUuid", "S"),
      ZONE_REQ,
    ],
    response: shape("ComputePlanList"),
  },
  { method: "GET", path: "storage-category-list", inputs: [ZONE_REQ], response: envelopeOf("StorageCategory") },
  {
    method: "GET",
    path: "storage-plan-list",
    inputs: [q("categoryUuid", "S"), ZONE_REQ],
    response: envelopeOf("StorageCost"),
  },
  { method: "GET", path: "networkoffering-list", inputs: [ZONE_REQ], response: envelopeOf("NetworkOfferingCost") },
  { method: "GET", path: "vpcoffering-list", inputs: [ZONE_REQ], response: envelopeOf("VpcOfferingCost") },
  { method: "GET", path: "template-platform-list", inputs: [], response: envelopeOf("TemplatePlatform") },
  { method: "GET", path: "template-distribution-list", inputs: [], response: envelopeOf("TemplateDistribution") },
  {
    method: "GET",
    path: "template-category-list",
    inputs: [
      q("platform", "S", req(["LINUX", "WINDOWS"])),
      q("distribution", "S", req(["OS_ONLY", "MARKETPLACE"])),
      ZONE_REQ,
    ],
    response: envelopeOf("TemplateCategory"),
  },
  {
    method: "GET",
    path: "template-list",
    inputs: [q("platform", "S", REQ), q("distribution", "S", REQ), q("categoryUuid", "S"), ZONE_REQ],
    response: envelopeOf("TemplateCost"),
  },
  { method: "GET", path: "kubernetes-version-list", inputs: [ZONE_REQ], response: envelopeOf("KubernetesVersion") },
  { method: "GET", path: "ip-cost", inputs: [ZONE_REQ], response: shape("IpCost") },
  { method: "GET", path: "portforwarding-cost", inputs: [ZONE_REQ], response: shape("PortForwardCost") },
  { method: "GET", path: "loadbalancer-cost", inputs: [ZONE_REQ], response: shape("LoadBalancerCost") },
  { method: "GET", path: "vpn-user-cost", inputs: [], response: shape("VpnUserCost") },
  { method: "GET", path: "snapshot-cost", inputs: [ZONE_REQ], response: shape("SnapshotCost") },
  { method: "GET", path: "vm-snapshot-cost", inputs: [ZONE_REQ], response: shape("VmSnapshotCost") },
  { method: "GET", path: "vm-scheduler-cost", inputs: [ZONE_REQ], response: NOT_SHOWN },
  ...COST_PATHS_NOT_SHOWN.map((path) => ({
    method: "GET" as const,
    path,
    inputs: [],
    response: NOT_SHOWN,
    parametersNotShown: true as const,
  })),
]);

const CUSTOMER_GATEWAY_ADD_INPUTS = CUSTOMER_GATEWAY_FIELDS.map(([name, type, required]) =>
  b(name, type, required ? REQ : {}),
);
/** "Update takes the same fields, all optional, plus uuid S." */
const CUSTOMER_GATEWAY_UPDATE_INPUTS = [
  ...CUSTOMER_GATEWAY_FIELDS.map(([name, type]) => b(name, type)),
  b("uuid", "S"),
];

const VPN_CUSTOMER_GATEWAY = section("VPN Customer Gateway", "/restapi/vpncustomergateway", [
  {
    method: "POST",
    path: "addVpnCustomerGateway",
    inputs: CUSTOMER_GATEWAY_ADD_INPUTS,
    response: envelopeOf("VpnCustomerGateway"),
  },
  {
    method: "GET",
    path: "vpnCustomerGatewayList",
    inputs: [q("uuid", "S")],
    response: envelopeOf("VpnCustomerGateway"),
  },
  {
    method: "PUT",
    path: "updateVpnCustomerGateway",
    inputs: CUSTOMER_GATEWAY_UPDATE_INPUTS,
    response: envelopeOf("VpnCustomerGateway"),
    alsoStatus: [202],
  },
  { method: "DELETE", path: "deleteVpnCustomerGateway/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN },
]);

const LOAD_BALANCER_RULE = section("Load Balancer Rule", "/restapi/loadbalancerrule", [
  {
    method: "POST",
    path: "createLoadBalancerRule",
    inputs: [
      b("privateport", "S", NOTES),
      b("publicport", "S", NOTES),
      b("stickinessPolicyUuid", "S"),
      b("name", "S", NOTES),
      b("publicIpUuid", "S", NOTES),
      // api-notes.md lists it as required; the emulator finds the network from the address (or the instance)
      b("networkUuid", "S"),
      b("algorithm", "S", { required: "notes", values: ALGORITHMS }),
      b("svcLbSticky", "object"),
    ],
    response: envelopeOf("LoadBalancerRule"),
  },
  {
    method: "GET",
    path: "loadBalancerRuleList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S"), q("ipAddressUuid", "S")],
    response: envelopeOf("LoadBalancerRule"),
  },
  {
    method: "PUT",
    path: "updateLoadBalancerRule",
    inputs: [b("name", "S"), b("uuid", "S"), b("algorithm", "S")],
    response: envelopeOf("LoadBalancerRule"),
    alsoStatus: [202],
  },
  { method: "DELETE", path: "deleteLoadBalancerRule/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN },
]);

const VPN_CONNECTION = section("VPN Connection", "/restapi/vpnconnection", [
  {
    method: "POST",
    path: "addVpnConnection",
    inputs: [b("vpcUuid", "S", NOTES), b("passive", "B"), b("customerGatewayUuid", "S", NOTES)],
    response: envelopeOf("VpnConnection"),
  },
  {
    method: "GET",
    path: "vpnConnectionList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S"), q("vpcUuid", "S")],
    response: envelopeOf("VpnConnection"),
  },
  {
    method: "PUT",
    path: "resetVpnConnection/{uuid}",
    inputs: [UUID_IN_PATH],
    response: envelopeOf("VpnConnection"),
  },
  { method: "DELETE", path: "deleteVpnConnection/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN },
]);

const INTERNAL_LB = section("Internal LB", "/restapi/internallb", [
  {
    method: "POST",
    path: "createInternalLb",
    inputs: [
      b("sourceport", "S"),
      b("instanceport", "S"),
      b("name", "S"),
      b("description", "S"),
      b("sourceIpAddress", "S"),
      b("networkUuid", "S"),
      b("algorithm", "S", req(ALGORITHMS)),
    ],
    response: envelopeOf("InternalLb"),
  },
  {
    method: "GET",
    path: "internalLbList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S"), q("networkUuid", "S")],
    response: envelopeOf("InternalLb"),
  },
  { method: "GET", path: "assignLbRule", inputs: [q("uuid", "S", REQ)], response: envelopeOf("InternalLb") },
  {
    method: "DELETE",
    path: "deleteInternalLb/{uuid}",
    inputs: [UUID_IN_PATH],
    response: BOOLEAN,
    alsoStatus: [204],
  },
]);

const VM_SNAPSHOT = section("VM Snapshot", "/restapi/vmsnapshot", [
  {
    method: "POST",
    path: "createVmSnapshot",
    inputs: [
      b("snapshotMemory", "B"),
      b("name", "S", NOTES),
      b("zoneUuid", "S", NOTES),
      b("virtualmachineUuid", "S", NOTES),
      b("description", "S"),
    ],
    response: envelopeOf("VmSnapshot"),
  },
  {
    method: "GET",
    path: "vmsnapshotList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S"), q("jobId", "S")],
    response: envelopeOf("VmSnapshot"),
  },
  { method: "GET", path: "revertToVmSnapshot", inputs: [q("uuid", "S", REQ)], response: envelopeOf("VmSnapshot") },
  { method: "DELETE", path: "deleteVmSnapshot/{uuid}", inputs: [UUID_IN_PATH], response: shape("UuidStatus") },
]);

const PORT_FORWARDING_RULE = section("Port Forwarding Rule", "/restapi/portforwardingrule", [
  {
    method: "POST",
    path: "createPortForwardingRule",
    inputs: [
      b("ipAddressUuid", "S", NOTES),
      b("protocol", "S", { required: "notes", values: PROTOCOLS_TU }),
      b("privatePort", "S", NOTES),
      b("privateEndPort", "S"),
      b("publicPort", "S", NOTES),
      b("publicEndPort", "S"),
      b("virtualmachineUuid", "S", NOTES),
      // api-notes.md lists it as required; the emulator finds the network from the address (or the instance)
      b("networkUuid", "S"),
    ],
    response: envelopeOf("PortForwardingRule"),
  },
  {
    method: "GET",
    path: "portForwardingRuleList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S"), q("vmUuid", "S"), q("ipAddressUuid", "S")],
    response: envelopeOf("PortForwardingRule"),
  },
  { method: "DELETE", path: "deletePortForwardingRule/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN },
]);

const SNAPSHOT_POLICY = section("Snapshot Policy", "/restapi/snapshotPolicy", [
  {
    method: "POST",
    path: "createSnapshotPolicy",
    inputs: [
      b("timer", "S", REQ),
      b("intervalType", "S", req(["HOURLY", "DAILY", "MONTHLY", "WEEKLY"])),
      b("volumeUuid", "S"),
      b("dayOfWeek", "S"),
      b("dayOfMonth", "S"),
      b("timeZone", "S", REQ),
      b("maximumSnapshots", "S"),
    ],
    response: envelopeOf("SnapshotPolicy"),
  },
  {
    method: "GET",
    path: "snapshotPolicyList",
    inputs: [q("volumeUuid", "S", REQ), q("uuid", "S")],
    response: envelopeOf("SnapshotPolicy"),
  },
  {
    method: "DELETE",
    path: "deleteSnapshotPolicy/{uuid}",
    inputs: [UUID_IN_PATH],
    response: BOOLEAN,
    alsoStatus: [204],
  },
]);

const FIREWALL_RULE = section("Firewall Rule", "/restapi/firewallrule", [
  {
    method: "POST",
    path: "createFirewallRule",
    inputs: [
      b("startPort", "S"),
      b("endPort", "S"),
      b("ipAddressUuid", "S", NOTES),
      b("icmpType", "S"),
      b("icmpCode", "S"),
      b("protocol", "S", req(PROTOCOLS_TUI)),
      b("cidrList", "S"),
    ],
    response: envelopeOf("FirewallRule"),
  },
  {
    method: "GET",
    path: "firewallRuleList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S"), q("ipAddressUuid", "S")],
    response: envelopeOf("FirewallRule"),
  },
  { method: "DELETE", path: "deleteFirewallRule/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN },
]);

const EGRESS_RULE = section("Egress Rule", "/restapi/egressrule", [
  {
    method: "POST",
    path: "createEgressRule",
    inputs: [
      b("startPort", "S"),
      b("endPort", "S"),
      b("icmpType", "S"),
      b("icmpCode", "S"),
      b("protocol", "S", req(PROTOCOLS_TUI)),
      b("cidrList", "S"),
      b("networkUuid", "S", NOTES),
    ],
    response: envelopeOf("EgressRule"),
  },
  {
    method: "GET",
    path: "egressRuleList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S"), q("networkUuid", "S")],
    response: envelopeOf("EgressRule"),
  },
  { method: "DELETE", path: "deleteEgressRule/{uuid}", inputs: [UUID_IN_PATH], response: BOOLEAN },
]);

const RESOURCE_TAGS = section("Resource Tags", "/restapi/resourcetags", [
  {
    method: "POST",
    path: "createTags",
    inputs: [
      q("resourceType", "S", req(RESOURCE_TYPES)),
      q("zoneUuid", "S", REQ),
      b("value", "S"),
      b("resourceUuid", "S"),
      b("key", "S"),
    ],
    response: envelopeOf("Tag"),
  },
  {
    method: "GET",
    path: "resourceTagsList",
    inputs: [q("uuid", "S"), q("resourceUuid", "S"), q("resourceType", "S", oneOf(RESOURCE_TYPES))],
    response: envelopeOf("Tag"),
  },
  { method: "DELETE", path: "deleteResourceTag/{uuid}", inputs: [UUID_IN_PATH], response: envelopeOf("Tag") },
]);

const SNAPSHOT = section("Snapshot", "/restapi/snapshot", [
  {
    method: "POST",
    path: "createSnapshot",
    inputs: [b("volumeUuid", "S", NOTES), b("name", "S", NOTES), b("zoneUuid", "S", NOTES)],
    response: envelopeOf("Snapshot"),
  },
  {
    method: "GET",
    path: "snapshotList",
    inputs: [q("zoneUuid", "S", REQ), q("uuid", "S")],
    response: envelopeOf("Snapshot"),
  },
  {
    method: "DELETE",
    path: "deleteSnapshot/{uuid}",
    inputs: [UUID_IN_PATH],
    response: BOOLEAN,
    alsoStatus: [204],
  },
]);

/** Every endpoint row of the spec, in the spec's order. */
export const SPEC_ROWS: readonly Row[] = [
  ...HOST,
  ...VPC,
  ...SECURITY_GROUP,
  ...INSTANCE,
  ...NETWORK,
  ...VOLUME,
  ...INVOICE,
  ...KUBERNETES,
  ...IP_ADDRESS,
  ...COST_ESTIMATE,
  ...VPN_CUSTOMER_GATEWAY,
  ...LOAD_BALANCER_RULE,
  ...VPN_CONNECTION,
  ...INTERNAL_LB,
  ...VM_SNAPSHOT,
  ...PORT_FORWARDING_RULE,
  ...SNAPSHOT_POLICY,
  ...FIREWALL_RULE,
  ...EGRESS_RULE,
  ...RESOURCE_TAGS,
  ...SNAPSHOT,
];

/** Rows per section as the spec's tables list them (the cost estimate's "not shown" line counts 8). */
export const ROWS_PER_SECTION: Readonly<Record<Section, number>> = {
  Host: 1,
  VPC: 8,
  "Security Group": 7,
  Instance: 16,
  Network: 8,
  Volume: 7,
  Invoice: 7,
  Kubernetes: 7,
  "IP Address": 7,
  "Cost Estimate Analyzer": 31,
  "VPN Customer Gateway": 4,
  "Load Balancer Rule": 4,
  "VPN Connection": 4,
  "Internal LB": 4,
  "VM Snapshot": 4,
  "Port Forwarding Rule": 3,
  "Snapshot Policy": 3,
  "Firewall Rule": 3,
  "Egress Rule": 3,
  "Resource Tags": 3,
  Snapshot: 3,
};

/** The spec's operation name: the last path segment that is not `{uuid}`. */
export function operationOf(row: Row): string {
  const segments = row.path.split("/").filter((s) => s !== "" && s !== "{uuid}");
  return segments[segments.length - 1];
}

export const rowByOperation = (operation: string): Row => {
  const row = SPEC_ROWS.find((r) => operationOf(r) === operation);
  if (!row) throw new Error(`no spec row for operation ${operation}`);
  return row;
};

/** The six operations "answering 202" per the States section. */
export const ASYNC_UPDATES = [
  "updateVpc",
  "updateVpcNetwork",
  "updateInstanceName",
  "updateNetwork",
  "updateVpnCustomerGateway",
  "updateLoadBalancerRule",
] as const;

/** The four deletes of the Errors table that may answer 204. */
export const DELETES_WITH_204 = ["deleteVpc", "deleteInternalLb", "deleteSnapshotPolicy", "deleteSnapshot"] as const;
