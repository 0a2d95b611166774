import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { defaultValue, stateDefaults, withDefault, withDefaultText } from "../engine/defaults";
import { ipv4Address, port, uuid } from "../engine/validators";
import { recordLookup, until } from "../engine/waits";
import { perMonth } from "../pricing";
import { args, minutes, portNumber } from "./common";
import { findInZones } from "../engine/import";
import { lbAlgorithm, removeUntilGone, zoneOfNetwork } from "./networking-common";
import { text } from "../engine/inventory";

/** The internal load balancer named `name` in the zone, or undefined when it is gone. */
async function getByName(ctx: OperationContext, zoneUuid: string, name: string) {
  return (await ctx.client.internalLb.list({ zoneUuid, uuid: name })).find((lb) => lb.name === name);
}
type InternalLb = NonNullable<Awaited<ReturnType<typeof getByName>>>;

const internalLbRecord = recordLookup("internal load balancer", (ctx, id, state: { zoneUuid?: string }) =>
  getByName(ctx, state.zoneUuid!, id),
);

const inputs = z.object({
  name: args
    .name("internal load balancer")
    .describe("The load balancer's name, unique in the account, and the resource's id."),
  networkUuid: uuid.describe("The VPC tier (a VpcTier) it balances in."),
  sourcePort: port.describe("The port it listens on, at its source address."),
  instancePort: port.describe("The instances' port it forwards to."),
  algorithm: withDefault(
    lbAlgorithm.optional().describe("How connections are spread: source, roundrobin or leastconn."),
    "roundrobin",
    { keptInState: true },
  ),
  sourceIpAddress: withDefaultText(
    ipv4Address.optional().describe("The address it listens on, inside the tier."),
    "a free address of the tier, chosen by the cloud (see `ipAddress`)",
  ),
  description: z.string().optional().describe("Free text shown with the load balancer."),
  assignInstances: withDefault(
    z
      .boolean()
      .optional()
      .describe("Assign the tier's instances to it at creation (assignLbRule), which activates it."),
    true,
    { keptInState: true },
  ),
});

/** The algorithm sent when none is declared (the declared default). */
const defaultAlgorithm = defaultValue(inputs.shape.algorithm);

/**
 * An internal load balancer of a VPC tier. The API's record has no uuid: the name, unique in the account, is what calls
 * take for one (deleteInternalLb/{name}, assignLbRule?uuid=<name>, internalLbList?uuid=<name>), so the resource's id is
 * its name (read lists it in the zone kept in state; a new name replaces). An explicit name survives a replacement and
 * two of one name cannot coexist, so replacements delete first (deleteBeforeReplace).
 */
export const internalLoadBalancerDeclaration = defineResource({
  type: "InternalLoadBalancer",
  description:
    "An internal load balancer of a VPC tier: a source address and port of the tier balanced over a port of the tier's instances. The API identifies it by its name, unique in the account: the resource's id is that name.",
  price: perMonth("Load-balancer rule", { call: "loadBalancerCost", field: "loadBalancerCost" }),
  inputs,
  outputs: z.object({
    ipAddress: z.string().optional().describe("The address it listens on (sourceIpAddress, given or chosen)."),
    zoneUuid: z.string().optional().describe("The zone of its tier."),
    status: z
      .string()
      .optional()
      .describe("Its status as the API reports it (Add until instances are assigned, then Active)."),
    isActive: z.boolean().optional().describe("Whether the API reports it as active."),
  }),
  autoName: "name",
  defaults: stateDefaults(inputs),
  // Whether instances were assigned at create is not shown.
  unreadable: ["assignInstances"],
  replaceOn: [
    "name",
    "networkUuid",
    "sourcePort",
    "instancePort",
    "algorithm",
    "sourceIpAddress",
    "description",
    "assignInstances",
  ],
  updates: [],
  deleteBeforeReplace: true,
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  // The record carries no uuid: its name, unique in the account, is its identity.
  identity: {
    scope: (inputs) => inputs.name!,
    candidates: async (ctx, inputs) => {
      const zoneUuid = await zoneOfNetwork(ctx, inputs.networkUuid);
      if (zoneUuid === undefined) return [];
      const lbs = await ctx.client.internalLb.list({ zoneUuid, uuid: inputs.name! });
      return lbs.map((lb) => ({ ...lb, uuid: lb.name }));
    },
    matches: (lb, inputs) => lb.name === inputs.name,
  },
  // The record carries no uuid: an internal load balancer is known by its name.
  inventory: {
    knownByName: true,
    list: async (lists) =>
      (await lists.client.internalLb.list({ zoneUuid: lists.zoneUuid })).flatMap((lb) => {
        const name = text(lb.name);
        return name === undefined ? [] : [{ id: name, name, parentId: text(lb.networkUuid) }];
      }),
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const zoneUuid = (await zoneOfNetwork(ctx, inputs.networkUuid))!;
    const lb = await ctx.client.internalLb.create(
      {
        name,
        networkUuid: inputs.networkUuid,
        sourceport: String(inputs.sourcePort),
        instanceport: String(inputs.instancePort),
        algorithm: inputs.algorithm ?? defaultAlgorithm,
        sourceIpAddress: inputs.sourceIpAddress,
        description: inputs.description,
      },
      { verify: ctx.findCreated },
    );
    return { id: name, known: { zoneUuid: lb.zoneUuid ?? zoneUuid, ipAddress: lb.sourceIpAddress } };
  },
  record: internalLbRecord,
  // Ready once its instances are assigned: active, no longer being added.
  async *ready(ctx, id, state) {
    if (state.assignInstances === false) return;
    await ctx.client.internalLb.assignRule({ uuid: id });
    yield until<InternalLb>("to be active", (lb) => lb.status !== "Add");
  },
  // Import: the zone whose list holds a load balancer of this name.
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, (zoneUuid) => getByName(ctx, zoneUuid, id));
    return hit && { zoneUuid: hit.found.zoneUuid || hit.zoneUuid };
  },
  read: async (ctx, id, state) => {
    const lb = await internalLbRecord.find(ctx, id, state);
    if (!lb) return undefined;
    return {
      inputs: {
        name: lb.name,
        networkUuid: lb.networkUuid,
        sourcePort: portNumber(lb.sourcePort),
        instancePort: portNumber(lb.instancePort),
        algorithm: lb.algorithm as z.infer<typeof lbAlgorithm> | undefined,
        sourceIpAddress: lb.sourceIpAddress,
        description: lb.description,
      },
      outputs: {
        ipAddress: lb.sourceIpAddress,
        zoneUuid: lb.zoneUuid ?? state.zoneUuid,
        status: lb.status,
        isActive: lb.isActive,
      },
    };
  },
  delete: (ctx, id, state) =>
    removeUntilGone(ctx, id, state, {
      lookup: internalLbRecord,
      remove: () => ctx.client.internalLb.delete({ uuid: id }),
    }),
});
