import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { defaultValue, stateDefaults, withDefault } from "../engine/defaults";
import { byName } from "../engine/identity";
import { catalogReference, ipv4Address, uuid } from "../engine/validators";
import { gone, recordLookup, until } from "../engine/waits";
import { priceCluster } from "../pricing";
import { appliedWhen, args, byUuid, minutes } from "./common";
import { orNone, text, type InventoryLists } from "../engine/inventory";

/** The account's clusters, listed once for their records and their nodes. */
const clusters = (lists: InventoryLists) => lists.once("kubernetes.list", () => lists.client.kubernetes.list({}));

const DESIRED_STATES = ["Running", "Stopped"] as const;

async function getCluster(ctx: OperationContext, id: string) {
  return byUuid(await ctx.client.kubernetes.list({ clusterUuid: id }), id);
}
type Cluster = NonNullable<Awaited<ReturnType<typeof getCluster>>>;

/** The cluster list is the account's: a cluster is found by its id alone. */
const clusterRecord = recordLookup("Kubernetes cluster", (ctx, id) => getCluster(ctx, id));

/** Lifecycle calls are asynchronous: the cluster settles in `state` (with `size` nodes, after a scale). */
const inState = (state: string, size?: number) =>
  until<Cluster>(
    `to be ${state}${size === undefined ? "" : ` with ${size} nodes`}`,
    (c) => c.state === state && (size === undefined || c.size === size),
  );
const settled = until<Cluster>(
  "to settle",
  (c) => c.state === "Running" || c.state === "Stopped" || c.state === "Error",
);

/** After an ambiguous failure of an action: the cluster read back shows it in `states` (in transition or done). */
const clusterShows = (ctx: OperationContext, id: string, ...states: string[]) =>
  appliedWhen(
    () => getCluster(ctx, id),
    (cluster) => states.includes(cluster.state ?? ""),
  );

const inputs = z.object({
  name: args.name("cluster"),
  zoneUuid: args.zoneUuid("cluster"),
  kubernetesVersionUuid: catalogReference("kubernetesVersion").describe(
    "The Kubernetes version (see getKubernetesVersions).",
  ),
  computeOfferingUuid: catalogReference("computeOffering").describe(
    "The compute plan of every node; it must meet the version's minimum CPU and memory.",
  ),
  networkUuid: uuid.describe("The network the nodes join."),
  size: z.number().int().min(1).max(100).describe("The number of worker nodes."),
  autoscalingEnabled: withDefault(z.boolean().optional().describe("Let the cluster scale its workers itself."), false, {
    keptInState: true,
  }),
  controlNodes: withDefault(z.number().int().min(1).max(7).optional().describe("The number of control nodes."), 1),
  haEnabled: withDefault(z.boolean().optional().describe("A highly available control plane."), false),
  nodeRootDiskSize: z.number().int().min(8).optional().describe("The root disk of every node in GB."),
  sshKeyName: z.string().min(1).optional().describe("The SSH key pair installed on the nodes."),
  description: z.string().optional().describe("Free text shown with the cluster."),
  externalLoadBalancerIpAddress: ipv4Address
    .optional()
    .describe("The address of an external load balancer for the API server."),
  dockerRegistryUrl: z.string().optional().describe("A private container registry the nodes pull from."),
  dockerRegistryUsername: z.string().optional().describe("The registry's user name."),
  dockerRegistryPassword: z.string().optional().describe("The registry's password: a secret, encrypted in state."),
  state: withDefault(
    z.enum(DESIRED_STATES, { error: "must be Running or Stopped" }).optional().describe("The desired state."),
    "Running",
    { keptInState: true },
  ),
});

