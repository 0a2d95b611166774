// The table of an account's collections: each one's stored name (the state file's key: never rename one), record type
// and internal-entry type (what the emulator keeps besides the API's fields, never sent). Types and names only.
import type { InvoiceRecord } from "../seeded-catalog";

declare const collectionTypes: unique symbol;

/**
 * A collection's stored name, typed (for the compiler only) with its record type `R` and internal
 * entry type `I`. At run time it is the plain string.
 */
export type Collection<R, I = never> = string & { readonly [collectionTypes]: { record: R; internal: I } };

/** Every collection's stored name, in declaration order: each `collection(...)` below adds its own. */
const declaredNames: string[] = [];

const collection = <R, I = never>(name: string): Collection<R, I> => {
  declaredNames.push(name);
  return name as Collection<R, I>;
};

// ---------------------------------------------------------------------------------------------
// Record types (the spec's "Record fields (as returned)", under the domain's names; numbers and
// booleans as the spec types them)

/** Every record but InternalLb, StaticNat and the bookkeeping ones. */
type Lifecycle = {
  status: string;
  isActive: boolean;
};

export type VpcRecord = Lifecycle & {
  uuid: string;
  name: string;
  description: string;
  /** The spec's `getcIDR` (`cIDR` under the cidr-as-cIDR quirk). */
  cidr: string;
  zoneUuid: string;
  zoneName: string;
  domainName: string;
};

/** A guest network, or a VPC tier (then with `vpcUuid`). */
export type NetworkRecord = Lifecycle & {
  uuid: string;
  name: string;
  description: string;
  zoneUuid: string;
  networkOfferingUuid: string;
  /** The spec's `getcIDR` (`cIDR` under the cidr-as-cIDR quirk). */
  cidr: string;
  gateway: string;
  networkType: string;
  networkAclList: string;
  networkDomain: string;
  domainName: string;
  cleanUpNetwork: boolean;
  /** Set for a VPC tier only. */
  vpcUuid?: string;
  /** Set when a security group was given (or changed). */
  securityGroupUuid?: string;
};

export type FirewallRuleRecord = Lifecycle & {
  uuid: string;
  startPort: string;
  endPort: string;
  ipAddressUuid: string;
  icmpType: string;
  icmpCode: string;
  protocol: string;
  cidrList: string;
  zoneUuid: string;
};

/** The spec's EgressRule omits cidrList. */
export type EgressRuleRecord = Lifecycle & {
  uuid: string;
  startPort: string;
  endPort: string;
  icmpType: string;
  icmpCode: string;
  protocol: string;
  zoneUuid: string;
  networkUuid: string;
};

export type PortForwardingRuleRecord = Lifecycle & {
  uuid: string;
  ipAddressUuid: string;
  protocol: string;
  virtualMachineName: string;
  privatePort: string;
  privateEndPort: string;
  publicPort: string;
  publicEndPort: string;
  zoneUuid: string;
};

/** The rule arrays hold FirewallRule, EgressRule and PortForwardingRule records ("" where a field does not apply). */
export type SecurityGroupRecord = Lifecycle & {
  uuid: string;
  name: string;
  description: string;
  securityGroupFirewallRule: FirewallRuleRecord[];
  securityGroupPortForwarding: PortForwardingRuleRecord[];
  securityGroupEgressRule: EgressRuleRecord[];
};

export type InstanceRecord = Lifecycle & {
  uuid: string;
  name: string;
  displayName: string;
  description: string;
  zoneUuid: string;
  templateUuid: string;
  templateName: string;
  computeOfferingUuid: string;
  /** vCPUs, as a string. */
  cpuCore: string;
  /** MiB, as a string. */
  memory: string;
  rootDiskSize: number;
  diskSize: number;
  volumeSize: string;
  storageOfferingUuid: string;
  networkUuid: string;
  networkName: string;
  instancePrivateIp: string;
  sshUuid: string;
  instanceOwnerName: string;
  /** Starting, Running, Stopping, Stopped, Destroyed, Expunging. */
  state: string;
};

export type NodeRole = "control" | "worker";

export interface InstanceInternal {
  /** The generated password (getPassword). */
  password: string;
  sshKeyName?: string;
  /** The ISO attached, if any (one at a time). */
  isoUuid?: string;
  securityGroupName?: string;
  /** Set for the nodes of a Kubernetes cluster: the cluster drives them. */
  clusterUuid?: string;
  clusterRole?: NodeRole;
  /** A node's number within its role (`<cluster>-node-N`). */
  nodeIndex?: number;
}

/** An extra network of an instance (never returned as such). */
export type AttachedNetworkRecord = {
  uuid: string;
  instanceUuid: string;
  networkUuid: string;
  privateIp: string;
};

