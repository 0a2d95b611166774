// Managed Kubernetes clusters. Nodes are account instances (`<cluster>-control-N`, `<cluster>-node-N`) on the cluster's
// network, driven by the cluster; every cluster operation is asynchronous (twice the delay under `uniform`).
import type { AccountScope, DeferredChange, EmulatorContext } from "../core";
import { badInput, conflict, notFound } from "../core";
import { parseIpv4 } from "../cidr";
import { filterRecords, requireZone } from "./records";
import { requireRecord } from "../references";
import {
  CLUSTERS,
  INSTANCES,
  NETWORKS,
  VOLUMES,
  type ClusterInternal,
  type ClusterRecord,
  type ComputeSize,
  type InstanceRecord,
  type NodeRole,
} from "./collections";
import { beginExpunge, placeInstance, requireHostName, requireNetwork, resolveComputeSize } from "./instance";
import { volumesOf } from "./volume";

export const CLUSTER_SIZE = { min: 1, max: 50 } as const;
export const CONTROL_NODES = { min: 1, max: 5 } as const;
/** Control nodes of an HA cluster when the caller does not say (an etcd quorum). */
export const HA_DEFAULT_CONTROL_NODES = 3;
export const NODE_ROOT_DISK_GB = { min: 8, default: 8, max: 1024 } as const;
/** Node names append `-control-N`; host names stop at 63 characters. */
export const MAX_CLUSTER_NAME_LENGTH = 40;

/** Start and stop: the cluster and its nodes pass through Starting or Stopping. */
const POWER_TRANSITIONS = {
  start: { from: "Stopped", via: "Starting", to: "Running", kind: "startKubernetes" },
  stop: { from: "Running", via: "Stopping", to: "Stopped", kind: "stopKubernetes" },
} as const;

export interface CreateClusterInput {
  name: string;
  zoneUuid: string;
  kubernetesSupportedVersionUuid: string;
  computeOfferingUuid: string;
  /** The network the nodes run on. */
  networkUuid: string;
  size: number;
  controlNodes?: number;
  haEnabled?: boolean;
  nodeRootDiskSize?: number;
  description?: string;
  externalLoadbalancerIpaddress?: string;
  sshKeyName?: string;
  dockerRegistryUrl?: string;
  dockerRegistryUsername?: string;
  dockerRegistryPassword?: string;
}

function requireCluster(scope: AccountScope, uuid: string): ClusterRecord {
  return requireRecord(scope, CLUSTERS, "Kubernetes cluster", uuid);
}

function requireClusterState(cluster: ClusterRecord, allowed: readonly string[], action: string): void {
  if (!allowed.includes(cluster.state)) {
    throw conflict(
      `Kubernetes cluster ${cluster.uuid} is ${cluster.state}; ${action} needs it ${allowed.join(" or ")}`,
    );
  }
}

/** The instances that are the cluster's nodes. */
export function nodesOf(scope: AccountScope, clusterUuid: string): InstanceRecord[] {
  const internal = scope.internal(INSTANCES);
  return Object.values(scope.collection(INSTANCES)).filter((i) => internal[i.uuid]?.clusterUuid === clusterUuid);
}

/** A fixed compute offering big enough for the version. */
function requireNodeSize(
  ctx: EmulatorContext,
  zoneUuid: string,
  offeringUuid: string,
  version: { name: string; minCpuNumber: number; minMemory: number },
): ComputeSize {
  if (ctx.catalog.computeOfferingType(offeringUuid) === "CUSTOM_PLAN") {
    throw badInput("computeOfferingUuid", "Kubernetes nodes need a fixed-size compute offering, not a custom one");
  }
  const size = resolveComputeSize(ctx, zoneUuid, { offeringField: "computeOfferingUuid", offeringUuid });
  if (size.cpuCore < version.minCpuNumber || size.memory < version.minMemory) {
    throw badInput(
      "computeOfferingUuid",
      `Kubernetes ${version.name} needs nodes of at least ${version.minCpuNumber} vCPUs and ${version.minMemory} MiB`,
    );
  }
  return size;
}

/** Control nodes and HA go together: HA means several control nodes (3 unless told), no HA means one. */
function resolveControlNodes(input: CreateClusterInput): { controlNodes: number; haEnabled: boolean } {
  const haEnabled = input.haEnabled ?? (input.controlNodes ?? 1) > 1;
  const controlNodes = input.controlNodes ?? (haEnabled ? HA_DEFAULT_CONTROL_NODES : 1);
  if (controlNodes < CONTROL_NODES.min || controlNodes > CONTROL_NODES.max) {
    throw badInput("controlNodes", `must be from ${CONTROL_NODES.min} to ${CONTROL_NODES.max}`);
  }
  if (haEnabled && controlNodes < 2) throw badInput("controlNodes", "must be at least 2 when haEnabled is true");
  if (!haEnabled && controlNodes > 1) throw badInput("haEnabled", "must be true for more than one control node");
  return { controlNodes, haEnabled };
}

