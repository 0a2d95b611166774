// A security group's rules, one type per kind (firewall, egress, port forwarding), because each kind takes different
// arguments. The API keeps rules inside the group's record and creates answer the whole group, so the new rule is the
// one not there before. There is no update call: every argument replaces.
import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { defaultValue, withDefault, withDefaultText } from "../engine/defaults";
import type { CreateContext } from "../engine/identity";
import { checkPortRange, cidrList, port, protocol, uuid } from "../engine/validators";
import type { CallOptions, SecurityGroup } from "../client";
import { perMonth } from "../pricing";
import { minutes, portNumber, portText, recordOutputs } from "./common";
import { accountGroups, getSecurityGroup } from "./security-group";
import { trafficDetail, type InventoryLists } from "../engine/inventory";
import { recordLookup } from "../engine/waits";
import {
  checkForwardedPorts,
  checkIcmpFields,
  forwardedPorts,
  liveCidrList,
  removeUntilGone,
} from "./networking-common";

/** The traffic of an ingress or egress rule, as discover shows it: "TCP 80-90". */
const ruleDetail = (rule: RuleRecord) => trafficDetail(rule.protocol, rule.startPort, rule.endPort);

/** Where each kind lives in the group's record, how deleteSecurityGroupRule names it, and its traffic. */
const KINDS = {
  firewall: {
    array: "securityGroupFirewallRule",
    ruleType: "FIREWALLRULE",
    what: "firewall rule",
    alias: "fw",
    detail: ruleDetail,
  },
  egress: {
    array: "securityGroupEgressRule",
    ruleType: "EGRESSRULE",
    what: "egress rule",
    alias: "egress",
    detail: ruleDetail,
  },
  // PORTFORWATDING: the spec's spelling.
  portForwarding: {
    array: "securityGroupPortForwarding",
    ruleType: "PORTFORWATDING",
    what: "port-forwarding rule",
    alias: "pf",
    detail: (rule: RuleRecord) =>
      trafficDetail(
        text(rule.protocol) ?? rule.protocolType,
        rule.publicPort ?? rule.publicStartPort,
        rule.publicEndPort,
      ),
  },
} as const;
type Kind = (typeof KINDS)[keyof typeof KINDS];

/** A rule as the group's array holds it (the spec does not show its fields: they are read as text). */
type RuleRecord = Record<string, unknown>;

const rulesOf = (group: SecurityGroup | undefined, kind: Kind): RuleRecord[] =>
  (group?.[kind.array] as RuleRecord[] | undefined) ?? [];

const text = (value: unknown): string | undefined =>
  value === undefined || value === null || value === "" ? undefined : String(value);

async function findRule(ctx: OperationContext, groupUuid: string, kind: Kind, id: string) {
  return rulesOf(await getSecurityGroup(ctx, groupUuid), kind).find((r) => r.uuid === id);
}

/** The rules of a kind in a group, each with its uuid as text. */
const identifiedRules = (group: SecurityGroup | undefined, kind: Kind) =>
  rulesOf(group, kind).map((rule) => ({ ...rule, uuid: text(rule.uuid) }));

/**
 * Sends `add` and answers the uuid of the rule it added: the group's answer holds every rule, and
 * the new one is the rule like it that was not there before (identity.ts decides, as for every kind).
 */
async function addRule(
  ctx: CreateContext,
  groupUuid: string,
  kind: Kind,
  add: (options: CallOptions<SecurityGroup>) => Promise<SecurityGroup>,
): Promise<string> {
  const group = await add({
    // After an ambiguous failure, the rule is there if the group now holds a new one like it.
    verify: async () => {
      const current = await getSecurityGroup(ctx, groupUuid);
      return ctx.pickCreated(identifiedRules(current, kind)) ? current : undefined;
    },
  });
  const rule = ctx.pickCreated(identifiedRules(group, kind));
  if (rule?.uuid === undefined) {
    throw new Error(`security group ${groupUuid} answered without the ${kind.what} just added`);
  }
  return rule.uuid;
}