/** A managed Kubernetes cluster. */
export const kubernetesClusterDeclaration = defineResource({
  type: "KubernetesCluster",
  description: "A managed Kubernetes cluster on a network: control nodes and a scalable pool of worker nodes.",
  price: priceCluster,
  inputs,
  outputs: z.object({
    uuid: z.string().describe("The cluster's identifier."),
    currentState: z.string().optional().describe("The state the API reports (Starting, Running, Scaling, Stopped...)."),
    currentSize: z.number().optional().describe("The number of worker nodes the API reports."),
    currentControlNodes: z.number().optional().describe("The number of control nodes the API reports."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  defaults: stateDefaults(inputs),
  // No record names the version, the HA choice, the key, autoscaling or the registry.
  unreadable: [
    "kubernetesVersionUuid",
    "haEnabled",
    "sshKeyName",
    "autoscalingEnabled",
    "dockerRegistryUrl",
    "dockerRegistryUsername",
    "dockerRegistryPassword",
  ],
  secretInputs: ["dockerRegistryPassword"],
  replaceOn: [
    "name",
    "zoneUuid",
    "kubernetesVersionUuid",
    "computeOfferingUuid",
    "networkUuid",
    "controlNodes",
    "haEnabled",
    "nodeRootDiskSize",
    "sshKeyName",
    "description",
    "externalLoadBalancerIpAddress",
    "dockerRegistryUrl",
    "dockerRegistryUsername",
    "dockerRegistryPassword",
  ],
  updates: [
    {
      fields: ["size", "autoscalingEnabled"],
      via: "scaleKubernetes",
      awaits: ["state"],
      async *apply(ctx, id, news) {
        yield settled;
        await ctx.client.kubernetes.scale(
          {
            uuid: id,
            size: news.size,
            autoscalingEnabled: news.autoscalingEnabled ?? defaultValue(inputs.shape.autoscalingEnabled),
          },
          { verify: clusterShows(ctx, id, "Scaling") },
        );
        yield inState("Running", news.size);
      },
    },
    {
      fields: ["state"],
      via: "startKubernetes, stopKubernetes",
      awaits: ["state"],
      async *apply(ctx, id, news) {
        const desired = news.state ?? defaultValue(inputs.shape.state);
        const current = (yield settled) as Cluster;
        if (current.state === desired) return;
        if (desired === "Running")
          await ctx.client.kubernetes.start({ uuid: id }, { verify: clusterShows(ctx, id, "Starting", "Running") });
        else await ctx.client.kubernetes.stop({ uuid: id }, { verify: clusterShows(ctx, id, "Stopping", "Stopped") });
        yield inState(desired);
      },
    },
  ],
  // Cluster creation takes long on real deployments (15 minutes was too short for some).
  defaultTimeouts: { create: minutes(45), update: minutes(30), delete: minutes(30) },
  identity: {
    scope: (inputs) => `account/${inputs.name}`,
    candidates: (ctx, _inputs, where) => ctx.client.kubernetes.list({}, { where }),
    ...byName,
  },
  inventory: {
    accountWide: true,
    list: async (lists) =>
      (await clusters(lists)).map((cluster) => ({
        id: cluster.uuid,
        name: text(cluster.name),
        parentId: text(cluster.transNetworkUuid),
      })),
    // A cluster's nodes are instances the service made for it: no resource of their own.
    marks: async (lists) => {
      const nodes = await Promise.all(
        (await clusters(lists)).map(async (cluster) =>
          (await orNone(() => lists.client.kubernetes.nodes({ clusterUuid: cluster.uuid }))).map((node) => ({
            kinds: ["Instance"],
            id: node.uuid,
            derived: `a node of Kubernetes cluster ${cluster.uuid}`,
            derivedFrom: cluster.uuid,
          })),
        ),
      );
      return nodes.flat();
    },
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const cluster = await ctx.client.kubernetes.create(
      {
        name,
        zoneUuid: inputs.zoneUuid!,
        kubernetesSupportedVersionUuid: inputs.kubernetesVersionUuid,
        computeOfferingUuid: inputs.computeOfferingUuid,
        transNetworkUuid: inputs.networkUuid,
        size: inputs.size,
        controlNodes: inputs.controlNodes,
        haEnabled: inputs.haEnabled,
        nodeRootDiskSize: inputs.nodeRootDiskSize,
        sshKeyName: inputs.sshKeyName,
        description: inputs.description,
        externalLoadbalancerIpaddress: inputs.externalLoadBalancerIpAddress,
        dockerRegistryUrl: inputs.dockerRegistryUrl,
        dockerRegistryUsername: inputs.dockerRegistryUsername,
        dockerRegistryPassword: inputs.dockerRegistryPassword,
      },
      { verify: ctx.findCreated },
    );
    return { id: cluster.uuid };
  },
  record: clusterRecord,
  ready: [inState("Running")],
  // A new cluster runs, without autoscaling (the create call cannot turn it on).
  createdAs: () => ({ autoscalingEnabled: false, state: "Running" as const }),
  // Import: the cluster list is the account's, but its record names neither its zone nor its plan:
  // the zone is its network's, the plan its nodes' (every node has the cluster's compute plan).
  locate: async (ctx, id) => {
    const cluster = await getCluster(ctx, id);
    if (!cluster) return undefined;
    const nodes = await ctx.client.kubernetes.nodes({ clusterUuid: id });
    const network = cluster.transNetworkUuid
      ? await ctx.client.network.get({ uuid: cluster.transNetworkUuid })
      : undefined;
    const only = (values: (string | undefined)[]) => {
      const distinct = [...new Set(values.filter((v): v is string => v !== undefined && v !== ""))];
      return distinct.length === 1 ? distinct[0] : undefined;
    };
    return {
      zoneUuid: network?.zoneUuid ?? only(nodes.map((n) => n.zoneUuid)),
      computeOfferingUuid: only(nodes.map((n) => n.computeOfferingUuid)),
    };
  },
  read: async (ctx, id) => {
    const cluster = await getCluster(ctx, id);
    if (!cluster) return undefined;
    const settled = cluster.state === "Running" || cluster.state === "Stopped" ? cluster.state : undefined;
    return {
      inputs: {
        name: cluster.name,
        networkUuid: cluster.transNetworkUuid,
        size: cluster.size,
        controlNodes: cluster.controlNodes,
        nodeRootDiskSize: cluster.nodeRootDiskSize,
        description: cluster.description,
        externalLoadBalancerIpAddress: cluster.externalLoadbalancerIpaddress || undefined,
        state: settled as (typeof DESIRED_STATES)[number] | undefined,
      },
      outputs: {
        uuid: cluster.uuid,
        currentState: cluster.state,
        currentSize: cluster.size,
        currentControlNodes: cluster.controlNodes,
      },
    };
  },
  async *delete(ctx, id) {
    if (!(await getCluster(ctx, id))) return;
    yield settled;
    await ctx.client.kubernetes.destroy({ uuid: id }, { verify: clusterShows(ctx, id, "Destroying") });
    yield gone("to be destroyed");
  },
});