function requireClusterSize(size: number): void {
  if (size < CLUSTER_SIZE.min || size > CLUSTER_SIZE.max) {
    throw badInput("size", `must be from ${CLUSTER_SIZE.min} to ${CLUSTER_SIZE.max} worker nodes`);
  }
}

function requireDockerRegistry(input: CreateClusterInput): void {
  const fields = ["dockerRegistryUrl", "dockerRegistryUsername", "dockerRegistryPassword"] as const;
  const given = fields.filter((f) => input[f] !== undefined);
  if (given.length > 0 && given.length < fields.length) {
    const absent = fields.find((f) => input[f] === undefined) ?? fields[0];
    throw badInput(absent, "a private Docker registry needs its URL, user name and password together");
  }
}

interface NodeSpec {
  role: NodeRole;
  index: number;
}

/** Places the nodes (state Starting); all or none: a failure (no address left) removes those placed. */
function placeNodes(
  ctx: EmulatorContext,
  scope: AccountScope,
  cluster: ClusterRecord,
  internal: ClusterInternal,
  specs: NodeSpec[],
): InstanceRecord[] {
  const network = scope.collection(NETWORKS)[cluster.networkUuid];
  const version = ctx.catalog.kubernetesVersion(internal.kubernetesVersionUuid);
  const placed: InstanceRecord[] = [];
  try {
    for (const spec of specs) {
      const node = placeInstance(ctx, scope, {
        name: `${cluster.name}-${spec.role === "control" ? "control" : "node"}-${spec.index}`,
        zoneUuid: internal.zoneUuid,
        network,
        template: { uuid: "", name: `Kubernetes ${version?.name ?? ""} node image` },
        size: internal.nodeSize,
        rootDiskSize: cluster.nodeRootDiskSize,
        sshKeyName: internal.sshKeyName,
        node: { clusterUuid: cluster.uuid, clusterRole: spec.role, nodeIndex: spec.index },
      });
      placed.push(node);
    }
  } catch (error) {
    for (const node of placed) {
      for (const volume of volumesOf(scope, node.uuid)) scope.remove(VOLUMES, volume.uuid);
      scope.remove(INSTANCES, node.uuid);
    }
    throw error;
  }
  return placed;
}

/** What the emulator keeps about a cluster besides its record. */
function clusterInternal(scope: AccountScope, uuid: string): ClusterInternal {
  const internal = scope.internal(CLUSTERS)[uuid];
  if (!internal) throw conflict(`Kubernetes cluster ${uuid} has lost its settings (zone, version, node size)`);
  return internal;
}

const setState = (uuid: string, collection: string, state: string): DeferredChange => ({
  collection,
  uuid,
  set: { state },
});

export function createCluster(ctx: EmulatorContext, scope: AccountScope, input: CreateClusterInput): ClusterRecord {
  requireHostName("name", input.name);
  if (input.name.length > MAX_CLUSTER_NAME_LENGTH) {
    throw badInput("name", `must be at most ${MAX_CLUSTER_NAME_LENGTH} characters (node names extend it)`);
  }
  requireZone(ctx, input.zoneUuid);
  const version = ctx.catalog.kubernetesVersion(input.kubernetesSupportedVersionUuid, input.zoneUuid);
  if (!version) {
    if (ctx.catalog.kubernetesVersion(input.kubernetesSupportedVersionUuid)) {
      throw badInput("kubernetesSupportedVersionUuid", `is not offered in zone ${input.zoneUuid}`);
    }
    throw notFound("Kubernetes version", input.kubernetesSupportedVersionUuid);
  }
  const nodeSize = requireNodeSize(ctx, input.zoneUuid, input.computeOfferingUuid, version);
  requireNetwork(scope, "networkUuid", input.networkUuid, input.zoneUuid);
  requireClusterSize(input.size);
  const { controlNodes, haEnabled } = resolveControlNodes(input);
  const nodeRootDiskSize = input.nodeRootDiskSize ?? NODE_ROOT_DISK_GB.default;
  if (nodeRootDiskSize < NODE_ROOT_DISK_GB.min || nodeRootDiskSize > NODE_ROOT_DISK_GB.max) {
    throw badInput("nodeRootDiskSize", `must be from ${NODE_ROOT_DISK_GB.min} to ${NODE_ROOT_DISK_GB.max} GB`);
  }
  if (
    input.externalLoadbalancerIpaddress !== undefined &&
    parseIpv4(input.externalLoadbalancerIpaddress) === undefined
  ) {
    throw badInput("externalLoadbalancerIpaddress", "must be an IPv4 address");
  }
  requireDockerRegistry(input);

  const cluster: ClusterRecord = {
    uuid: ctx.newUuid(),
    name: input.name,
    description: input.description ?? "",
    state: "Starting",
    size: input.size,
    controlNodes,
    nodeRootDiskSize,
    externalLoadbalancerIpaddress: input.externalLoadbalancerIpaddress ?? "",
    networkUuid: input.networkUuid,
    status: "Active",
    isActive: true,
  };
  const internal: ClusterInternal = {
    zoneUuid: input.zoneUuid,
    kubernetesVersionUuid: version.uuid,
    nodeSize,
    haEnabled,
    autoscalingEnabled: false,
    // The registry password is used to pull images and never stored or returned.
    ...(input.dockerRegistryUrl ? { dockerRegistryUrl: input.dockerRegistryUrl } : {}),
    ...(input.dockerRegistryUsername ? { dockerRegistryUsername: input.dockerRegistryUsername } : {}),
    ...(input.sshKeyName ? { sshKeyName: input.sshKeyName } : {}),
  };
  const specs: NodeSpec[] = [
    ...Array.from({ length: controlNodes }, (_, i): NodeSpec => ({ role: "control", index: i + 1 })),
    ...Array.from({ length: input.size }, (_, i): NodeSpec => ({ role: "worker", index: i + 1 })),
  ];
  const nodes = placeNodes(ctx, scope, cluster, internal, specs);
  scope.collection(CLUSTERS)[cluster.uuid] = cluster;
  scope.internal(CLUSTERS)[cluster.uuid] = internal;
  scope.changed();
  ctx.later(scope, "createKubernetes", [
    setState(cluster.uuid, CLUSTERS, "Running"),
    ...nodes.map((n) => setState(n.uuid, INSTANCES, "Running")),
  ]);
  return cluster;
}