/** What the three kinds share: no update, outputs, the read of the rule in its group, the delete. */
function embeddedRule<I extends { securityGroupUuid: string }>(
  kind: Kind,
  liveInputs: (rule: RuleRecord, state: I) => Partial<I>,
  matches: (rule: RuleRecord, inputs: I) => boolean,
) {
  return {
    outputs: z.object({ ...recordOutputs }),
    updates: [],
    // The group's answer holds all its rules, and the API refuses overlapping ones: one add of a
    // kind per group at a time, and the new rule is the one like it that was not there before.
    identity: {
      scope: (inputs: I) => `${inputs.securityGroupUuid}/${kind.ruleType}`,
      candidates: async (ctx: OperationContext, inputs: I) =>
        identifiedRules(await getSecurityGroup(ctx, inputs.securityGroupUuid), kind),
      matches,
    },
    // The rules are in their group's record: the account's groups, one list for the three kinds.
    inventory: {
      accountWide: true,
      naming: { alias: kind.alias },
      list: async (lists: InventoryLists) =>
        (await accountGroups(lists)).flatMap((group) =>
          identifiedRules(group, kind).flatMap((rule) =>
            rule.uuid === undefined ? [] : [{ id: rule.uuid, parentId: group.uuid, detail: kind.detail(rule) }],
          ),
        ),
    },
    // The API refuses a rule that overlaps another of the group: the replacement follows the delete.
    deleteBeforeReplace: true,
    defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
    // Import: the group whose array of this kind holds the rule (the account's groups, one list).
    locate: async (ctx: OperationContext, id: string) => {
      const groups = await ctx.client.securityGroup.list();
      const group = groups.find((g) => rulesOf(g, kind).some((rule) => text(rule.uuid) === id));
      return group && ({ securityGroupUuid: group.uuid } as Partial<I>);
    },
    read: async (ctx: OperationContext, id: string, state: I) => {
      const rule = await findRule(ctx, state.securityGroupUuid, kind, id);
      if (!rule) return undefined;
      return {
        inputs: { ...liveInputs(rule, state), securityGroupUuid: state.securityGroupUuid },
        outputs: { uuid: id, status: text(rule.status), isActive: rule.isActive === true || rule.isActive === "true" },
      };
    },
    record: recordLookup(kind.what, (ctx, id, state: { securityGroupUuid: string }) =>
      findRule(ctx, state.securityGroupUuid, kind, id),
    ),
    delete: (ctx: OperationContext, id: string, state: I) =>
      removeUntilGone(ctx, id, state, {
        lookup: recordLookup(kind.what, (ctx, id) => findRule(ctx, state.securityGroupUuid, kind, id)),
        remove: () =>
          ctx.client.securityGroup.deleteRule({
            securityGroupUuid: state.securityGroupUuid,
            ruleType: kind.ruleType,
            ruleUuid: id,
          }),
      }),
  };
}

const securityGroupUuid = uuid.describe("The security group the rule belongs to.");
const icmpField = (what: string) =>
  withDefault(z.number().int().min(-1).max(255).optional().describe(`The ICMP ${what} (ICMP only).`), -1, {
    note: "any",
  });
const traffic = {
  protocol: protocol.describe("TCP, UDP or ICMP."),
  startPort: port.optional().describe("The first port (TCP and UDP, required for them)."),
  endPort: withDefaultText(port.optional().describe("The last port."), "startPort"),
  icmpType: icmpField("type"),
  icmpCode: icmpField("code"),
};
type Traffic = { protocol: string; startPort?: number; endPort?: number; icmpType?: number; icmpCode?: number };
const TRAFFIC_FIELDS = ["protocol", "startPort", "endPort", "icmpType", "icmpCode"] as const;

/** The traffic fields as the API takes them (ports and ICMP values are strings). */
const trafficRequest = (inputs: Traffic) => ({
  protocol: inputs.protocol as "TCP" | "UDP" | "ICMP",
  startPort: portText(inputs.startPort),
  endPort: portText(inputs.endPort ?? inputs.startPort),
  icmpType: inputs.icmpType === undefined ? undefined : String(inputs.icmpType),
  icmpCode: inputs.icmpCode === undefined ? undefined : String(inputs.icmpCode),
});

/** Whether a rule of the group carries this traffic (as the API stores it: ICMP values default to -1). */
const sameTraffic = (rule: RuleRecord, inputs: Traffic) =>
  rule.protocol === inputs.protocol &&
  (inputs.protocol === "ICMP"
    ? Number(rule.icmpType) === (inputs.icmpType ?? -1) && Number(rule.icmpCode) === (inputs.icmpCode ?? -1)
    : portNumber(text(rule.startPort)) === inputs.startPort &&
      portNumber(text(rule.endPort)) === (inputs.endPort ?? inputs.startPort));

/** The traffic fields of a rule, as arguments. */
const liveTraffic = (rule: RuleRecord) => ({
  protocol: text(rule.protocol) as z.infer<typeof protocol> | undefined,
  startPort: portNumber(text(rule.startPort)),
  endPort: portNumber(text(rule.endPort)),
  icmpType: rule.protocol === "ICMP" ? Number(rule.icmpType) : undefined,
  icmpCode: rule.protocol === "ICMP" ? Number(rule.icmpCode) : undefined,
});

