import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { withDefault } from "../engine/defaults";
import { byName } from "../engine/identity";
import { args, byUuid, minutes, recordOutputs } from "./common";
import { removeUntilGone } from "./networking-common";
import { recordLookup } from "../engine/waits";
import { text, type InventoryLists } from "../engine/inventory";

/** The account's groups, listed once for them and their rules (security-group-rule.ts). */
export const accountGroups = (lists: InventoryLists) =>
  lists.once("securityGroup.list", () => lists.client.securityGroup.list({}));

/** The security group with this uuid, or undefined when it is gone. */
export async function getSecurityGroup(ctx: OperationContext, uuid: string) {
  return byUuid(await ctx.client.securityGroup.list({ uuid }), uuid);
}

const groupRecord = recordLookup("security group", (ctx, id) => getSecurityGroup(ctx, id));

/**
 * A security group: a named set of firewall, egress and port-forwarding rules (each a
 * SecurityGroup*Rule resource) that networks and instances refer to.
 */
export const securityGroupDeclaration = defineResource({
  type: "SecurityGroup",
  description:
    "A security group: a named set of firewall, egress and port-forwarding rules (SecurityGroupFirewallRule, SecurityGroupEgressRule, SecurityGroupPortForwardingRule) applied to networks (Network.securityGroupUuid) and instances (Instance.securityGroupName).",
  inputs: z.object({
    name: args.name("security group").describe("The group's name, unique in the account (the API has no update call)."),
    description: withDefault(z.string().optional().describe("Free text shown with the group."), ""),
  }),
  outputs: z.object({ ...recordOutputs }),
  autoName: "name",
  replaceOn: ["name", "description"],
  updates: [],
  // Names are unique in the account: a replacement that keeps an explicit name can only follow the delete.
  deleteBeforeReplace: true,
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  identity: {
    scope: (inputs) => `account/${inputs.name}`,
    candidates: (ctx, _inputs, where) => ctx.client.securityGroup.list({}, { where }),
    ...byName,
  },
  inventory: {
    accountWide: true,
    list: async (lists) => (await accountGroups(lists)).map((group) => ({ id: group.uuid, name: text(group.name) })),
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const group = await ctx.client.securityGroup.create(
      { name, description: inputs.description },
      { verify: ctx.findCreated },
    );
    return { id: group.uuid };
  },
  read: async (ctx, id) => {
    const group = await getSecurityGroup(ctx, id);
    if (!group) return undefined;
    return {
      inputs: { name: group.name, description: group.description },
      outputs: { uuid: group.uuid, status: group.status, isActive: group.isActive },
    };
  },
  record: groupRecord,
  delete: (ctx, id, state) =>
    removeUntilGone(ctx, id, state, {
      lookup: groupRecord,
      // removeUntilGone waits for the group to leave securityList (deletes may linger): once is enough.
      remove: () => ctx.client.securityGroup.delete({ uuid: id }, { confirmGone: false }),
    }),
});