export function listClusters(scope: AccountScope, filters: { clusterUuid?: string }): ClusterRecord[] {
  return filterRecords(scope, CLUSTERS, { uuid: filters.clusterUuid });
}

export function listNodes(scope: AccountScope, clusterUuid: string): InstanceRecord[] {
  requireCluster(scope, clusterUuid);
  return nodesOf(scope, clusterUuid);
}

export function changeClusterPower(
  ctx: EmulatorContext,
  scope: AccountScope,
  uuid: string,
  action: keyof typeof POWER_TRANSITIONS,
): ClusterRecord {
  const cluster = requireCluster(scope, uuid);
  const { from, via, to, kind } = POWER_TRANSITIONS[action];
  requireClusterState(cluster, [from], action);
  const nodes = nodesOf(scope, uuid);
  cluster.state = via;
  for (const node of nodes) node.state = via;
  scope.changed();
  ctx.later(scope, kind, [setState(uuid, CLUSTERS, to), ...nodes.map((n) => setState(n.uuid, INSTANCES, to))]);
  return cluster;
}

/**
 * Scaling: the cluster is Scaling for the delay; new workers are placed at once (Starting) and
 * removed workers (the highest-numbered) start expunging at once; the new size shows at the end.
 */
export function scaleCluster(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: { uuid: string; size: number; autoscalingEnabled: boolean },
): ClusterRecord {
  const cluster = requireCluster(scope, input.uuid);
  requireClusterState(cluster, ["Running"], "scaling");
  requireClusterSize(input.size);
  const internal = clusterInternal(scope, input.uuid);
  const nodes = scope.internal(INSTANCES);
  const indexOf = (node: InstanceRecord): number => nodes[node.uuid]?.nodeIndex ?? 0;
  const workers = nodesOf(scope, input.uuid)
    .filter((n) => nodes[n.uuid]?.clusterRole === "worker")
    .sort((a, b) => indexOf(a) - indexOf(b));
  const nextIndex = workers.reduce((max, n) => Math.max(max, indexOf(n)), 0) + 1;
  const added = placeNodes(
    ctx,
    scope,
    cluster,
    internal,
    Array.from({ length: Math.max(0, input.size - workers.length) }, (_, i) => ({
      role: "worker",
      index: nextIndex + i,
    })),
  );
  const removals = workers.slice(input.size).flatMap((node) => beginExpunge(scope, node));
  cluster.state = "Scaling";
  internal.autoscalingEnabled = input.autoscalingEnabled;
  scope.changed();
  ctx.later(scope, "scaleKubernetes", [
    { collection: CLUSTERS, uuid: input.uuid, set: { state: "Running", size: input.size } },
    ...added.map((n) => setState(n.uuid, INSTANCES, "Running")),
    ...removals,
  ]);
  return cluster;
}

/** Destroying: the nodes start expunging at once; the cluster and its nodes are gone after the delay. */
export function destroyCluster(ctx: EmulatorContext, scope: AccountScope, uuid: string): ClusterRecord {
  const cluster = requireCluster(scope, uuid);
  requireClusterState(cluster, ["Running", "Stopped"], "destroying");
  const removals = nodesOf(scope, uuid).flatMap((node) => beginExpunge(scope, node));
  cluster.state = "Destroying";
  scope.changed();
  ctx.later(scope, "destroyKubernetes", [...removals, { collection: CLUSTERS, uuid, remove: true }]);
  return cluster;
}