const firewallInputs = z
  .object({
    securityGroupUuid,
    ...traffic,
    cidrList: withDefault(cidrList.optional().describe("The source CIDR blocks, comma-separated."), "0.0.0.0/0"),
  })
  .superRefine(checkPortRange)
  .superRefine(checkIcmpFields);

/** An ingress rule of a security group: which sources may reach which ports. */
export const securityGroupFirewallRuleDeclaration = defineResource({
  type: "SecurityGroupFirewallRule",
  description: "An ingress rule of a security group: which sources may reach which ports.",
  inputs: firewallInputs,
  replaceOn: ["securityGroupUuid", ...TRAFFIC_FIELDS, "cidrList"],
  ...embeddedRule<z.infer<typeof firewallInputs>>(
    KINDS.firewall,
    (rule, state) => ({ ...liveTraffic(rule), cidrList: liveCidrList(text(rule.cidrList), state.cidrList) }),
    sameTraffic,
  ),
  create: async (ctx, inputs) => ({
    id: await addRule(ctx, inputs.securityGroupUuid, KINDS.firewall, (options) =>
      ctx.client.securityGroup.addFirewallRule(
        {
          securityGroupUuid: inputs.securityGroupUuid,
          ...trafficRequest(inputs),
          cidrList: inputs.cidrList ?? defaultValue(firewallInputs.shape.cidrList),
        },
        options,
      ),
    ),
  }),
});

const egressInputs = z
  .object({ securityGroupUuid, ...traffic })
  .superRefine(checkPortRange)
  .superRefine(checkIcmpFields);

/** An egress rule of a security group: which ports its members may reach. */
export const securityGroupEgressRuleDeclaration = defineResource({
  type: "SecurityGroupEgressRule",
  description:
    "An egress rule of a security group: which protocols and ports its members may reach (the API takes no destination CIDR for these).",
  inputs: egressInputs,
  replaceOn: ["securityGroupUuid", ...TRAFFIC_FIELDS],
  ...embeddedRule<z.infer<typeof egressInputs>>(KINDS.egress, liveTraffic, sameTraffic),
  create: async (ctx, inputs) => ({
    id: await addRule(ctx, inputs.securityGroupUuid, KINDS.egress, (options) =>
      ctx.client.securityGroup.addEgressRule(
        { securityGroupUuid: inputs.securityGroupUuid, ...trafficRequest(inputs) },
        options,
      ),
    ),
  }),
});

const portForwardingInputs = z.object({ securityGroupUuid, ...forwardedPorts }).superRefine(checkForwardedPorts);

/** A port-forwarding rule of a security group. */
export const securityGroupPortForwardingRuleDeclaration = defineResource({
  type: "SecurityGroupPortForwardingRule",
  noun: "security group port-forwarding rule",
  description:
    "A port-forwarding rule of a security group: a public port range forwarded to the same-length private range of its members.",
  price: perMonth("Port-forwarding rule", { call: "portForwardingCost", field: "portForwardCost" }),
  inputs: portForwardingInputs,
  replaceOn: ["securityGroupUuid", "protocol", "publicPort", "publicEndPort", "privatePort", "privateEndPort"],
  ...embeddedRule<z.infer<typeof portForwardingInputs>>(
    KINDS.portForwarding,
    (rule) => ({
      protocol: text(rule.protocol) as "TCP" | "UDP" | undefined,
      publicPort: portNumber(text(rule.publicPort)),
      publicEndPort: portNumber(text(rule.publicEndPort)),
      privatePort: portNumber(text(rule.privatePort)),
      privateEndPort: portNumber(text(rule.privateEndPort)),
    }),
    (rule, inputs) => rule.protocol === inputs.protocol && portNumber(text(rule.publicPort)) === inputs.publicPort,
  ),
  create: async (ctx, inputs) => ({
    id: await addRule(ctx, inputs.securityGroupUuid, KINDS.portForwarding, (options) =>
      ctx.client.securityGroup.addPortForwardingRule(
        {
          securityGroupUuid: inputs.securityGroupUuid,
          protocolType: inputs.protocol,
          publicStartPort: String(inputs.publicPort),
          publicEndPort: portText(inputs.publicEndPort ?? inputs.publicPort),
          privateStartPort: String(inputs.privatePort),
          privateEndPort: portText(inputs.privateEndPort ?? inputs.privatePort),
        },
        options,
      ),
    ),
  }),
});
