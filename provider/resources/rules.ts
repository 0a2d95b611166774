import { z } from "zod";
import { defaultValue, withDefault, withDefaultText } from "../engine/defaults";
import { defineResource, type OperationContext, type ResourceDeclaration } from "../engine/declaration";
import { checkPortRange, cidrList, port, protocol, uuid } from "../engine/validators";
import type { CallOptions, RestCloudClient } from "../client";
import { findInZones } from "../engine/import";
import { liveCidrList, zoneOfAddress, zoneOfNetwork } from "./networking-common";
import { byUuid, minutes, portNumber, portText, recordOutputs } from "./common";
import { gone, recordLookup } from "../engine/waits";
import { text, trafficDetail, type InventoryFacet, type InventoryLists } from "../engine/inventory";

/** The arguments both rule kinds share: none can be updated (the API has no update call for rules). */
const ruleArguments = {
  protocol: protocol.describe("TCP, UDP or ICMP."),
  startPort: port.optional().describe("The first port of the range (TCP and UDP)."),
  endPort: withDefaultText(port.optional().describe("The last port of the range."), "startPort"),
  cidrList: withDefault(
    cidrList.optional().describe("The source (firewall) or destination (egress) CIDR blocks, comma-separated."),
    "0.0.0.0/0",
  ),
  icmpType: z.number().int().min(-1).max(255).optional().describe("The ICMP type (ICMP only; -1 for any)."),
  icmpCode: z.number().int().min(-1).max(255).optional().describe("The ICMP code (ICMP only; -1 for any)."),
};
type RuleArguments = z.infer<z.ZodObject<typeof ruleArguments>>;
/** Every argument of a rule replaces it. */
const RULE_ARGUMENTS = ["protocol", "startPort", "endPort", "cidrList", "icmpType", "icmpCode"] as const;

/** What the firewall-rule and egress-rule operation tables have in common, as the declarations use it. */
interface RuleRecord {
  uuid: string;
  zoneUuid?: string;
  protocol?: string;
  startPort?: string;
  endPort?: string;
  icmpType?: string;
  icmpCode?: string;
  cidrList?: string;
  status?: string;
  isActive?: boolean;
}
interface RuleOperations {
  create(input: Record<string, unknown>, options?: CallOptions<RuleRecord>): Promise<RuleRecord>;
  list(input: { zoneUuid: string; uuid?: string; ipAddressUuid?: string; networkUuid?: string }): Promise<RuleRecord[]>;
  delete(input: { uuid: string }): Promise<unknown>;
}

const ruleOutputs = z.object({
  ...recordOutputs,
  ruleZoneUuid: z.string().optional().describe("The zone of the rule (its list calls are per zone)."),
});

type RuleBehaviour = Pick<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- shared by two input shapes; each declaration is typed
  ResourceDeclaration<any, typeof ruleOutputs>,
  "outputs" | "updates" | "defaultTimeouts" | "identity" | "create" | "locate" | "record" | "read" | "delete"
>;

