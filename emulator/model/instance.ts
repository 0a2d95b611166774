// Instances: placement and private address, lifecycle (Starting, Running, Stopping, Stopped, Destroyed, Expunging),
// resizing, extra networks, ISOs, SSH keys and passwords. Kubernetes nodes are instances whose internal entry has a
// `clusterUuid`; the cluster drives them, so instance operations refuse them.
import type { AccountScope, DeferredChange, EmulatorContext } from "../core";
import { badInput, conflict, missing, notFound } from "../core";
import {
  CUSTOM_PLAN_MAX_MEMORY_PER_CORE_MIB,
  type StorageCostRecord,
  type TemplateCostRecord,
} from "../seeded-catalog";
import { formatIpv4, maskOf, parseCidr } from "../cidr";
import {
  ATTACHED_NETWORKS,
  INSTANCES,
  IP_ADDRESSES,
  NETWORKS,
  SECURITY_GROUPS,
  STATIC_NATS,
  VM_SNAPSHOTS,
  VOLUMES,
  type AttachedNetworkRecord,
  type ComputeSize,
  type InstanceInternal,
  type InstanceRecord,
  type NetworkRecord,
} from "./collections";
import { filterRecords, requireSameZone, requireZone } from "./records";
import { dropTagsOf } from "./resourcetags";
import { requireRecord } from "../references";
import {
  diskSizeFor,
  releaseDataVolumes,
  requireStorageOffering,
  setRootVolumes,
  storeNewVolume,
  volumeAttaching,
  volumesOf,
} from "./volume";

export type { ComputeSize } from "./collections";

/** The root disk a caller may ask for, in GB (at least the template's minimum). */
export const MAX_ROOT_DISK_GB = 1024;

/** States in which the instance is settled and may be operated on (as opposed to Starting, Stopping, Expunging). */
const SETTLED_STATES = ["Running", "Stopped", "Destroyed"];

/** The two transitions that pass through an intermediate state for one async delay. */
const POWER_TRANSITIONS = {
  start: { from: "Stopped", via: "Starting", to: "Running", kind: "startInstance" },
  stop: { from: "Running", via: "Stopping", to: "Stopped", kind: "stopInstance" },
} as const;

// ---------------------------------------------------------------------------------------------
// Look-ups and rules shared with the volume, VM-snapshot and Kubernetes models

export function requireInstance(scope: AccountScope, uuid: string): InstanceRecord {
  return requireRecord(scope, INSTANCES, "instance", uuid);
}

/** What the emulator keeps about an instance besides its record (an empty entry if it has none). */
export function instanceInternal(scope: AccountScope, uuid: string): InstanceInternal {
  return (scope.internal(INSTANCES)[uuid] ??= { password: "" });
}

/** The cluster whose node the instance is, if any. */
export const clusterOf = (scope: AccountScope, instanceUuid: string): string | undefined =>
  scope.internal(INSTANCES)[instanceUuid]?.clusterUuid;

/** An instance the caller drives itself: not a node of a Kubernetes cluster. */
export function requireUnmanaged(scope: AccountScope, instance: InstanceRecord): void {
  const clusterUuid = clusterOf(scope, instance.uuid);
  if (clusterUuid) {
    throw conflict(
      `instance ${instance.uuid} is a node of Kubernetes cluster ${clusterUuid}; use the cluster operations`,
    );
  }
}

export function requireState(instance: InstanceRecord, allowed: readonly string[], action: string): void {
  if (!allowed.includes(instance.state)) {
    throw conflict(`instance ${instance.uuid} is ${instance.state}; ${action} needs it ${allowed.join(" or ")}`);
  }
}

/** The account's network, in the zone. */
export function requireNetwork(scope: AccountScope, field: string, uuid: string, zoneUuid: string): NetworkRecord {
  const network = requireRecord(scope, NETWORKS, "network", uuid);
  requireSameZone(field, network, zoneUuid);
  return network;
}

/** Addresses taken in a network: its gateway and every instance's address there. */
function usedAddresses(scope: AccountScope, networkUuid: string): Set<string> {
  const used = new Set<string>();
  const network = scope.collection(NETWORKS)[networkUuid];
  if (typeof network?.gateway === "string") used.add(network.gateway);
  for (const instance of filterRecords(scope, INSTANCES, { networkUuid })) used.add(instance.instancePrivateIp);
  for (const nic of filterRecords(scope, ATTACHED_NETWORKS, { networkUuid })) used.add(nic.privateIp);
  return used;
}