export type VolumeRecord = Lifecycle & {
  uuid: string;
  name: string;
  /** ROOT or DATADISK. */
  volumeType: string;
  zoneUuid: string;
  storageOfferingUuid: string;
  storageOfferingName: string;
  /** GB, as a string. */
  storageDiskSize: string;
  vmUuid: string;
  vmInstanceName: string;
  isShrink: boolean;
  jobId: string;
  errorMessage: string;
  createdTimeStamp: number;
  domainName: string;
};

export interface VolumeInternal {
  /** The instance the latest attach job targets (meaningful while the volume is Attaching). */
  attachingTo?: string;
}

export type SnapshotRecord = Lifecycle & {
  uuid: string;
  name: string;
  volumeUuid: string;
  zoneUuid: string;
  snapshotType: string;
  snapshotTime: string;
  domainName: string;
};

export type SnapshotPolicyRecord = Lifecycle & {
  uuid: string;
  volumeUuid: string;
  intervalType: string;
  scheduleTime: string;
  dayOfWeek: string;
  dayOfMonth: string;
  timeZone: string;
  maximumSnapshots: string;
};

export type VmSnapshotRecord = Lifecycle & {
  uuid: string;
  name: string;
  description: string;
  zoneUuid: string;
  createdTimeStamp: number;
  domainName: string;
  isCurrent: boolean;
  jobId: string;
};

export interface VmSnapshotInternal {
  /** The instance it was taken of. */
  virtualmachineUuid: string;
  snapshotMemory: boolean;
}

export type ClusterRecord = Lifecycle & {
  uuid: string;
  name: string;
  description: string;
  /** Starting, Running, Stopping, Stopped, Scaling, Destroying. */
  state: string;
  size: number;
  controlNodes: number;
  nodeRootDiskSize: number;
  externalLoadbalancerIpaddress: string;
  /** The network its nodes run on: the spec's `transNetworkUuid`. */
  networkUuid: string;
};

/** vCPUs and memory of a compute offering (custom or fixed). */
export interface ComputeSize {
  computeOfferingUuid: string;
  cpuCore: number;
  /** MiB. */
  memory: number;
}

export interface ClusterInternal {
  zoneUuid: string;
  kubernetesVersionUuid: string;
  nodeSize: ComputeSize;
  haEnabled: boolean;
  autoscalingEnabled: boolean;
  /** The registry password is used to pull images and never stored. */
  dockerRegistryUrl?: string;
  dockerRegistryUsername?: string;
  sshKeyName?: string;
}

export type IpAddressRecord = Lifecycle & {
  uuid: string;
  publicIpAddress: string;
  zoneUuid: string;
  zoneName: string;
  /** The network, or the VPC, it was acquired for. */
  networkUuid: string;
  /** Set when acquired for a VPC. */
  vpcUuid?: string;
  isSourcenat: boolean;
  state: string;
};

/** Keyed by the address's uuid (the record has no uuid). */
export type StaticNatRecord = Lifecycle & {
  ipAddressUuid: string;
  vmName: string;
  vmUuid: string;
  networkUuid: string;
};

/** A remote-access VPN on an address, keyed by the address's uuid (never returned as such). */
export type RemoteVpnRecord = Lifecycle & {
  ipAddressUuid: string;
  publicIpAddress: string;
  networkUuid: string;
  presharedKey: string;
  state: string;
};

/** What a port-forwarding rule targets but does not show, keyed by the rule's uuid (never returned). */
export type PortForwardingTargetRecord = {
  uuid: string;
  vmUuid: string;
  networkUuid: string;
};

export type LoadBalancerRuleRecord = Lifecycle & {
  uuid: string;
  name: string;
  ipAddressUuid: string;
  stickinessName: string;
  privatePort: string;
  publicPort: string;
  zoneUuid: string;
  /** Add, then Active. */
  state: string;
  /** source, roundrobin or leastconn. */
  algorithm: string;
};

/** Keyed by an internal uuid: the spec's record has no uuid (an internal LB is known by name). */
export type InternalLbRecord = Lifecycle & {
  name: string;
  instancePort: string;
  sourcePort: string;
  zoneUuid: string;
  description: string;
  sourceIpAddress: string;
  networkUuid: string;
  algorithm: string;
};

export type VpnCustomerGatewayRecord = Lifecycle & {
  uuid: string;
  name: string;
  gateway: string;
  cidrList: string;
  ipsecPresharedKey: string;
  ikepolicy: string;
  esppolicy: string;
  ikelifetime: string;
  esplifetime: string;
  ikeVersion: string;
  forceencap: boolean;
  splitConnection: boolean;
  dpd: boolean;
  domainName: string;
};

/** A customer gateway's algorithms, which its record does not show (never returned). */
export type VpnCustomerGatewayCryptoRecord = {
  uuid: string;
  ikeEncryption?: string;
  ikeHash?: string;
  espEncryption?: string;
  espHash?: string;
};

