import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { uuid } from "../engine/validators";
import { perMonth } from "../pricing";
import { byUuid, minutes, portNumber, portText, recordOutputs } from "./common";
import { findInZones } from "../engine/import";
import { recordLookup } from "../engine/waits";
import {
  checkForwardedPorts,
  forwardedPorts,
  networkReaching,
  removeUntilGone,
  zoneOfNetwork,
} from "./networking-common";
import { text, trafficDetail } from "../engine/inventory";

async function getRule(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.portForwardingRule.list({ zoneUuid, uuid: id }), id);
}

/** A rule is listed per zone: the one its create answered (ruleZoneUuid). */
const ruleRecord = recordLookup("port-forwarding rule", (ctx, id, state: { ruleZoneUuid?: string }) =>
  getRule(ctx, state.ruleZoneUuid!, id),
);

/** A port-forwarding rule: a public port range of an address to the same-length range of an instance. */
export const portForwardingRuleDeclaration = defineResource({
  type: "PortForwardingRule",
  noun: "port-forwarding rule",
  description:
    "A port-forwarding rule: a public port range of a public IP address forwarded to the same-length private port range of an instance on the address's network.",
  price: perMonth("Port-forwarding rule", { call: "portForwardingCost", field: "portForwardCost" }),
  inputs: z
    .object({
      ipAddressUuid: uuid.describe("The public IP address whose ports are forwarded."),
      ...forwardedPorts,
      instanceUuid: uuid.describe("The instance the traffic is forwarded to."),
      networkUuid: uuid.describe(
        "The instance's network that receives the traffic: the address's network, or a tier of the address's VPC.",
      ),
    })
    .superRefine(checkForwardedPorts),
  outputs: z.object({
    ...recordOutputs,
    instanceName: z.string().optional().describe("The display name of the instance."),
    ruleZoneUuid: z.string().optional().describe("The zone of the rule (its list calls are per zone)."),
  }),
  replaceOn: [
    "ipAddressUuid",
    "protocol",
    "publicPort",
    "publicEndPort",
    "privatePort",
    "privateEndPort",
    "instanceUuid",
    "networkUuid",
  ],
  updates: [],
  // Public ports may not overlap on an address: a replacement keeping them can only follow the delete.
  deleteBeforeReplace: true,
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  // The address's public ports of a protocol are taken by one rule only.
  identity: {
    scope: (inputs) => `${inputs.ipAddressUuid}/${inputs.protocol}/${inputs.publicPort}`,
    candidates: async (ctx, inputs) => {
      const zoneUuid = await zoneOfNetwork(ctx, inputs.networkUuid);
      return zoneUuid === undefined
        ? []
        : ctx.client.portForwardingRule.list({ zoneUuid, ipAddressUuid: inputs.ipAddressUuid });
    },
    matches: (rule, inputs) => rule.protocol === inputs.protocol && rule.publicPort === String(inputs.publicPort),
  },
  tagType: "PortForwardingRule",
  inventory: {
    naming: { alias: "pf" },
    list: async (lists) =>
      (await lists.client.portForwardingRule.list({ zoneUuid: lists.zoneUuid })).map((rule) => ({
        id: rule.uuid,
        parentId: text(rule.ipAddressUuid),
        detail: trafficDetail(rule.protocol, rule.publicPort, rule.publicEndPort),
      })),
  },
  create: async (ctx, inputs) => {
    const zoneUuid = await zoneOfNetwork(ctx, inputs.networkUuid);
    const request = {
      ipAddressUuid: inputs.ipAddressUuid,
      protocol: inputs.protocol,
      publicPort: String(inputs.publicPort),
      publicEndPort: portText(inputs.publicEndPort ?? inputs.publicPort),
      privatePort: String(inputs.privatePort),
      privateEndPort: portText(inputs.privateEndPort ?? inputs.privatePort),
      virtualmachineUuid: inputs.instanceUuid,
      networkUuid: inputs.networkUuid,
    };
    const rule = await ctx.client.portForwardingRule.create(request, { verify: ctx.findCreated });
    return { id: rule.uuid, known: { ruleZoneUuid: rule.zoneUuid ?? zoneUuid } };
  },
  // Import: the zone whose list holds the rule; the instance, among those of the zone named as the
  // record names it, whose own rules (the list's vmUuid filter) hold it; the network through which
  // the address reaches that instance.
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, (zoneUuid) => getRule(ctx, zoneUuid, id));
    if (!hit) return undefined;
    const { zoneUuid, found: rule } = hit;
    const instances = await ctx.client.instance.list({ zoneUuid });
    const named = (i: { name?: string; displayName?: string }) =>
      rule.virtualMachineName !== undefined && [i.displayName, i.name].includes(rule.virtualMachineName);
    // Those named as the record says first; the others after (renamed since).
    const candidates = [...instances.filter(named), ...instances.filter((i) => !named(i))];
    let instanceUuid: string | undefined;
    for (const instance of candidates) {
      const rules = await ctx.client.portForwardingRule.list({ zoneUuid, vmUuid: instance.uuid, uuid: id });
      if (byUuid(rules, id)) {
        instanceUuid = instance.uuid;
        break;
      }
    }
    const networkUuid =
      instanceUuid && rule.ipAddressUuid
        ? await networkReaching(ctx, zoneUuid, rule.ipAddressUuid, instanceUuid)
        : undefined;
    return { ruleZoneUuid: rule.zoneUuid || zoneUuid, instanceUuid, networkUuid };
  },
  read: async (ctx, id, state) => {
    const rule = await getRule(ctx, state.ruleZoneUuid!, id);
    if (!rule) return undefined;
    // The record names the instance but not its uuid or network: those cannot drift as far as we see.
    return {
      inputs: {
        ipAddressUuid: rule.ipAddressUuid,
        protocol: rule.protocol as "TCP" | "UDP" | undefined,
        publicPort: portNumber(rule.publicPort),
        publicEndPort: portNumber(rule.publicEndPort),
        privatePort: portNumber(rule.privatePort),
        privateEndPort: portNumber(rule.privateEndPort),
      },
      outputs: {
        uuid: rule.uuid,
        status: rule.status,
        isActive: rule.isActive,
        instanceName: rule.virtualMachineName,
        ruleZoneUuid: rule.zoneUuid ?? state.ruleZoneUuid,
      },
    };
  },
  record: ruleRecord,
  delete: (ctx, id, state) =>
    removeUntilGone(ctx, id, state, {
      lookup: ruleRecord,
      remove: () => ctx.client.portForwardingRule.delete({ uuid: id }),
    }),
});
