import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { stateDefaults, withDefault, withDefaultText } from "../engine/defaults";
import { uuid } from "../engine/validators";
import { findInZones } from "../engine/import";
import { recordLookup, until } from "../engine/waits";
import { byUuid, minutes, recordOutputs } from "./common";
import { removeUntilGone } from "./networking-common";
import { text } from "../engine/inventory";

async function getConnection(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.vpnConnection.list({ zoneUuid, uuid: id }), id);
}

/** The zone of a VPC (connection lists take a zone, the create does not), else the default zone. */
async function zoneOfVpc(ctx: OperationContext, vpcUuid: string): Promise<string> {
  return (await ctx.client.vpc.get({ uuid: vpcUuid }))?.zoneUuid ?? ctx.settings.zoneUuid!;
}

const connectionRecord = recordLookup("VPN connection", (ctx, id, state: { zoneUuid?: string }) =>
  getConnection(ctx, state.zoneUuid!, id),
);

/** Settled: out of Pending (Connected, or Disconnected while passive). */
const settled = until<NonNullable<Awaited<ReturnType<typeof getConnection>>>>(
  "to settle",
  (connection) => connection.state !== "Pending",
);

const inputs = z.object({
  vpcUuid: uuid.describe("The VPC whose VPN gateway is the local end."),
  customerGatewayUuid: uuid.describe(
    "The remote end (a VpnCustomerGateway); its CIDR list must not overlap the VPC's.",
  ),
  passive: withDefault(
    z
      .boolean()
      .optional()
      .describe("Wait for the remote end to initiate (the connection then reads Disconnected until it does)."),
    false,
    { keptInState: true },
  ),
  resetTrigger: withDefaultText(
    z
      .string()
      .optional()
      .describe(
        "Any text: changing it (or removing it) resets the connection and waits until it settles again. Not sent to the API otherwise.",
      ),
    "none",
  ),
});

/** A site-to-site VPN connection between a VPC and a customer gateway. */
export const vpnConnectionDeclaration = defineResource({
  type: "VpnConnection",
  description:
    "A site-to-site VPN connection between a VPC (through its VPN gateway, created with its first connection) and a VpnCustomerGateway whose networks do not overlap the VPC's.",
  inputs,
  outputs: z.object({
    ...recordOutputs,
    state: z.string().optional().describe("The connection's state: Pending, then Connected (or Disconnected)."),
    publicIpAddress: z.string().optional().describe("The public address of the VPC's VPN gateway (the local end)."),
    gateway: z.string().optional().describe("The public address of the customer gateway (the remote end)."),
    vpnGatewayUuid: z.string().optional().describe("The VPC's VPN gateway."),
    ikePolicy: z.string().optional().describe("The IKE policy, from the customer gateway."),
    espPolicy: z.string().optional().describe("The ESP policy, from the customer gateway."),
    zoneUuid: z.string().optional().describe("The zone of the VPC."),
  }),
  defaults: stateDefaults(inputs),
  // The record does not show it; the trigger is the program's alone (an import that answered none
  // would see the program's value as a reset to do).
  unreadable: ["passive", "resetTrigger"],
  replaceOn: ["vpcUuid", "customerGatewayUuid", "passive"],
  updates: [
    {
      fields: ["resetTrigger"],
      via: "resetVpnConnection",
      awaits: ["state"],
      async *apply(ctx, id) {
        await ctx.client.vpnConnection.reset({ uuid: id });
        yield settled;
      },
    },
  ],
  // One connection per VPC and customer gateway: a replacement keeping both can only follow the delete.
  deleteBeforeReplace: true,
  defaultTimeouts: { create: minutes(10), update: minutes(10), delete: minutes(10) },
  // A VPC has one connection per customer gateway.
  identity: {
    scope: (inputs) => `${inputs.vpcUuid}/${inputs.customerGatewayUuid}`,
    candidates: async (ctx, inputs) =>
      ctx.client.vpnConnection.list({ zoneUuid: await zoneOfVpc(ctx, inputs.vpcUuid), vpcUuid: inputs.vpcUuid }),
    matches: (connection, inputs) => connection.customerGatewayUuid === inputs.customerGatewayUuid,
  },
  // A VPC's VPN gateway is not listed: the service makes it with the VPC's first connection, and
  // the API shows no trace of it.
  inventory: {
    naming: { alias: "vpn" },
    list: async (lists) =>
      (await lists.client.vpnConnection.list({ zoneUuid: lists.zoneUuid })).map((connection) => ({
        id: connection.uuid,
        parentId: text(connection.vpcUuid),
      })),
  },
  create: async (ctx, inputs) => {
    const zoneUuid = await zoneOfVpc(ctx, inputs.vpcUuid);
    const connection = await ctx.client.vpnConnection.create(
      { vpcUuid: inputs.vpcUuid, customerGatewayUuid: inputs.customerGatewayUuid, passive: inputs.passive },
      { verify: ctx.findCreated },
    );
    return { id: connection.uuid, known: { zoneUuid: connection.zoneUuid ?? zoneUuid } };
  },
  record: connectionRecord,
  ready: [settled],
  // Import: the zone whose list holds the connection.
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, (zoneUuid) => getConnection(ctx, zoneUuid, id));
    return hit && { zoneUuid: hit.found.zoneUuid || hit.zoneUuid };
  },
  read: async (ctx, id, state) => {
    const connection = await connectionRecord.find(ctx, id, state);
    if (!connection) return undefined;
    // The record also carries the pre-shared key: it is the customer gateway's, and stays out of this state.
    return {
      inputs: { vpcUuid: connection.vpcUuid, customerGatewayUuid: connection.customerGatewayUuid },
      outputs: {
        uuid: connection.uuid,
        status: connection.status,
        isActive: connection.isActive,
        state: connection.state,
        publicIpAddress: connection.publicIpAddress,
        gateway: connection.gateway,
        vpnGatewayUuid: connection.vpnGatewayUuid,
        ikePolicy: connection.ikePolicy,
        espPolicy: connection.espPolicy,
        zoneUuid: connection.zoneUuid ?? state.zoneUuid,
      },
    };
  },
  delete: (ctx, id, state) =>
    removeUntilGone(ctx, id, state, {
      lookup: connectionRecord,
      remove: () => ctx.client.vpnConnection.delete({ uuid: id }),
    }),
});
