/**
 * Prerequisite resources for the contract test, built over HTTP from the spec table alone: a request
 * sender that places each input where the spec puts it, the default input values of every operation
 * against a shared "world" of resources, and throw-away targets for the rows that consume theirs.
 */
import { operationOf, rowByOperation, type Row } from "./spec-table";

export type Values = Record<string, unknown>;
export type ApiRecord = Record<string, unknown>;

export interface Credentials {
  apikey: string;
  secretkey: string;
}
export const DEMO: Credentials = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
export const ADMIN: Credentials = { apikey: "admin-api-key", secretkey: "admin-secret-key" };

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: unknown;
}

export interface SendOptions {
  /** null sends no authentication headers. */
  credentials?: Credentials | null;
  /** Query parameters beyond the row's inputs (guesses for rows whose parameters are not shown). */
  extraQuery?: Values;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the request of one spec row, each value in its input's placement (values of other names are ignored). */
export async function send(baseUrl: string, row: Row, values: Values, options: SendOptions = {}): Promise<Answer> {
  const query = new URLSearchParams();
  const body: Values = {};
  let path = row.path;
  for (const input of row.inputs) {
    const value = values[input.name];
    if (input.in === "p")
      path = path.replace(`{${input.name}}`, encodeURIComponent(value === undefined ? "" : String(value)));
    else if (value === undefined) continue;
    else if (input.in === "q") query.set(input.name, String(value));
    else body[input.name] = value;
  }
  for (const [name, value] of Object.entries(options.extraQuery ?? {})) query.set(name, String(value));
  const credentials = options.credentials === undefined ? (row.admin ? ADMIN : DEMO) : options.credentials;
  const headers: Record<string, string> = credentials ? { ...credentials } : {};
  const hasBody = row.inputs.some((input) => input.in === "b");
  if (hasBody) headers["content-type"] = "application/json";
  const search = query.toString();
  const response = await fetch(`${baseUrl}${path}${search ? `?${search}` : ""}`, {
    method: row.method,
    headers,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text, json };
}

/** The ids a test discovers through the cost-estimate endpoints. */
export interface CatalogIds {
  zoneUuid: string;
  vpcOfferingUuid: string;
  /** For isolated networks (createNetwork). */
  isolatedOfferingUuid: string;
  /** For VPC tiers (createVpcNetwork). */
  tierOfferingUuid: string;
  computeCategoryUuid: string;
  computeOfferingUuid: string;
  /** Another compute plan, the target of resizeVm. */
  resizeOfferingUuid: string;
  /** A compute plan large enough for the Kubernetes version. */
  kubernetesOfferingUuid: string;
  storageCategoryUuid: string;
  storageOfferingUuid: string;
  templateCategoryUuid: string;
  templateUuid: string;
  kubernetesVersionUuid: string;
}

/** An invoice as the invoice-tax operations name it. */
export interface InvoiceTaxIds {
  id: string;
  realNumber: string;
}

export interface InvoiceIds {
  clientEmail: string;
  /** generateInvoice / changeInvoiceCost take an I32 invoice number (of a DRAFT, else DUE, invoice). */
  invoiceNumber: number;
  /** getInvoicePaymentStatus and updateInvoiceStatus (payment): a DUE invoice. */
  payable: InvoiceTaxIds;
  /** updateInvoiceTax: a TAX_PENDING invoice. */
  taxPending: InvoiceTaxIds;
}

/** One of each resource, shared by every row that does not consume its target. */
export interface World extends CatalogIds {
  vpc: ApiRecord;
  tier: ApiRecord;
  securityGroup: ApiRecord;
  network: ApiRecord;
  instance: ApiRecord;
  volume: ApiRecord;
  ip: ApiRecord;
  customerGateway: ApiRecord;
  vpnConnection: ApiRecord;
  loadBalancerRule: ApiRecord;
  internalLb: ApiRecord;
  vmSnapshot: ApiRecord;
  portForwardingRule: ApiRecord;
  snapshotPolicy: ApiRecord;
  firewallRule: ApiRecord;
  egressRule: ApiRecord;
  tag: ApiRecord;
  snapshot: ApiRecord;
  cluster: ApiRecord;
  invoice: InvoiceIds;
}

/** An opaque network ACL list reference (the ACL area is outside the spec; api-notes.md). */
export const ACL_UUID = "6f1c2a3e-0000-4000-8000-00000000ac11";
/** service-list wants a languageUuid; languages are outside the spec. */
export const LANGUAGE_UUID = "6f1c2a3e-0000-4000-8000-0000000001a9";
/** Stands for a security-group rule until a row creates one (only the missing-input checks send it). */
const PLACEHOLDER_RULE_UUID = "6f1c2a3e-0000-4000-8000-00000000f00d";
/** The shared VPC's CIDR; its tiers take 10.1.<n>.0/24. */
const SHARED_VPC_CIDR = "10.1.0.0/16";

const uuidOf = (record: ApiRecord | undefined): string | undefined =>
  typeof record?.uuid === "string" ? record.uuid : undefined;

/** The spec's InternalLb record "carries no uuid": its name is the only field that can identify it. */
const internalLbId = (record: ApiRecord | undefined): string | undefined =>
  uuidOf(record) ?? (typeof record?.name === "string" ? record.name : undefined);

/** Which world record `uuid` means, by the path's resource segment. */
const UUID_TARGET: Record<string, keyof World> = {
  vpc: "vpc",
  securitygroup: "securityGroup",
  instance: "instance",
  network: "network",
  volume: "volume",
  kubernetes: "cluster",
  ipaddress: "ip",
  vpncustomergateway: "customerGateway",
  loadbalancerrule: "loadBalancerRule",
  vpnconnection: "vpnConnection",
  internallb: "internalLb",
  vmsnapshot: "vmSnapshot",
  portforwardingrule: "portForwardingRule",
  snapshotPolicy: "snapshotPolicy",
  firewallrule: "firewallRule",
  egressrule: "egressRule",
  resourcetags: "tag",
  snapshot: "snapshot",
};

/** The first record of an envelope answer, or a bare object answer (Cluster). */
function firstRecord(json: unknown): ApiRecord | undefined {
  if (Array.isArray(json)) return json[0] as ApiRecord | undefined;
  if (typeof json !== "object" || json === null) return undefined;
  const arrays = Object.values(json).filter(Array.isArray);
  if (arrays.length === 1) return arrays[0][0] as ApiRecord | undefined;
  return json as ApiRecord;
}

export class Fixtures {
  private serial = 0;
  /** Filled in by `build()`; the defaults read whatever exists so far. */
  readonly world: Partial<World> = {};

  constructor(
    readonly baseUrl: string,
    readonly asyncDelayMs: number,
  ) {}

  /** Calls an operation with its default values plus `overrides`; throws unless it answers 2xx. */
  async call(operation: string, overrides: Values = {}, options: SendOptions = {}): Promise<unknown> {
    const row = rowByOperation(operation);
    const answer = await send(this.baseUrl, row, { ...this.valuesFor(operation), ...overrides }, options);
    if (answer.status < 200 || answer.status > 299) {
      throw new Error(`fixture ${operation} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    }
    return answer.json;
  }

  /** Calls a creating operation and returns the created record. */
  async create(operation: string, overrides: Values = {}): Promise<ApiRecord> {
    const record = firstRecord(await this.call(operation, overrides));
    if (!record) throw new Error(`fixture ${operation} returned no record`);
    return record;
  }

  /**
   * The default input values of an operation against the shared world. A value `undefined` leaves the
   * input out. Every call draws a fresh serial, so names, ports and CIDRs do not collide.
   */
  valuesFor(operation: string): Values {
    const w = this.world;
    const n = ++this.serial;
    const row = rowByOperation(operation);
    const area = row.path.split("/")[2];
    const port = String(10000 + n);
    const byName: Values = {
      // catalog
      zoneUuid: w.zoneUuid,
      vpcOfferingUuid: w.vpcOfferingUuid,
      networkOfferingUuid: w.isolatedOfferingUuid,
      templateUuid: w.templateUuid,
      computeOfferingUuid: w.computeOfferingUuid,
      storageOfferingUuid: w.storageOfferingUuid,
      kubernetesSupportedVersionUuid: w.kubernetesVersionUuid,
      offeringUuid: w.resizeOfferingUuid,
      computeOfferingType: "PAY_AS_YOU_GO",
      platform: "LINUX",
      distribution: "OS_ONLY",
      languageUuid: LANGUAGE_UUID,
      // references
      uuid:
        area === "internallb"
          ? internalLbId(w.internalLb)
          : area in UUID_TARGET
            ? uuidOf(w[UUID_TARGET[area]] as ApiRecord | undefined)
            : undefined,
      vpcUuid: uuidOf(w.vpc),
      networkUuid: uuidOf(w.network),
      transNetworkUuid: uuidOf(w.network),
      securityGroupUuid: uuidOf(w.securityGroup),
      instanceUuid: uuidOf(w.instance),
      vmUuid: uuidOf(w.instance),
      virtualmachineUuid: uuidOf(w.instance),
      volumeUuid: uuidOf(w.volume),
      ipAddressUuid: uuidOf(w.ip),
      publicIpUuid: uuidOf(w.ip),
      customerGatewayUuid: uuidOf(w.customerGateway),
      clusterUuid: uuidOf(w.cluster),
      resourceUuid: uuidOf(w.vpc),
      resourceType: "Vpc",
      aclUuid: ACL_UUID,
      ruleType: "FIREWALLRULE",
      ruleUuid: PLACEHOLDER_RULE_UUID,
      // the spec gives the security group of changeSecurityGroup as an I64 id, which no record carries
      securityGroupId: 1,
      // descriptive
      name: `contract-${operation}-${n}`,
      displayName: `contract-renamed-${n}`,
      description: "created by the contract test",
      networkDomain: "contract.internal",
      getcIDR: `10.${100 + (n % 150)}.0.0/16`,
      netmask: "255.255.255.0",
      sshKeyName: "contract-ssh-key",
      // rules and ports (fresh public ports per request, so rules on the shared IP never clash)
      protocol: "TCP",
      protocolType: "TCP",
      algorithm: "roundrobin",
      cidrList: "0.0.0.0/0",
      startPort: port,
      endPort: port,
      publicPort: port,
      publicEndPort: port,
      publicport: port,
      publicStartPort: port,
      sourceport: port,
      privatePort: "8080",
      privateEndPort: "8080",
      privateport: "8080",
      privateStartPort: "8080",
      instanceport: "8080",
      svcLbSticky: { stickinessMethod: "None" },
      networkType: "NETWORK",
      // booleans
      isPublic: false,
      cleanUpVPC: false,
      redundantVpcRouter: false,
      cleanUpNetwork: false,
      forceStop: false,
      expunge: true,
      isShrink: false,
      passive: false,
      snapshotMemory: false,
      haEnabled: false,
      autoscalingEnabled: false,
      payment: true,
      // sizes
      diskSize: 10,
      controlNodes: 1,
      size: 1,
      nodeRootDiskSize: 20,
      // volumes
      format: "QCOW2",
      checksum: "d41d8cd98f00b204e9800998ecf8427e",
      url: "http://downloads.example.com/contract.qcow2",
      // snapshot policies (a time valid read as HH:MM and as CloudStack's MM:HH)
      timer: "10:10",
      intervalType: "DAILY",
      timeZone: "Etc/GMT+12",
      maximumSnapshots: "7",
      // tags
      key: `contract-key-${n}`,
      value: "contract",
      // VPN customer gateway (values of the spec's "Field value notes")
      esplifetime: "3600",
      ikepolicy: "Group 5(modpb1536)",
      ikeEncryption: "aes256",
      ikeHash: "sha256",
      ikeVersion: "ikev2",
      ikelifetime: "86400",
      ipsecpsk: `contract-pre-shared-key-${n}`,
      espHash: "sha256",
      espEncryption: "aes256",
      cidrlist: `192.168.${n % 250}.0/24`,
      esppolicy: "None",
      gateway: `203.0.113.${(n % 250) + 1}`,
      forceencap: false,
      splitConnection: false,
      dpd: false,
      // invoices
      clientEmail: w.invoice?.clientEmail,
      invoiceNumber: w.invoice?.invoiceNumber,
      id: w.invoice?.payable.id,
      realNumber: w.invoice?.payable.realNumber,
      payAmount: 10.5,
      total: 118,
      taxes: 18,
      taxDetails: [{ description: "VAT" }],
    };
    return { ...pick(row, byName), ...(OVERRIDES[operation]?.(w, n) ?? {}) };
  }

  /** The values for a row's successful request: defaults, plus a fresh target where the row consumes one. */
  async valuesForSuccess(row: Row): Promise<Values> {
    const operation = operationOf(row);
    const prepared = await PREPARE[operation]?.(this);
    return { ...this.valuesFor(operation), ...prepared };
  }

  // --- waiting -------------------------------------------------------------------------------------

  /** Polls until `predicate` holds; gives up quietly after `timeoutMs` (the row's own check then decides). */
  async waitFor(predicate: () => Promise<boolean>, timeoutMs = 1500): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await predicate()) return true;
      if (Date.now() > deadline) return false;
      await sleep(Math.max(5, this.asyncDelayMs / 2));
    }
  }

  /** Waits for the asynchronous job of a record carrying `jobId` (api-notes.md's resourceStatus). */
  async settle(record: ApiRecord): Promise<void> {
    const jobId = record.jobId;
    if (typeof jobId !== "string" || jobId === "") {
      await sleep(this.asyncDelayMs * 3);
      return;
    }
    await this.waitFor(async () => {
      const response = await fetch(`${this.baseUrl}/restapi/asyncjob/resourceStatus?jobId=${jobId}`, {
        headers: { ...DEMO },
      });
      const job = (await response.json().catch(() => undefined)) as { status?: unknown } | undefined;
      return response.status !== 200 || job?.status !== "IN_PROGRESS";
    });
  }

  async instanceState(uuid: string): Promise<unknown> {
    const json = (await this.call("instanceList", { vmUuid: uuid })) as { listInstanceResponse?: ApiRecord[] };
    return json.listInstanceResponse?.find((r) => r.uuid === uuid)?.state;
  }

  async clusterState(uuid: string): Promise<unknown> {
    const json = await this.call("listCluster", { clusterUuid: uuid });
    const clusters = (Array.isArray(json) ? json : [json]) as ApiRecord[];
    return clusters.find((c) => c.uuid === uuid)?.state;
  }

  async waitInstance(uuid: string, state: string): Promise<void> {
    await this.waitFor(async () => (await this.instanceState(uuid)) === state);
  }

  async waitCluster(uuid: string, state: string): Promise<void> {
    await this.waitFor(async () => (await this.clusterState(uuid)) === state);
  }

  // --- throw-away resources ------------------------------------------------------------------------

  async newVpc(): Promise<string> {
    return uuidFrom(await this.create("createVpc"));
  }

  async newNetwork(): Promise<string> {
    return uuidFrom(await this.create("createNetwork"));
  }

  async newSecurityGroup(): Promise<string> {
    return uuidFrom(await this.create("createSecurityGroup"));
  }

  async newInstance(state: "Running" | "Stopped" | "Destroyed" = "Running"): Promise<string> {
    const uuid = uuidFrom(await this.create("createInstance"));
    await this.waitInstance(uuid, "Running");
    if (state === "Stopped") {
      await this.call("stopInstance", { uuid, forceStop: true });
      await this.waitInstance(uuid, "Stopped");
    } else if (state === "Destroyed") {
      await this.call("destroyInstance", { uuid, expunge: false });
      await this.waitInstance(uuid, "Destroyed");
    }
    return uuid;
  }

  async newVolume(attached = false): Promise<string> {
    const volume = await this.create("createVolume");
    await this.settle(volume);
    const uuid = uuidFrom(volume);
    if (attached) await this.settle(await this.create("attachVolume", { uuid }));
    return uuid;
  }

  async newCluster(state: "Running" | "Stopped" = "Running"): Promise<string> {
    const uuid = uuidFrom(await this.create("createKubernetes"));
    await this.waitCluster(uuid, "Running");
    if (state === "Stopped") {
      await this.call("stopKubernetes", { uuid });
      await this.waitCluster(uuid, "Stopped");
    }
    return uuid;
  }

  async newIp(): Promise<string> {
    return uuidFrom(await this.create("acquireIpAddress"));
  }

  async newCustomerGateway(): Promise<string> {
    return uuidFrom(await this.create("addVpnCustomerGateway"));
  }

  async newVpnConnection(): Promise<string> {
    const customerGatewayUuid = await this.newCustomerGateway();
    return uuidFrom(await this.create("addVpnConnection", { customerGatewayUuid }));
  }

  async newVmSnapshot(): Promise<string> {
    const snapshot = await this.create("createVmSnapshot");
    await this.settle(snapshot);
    return uuidFrom(snapshot);
  }

  /** A firewall rule of the shared security group, and its uuid as the group lists it. */
  async newSecurityGroupRule(): Promise<{ securityGroupUuid: string; ruleUuid: string }> {
    const startPort = String(20000 + ++this.serial);
    const group = await this.create("createSecurityGroupFirewallRule", { startPort, endPort: startPort });
    const rules = (group.securityGroupFirewallRule ?? []) as ApiRecord[];
    // The element fields are "not shown"; the rule's uuid is read from a `uuid` field.
    const rule = rules.find((r) => r.startPort === startPort) ?? rules[rules.length - 1];
    return { securityGroupUuid: uuidFrom(group), ruleUuid: uuidFrom(rule) };
  }

  // --- the shared world ----------------------------------------------------------------------------

  async discoverCatalog(): Promise<CatalogIds> {
    const list = async (operation: string, overrides: Values = {}): Promise<ApiRecord[]> => {
      const json = (await this.call(operation, overrides)) as Record<string, unknown>;
      const arrays = Object.values(json).filter(Array.isArray) as ApiRecord[][];
      return arrays.flat();
    };
    const first = (records: ApiRecord[], what: string, prefer?: (r: ApiRecord) => boolean): ApiRecord => {
      const found = (prefer && records.find(prefer)) ?? records[0];
      if (!found) throw new Error(`the catalog lists no ${what}`);
      return found;
    };
    const mentionsVpc = (r: ApiRecord) => /vpc|tier/i.test(`${r.name} ${r.displayText} ${r.type}`);

    const zone = first(await list("zone-list"), "zone");
    this.world.zoneUuid = uuidFrom(zone);
    const vpcOffering = first(await list("vpcoffering-list"), "VPC offering");
    const networkOfferings = await list("networkoffering-list");
    const isolated = first(networkOfferings, "network offering", (r) => !mentionsVpc(r));
    const tier = first(networkOfferings, "VPC tier offering", mentionsVpc);
    const computeCategory = first(await list("compute-category-list"), "compute category");
    this.world.computeCategoryUuid = uuidFrom(computeCategory);
    const plans = (await list("compute-plan-list", { categoryUuid: undefined })).filter((r) => r.isCustom !== true);
    const version = first(await list("kubernetes-version-list"), "Kubernetes version");
    const bigEnough = (r: ApiRecord) =>
      Number(r.core) >= Number(version.minCpuNumber ?? 0) && Number(r.memory) >= Number(version.minMemory ?? 0);
    const plan = first(plans, "compute plan");
    const resizeTo = first(plans, "compute plan", (r) => r.uuid !== plan.uuid);
    const kubernetesPlan = first(plans, "compute plan", bigEnough);
    const storageCategory = first(await list("storage-category-list"), "storage category");
    this.world.storageCategoryUuid = uuidFrom(storageCategory);
    const storage = first(
      await list("storage-plan-list", { categoryUuid: undefined }),
      "storage plan",
      (r) => r.isCustom === true,
    );
    const templateCategory = first(await list("template-category-list"), "template category");
    this.world.templateCategoryUuid = uuidFrom(templateCategory);
    const template = first(await list("template-list", { categoryUuid: undefined }), "template");
    return {
      zoneUuid: uuidFrom(zone),
      vpcOfferingUuid: uuidFrom(vpcOffering),
      isolatedOfferingUuid: uuidFrom(isolated),
      tierOfferingUuid: uuidFrom(tier),
      computeCategoryUuid: uuidFrom(computeCategory),
      computeOfferingUuid: uuidFrom(plan),
      resizeOfferingUuid: uuidFrom(resizeTo),
      kubernetesOfferingUuid: uuidFrom(kubernetesPlan),
      storageCategoryUuid: uuidFrom(storageCategory),
      storageOfferingUuid: uuidFrom(storage),
      templateCategoryUuid: uuidFrom(templateCategory),
      templateUuid: uuidFrom(template),
      kubernetesVersionUuid: uuidFrom(version),
    };
  }

  /**
   * Invoices are seeded by the service, not created. generateInvoice and changeInvoiceCost act on a
   * DRAFT (else DUE) invoice, a payment on a DUE one, a tax update on a TAX_PENDING one; their
   * invoice-tax ids (the referenceNumber) come from the lists and their realNumbers are read back from getInvoicePaymentStatus.
   */
  async discoverInvoice(): Promise<InvoiceIds> {
    const list = async (operation: string, overrides: Values) =>
      (((await this.call(operation, overrides)) as Record<string, unknown>).listInvoiceResponse ?? []) as ApiRecord[];
    const invoices = await list("listByClient", { clientEmail: undefined });
    const withStatus = (...statuses: string[]) =>
      statuses.map((status) => invoices.find((i) => i.status === status)).find(Boolean) ?? invoices[0];
    const draft = withStatus("DRAFT", "DUE");
    const due = withStatus("DUE", "OVER_DUE");
    if (!draft || !due) throw new Error("the account lists no invoice");
    const clientEmail = String(due.clientEmail);
    const pending = (await list("listTaxPendingInvoice", { clientEmail }))[0];
    const taxIds = async (id: string): Promise<InvoiceTaxIds> => {
      const status = (await this.call("getInvoicePaymentStatus", { id })) as Record<string, unknown>;
      const tax = ((status.invoiceTaxResponses ?? []) as ApiRecord[])[0];
      return { id, realNumber: String(tax?.realNumber ?? id) };
    };
    return {
      clientEmail,
      invoiceNumber: Number(draft.invoiceNumber),
      payable: await taxIds(String(due.referenceNumber)),
      taxPending: await taxIds(String(pending?.id ?? due.referenceNumber)),
    };
  }

  /** Why parts of the world could not be built (an area missing or failing); the rows needing them fail. */
  readonly buildProblems: string[] = [];

  /** Builds the shared world, one resource per step; a failed step is recorded and the rest go on. */
  async build(): Promise<void> {
    const w = this.world;
    const steps: Array<[string, () => Promise<void>]> = [
      ["catalog", async () => void Object.assign(w, await this.discoverCatalog())],
      ["securityGroup", async () => void (w.securityGroup = await this.create("createSecurityGroup"))],
      ["vpc", async () => void (w.vpc = await this.create("createVpc", { getcIDR: SHARED_VPC_CIDR }))],
      ["tier", async () => void (w.tier = await this.create("createVpcNetwork"))],
      ["network", async () => void (w.network = await this.create("createNetwork"))],
      [
        "instance",
        async () => {
          w.instance = await this.create("createInstance");
          await this.waitInstance(uuidFrom(w.instance), "Running");
        },
      ],
      [
        "volume",
        async () => {
          w.volume = await this.create("createVolume");
          await this.settle(w.volume);
        },
      ],
      ["ip", async () => void (w.ip = await this.create("acquireIpAddress"))],
      ["customerGateway", async () => void (w.customerGateway = await this.create("addVpnCustomerGateway"))],
      ["vpnConnection", async () => void (w.vpnConnection = await this.create("addVpnConnection"))],
      ["loadBalancerRule", async () => void (w.loadBalancerRule = await this.create("createLoadBalancerRule"))],
      ["internalLb", async () => void (w.internalLb = await this.create("createInternalLb"))],
      [
        "vmSnapshot",
        async () => {
          w.vmSnapshot = await this.create("createVmSnapshot");
          await this.settle(w.vmSnapshot);
        },
      ],
      ["portForwardingRule", async () => void (w.portForwardingRule = await this.create("createPortForwardingRule"))],
      ["snapshotPolicy", async () => void (w.snapshotPolicy = await this.create("createSnapshotPolicy"))],
      ["firewallRule", async () => void (w.firewallRule = await this.create("createFirewallRule"))],
      ["egressRule", async () => void (w.egressRule = await this.create("createEgressRule"))],
      ["tag", async () => void (w.tag = await this.create("createTags"))],
      ["snapshot", async () => void (w.snapshot = await this.create("createSnapshot"))],
      [
        "cluster",
        async () => {
          w.cluster = await this.create("createKubernetes");
          await this.waitCluster(uuidFrom(w.cluster), "Running");
        },
      ],
      ["invoice", async () => void (w.invoice = await this.discoverInvoice())],
    ];
    for (const [name, step] of steps) {
      try {
        await step();
      } catch (err) {
        this.buildProblems.push(`${name}: ${(err as Error).message}`);
      }
    }
  }
}

/** The record's uuid; throws when the record has none. */
function uuidFrom(record: ApiRecord | undefined): string {
  const uuid = uuidOf(record);
  if (!uuid) throw new Error(`record without uuid: ${JSON.stringify(record)?.slice(0, 300)}`);
  return uuid;
}

/** The values of the row's inputs only. */
function pick(row: Row, values: Values): Values {
  return Object.fromEntries(row.inputs.map((input) => [input.name, values[input.name]]));
}

/** Per-operation departures from the defaults (undefined leaves an optional input out). */
const OVERRIDES: Record<string, (w: Partial<World>, n: number) => Values> = {
  hostList: () => ({ uuid: undefined }),
  createVpcNetwork: (w, n) => ({
    networkOfferingUuid: w.tierOfferingUuid,
    gateway: `10.1.${n % 250}.1`,
  }),
  updateVpcNetwork: (w) => ({ uuid: uuidOf(w.tier), networkOfferingUuid: w.tierOfferingUuid }),
  createSecurityGroupFirewallRule: () => ({ icmpType: undefined, icmpCode: undefined }),
  createSecurityGroupEgressRule: () => ({ icmpType: undefined, icmpCode: undefined }),
  createInstance: () => ({
    memory: undefined,
    rootDiskSize: undefined,
    cpuCore: undefined,
    securitygroupName: undefined,
    hypervisorName: undefined,
  }),
  resizeVm: () => ({ cpuCore: undefined, memory: undefined }),
  createNetwork: () => ({ securityGroupUuid: undefined, virtualmachineUuid: undefined }),
  updateNetwork: (w) => ({ getcIDR: w.network?.getcIDR }),
  replaceAcl: (w) => ({ uuid: uuidOf(w.tier) }),
  volumeList: () => ({ vmUuid: undefined, jobId: undefined }),
  resizeVolume: () => ({ diskSize: 20 }),
  listByClient: () => ({ status: undefined, billPeriod: undefined }),
  updateInvoiceTax: (w) => ({ ...w.invoice?.taxPending }),
  createKubernetes: (w) => ({
    computeOfferingUuid: w.kubernetesOfferingUuid,
    dockerRegistryUsername: undefined,
    dockerRegistryUrl: undefined,
    dockerRegistryPassword: undefined,
    domainUuid: undefined,
    externalLoadbalancerIpaddress: undefined,
  }),
  scaleKubernetes: () => ({ size: 2 }),
  "compute-plan-list": (w) => ({ categoryUuid: w.computeCategoryUuid }),
  "storage-plan-list": (w) => ({ categoryUuid: w.storageCategoryUuid }),
  "template-list": (w) => ({ categoryUuid: w.templateCategoryUuid }),
  updateVpnCustomerGateway: (w) => ({
    gateway: w.customerGateway?.gateway,
    cidrlist: w.customerGateway?.cidrList,
  }),
  createLoadBalancerRule: () => ({ stickinessPolicyUuid: undefined }),
  updateLoadBalancerRule: () => ({ algorithm: "leastconn" }),
  createInternalLb: (w) => ({ networkUuid: uuidOf(w.tier), algorithm: "source", sourceIpAddress: undefined }),
  internalLbList: (w) => ({ networkUuid: uuidOf(w.tier) }),
  vmsnapshotList: () => ({ jobId: undefined }),
  createSnapshotPolicy: () => ({ dayOfWeek: undefined, dayOfMonth: undefined }),
  createFirewallRule: () => ({ icmpType: undefined, icmpCode: undefined }),
  createEgressRule: () => ({ icmpType: undefined, icmpCode: undefined }),
};

/**
 * Rows that consume or disturb their target get a fresh one: deletes, destroy, release, start/stop,
 * restart, attach/detach, static NAT and remote access. The result overrides the defaults.
 */
const PREPARE: Record<string, (fx: Fixtures) => Promise<Values>> = {
  restartVpc: async (fx) => ({ uuid: await fx.newVpc() }),
  deleteVpc: async (fx) => ({ uuid: await fx.newVpc() }),
  deleteSecurityGroupRule: async (fx) => ({ ...(await fx.newSecurityGroupRule()), ruleType: "FIREWALLRULE" }),
  deleteSecurityGroup: async (fx) => ({ uuid: await fx.newSecurityGroup() }),
  startInstance: async (fx) => ({ uuid: await fx.newInstance("Stopped") }),
  stopInstance: async (fx) => ({ uuid: await fx.newInstance() }),
  resizeVm: async (fx) => ({ uuid: await fx.newInstance("Stopped") }),
  // CloudStack resets the key of a stopped VM only (the operation's parameters are not shown)
  resetSSHkey: async (fx) => ({ uuid: await fx.newInstance("Stopped") }),
  recoverVm: async (fx) => ({ uuid: await fx.newInstance("Destroyed") }),
  destroyInstance: async (fx) => ({ uuid: await fx.newInstance() }),
  attachNetwork: async (fx) => ({ networkUuid: await fx.newNetwork() }),
  detachNetwork: async (fx) => {
    const networkUuid = await fx.newNetwork();
    await fx.call("attachNetwork", { networkUuid });
    return { networkUuid };
  },
  restartNetwork: async (fx) => ({ uuid: await fx.newNetwork() }),
  deleteNetwork: async (fx) => ({ uuid: await fx.newNetwork() }),
  attachVolume: async (fx) => ({ uuid: await fx.newVolume() }),
  detachVolume: async (fx) => ({ uuid: await fx.newVolume(true) }),
  deleteVolume: async (fx) => ({ uuid: await fx.newVolume() }),
  startKubernetes: async (fx) => ({ uuid: await fx.newCluster("Stopped") }),
  stopKubernetes: async (fx) => ({ uuid: await fx.newCluster() }),
  destroyKubernetes: async (fx) => ({ uuid: await fx.newCluster() }),
  releaseIpAddress: async (fx) => ({ uuid: await fx.newIp() }),
  enableStaticNat: async (fx) => ({ ipAddressUuid: await fx.newIp() }),
  disableStaticNat: async (fx) => {
    // a VM takes one static NAT address (CloudStack), and the shared instance has one from enableStaticNat
    const ipAddressUuid = await fx.newIp();
    await fx.call("enableStaticNat", { ipAddressUuid, vmUuid: await fx.newInstance() });
    return { ipAddressUuid };
  },
  enableremotevpnaccess: async (fx) => ({ ipAddressUuid: await fx.newIp() }),
  disableremotevpnaccess: async (fx) => {
    const ipAddressUuid = await fx.newIp();
    await fx.call("enableremotevpnaccess", { ipAddressUuid });
    return { ipAddressUuid };
  },
  deleteVpnCustomerGateway: async (fx) => ({ uuid: await fx.newCustomerGateway() }),
  deleteLoadBalancerRule: async (fx) => ({ uuid: uuidFrom(await fx.create("createLoadBalancerRule")) }),
  addVpnConnection: async (fx) => ({ customerGatewayUuid: await fx.newCustomerGateway() }),
  deleteVpnConnection: async (fx) => ({ uuid: await fx.newVpnConnection() }),
  deleteInternalLb: async (fx) => ({ uuid: internalLbId(await fx.create("createInternalLb")) }),
  deleteVmSnapshot: async (fx) => ({ uuid: await fx.newVmSnapshot() }),
  deletePortForwardingRule: async (fx) => ({ uuid: uuidFrom(await fx.create("createPortForwardingRule")) }),
  // one policy per interval type and volume is the CloudStack rule: the shared volume has the DAILY one
  createSnapshotPolicy: async () => ({ intervalType: "WEEKLY", dayOfWeek: "1" }),
  deleteSnapshotPolicy: async (fx) => {
    const volumeUuid = await fx.newVolume();
    return { uuid: uuidFrom(await fx.create("createSnapshotPolicy", { volumeUuid })) };
  },
  deleteFirewallRule: async (fx) => ({ uuid: uuidFrom(await fx.create("createFirewallRule")) }),
  deleteEgressRule: async (fx) => ({ uuid: uuidFrom(await fx.create("createEgressRule")) }),
  deleteResourceTag: async (fx) => ({ uuid: uuidFrom(await fx.create("createTags")) }),
  deleteSnapshot: async (fx) => {
    const snapshot = await fx.create("createSnapshot");
    await fx.settle(snapshot);
    return { uuid: uuidFrom(snapshot) };
  },
};