function allocateAddress(ctx: EmulatorContext, scope: AccountScope, network: NetworkRecord): string {
  return ctx.allocatePrivateIp(network.cidr, usedAddresses(scope, network.uuid));
}

/** The attachments (`{uuid, instanceUuid, networkUuid, privateIp}`) of an instance's extra networks. */
export function attachedNetworksOf(scope: AccountScope, instanceUuid: string): AttachedNetworkRecord[] {
  return filterRecords(scope, ATTACHED_NETWORKS, { instanceUuid });
}

/**
 * The vCPUs and memory of a compute offering offered in the zone. A custom offering takes them from
 * the caller, within its bounds (cores from `core` to `cpuMax`, memory from `memory` MiB to 8 GiB per
 * vCPU); a fixed one brings its own and refuses them.
 */
export function resolveComputeSize(
  ctx: EmulatorContext,
  zoneUuid: string,
  input: { offeringField: string; offeringUuid: string; cpuCore?: number; memory?: number },
): ComputeSize {
  const offering = ctx.catalog.computeOffering(input.offeringUuid, zoneUuid);
  if (!offering) {
    if (ctx.catalog.computeOffering(input.offeringUuid)) {
      throw badInput(input.offeringField, `compute offering ${input.offeringUuid} is not offered in zone ${zoneUuid}`);
    }
    throw notFound("compute offering", input.offeringUuid);
  }
  const isCustom = "isCustom" in offering && offering.isCustom;
  if (!isCustom) {
    for (const field of ["cpuCore", "memory"] as const) {
      if (input[field] !== undefined) throw badInput(field, "may only be given with a custom compute offering");
    }
    return { computeOfferingUuid: offering.uuid, cpuCore: offering.core, memory: offering.memory };
  }
  if (input.cpuCore === undefined) throw missing("cpuCore");
  if (input.memory === undefined) throw missing("memory");
  const cpuMax = offering.cpuMax;
  if (input.cpuCore < offering.core || input.cpuCore > cpuMax) {
    throw badInput("cpuCore", `must be from ${offering.core} to ${cpuMax} for compute offering ${offering.name}`);
  }
  const maxMemory = input.cpuCore * CUSTOM_PLAN_MAX_MEMORY_PER_CORE_MIB;
  if (input.memory < offering.memory || input.memory > maxMemory) {
    throw badInput("memory", `must be from ${offering.memory} to ${maxMemory} MiB for ${input.cpuCore} vCPUs`);
  }
  return { computeOfferingUuid: offering.uuid, cpuCore: input.cpuCore, memory: input.memory };
}

/** A template runs only on enough vCPUs and memory. */
function requireFitsTemplate(field: string, size: ComputeSize, template: TemplateCostRecord): void {
  if (size.cpuCore < template.minimumCore) {
    throw badInput(field, `template ${template.name} needs at least ${template.minimumCore} vCPUs`);
  }
  if (size.memory < template.minimumMemory) {
    throw badInput(field, `template ${template.name} needs at least ${template.minimumMemory} MiB of memory`);
  }
}

function requireTemplate(ctx: EmulatorContext, uuid: string, zoneUuid: string): TemplateCostRecord {
  const template = ctx.catalog.template(uuid, zoneUuid);
  if (template) return template;
  if (ctx.catalog.template(uuid)) throw badInput("templateUuid", `template ${uuid} is not offered in zone ${zoneUuid}`);
  throw notFound("template", uuid);
}