/** An ICMP value of an ICMP rule as a number (the record writes it as text; "" for other protocols). */
const icmpNumber = (rule: RuleRecord, field: "icmpType" | "icmpCode") => {
  const value = rule[field];
  if (rule.protocol?.toUpperCase() !== "ICMP" || value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isInteger(n) ? n : undefined;
};

/** A rule's request: the target, the traffic, the defaults the API would apply made explicit. */
function ruleRequest(target: "ipAddressUuid" | "networkUuid", inputs: RuleArguments & Record<string, string>) {
  return {
    [target]: inputs[target],
    protocol: inputs.protocol,
    startPort: portText(inputs.startPort),
    endPort: portText(inputs.endPort ?? inputs.startPort),
    cidrList: inputs.cidrList ?? defaultValue(ruleArguments.cidrList),
    icmpType: inputs.icmpType === undefined ? undefined : String(inputs.icmpType),
    icmpCode: inputs.icmpCode === undefined ? undefined : String(inputs.icmpCode),
  };
}

/**
 * What both rule kinds do: a rule hangs on a `target` (a public IP, a network), every argument
 * replaces (there is no update call), and its list calls need the zone the create answered with
 * (kept as `ruleZoneUuid`).
 */
function ruleBehaviour(
  target: "ipAddressUuid" | "networkUuid",
  noun: string,
  operations: (c: RestCloudClient) => RuleOperations,
): RuleBehaviour {
  const find = async (ctx: OperationContext, id: string, zoneUuid: string) =>
    byUuid(await operations(ctx.client).list({ zoneUuid, uuid: id }), id);
  const zoneOfTarget = (ctx: OperationContext, inputs: Record<string, string>) =>
    target === "networkUuid" ? zoneOfNetwork(ctx, inputs.networkUuid) : zoneOfAddress(ctx, inputs.ipAddressUuid);
  return {
    outputs: ruleOutputs,
    updates: [],
    defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
    // The service refuses a second rule covering the same traffic of a target: the target, protocol
    // and ports tell a rule apart; rules have no name.
    identity: {
      scope: (inputs) => {
        const r = ruleRequest(target, inputs);
        return [r[target], r.protocol.toUpperCase(), r.startPort, r.endPort, r.icmpType, r.icmpCode].join("/");
      },
      candidates: async (ctx, inputs) => {
        const zoneUuid = await zoneOfTarget(ctx, inputs);
        return zoneUuid === undefined ? [] : operations(ctx.client).list({ zoneUuid, [target]: inputs[target] });
      },
      matches: (rule: RuleRecord & Record<string, string | undefined>, inputs) => {
        const r = ruleRequest(target, inputs);
        return (
          rule[target] === r[target] &&
          rule.protocol?.toUpperCase() === r.protocol.toUpperCase() &&
          (rule.startPort ?? "") === (r.startPort ?? "") &&
          (rule.endPort ?? "") === (r.endPort ?? "")
        );
      },
    },
    create: async (ctx, inputs: RuleArguments & Record<string, string>) => {
      const rule = await operations(ctx.client).create(ruleRequest(target, inputs), { verify: ctx.findCreated });
      return { id: rule.uuid, known: { ruleZoneUuid: rule.zoneUuid } };
    },
    // Import: the zone whose list holds the rule (its list calls take a zone, which the id does not give).
    locate: async (ctx, id) => {
      const hit = await findInZones(ctx, (zoneUuid) => find(ctx, id, zoneUuid));
      return hit && { ruleZoneUuid: hit.found.zoneUuid || hit.zoneUuid };
    },
    read: async (ctx, id, state) => {
      const rule = await find(ctx, id, state.ruleZoneUuid!);
      if (!rule) return undefined;
      return {
        inputs: {
          [target]: (rule as RuleRecord & Record<string, string | undefined>)[target],
          protocol: rule.protocol,
          startPort: portNumber(rule.startPort),
          endPort: portNumber(rule.endPort),
          // The egress record omits it (the spec says so): not readable there, and no drift seen.
          cidrList: liveCidrList(rule.cidrList, state.cidrList as string | undefined),
          icmpType: icmpNumber(rule, "icmpType"),
          icmpCode: icmpNumber(rule, "icmpCode"),
        },
        outputs: {
          uuid: rule.uuid,
          status: rule.status,
          isActive: rule.isActive,
          ruleZoneUuid: rule.zoneUuid ?? state.ruleZoneUuid,
        },
      };
    },
    // A rule is listed per zone: the one its create answered (ruleZoneUuid).
    record: recordLookup(noun, (ctx, id, state: { ruleZoneUuid?: string }) => find(ctx, id, state.ruleZoneUuid!)),
    async *delete(ctx, id) {
      await operations(ctx.client).delete({ uuid: id });
      yield gone();
    },
  };
}

/** A zone's rules of a kind, for discover: each on its target, with its traffic. */
const ruleInventory = (
  target: "ipAddressUuid" | "networkUuid",
  alias: string,
  list: (lists: InventoryLists) => Promise<(RuleRecord & Partial<Record<typeof target, string>>)[]>,
): InventoryFacet => ({
  naming: { alias },
  list: async (lists) =>
    (await list(lists)).map((rule) => ({
      id: rule.uuid,
      parentId: text(rule[target]),
      detail: trafficDetail(rule.protocol, rule.startPort, rule.endPort),
    })),
});

/** An ingress firewall rule on a public IP address. */
export const firewallRuleDeclaration = defineResource({
  type: "FirewallRule",
  description: "An ingress firewall rule on a public IP address: which sources may reach which ports.",
  reaches: {
    operations: ["firewallRule.create", "firewallRule.delete"],
    how: "ruleBehaviour (provider/resources/rules.ts) takes the area",
  },
  inputs: z
    .object({
      ipAddressUuid: uuid.describe("The public IP address the rule guards."),
      ...ruleArguments,
    })
    .superRefine(checkPortRange),
  replaceOn: ["ipAddressUuid", ...RULE_ARGUMENTS],
  // Egress rules cannot carry tags (the API's tag types have none for them).
  tagType: "FirewallRule",
  ...ruleBehaviour("ipAddressUuid", "firewall rule", (client) => client.firewallRule as unknown as RuleOperations),
  inventory: ruleInventory("ipAddressUuid", "fw", (lists) =>
    lists.client.firewallRule.list({ zoneUuid: lists.zoneUuid }),
  ),
});

/** An egress rule of a network: which destinations its instances may reach. */
export const egressRuleDeclaration = defineResource({
  type: "EgressRule",
  description: "An egress rule of a network: which destinations and ports its instances may reach.",
  reaches: {
    operations: ["egressRule.create", "egressRule.delete"],
    how: "ruleBehaviour (provider/resources/rules.ts) takes the area",
  },
  inputs: z
    .object({
      networkUuid: uuid.describe("The network whose outbound traffic the rule allows."),
      ...ruleArguments,
    })
    .superRefine(checkPortRange),
  replaceOn: ["networkUuid", ...RULE_ARGUMENTS],
  // The spec's egress-rule record leaves out the destinations.
  unreadable: ["cidrList"],
  ...ruleBehaviour("networkUuid", "egress rule", (client) => client.egressRule as unknown as RuleOperations),
  inventory: ruleInventory("networkUuid", "egress", (lists) =>
    lists.client.egressRule.list({ zoneUuid: lists.zoneUuid }),
  ),
});
