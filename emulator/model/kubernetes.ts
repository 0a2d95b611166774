/**
 * Managed Kubernetes clusters. A cluster's control and worker nodes are instances of the account
 * (named `<cluster>-control-N` and `<cluster>-node-N`, on the cluster's network), driven by the
 * cluster: every cluster operation is asynchronous and takes `KUBERNETES_DELAY_FACTOR` async delays.
 */
import type { AccountScope, ApiRecord, DeferredChange, EmulatorContext } from "../core";
import { badInput, conflict, notFound } from "../core";
import { parseIpv4 } from "../cidr";
import { filterRecords, requireZone } from "./records";
import { requireRecord } from "../references";
import {
  beginExpunge,
  INSTANCES,
  placeInstance,
  requireHostName,
  requireNetwork,
  resolveComputeSize,
  type ComputeSize,
} from "./instance";
import { VOLUMES, volumesOf } from "./volume";

export const CLUSTERS = "cluster";

/** Cluster work takes this many async delays: it boots several machines. */
export const KUBERNETES_DELAY_FACTOR = 2;
export const CLUSTER_SIZE = { min: 1, max: 50 } as const;
export const CONTROL_NODES = { min: 1, max: 5 } as const;
/** Control nodes of an HA cluster when the caller does not say (an etcd quorum). */
export const HA_DEFAULT_CONTROL_NODES = 3;
export const NODE_ROOT_DISK_GB = { min: 8, default: 8, max: 1024 } as const;
/** Node names append `-control-N`; host names stop at 63 characters. */
export const MAX_CLUSTER_NAME_LENGTH = 40;

type NodeRole = "control" | "worker";

/** Start and stop: the cluster and its nodes pass through Starting or Stopping. */
const POWER_TRANSITIONS = {
  start: { from: "Stopped", via: "Starting", to: "Running" },
  stop: { from: "Running", via: "Stopping", to: "Stopped" },
} as const;

export interface CreateClusterInput {
  name: string;
  zoneUuid: string;
  kubernetesSupportedVersionUuid: string;
  computeOfferingUuid: string;
  transNetworkUuid: string;
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

function requireCluster(scope: AccountScope, uuid: string): ApiRecord {
  return requireRecord(scope, CLUSTERS, "Kubernetes cluster", uuid);
}

function requireClusterState(cluster: ApiRecord, allowed: readonly string[], action: string): void {
  if (!allowed.includes(cluster.state as string)) {
    throw conflict(
      `Kubernetes cluster ${String(cluster.uuid)} is ${String(cluster.state)}; ${action} needs it ${allowed.join(" or ")}`,
    );
  }
}

export function nodesOf(scope: AccountScope, clusterUuid: string): ApiRecord[] {
  return filterRecords(scope, INSTANCES, { _clusterUuid: clusterUuid });
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
    const absent = fields.find((f) => input[f] === undefined) as string;
    throw badInput(absent, "a private Docker registry needs its URL, user name and password together");
  }
}

interface NodeSpec {
  role: NodeRole;
  index: number;
}

/** Places the nodes (state Starting); all or none: a failure (no address left) removes those placed. */
function placeNodes(ctx: EmulatorContext, scope: AccountScope, cluster: ApiRecord, specs: NodeSpec[]): ApiRecord[] {
  const network = scope.collection("network")[cluster.transNetworkUuid as string];
  const version = ctx.catalog.kubernetesVersion(cluster._kubernetesVersionUuid as string);
  const size = cluster._nodeSize as ComputeSize;
  const placed: ApiRecord[] = [];
  try {
    for (const spec of specs) {
      const node = placeInstance(ctx, scope, {
        name: `${String(cluster.name)}-${spec.role === "control" ? "control" : "node"}-${spec.index}`,
        zoneUuid: cluster._zoneUuid as string,
        network,
        template: { uuid: "", name: `Kubernetes ${version?.name ?? ""} node image` },
        size,
        rootDiskSize: cluster.nodeRootDiskSize as number,
        sshKeyName: cluster._sshKeyName as string | undefined,
        clusterUuid: cluster.uuid as string,
      });
      Object.assign(node, { _clusterRole: spec.role, _nodeIndex: spec.index });
      placed.push(node);
    }
  } catch (error) {
    for (const node of placed) {
      for (const volume of volumesOf(scope, node.uuid as string))
        delete scope.collection(VOLUMES)[volume.uuid as string];
      delete scope.collection(INSTANCES)[node.uuid as string];
    }
    throw error;
  }
  return placed;
}

const setState = (uuid: string, collection: string, state: string): DeferredChange => ({
  collection,
  uuid,
  set: { state },
});

function later(ctx: EmulatorContext, scope: AccountScope, changes: DeferredChange[]): void {
  ctx.later(scope, changes, ctx.asyncDelayMs * KUBERNETES_DELAY_FACTOR);
}