/** Instance (and cluster) names become host names: RFC 1123 labels. */
export function requireHostName(field: string, name: string): void {
  if (!/^[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(name)) {
    throw badInput(
      field,
      "must be a host name: up to 63 letters, digits and hyphens, starting with a letter, not ending with a hyphen",
    );
  }
}

const PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function newPassword(ctx: EmulatorContext): string {
  return Array.from({ length: 12 }, () => PASSWORD_ALPHABET[Math.floor(ctx.random() * PASSWORD_ALPHABET.length)]).join(
    "",
  );
}

// ---------------------------------------------------------------------------------------------
// Placement: an instance record with its ROOT volume (and first data volume)

export interface Placement {
  name: string;
  zoneUuid: string;
  network: NetworkRecord;
  template: { uuid: string; name: string };
  size: ComputeSize;
  rootDiskSize: number;
  dataDisk?: { offering: StorageCostRecord; sizeGb: number };
  sshKeyName?: string;
  /** Set for the nodes of a Kubernetes cluster. */
  node?: { clusterUuid: string; clusterRole: InstanceInternal["clusterRole"]; nodeIndex: number };
}

/** Stores the instance, state Starting, and its disks; the caller schedules Running and persists. */
export function placeInstance(ctx: EmulatorContext, scope: AccountScope, p: Placement): InstanceRecord {
  const dataDiskSize = p.dataDisk?.sizeGb ?? 0;
  const instance: InstanceRecord = {
    uuid: ctx.newUuid(),
    name: p.name,
    displayName: p.name,
    description: "",
    zoneUuid: p.zoneUuid,
    templateUuid: p.template.uuid,
    templateName: p.template.name,
    computeOfferingUuid: p.size.computeOfferingUuid,
    cpuCore: String(p.size.cpuCore),
    memory: String(p.size.memory),
    rootDiskSize: p.rootDiskSize,
    diskSize: dataDiskSize,
    volumeSize: String(p.rootDiskSize + dataDiskSize),
    storageOfferingUuid: p.dataDisk?.offering.uuid ?? "",
    networkUuid: p.network.uuid,
    networkName: p.network.name,
    instancePrivateIp: allocateAddress(ctx, scope, p.network),
    sshUuid: p.sshKeyName ? ctx.newUuid() : "",
    instanceOwnerName: scope.account.name,
    state: "Starting",
    status: "Active",
    isActive: true,
  };
  scope.collection(INSTANCES)[instance.uuid] = instance;
  scope.internal(INSTANCES)[instance.uuid] = {
    password: newPassword(ctx),
    ...(p.sshKeyName ? { sshKeyName: p.sshKeyName } : {}),
    ...p.node,
  };
  storeNewVolume(ctx, scope, {
    name: `ROOT-${p.name}`,
    zoneUuid: p.zoneUuid,
    volumeType: "ROOT",
    sizeGb: p.rootDiskSize,
    status: "Ready",
    instance,
  });
  if (p.dataDisk) {
    storeNewVolume(ctx, scope, {
      name: `DATA-${p.name}`,
      zoneUuid: p.zoneUuid,
      volumeType: "DATADISK",
      sizeGb: p.dataDisk.sizeGb,
      offering: p.dataDisk.offering,
      status: "Ready",
      instance,
    });
  }
  return instance;
}

/**
 * The immediate part of expunging an instance (state Expunging, data volumes released, tags gone)
 * and the removals to defer: the instance, its ROOT volumes and its VM snapshots.
 */
export function beginExpunge(scope: AccountScope, instance: InstanceRecord): DeferredChange[] {
  const uuid = instance.uuid;
  Object.assign(instance, { state: "Expunging", status: "Expunging", isActive: false });
  releaseDataVolumes(scope, uuid);
  const roots = volumesOf(scope, uuid).map((v) => v.uuid);
  const taken = scope.internal(VM_SNAPSHOTS);
  const vmSnapshots = Object.values(scope.collection(VM_SNAPSHOTS))
    .filter((s) => taken[s.uuid]?.virtualmachineUuid === uuid)
    .map((s) => s.uuid);
  const nics = attachedNetworksOf(scope, uuid).map((n) => n.uuid);
  dropTagsOf(scope, [uuid, ...roots, ...vmSnapshots]);
  const removal =
    (collection: string) =>
    (id: string): DeferredChange => ({ collection, uuid: id, remove: true });
  return [
    removal(INSTANCES)(uuid),
    ...roots.map(removal(VOLUMES)),
    ...vmSnapshots.map(removal(VM_SNAPSHOTS)),
    ...nics.map(removal(ATTACHED_NETWORKS)),
  ];
}

// ---------------------------------------------------------------------------------------------
// Operations

export interface CreateInstanceInput {
  name: string;
  zoneUuid: string;
  templateUuid: string;
  computeOfferingUuid: string;
  networkUuid: string;
  cpuCore?: number;
  memory?: number;
  rootDiskSize?: number;
  diskSize?: number;
  storageOfferingUuid?: string;
  sshKeyName?: string;
  /** Must name one of the account's security groups. */
  securitygroupName?: string;
  /** Must be a hypervisor the zone's hosts run (KVM). */
  hypervisorName?: string;
}

function requireHypervisor(ctx: EmulatorContext, name: string): void {
  const known = [...new Set(ctx.catalog.hosts.map((h) => h.hypervisor))];
  if (!known.some((h) => h.toLowerCase() === name.toLowerCase())) {
    throw badInput("hypervisorName", `must be one of ${known.join(", ")}`);
  }
}

export function createInstance(ctx: EmulatorContext, scope: AccountScope, input: CreateInstanceInput): InstanceRecord {
  requireHostName("name", input.name);
  requireZone(ctx, input.zoneUuid);
  const template = requireTemplate(ctx, input.templateUuid, input.zoneUuid);
  const size = resolveComputeSize(ctx, input.zoneUuid, {
    offeringField: "computeOfferingUuid",
    offeringUuid: input.computeOfferingUuid,
    cpuCore: input.cpuCore,
    memory: input.memory,
  });
  requireFitsTemplate("computeOfferingUuid", size, template);
  const network = requireNetwork(scope, "networkUuid", input.networkUuid, input.zoneUuid);
  if (input.hypervisorName !== undefined) requireHypervisor(ctx, input.hypervisorName);
  if (
    input.securitygroupName !== undefined &&
    !filterRecords(scope, SECURITY_GROUPS, { name: input.securitygroupName }).length
  ) {
    throw notFound("security group", input.securitygroupName);
  }
  const rootDiskSize = input.rootDiskSize ?? template.minimumRootdisk;
  if (rootDiskSize < template.minimumRootdisk || rootDiskSize > MAX_ROOT_DISK_GB) {
    throw badInput(
      "rootDiskSize",
      `must be from ${template.minimumRootdisk} (template ${template.name}) to ${MAX_ROOT_DISK_GB} GB`,
    );
  }
  let dataDisk: Placement["dataDisk"];
  if (input.storageOfferingUuid !== undefined) {
    const offering = requireStorageOffering(ctx, "storageOfferingUuid", input.storageOfferingUuid, input.zoneUuid);
    // A fixed-size offering brings its size; a custom one needs diskSize.
    if (offering.isCustom && input.diskSize === undefined) throw missing("diskSize");
    dataDisk = { offering, sizeGb: diskSizeFor(offering, input.diskSize ?? offering.diskSize) };
  } else if (input.diskSize !== undefined) {
    throw badInput("diskSize", "needs storageOfferingUuid, the offering of the data disk");
  }

  const instance = placeInstance(ctx, scope, {
    name: input.name,
    zoneUuid: input.zoneUuid,
    network,
    template,
    size,
    rootDiskSize,
    dataDisk,
    sshKeyName: input.sshKeyName,
  });
  if (input.securitygroupName !== undefined) {
    instanceInternal(scope, instance.uuid).securityGroupName = input.securitygroupName;
  }
  scope.changed();
  ctx.later(scope, "createInstance", [{ collection: INSTANCES, uuid: instance.uuid, set: { state: "Running" } }]);
  return instance;
}

export function listInstances(
  ctx: EmulatorContext,
  scope: AccountScope,
  filters: { zoneUuid: string; vmUuid?: string },
): InstanceRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, INSTANCES, { zoneUuid: filters.zoneUuid, uuid: filters.vmUuid });
}