export type VpnConnectionRecord = Lifecycle & {
  uuid: string;
  vpcUuid: string;
  customerGatewayUuid: string;
  vpnGatewayUuid: string;
  zoneUuid: string;
  publicIpAddress: string;
  gateway: string;
  ikePolicy: string;
  espPolicy: string;
  ipsecPresharedKey: string;
  /** Pending, then Connected (or Disconnected when passive). */
  state: string;
};

/** A VPC's VPN gateway (never returned). */
export type VpnGatewayRecord = {
  uuid: string;
  vpcUuid: string;
  zoneUuid: string;
  publicIpAddress: string;
  /** Whether the address came from the pool (and goes back with the gateway). */
  ownsAddress: boolean;
};

/** How a connection was asked for (never returned). */
export type VpnConnectionOptionsRecord = {
  uuid: string;
  passive: boolean;
};

export type TagRecord = Lifecycle & {
  uuid: string;
  key: string;
  value: string;
  resourceUuid: string;
  resourceType: string;
};

/** An invoice, keyed by its invoiceNumber (the catalog's record, copied into the account). */
export type StoredInvoiceRecord = InvoiceRecord;

/** The tax set on an invoice, keyed by its invoiceNumber (never returned as such). */
export type InvoiceTaxRecord = {
  uuid: string;
  total: number;
  taxes: number;
  taxDetails: Array<Record<string, unknown>>;
};

// ---------------------------------------------------------------------------------------------
// The collections: stored name, record type, internal type

export const VPCS = collection<VpcRecord>("vpc");
/** Networks and VPC tiers. */
export const NETWORKS = collection<NetworkRecord>("network");
export const SECURITY_GROUPS = collection<SecurityGroupRecord>("securitygroup");
export const INSTANCES = collection<InstanceRecord, InstanceInternal>("instance");
export const ATTACHED_NETWORKS = collection<AttachedNetworkRecord>("nic");
export const VOLUMES = collection<VolumeRecord, VolumeInternal>("volume");
export const SNAPSHOTS = collection<SnapshotRecord>("snapshot");
export const SNAPSHOT_POLICIES = collection<SnapshotPolicyRecord>("snapshotpolicy");
export const VM_SNAPSHOTS = collection<VmSnapshotRecord, VmSnapshotInternal>("vmsnapshot");
export const CLUSTERS = collection<ClusterRecord, ClusterInternal>("cluster");
export const IP_ADDRESSES = collection<IpAddressRecord>("ipaddress");
export const STATIC_NATS = collection<StaticNatRecord>("staticnat");
export const REMOTE_VPNS = collection<RemoteVpnRecord>("remotevpnaccess");
export const FIREWALL_RULES = collection<FirewallRuleRecord>("firewallrule");
export const EGRESS_RULES = collection<EgressRuleRecord>("egressrule");
export const PORT_FORWARDING_RULES = collection<PortForwardingRuleRecord>("portforwardingrule");
export const PORT_FORWARDING_TARGETS = collection<PortForwardingTargetRecord>("portforwardingrule.target");
export const LOAD_BALANCER_RULES = collection<LoadBalancerRuleRecord>("loadbalancerrule");
export const INTERNAL_LBS = collection<InternalLbRecord>("internallb");
export const VPN_CUSTOMER_GATEWAYS = collection<VpnCustomerGatewayRecord>("vpncustomergateway");
export const VPN_CUSTOMER_GATEWAY_CRYPTO = collection<VpnCustomerGatewayCryptoRecord>("vpncustomergateway.crypto");
export const VPN_CONNECTIONS = collection<VpnConnectionRecord>("vpnconnection");
export const VPN_GATEWAYS = collection<VpnGatewayRecord>("vpnconnection.vpngateway");
export const VPN_CONNECTION_OPTIONS = collection<VpnConnectionOptionsRecord>("vpnconnection.options");
export const TAGS = collection<TagRecord>("tag");
export const INVOICES = collection<StoredInvoiceRecord>("invoice");
export const INVOICE_TAXES = collection<InvoiceTaxRecord>("invoice.tax");

/** Every collection, by stored name. */
export const COLLECTIONS: readonly string[] = declaredNames;

/**
 * Collections whose records are not keyed by their `uuid`: the record must carry `field`, equal to
 * its key when `equalsKey` (else the key is a generated id the record does not carry). Every other
 * collection is keyed by the record's `uuid`.
 */
export const KEYED_BY: Readonly<Record<string, { field: string; equalsKey: boolean }>> = {
  [INTERNAL_LBS]: { field: "name", equalsKey: false },
  [INVOICES]: { field: "invoiceNumber", equalsKey: true },
  [STATIC_NATS]: { field: "ipAddressUuid", equalsKey: true },
  [REMOTE_VPNS]: { field: "ipAddressUuid", equalsKey: true },
};
