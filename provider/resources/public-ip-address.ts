import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { uuid } from "../engine/validators";
import { findInZones } from "../engine/import";
import { gone, recordLookup } from "../engine/waits";
import { perMonth } from "../pricing";
import { args, minutes, recordOutputs } from "./common";
import { zoneAddress } from "./networking-common";
import { text, type InventoryLists } from "../engine/inventory";

/** A zone's public addresses, listed once for the kinds that read them (addresses, static NAT). */
export const zoneAddresses = (lists: InventoryLists) =>
  lists.once("ipAddress.list", () => lists.client.ipAddress.list({ zoneUuid: lists.zoneUuid }));

const addressRecord = recordLookup("public IP", async (ctx, id, state: { zoneUuid?: string }) =>
  zoneAddress(ctx, state.zoneUuid!, id),
);

/** A public IPv4 address acquired for a network or a VPC. */
export const publicIpAddressDeclaration = defineResource({
  type: "PublicIpAddress",
  description: "A public IPv4 address acquired from the zone's pool for a network or a VPC.",
  price: perMonth("Public IP", { call: "ipCost", field: "ipCost" }),
  inputs: z
    .object({
      networkUuid: uuid.optional().describe("The network to acquire the address for (or set vpcUuid)."),
      vpcUuid: uuid.optional().describe("The VPC to acquire the address for (or set networkUuid)."),
      zoneUuid: args.zoneUuid("address"),
    })
    .superRefine((v, ctx) => {
      if ((v.networkUuid === undefined) === (v.vpcUuid === undefined)) {
        ctx.addIssue({ code: "custom", path: ["networkUuid"], message: "set exactly one of networkUuid and vpcUuid" });
      }
    }),
  outputs: z.object({
    ...recordOutputs,
    address: z.string().optional().describe("The public IPv4 address."),
    state: z.string().optional().describe("The address's state (e.g. Allocated)."),
    isSourceNat: z.boolean().optional().describe("Whether the address is the network's source NAT address."),
    zoneName: z.string().optional().describe("The zone's name."),
  }),
  zoneDefault: "zoneUuid",
  replaceOn: ["networkUuid", "vpcUuid", "zoneUuid"],
  updates: [],
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  // An address has no name: after an ambiguous failure, the one that appeared on the network or VPC
  // while this acquire ran (one acquire per network at a time) is this one's. The source NAT address
  // the service adds on its own is never a candidate.
  identity: {
    scope: (inputs) => (inputs.networkUuid ?? inputs.vpcUuid)!,
    candidates: (ctx, inputs) =>
      ctx.client.ipAddress.list({ zoneUuid: inputs.zoneUuid!, networkUuid: (inputs.networkUuid ?? inputs.vpcUuid)! }),
    matches: (ip) => ip.isSourcenat !== true,
  },
  tagType: "PublicIpAddress",
  inventory: {
    naming: { alias: "ip", byDetail: true },
    list: async (lists) =>
      (await zoneAddresses(lists)).map((ip) => ({
        id: ip.uuid,
        parentId: text(ip.vpcUuid) ?? text(ip.networkUuid),
        detail: text(ip.publicIpAddress),
        ...(ip.isSourcenat === true
          ? { derived: "a source-NAT address (the service's)", derivedFrom: text(ip.vpcUuid) ?? text(ip.networkUuid) }
          : {}),
      })),
  },
  record: addressRecord,
  create: async (ctx, inputs) => {
    const target = (inputs.networkUuid ?? inputs.vpcUuid)!;
    const ip = await ctx.client.ipAddress.acquire(
      { networkUuid: target, networkType: inputs.networkUuid ? "NETWORK" : "VPC" },
      { verify: ctx.findCreated },
    );
    return { id: ip.uuid, known: { address: ip.publicIpAddress } };
  },
  // Import: the zone whose list holds the address, and whether its networkUuid names a VPC (where
  // the record does not say so itself with a vpcUuid).
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, async (zoneUuid) => zoneAddress(ctx, zoneUuid, id));
    if (!hit) return undefined;
    const { zoneUuid, found: ip } = hit;
    const ofVpc =
      ip.vpcUuid === undefined && ip.networkUuid ? await ctx.client.vpc.get({ uuid: ip.networkUuid }) : undefined;
    return { zoneUuid, ...(ofVpc ? { vpcUuid: ofVpc.uuid } : {}) };
  },
  read: async (ctx, id, state) => {
    const ip = await zoneAddress(ctx, state.zoneUuid!, id);
    if (!ip) return undefined;
    // The address's networkUuid is its VPC's when it was acquired for one: the record says so with
    // vpcUuid where it carries it, else the state does (declared, or found by locate).
    const vpcUuid =
      ip.vpcUuid ?? (state.vpcUuid !== undefined && state.vpcUuid === ip.networkUuid ? state.vpcUuid : undefined);
    return {
      inputs: { zoneUuid: ip.zoneUuid, ...(vpcUuid ? { vpcUuid } : { networkUuid: ip.networkUuid }) },
      outputs: {
        uuid: ip.uuid,
        status: ip.status,
        isActive: ip.isActive,
        address: ip.publicIpAddress,
        state: ip.state,
        isSourceNat: ip.isSourcenat,
        zoneName: ip.zoneName,
      },
    };
  },
  async *delete(ctx, id, state) {
    if (!(await addressRecord.find(ctx, id, state))) return;
    await ctx.client.ipAddress.release({ uuid: id });
    yield gone("to be released");
  },
});
