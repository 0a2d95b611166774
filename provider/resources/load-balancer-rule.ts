import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { defaultValue, stateDefaults, withDefault, withDefaultText } from "../engine/defaults";
import { port, uuid } from "../engine/validators";
import { recordLookup, showing, until } from "../engine/waits";
import { perMonth } from "../pricing";
import { args, byUuid, minutes, portNumber, recordOutputs } from "./common";
import { findInZones } from "../engine/import";
import { lbAlgorithm, networkOfAddress, removeUntilGone, zoneOfNetwork } from "./networking-common";
import { text } from "../engine/inventory";

async function getRule(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.loadBalancerRule.list({ zoneUuid, uuid: id }), id);
}
type LbRule = NonNullable<Awaited<ReturnType<typeof getRule>>>;

/** A rule is listed per zone: the one its create answered (ruleZoneUuid). */
const lbRuleRecord = recordLookup("load-balancer rule", (ctx, id, state: { ruleZoneUuid?: string }) =>
  getRule(ctx, state.ruleZoneUuid!, id),
);

const stickiness = z.strictObject({
  method: z
    .enum(["None", "LbCookie", "AppCookie", "SourceBased"], {
      error: "must be one of None, LbCookie, AppCookie, SourceBased",
    })
    .describe("How a client sticks to one instance: None, LbCookie, AppCookie or SourceBased."),
  name: z.string().min(1).optional().describe("The stickiness policy's name."),
  cookieName: z.string().min(1).optional().describe("The cookie that carries the stickiness (cookie methods)."),
  holdTime: z.number().int().min(1).optional().describe("How long a client stays on its instance, in seconds."),
});

const inputs = z.object({
  name: args.name("rule"),
  ipAddressUuid: uuid.describe("The public IP address whose port is balanced."),
  networkUuid: uuid.describe(
    "The network whose instances receive the traffic: the address's network, or a tier of the address's VPC.",
  ),
  publicPort: port.describe("The public port."),
  privatePort: port.describe("The instances' port."),
  algorithm: withDefault(
    lbAlgorithm.optional().describe("How connections are spread: source (by client address), roundrobin or leastconn."),
    "roundrobin",
    { keptInState: true },
  ),
  stickiness: withDefaultText(
    stickiness
      .optional()
      .describe(
        "A stickiness policy (the API's svcLbSticky): which instance a returning client reaches. The API cannot change it in place.",
      ),
    "none",
  ),
  stickinessPolicyUuid: uuid.optional().describe("An existing stickiness policy to apply instead."),
});

/** The algorithm sent when none is declared (the declared default). */
const defaultAlgorithm = defaultValue(inputs.shape.algorithm);