/** Start or stop: through Starting or Stopping for one async delay. */
export function changePower(
  ctx: EmulatorContext,
  scope: AccountScope,
  uuid: string,
  action: keyof typeof POWER_TRANSITIONS,
): InstanceRecord {
  const instance = requireInstance(scope, uuid);
  requireUnmanaged(scope, instance);
  const { from, via, to, kind } = POWER_TRANSITIONS[action];
  requireState(instance, [from], action);
  instance.state = via;
  scope.changed();
  ctx.later(scope, kind, [{ collection: INSTANCES, uuid, set: { state: to } }]);
  return instance;
}

export function resizeInstance(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: { uuid: string; offeringUuid: string; cpuCore?: number; memory?: number },
): InstanceRecord {
  const instance = requireInstance(scope, input.uuid);
  requireUnmanaged(scope, instance);
  requireState(instance, ["Running", "Stopped"], "resizing");
  const zoneUuid = instance.zoneUuid;
  const size = resolveComputeSize(ctx, zoneUuid, { offeringField: "offeringUuid", ...input });
  const template = ctx.catalog.template(instance.templateUuid);
  if (template) requireFitsTemplate("offeringUuid", size, template);
  ctx.later(scope, "resizeVm", [
    {
      collection: INSTANCES,
      uuid: input.uuid,
      set: {
        computeOfferingUuid: size.computeOfferingUuid,
        cpuCore: String(size.cpuCore),
        memory: String(size.memory),
      },
    },
  ]);
  return instance;
}

