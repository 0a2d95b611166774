import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { checkPortRange, cidrList, port, protocol, uuid } from "../engine/validators";
import { restcloudResource } from "../dynamic/resource";
import { waitForGone } from "../client/waiters";
import { byUuid, minutes, portNumber, portText, recordOutputs, waitOptions } from "./common";

/** The arguments both rule kinds share: none can be updated (the API has no update call for rules). */
const ruleArguments = {
  protocol: protocol.describe("TCP, UDP or ICMP. Changing it replaces the rule."),
  startPort: port.optional().describe("The first port of the range (TCP and UDP). Changing it replaces the rule."),
  endPort: port.optional().describe("The last port of the range. Default: startPort. Changing it replaces the rule."),
  cidrList: cidrList
    .optional()
    .describe(
      'The source (firewall) or destination (egress) CIDR blocks, comma-separated. Default: "0.0.0.0/0". Changing it replaces the rule.',
    ),
  icmpType: z
    .number()
    .int()
    .min(-1)
    .max(255)
    .optional()
    .describe("The ICMP type (ICMP only; -1 for any). Changing it replaces the rule."),
  icmpCode: z
    .number()
    .int()
    .min(-1)
    .max(255)
    .optional()
    .describe("The ICMP code (ICMP only; -1 for any). Changing it replaces the rule."),
};

const ruleOutputs = z.object({
  ...recordOutputs,
  ruleZoneUuid: z.string().optional().describe("The zone of the rule (its list calls are per zone)."),
});

const ALL_ARGUMENTS = ["protocol", "startPort", "endPort", "cidrList", "icmpType", "icmpCode"] as const;

function icmpText(value: number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

async function deleteRule(
  ctx: OperationContext,
  kind: string,
  id: string,
  remove: () => Promise<unknown>,
  find: () => Promise<unknown>,
) {
  await remove();
  await waitForGone({ awaited: `${kind} ${id} to be deleted`, poll: find }, waitOptions(ctx));
}

/** An ingress firewall rule on a public IP address. */
export const firewallRuleDeclaration = defineResource({
  type: "FirewallRule",
  description: "An ingress firewall rule on a public IP address: which sources may reach which ports.",
  inputs: z
    .object({
      ipAddressUuid: uuid.describe("The public IP address the rule guards. Changing it replaces the rule."),
      ...ruleArguments,
    })
    .superRefine(checkPortRange),
  outputs: ruleOutputs,
  replaceOn: ["ipAddressUuid", ...ALL_ARGUMENTS],
  updates: [],
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  create: async (ctx, inputs) => {
    const rule = await ctx.client.firewallRule.create({
      ipAddressUuid: inputs.ipAddressUuid,
      protocol: inputs.protocol,
      startPort: portText(inputs.startPort),
      endPort: portText(inputs.endPort ?? inputs.startPort),
      cidrList: inputs.cidrList ?? "0.0.0.0/0",
      icmpType: icmpText(inputs.icmpType),
      icmpCode: icmpText(inputs.icmpCode),
    });
    return { id: rule.uuid, known: { ruleZoneUuid: rule.zoneUuid } };
  },
  read: async (ctx, id, state) => {
    const rule = byUuid(await ctx.client.firewallRule.list({ zoneUuid: state.ruleZoneUuid!, uuid: id }), id);
    if (!rule) return undefined;
    return {
      inputs: {
        ipAddressUuid: rule.ipAddressUuid,
        protocol: rule.protocol as z.infer<typeof protocol>,
        startPort: portNumber(rule.startPort),
        endPort: portNumber(rule.endPort),
        cidrList: rule.cidrList,
      },
      outputs: {
        uuid: rule.uuid,
        status: rule.status,
        isActive: rule.isActive,
        ruleZoneUuid: rule.zoneUuid ?? state.ruleZoneUuid,
      },
    };
  },
  delete: async (ctx, id, state) =>
    deleteRule(
      ctx,
      "firewall rule",
      id,
      () => ctx.client.firewallRule.delete({ uuid: id }),
      async () => byUuid(await ctx.client.firewallRule.list({ zoneUuid: state.ruleZoneUuid!, uuid: id }), id),
    ),
});

/** An ingress firewall rule on a public IP address. */
export class FirewallRule extends restcloudResource(firewallRuleDeclaration) {}

/** An egress rule of a network: which destinations its instances may reach. */
export const egressRuleDeclaration = defineResource({
  type: "EgressRule",
  description: "An egress rule of a network: which destinations and ports its instances may reach.",
  inputs: z
    .object({
      networkUuid: uuid.describe("The network whose outbound traffic the rule allows. Changing it replaces the rule."),
      ...ruleArguments,
    })
    .superRefine(checkPortRange),
  outputs: ruleOutputs,
  replaceOn: ["networkUuid", ...ALL_ARGUMENTS],
  updates: [],
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  create: async (ctx, inputs) => {
    const rule = await ctx.client.egressRule.create({
      networkUuid: inputs.networkUuid,
      protocol: inputs.protocol,
      startPort: portText(inputs.startPort),
      endPort: portText(inputs.endPort ?? inputs.startPort),
      cidrList: inputs.cidrList ?? "0.0.0.0/0",
      icmpType: icmpText(inputs.icmpType),
      icmpCode: icmpText(inputs.icmpCode),
    });
    return { id: rule.uuid, known: { ruleZoneUuid: rule.zoneUuid } };
  },
  read: async (ctx, id, state) => {
    const rule = byUuid(await ctx.client.egressRule.list({ zoneUuid: state.ruleZoneUuid!, uuid: id }), id);
    if (!rule) return undefined;
    // The egress record omits cidrList (the spec says so): it cannot drift as far as we can see.
    return {
      inputs: {
        networkUuid: rule.networkUuid,
        protocol: rule.protocol as z.infer<typeof protocol>,
        startPort: portNumber(rule.startPort),
        endPort: portNumber(rule.endPort),
      },
      outputs: {
        uuid: rule.uuid,
        status: rule.status,
        isActive: rule.isActive,
        ruleZoneUuid: rule.zoneUuid ?? state.ruleZoneUuid,
      },
    };
  },
  delete: async (ctx, id, state) =>
    deleteRule(
      ctx,
      "egress rule",
      id,
      () => ctx.client.egressRule.delete({ uuid: id }),
      async () => byUuid(await ctx.client.egressRule.list({ zoneUuid: state.ruleZoneUuid!, uuid: id }), id),
    ),
});

/** An egress rule of a network. */
export class EgressRule extends restcloudResource(egressRuleDeclaration) {}