/** A public load-balancer rule: a public port of an address balanced to a private port of a network's instances. */
export const loadBalancerRuleDeclaration = defineResource({
  type: "LoadBalancerRule",
  noun: "load-balancer rule",
  description:
    "A public load-balancer rule: a public TCP port of a public IP address balanced over a private port of the instances of a network.",
  price: perMonth("Load-balancer rule", { call: "loadBalancerCost", field: "loadBalancerCost" }),
  inputs,
  outputs: z.object({
    ...recordOutputs,
    state: z.string().optional().describe("The rule's state (Add while it is being applied, then Active)."),
    stickinessName: z.string().optional().describe("The name of the stickiness policy the API reports."),
    ruleZoneUuid: z.string().optional().describe("The zone of the rule (its list calls are per zone)."),
  }),
  autoName: "name",
  defaults: stateDefaults(inputs),
  // The record names its stickiness policy only, and not its network: a rule on a VPC's address
  // balances over one of the VPC's tiers, which only a VPC of one tier tells (locate).
  unreadable: ["networkUuid", "stickiness", "stickinessPolicyUuid"],
  replaceOn: ["ipAddressUuid", "networkUuid", "publicPort", "privatePort", "stickiness", "stickinessPolicyUuid"],
  updates: [
    {
      fields: ["name", "algorithm"],
      via: "updateLoadBalancerRule",
      awaits: ["visible"],
      async *apply(ctx, id, news) {
        const change = { name: news.name!, algorithm: news.algorithm ?? defaultAlgorithm };
        await ctx.client.loadBalancerRule.update({ uuid: id, ...change });
        yield showing<LbRule>(change);
      },
    },
  ],
  // A public port is used once per address: a replacement keeping it can only follow the delete.
  deleteBeforeReplace: true,
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  // The address's public port is taken by one rule only.
  identity: {
    scope: (inputs) => `${inputs.ipAddressUuid}/${inputs.publicPort}`,
    candidates: async (ctx, inputs) => {
      const zoneUuid = await zoneOfNetwork(ctx, inputs.networkUuid);
      return zoneUuid === undefined
        ? []
        : ctx.client.loadBalancerRule.list({ zoneUuid, ipAddressUuid: inputs.ipAddressUuid });
    },
    matches: (rule, inputs) => portNumber(rule.publicPort) === inputs.publicPort,
  },
  tagType: "LoadBalancer",
  inventory: {
    list: async (lists) =>
      (await lists.client.loadBalancerRule.list({ zoneUuid: lists.zoneUuid })).map((rule) => ({
        id: rule.uuid,
        name: text(rule.name),
        parentId: text(rule.ipAddressUuid),
      })),
  },
  create: async (ctx, inputs) => {
    const zoneUuid = await zoneOfNetwork(ctx, inputs.networkUuid);
    const sticky = inputs.stickiness;
    const rule = await ctx.client.loadBalancerRule.create(
      {
        name: inputs.name!,
        publicIpUuid: inputs.ipAddressUuid,
        networkUuid: inputs.networkUuid,
        publicport: String(inputs.publicPort),
        privateport: String(inputs.privatePort),
        algorithm: inputs.algorithm ?? defaultAlgorithm,
        stickinessPolicyUuid: inputs.stickinessPolicyUuid,
        svcLbSticky: sticky && {
          stickinessMethod: sticky.method,
          stickinessName: sticky.name,
          cookieName: sticky.cookieName,
          stickyHoldTime: sticky.holdTime === undefined ? undefined : String(sticky.holdTime),
        },
      },
      { verify: ctx.findCreated },
    );
    return { id: rule.uuid, known: { ruleZoneUuid: rule.zoneUuid ?? zoneUuid } };
  },
  record: lbRuleRecord,
  ready: [until<LbRule>("to be applied", (rule) => rule.state !== "Add")],
  // Import: the zone whose list holds the rule, and the network it balances over where the records
  // tell it (networkOfAddress): the address's network, or a VPC's only tier.
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, (zoneUuid) => getRule(ctx, zoneUuid, id));
    if (!hit) return undefined;
    const { zoneUuid, found: rule } = hit;
    const networkUuid = rule.ipAddressUuid ? await networkOfAddress(ctx, zoneUuid, rule.ipAddressUuid) : undefined;
    return { ruleZoneUuid: rule.zoneUuid || zoneUuid, networkUuid };
  },
  read: async (ctx, id, state) => {
    const rule = await getRule(ctx, state.ruleZoneUuid!, id);
    if (!rule) return undefined;
    return {
      inputs: {
        name: rule.name,
        algorithm: rule.algorithm as z.infer<typeof lbAlgorithm> | undefined,
        ipAddressUuid: rule.ipAddressUuid,
        publicPort: portNumber(rule.publicPort),
        privatePort: portNumber(rule.privatePort),
      },
      outputs: {
        uuid: rule.uuid,
        status: rule.status,
        isActive: rule.isActive,
        state: rule.state,
        stickinessName: rule.stickinessName || undefined,
        ruleZoneUuid: rule.zoneUuid ?? state.ruleZoneUuid,
      },
    };
  },
  delete: (ctx, id, state) =>
    removeUntilGone(ctx, id, state, {
      lookup: lbRuleRecord,
      remove: () => ctx.client.loadBalancerRule.delete({ uuid: id }),
    }),
});