/** A destroyed (not expunged) instance comes back Stopped, with its ROOT volume. */
export function recoverInstance(scope: AccountScope, uuid: string): InstanceRecord {
  const instance = requireInstance(scope, uuid);
  requireUnmanaged(scope, instance);
  requireState(instance, ["Destroyed"], "recovery");
  Object.assign(instance, { state: "Stopped", status: "Active", isActive: true });
  setRootVolumes(scope, uuid, { status: "Ready", isActive: true });
  scope.changed();
  return instance;
}

/**
 * Without expunge: Destroyed at once, still listed, recoverable; with expunge (also of a Destroyed
 * instance): Expunging, then gone after one async delay. Either way its data volumes are released.
 */
export function destroyInstance(
  ctx: EmulatorContext,
  scope: AccountScope,
  uuid: string,
  expunge: boolean,
): InstanceRecord {
  const instance = requireInstance(scope, uuid);
  requireUnmanaged(scope, instance);
  requireState(instance, expunge ? SETTLED_STATES : ["Running", "Stopped"], expunge ? "expunging" : "destroying");
  const attaching = volumeAttaching(scope, uuid);
  if (attaching) throw conflict(`volume ${attaching.uuid} is being attached to instance ${uuid}`);

  if (expunge) {
    const removals = beginExpunge(scope, instance);
    scope.changed();
    ctx.later(scope, "destroyInstance", removals);
  } else {
    Object.assign(instance, { state: "Destroyed", status: "Destroyed", isActive: false });
    releaseDataVolumes(scope, uuid);
    setRootVolumes(scope, uuid, { status: "Destroy", isActive: false });
    scope.changed();
  }
  return instance;
}

/** Answered at once (202) with the current record; the new display name shows after the async delay. */
export function renameInstance(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: { uuid: string; displayName: string },
): InstanceRecord {
  const instance = requireInstance(scope, input.uuid);
  if (instance.state === "Expunging") throw conflict(`instance ${input.uuid} is Expunging`);
  ctx.later(scope, "updateInstanceName", [
    { collection: INSTANCES, uuid: input.uuid, set: { displayName: input.displayName } },
  ]);
  return instance;
}

/** The dotted netmask of a CIDR block (`10.1.2.0/24` -> `255.255.255.0`). */
function netmaskOf(cidr: unknown): string {
  const block = typeof cidr === "string" ? parseCidr(cidr) : undefined;
  return block ? formatIpv4(maskOf(block.prefix)) : "";
}

/** The public address by which static NAT exposes this instance on that network, if any. */
function staticNatAddress(scope: AccountScope, instanceUuid: string, networkUuid: string): string {
  const nat = filterRecords(scope, STATIC_NATS, { vmUuid: instanceUuid, networkUuid })[0];
  const ip = nat && scope.collection(IP_ADDRESSES)[nat.ipAddressUuid];
  return typeof ip?.publicIpAddress === "string" ? ip.publicIpAddress : "";
}

/** A network of an instance as getInstanceNetworks shows it (the spec's InstanceNetwork). */
export type InstanceNetworkRecord = {
  uuid: string;
  name: string;
  type: string;
  defaultNetwork: boolean;
  privateIp: string;
  gateway: string;
  netmask: string;
  publicIp: string;
  status: string;
  isActive: boolean;
};

/** The default network first, then the attached ones. */
export function instanceNetworks(scope: AccountScope, uuid: string): InstanceNetworkRecord[] {
  const instance = requireInstance(scope, uuid);
  const nics = [
    { networkUuid: instance.networkUuid, privateIp: instance.instancePrivateIp, defaultNetwork: true },
    ...attachedNetworksOf(scope, uuid).map((n) => ({
      networkUuid: n.networkUuid,
      privateIp: n.privateIp,
      defaultNetwork: false,
    })),
  ];
  return nics.flatMap((nic) => {
    const network = scope.collection(NETWORKS)[nic.networkUuid];
    if (!network) return [];
    return [
      {
        uuid: nic.networkUuid,
        name: network.name,
        type: network.networkType ?? "",
        defaultNetwork: nic.defaultNetwork,
        privateIp: nic.privateIp,
        gateway: network.gateway ?? "",
        netmask: netmaskOf(network.cidr),
        publicIp: staticNatAddress(scope, uuid, nic.networkUuid),
        status: "Active",
        isActive: true,
      },
    ];
  });
}