export function createCluster(ctx: EmulatorContext, scope: AccountScope, input: CreateClusterInput): ApiRecord {
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
  requireNetwork(scope, "transNetworkUuid", input.transNetworkUuid, input.zoneUuid);
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

  const cluster: ApiRecord = {
    uuid: ctx.newUuid(),
    name: input.name,
    description: input.description ?? "",
    state: "Starting",
    size: input.size,
    controlNodes,
    nodeRootDiskSize,
    externalLoadbalancerIpaddress: input.externalLoadbalancerIpaddress ?? "",
    transNetworkUuid: input.transNetworkUuid,
    status: "Active",
    isActive: true,
    _zoneUuid: input.zoneUuid,
    _kubernetesVersionUuid: version.uuid,
    _nodeSize: nodeSize,
    _haEnabled: haEnabled,
    _autoscalingEnabled: false,
    // The registry password is used to pull images and never stored or returned.
    ...(input.dockerRegistryUrl ? { _dockerRegistryUrl: input.dockerRegistryUrl } : {}),
    ...(input.dockerRegistryUsername ? { _dockerRegistryUsername: input.dockerRegistryUsername } : {}),
    ...(input.sshKeyName ? { _sshKeyName: input.sshKeyName } : {}),
  };
  const specs: NodeSpec[] = [
    ...Array.from({ length: controlNodes }, (_, i): NodeSpec => ({ role: "control", index: i + 1 })),
    ...Array.from({ length: input.size }, (_, i): NodeSpec => ({ role: "worker", index: i + 1 })),
  ];
  const nodes = placeNodes(ctx, scope, cluster, specs);
  scope.collection(CLUSTERS)[cluster.uuid as string] = cluster;
  scope.changed();
  later(ctx, scope, [
    setState(cluster.uuid as string, CLUSTERS, "Running"),
    ...nodes.map((n) => setState(n.uuid as string, INSTANCES, "Running")),
  ]);
  return cluster;
}

export function listClusters(scope: AccountScope, filters: { clusterUuid?: string }): ApiRecord[] {
  return filterRecords(scope, CLUSTERS, { uuid: filters.clusterUuid });
}

export function listNodes(scope: AccountScope, clusterUuid: string): ApiRecord[] {
  requireCluster(scope, clusterUuid);
  return nodesOf(scope, clusterUuid);
}

export function changeClusterPower(
  ctx: EmulatorContext,
  scope: AccountScope,
  uuid: string,
  action: keyof typeof POWER_TRANSITIONS,
): ApiRecord {
  const cluster = requireCluster(scope, uuid);
  const { from, via, to } = POWER_TRANSITIONS[action];
  requireClusterState(cluster, [from], action);
  const nodes = nodesOf(scope, uuid);
  cluster.state = via;
  for (const node of nodes) node.state = via;
  scope.changed();
  later(ctx, scope, [setState(uuid, CLUSTERS, to), ...nodes.map((n) => setState(n.uuid as string, INSTANCES, to))]);
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
): ApiRecord {
  const cluster = requireCluster(scope, input.uuid);
  requireClusterState(cluster, ["Running"], "scaling");
  requireClusterSize(input.size);
  const workers = nodesOf(scope, input.uuid)
    .filter((n) => n._clusterRole === "worker")
    .sort((a, b) => (a._nodeIndex as number) - (b._nodeIndex as number));
  const nextIndex = workers.reduce((max, n) => Math.max(max, n._nodeIndex as number), 0) + 1;
  const added = placeNodes(
    ctx,
    scope,
    cluster,
    Array.from({ length: Math.max(0, input.size - workers.length) }, (_, i) => ({
      role: "worker",
      index: nextIndex + i,
    })),
  );
  const removals = workers.slice(input.size).flatMap((node) => beginExpunge(scope, node));
  Object.assign(cluster, { state: "Scaling", _autoscalingEnabled: input.autoscalingEnabled });
  scope.changed();
  later(ctx, scope, [
    { collection: CLUSTERS, uuid: input.uuid, set: { state: "Running", size: input.size } },
    ...added.map((n) => setState(n.uuid as string, INSTANCES, "Running")),
    ...removals,
  ]);
  return cluster;
}

/** Destroying: the nodes start expunging at once; the cluster and its nodes are gone after the delay. */
export function destroyCluster(ctx: EmulatorContext, scope: AccountScope, uuid: string): ApiRecord {
  const cluster = requireCluster(scope, uuid);
  requireClusterState(cluster, ["Running", "Stopped"], "destroying");
  const removals = nodesOf(scope, uuid).flatMap((node) => beginExpunge(scope, node));
  cluster.state = "Destroying";
  scope.changed();
  later(ctx, scope, [...removals, { collection: CLUSTERS, uuid, remove: true }]);
  return cluster;
}
