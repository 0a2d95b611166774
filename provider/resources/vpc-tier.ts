import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { withDefaultText } from "../engine/defaults";
import { byName } from "../engine/identity";
import { catalogReference, cidrBlock, ipv4Address, parseCidr, uuid } from "../engine/validators";
import { showing } from "../engine/waits";
import { perOffering } from "../pricing";
import { args, networkRecord, replaceAclStep, minutes, recordOutputs } from "./common";
import { text } from "../engine/inventory";
import { zoneNetworks } from "./network";

const tierRecord = networkRecord("tier");

function intToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join(".");
}

/** The gateway (the first host unless given) and the netmask of a tier's CIDR. */
export function tierAddressing(cidr: string, gateway?: string): { gateway: string; netmask: string } {
  const parsed = parseCidr(cidr)!;
  const mask = parsed.prefix === 0 ? 0 : (0xffffffff << (32 - parsed.prefix)) >>> 0;
  return { gateway: gateway ?? intToIpv4(parsed.network + 1), netmask: intToIpv4(mask) };
}

/** A tier of a VPC: a network inside the VPC's address space (createVpcNetwork). */
export const vpcTierDeclaration = defineResource({
  type: "VpcTier",
  description: "A tier of a VPC: a guest network whose CIDR lies inside the VPC's address space.",
  price: perOffering("Network offering", "networkOfferingUuid", "network offering", "networkOffering"),
  inputs: z.object({
    name: args.name("tier"),
    vpcUuid: uuid.describe("The VPC the tier belongs to."),
    zoneUuid: args.zoneUuid("tier"),
    cidr: cidrBlock
      .refine((c) => (parseCidr(c)?.prefix ?? 0) <= 29, "a tier needs at least a /29")
      .describe("The tier's address block, inside the VPC's CIDR and apart from its sibling tiers, e.g. 10.1.1.0/24."),
    gateway: withDefaultText(
      ipv4Address.optional().describe("The tier's gateway address."),
      "the first host of `cidr`",
    ),
    networkOfferingUuid: catalogReference("networkOffering").describe(
      "The network offering for VPC tiers (see getNetworkOfferings).",
    ),
    aclUuid: uuid.optional().describe("The network ACL list applied to the tier."),
    description: z.string().optional().describe("Free text shown with the tier."),
    networkDomain: z.string().optional().describe("The tier's DNS domain."),
  }),
  outputs: z.object({
    ...recordOutputs,
    netmask: z.string().optional().describe("The tier's netmask, derived from `cidr`."),
    networkType: z.string().optional().describe("The network type the API reports."),
    domainName: z.string().optional().describe("The account's domain."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  replaceOn: ["vpcUuid", "zoneUuid", "cidr", "gateway"],
  updates: [
    {
      fields: ["name", "description", "networkOfferingUuid", "networkDomain"],
      via: "updateVpcNetwork",
      awaits: ["visible"],
      async *apply(ctx, id, news) {
        const change = {
          name: news.name,
          description: news.description,
          networkOfferingUuid: news.networkOfferingUuid,
          networkDomain: news.networkDomain,
        };
        await ctx.client.vpc.updateTier({ uuid: id, ...change });
        const { description: _unlisted, ...visible } = change; // the Network record carries no description
        yield showing(visible);
      },
    },
    replaceAclStep,
  ],
  defaultTimeouts: { create: minutes(10), update: minutes(10), delete: minutes(10) },
  identity: {
    scope: (inputs) => `${inputs.vpcUuid}/${inputs.name}`,
    candidates: (ctx, inputs, where) => ctx.client.network.list({ zoneUuid: inputs.zoneUuid! }, { where }),
    ...byName,
  },
  tagType: "Network",
  inventory: {
    list: async (lists) =>
      (await zoneNetworks(lists))
        .filter(({ tier }) => tier)
        .map(({ network }) => ({ id: network.uuid, name: text(network.name), parentId: text(network.vpcUuid) })),
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const { gateway, netmask } = tierAddressing(inputs.cidr, inputs.gateway);
    const tier = await ctx.client.vpc.createTier(
      {
        name,
        zoneUuid: inputs.zoneUuid!,
        vpcUuid: inputs.vpcUuid,
        networkOfferingUuid: inputs.networkOfferingUuid,
        gateway,
        netmask,
        aclUuid: inputs.aclUuid,
      },
      { verify: ctx.findCreated },
    );
    return { id: tier.uuid, known: { netmask } };
  },
  // After the id is in hand (a failure here keeps it in state): createVpcNetwork takes neither field.
  record: tierRecord,
  // The create call takes neither: the update step sets them.
  createdAs: () => ({ description: undefined, networkDomain: undefined }),
  read: async (ctx, id, state) => {
    const tier = await tierRecord.find(ctx, id, state);
    if (!tier) return undefined;
    return {
      // vpcUuid and description: fields beyond the spec's record, read where the record carries them.
      inputs: {
        name: tier.name,
        vpcUuid: tier.vpcUuid,
        zoneUuid: tier.zoneUuid,
        cidr: tier.getcIDR,
        gateway: tier.gateway,
        networkOfferingUuid: tier.networkOfferingUuid,
        networkDomain: tier.networkDomain,
        aclUuid: tier.networkAclList,
        description: tier.description,
      },
      outputs: {
        uuid: tier.uuid,
        status: tier.status,
        isActive: tier.isActive,
        netmask: tierAddressing(tier.getcIDR ?? state.cidr).netmask,
        networkType: tier.networkType,
        domainName: tier.domainName,
      },
    };
  },
  // The client's deleteNetwork confirms the record gone (its operation's confirmGone).
  delete: async (ctx, id, state) => {
    await ctx.client.network.delete({ uuid: id, zoneUuid: state.zoneUuid });
  },
});