/** An instance that can change networks, ISOs or keys: the caller's own, Running or Stopped. */
function requireConfigurable(scope: AccountScope, uuid: string, action: string): InstanceRecord {
  const instance = requireInstance(scope, uuid);
  requireUnmanaged(scope, instance);
  requireState(instance, ["Running", "Stopped"], action);
  return instance;
}

export function attachNetwork(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: { uuid: string; networkUuid: string },
): InstanceRecord {
  const instance = requireConfigurable(scope, input.uuid, "attaching a network");
  const network = requireNetwork(scope, "networkUuid", input.networkUuid, instance.zoneUuid);
  const attached = attachedNetworksOf(scope, input.uuid);
  if (instance.networkUuid === input.networkUuid || attached.some((n) => n.networkUuid === input.networkUuid)) {
    throw conflict(`instance ${input.uuid} is already on network ${input.networkUuid}`);
  }
  const nic: AttachedNetworkRecord = {
    uuid: ctx.newUuid(),
    instanceUuid: input.uuid,
    networkUuid: input.networkUuid,
    privateIp: allocateAddress(ctx, scope, network),
  };
  scope.collection(ATTACHED_NETWORKS)[nic.uuid] = nic;
  scope.changed();
  return instance;
}

export function detachNetwork(scope: AccountScope, input: { uuid: string; networkUuid: string }): InstanceRecord {
  const instance = requireConfigurable(scope, input.uuid, "detaching a network");
  requireRecord(scope, NETWORKS, "network", input.networkUuid);
  if (instance.networkUuid === input.networkUuid) {
    throw conflict(`network ${input.networkUuid} is the default network of instance ${input.uuid}`);
  }
  const nic = attachedNetworksOf(scope, input.uuid).find((n) => n.networkUuid === input.networkUuid);
  if (!nic) throw conflict(`network ${input.networkUuid} is not attached to instance ${input.uuid}`);
  scope.remove(ATTACHED_NETWORKS, nic.uuid);
  scope.changed();
  return instance;
}

/** ISO references are opaque (the API lists no ISOs); one ISO at a time. */
export function attachIso(scope: AccountScope, input: { uuid: string; isoUuid: string }): InstanceRecord {
  const instance = requireConfigurable(scope, input.uuid, "attaching an ISO");
  const internal = instanceInternal(scope, input.uuid);
  if (internal.isoUuid) throw conflict(`instance ${input.uuid} already has ISO ${internal.isoUuid} attached`);
  internal.isoUuid = input.isoUuid;
  scope.changed();
  return instance;
}

export function detachIso(scope: AccountScope, uuid: string): InstanceRecord {
  const instance = requireConfigurable(scope, uuid, "detaching an ISO");
  const internal = instanceInternal(scope, uuid);
  if (!internal.isoUuid) throw conflict(`instance ${uuid} has no ISO attached`);
  delete internal.isoUuid;
  scope.changed();
  return instance;
}

/** A new key pair (an opaque name) for a Stopped instance; it shows as a new `sshUuid`. */
export function resetSshKey(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: { uuid: string; sshKeyName: string },
): InstanceRecord {
  const instance = requireInstance(scope, input.uuid);
  requireUnmanaged(scope, instance);
  requireState(instance, ["Stopped"], "resetting the SSH key");
  instance.sshUuid = ctx.newUuid();
  instanceInternal(scope, input.uuid).sshKeyName = input.sshKeyName;
  scope.changed();
  return instance;
}

/** The instance's generated password. */
export function instancePassword(
  scope: AccountScope,
  uuid: string,
): { uuid: string; name: string; password: string; status: string; isActive: boolean } {
  const instance = requireInstance(scope, uuid);
  const password = scope.internal(INSTANCES)[uuid]?.password ?? "";
  return { uuid, name: instance.name, password, status: "Active", isActive: true };
}
