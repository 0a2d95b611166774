import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { byName } from "../engine/identity";
import { catalogReference, cidrBlock } from "../engine/validators";
import { recordLookup, showing, until } from "../engine/waits";
import { perOffering } from "../pricing";
import { args, getVpc, minutes, recordOutputs, triggered, triggers } from "./common";
import { text } from "../engine/inventory";

type VpcRecord = NonNullable<Awaited<ReturnType<typeof getVpc>>>;
const vpcRecord = recordLookup("VPC", (ctx, id, state: { zoneUuid?: string }) => getVpc(ctx, state.zoneUuid!, id));

/** A virtual private cloud: an isolated address space in one zone, divided into tiers (VpcTier). */
export const vpcDeclaration = defineResource({
  type: "Vpc",
  description: "A virtual private cloud: an isolated IPv4 address space in one zone, divided into tiers (VpcTier).",
  price: perOffering("VPC offering", "vpcOfferingUuid", "VPC offering", "vpcOffering"),
  inputs: z.object({
    name: args.name("VPC"),
    zoneUuid: args.zoneUuid("VPC"),
    cidr: cidrBlock.describe("The VPC's address space, e.g. 10.1.0.0/16; tiers lie inside it."),
    vpcOfferingUuid: catalogReference("vpcOffering").describe("The VPC offering (see getVpcOfferings)."),
    description: z.string().optional().describe("Free text shown with the VPC."),
    networkDomain: z.string().optional().describe("The DNS domain of the VPC's networks."),
    publicLoadBalancerProvider: z.string().optional().describe("The provider of public load balancing in the VPC."),
    restartTriggers: triggers("restarts the VPC (restartVpc: its router, without clean-up)"),
  }),
  outputs: z.object({
    ...recordOutputs,
    zoneName: z.string().optional().describe("The zone's name."),
    domainName: z.string().optional().describe("The account's domain."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  // The spec's VPC record shows none of them; the triggers are the program's alone.
  unreadable: ["vpcOfferingUuid", "networkDomain", "publicLoadBalancerProvider", "restartTriggers"],
  replaceOn: ["zoneUuid", "cidr", "vpcOfferingUuid", "networkDomain", "publicLoadBalancerProvider"],
  updates: [
    {
      fields: ["name", "description"],
      via: "updateVpc",
      awaits: ["visible"],
      async *apply(ctx, id, news) {
        const change = { name: news.name, description: news.description ?? "" };
        await ctx.client.vpc.update({ uuid: id, ...change });
        yield showing(change);
      },
    },
    {
      fields: ["restartTriggers"],
      via: "restartVpc",
      reaches: ["vpc.restart"],
      awaits: ["state"],
      async *apply(ctx, id, news) {
        if (!triggered(news.restartTriggers)) return;
        ctx.progress(`restarting VPC ${id}`);
        // A restart may be sent again after an ambiguous failure (the operation is idempotent).
        await ctx.client.vpc.restart({ uuid: id, cleanUpVPC: false, redundantVpcRouter: false });
        yield until<VpcRecord>("to finish restarting", (vpc) => vpc.status !== "Restarting");
      },
    },
  ],
  defaultTimeouts: { create: minutes(10), update: minutes(10), delete: minutes(10) },
  identity: {
    scope: (inputs) => `${inputs.zoneUuid!}/${inputs.name}`,
    candidates: (ctx, inputs, where) => ctx.client.vpc.list({ zoneUuid: inputs.zoneUuid! }, { where }),
    ...byName,
  },
  tagType: "Vpc",
  inventory: {
    list: async (lists) =>
      (await lists.client.vpc.list({ zoneUuid: lists.zoneUuid })).map((vpc) => ({
        id: vpc.uuid,
        name: text(vpc.name),
      })),
  },
  record: vpcRecord,
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const vpc = await ctx.client.vpc.create(
      {
        name,
        zoneUuid: inputs.zoneUuid!,
        getcIDR: inputs.cidr,
        vpcOfferingUuid: inputs.vpcOfferingUuid,
        description: inputs.description,
        networkDomain: inputs.networkDomain,
        publicLoadBalancerProvider: inputs.publicLoadBalancerProvider,
      },
      { verify: ctx.findCreated },
    );
    return { id: vpc.uuid };
  },
  read: async (ctx, id, state) => {
    const vpc = await vpcRecord.find(ctx, id, state);
    if (!vpc) return undefined;
    return {
      // The spec's record (and the emulator's) carries neither the offering, nor the network domain,
      // nor the load-balancing provider: they are read where a deployment's record shows them.
      inputs: {
        name: vpc.name,
        zoneUuid: vpc.zoneUuid,
        cidr: vpc.getcIDR,
        description: vpc.description,
        vpcOfferingUuid: vpc.vpcOfferingUuid,
        networkDomain: vpc.networkDomain,
        publicLoadBalancerProvider: vpc.publicLoadBalancerProvider,
      },
      outputs: {
        uuid: vpc.uuid,
        status: vpc.status,
        isActive: vpc.isActive,
        zoneName: vpc.zoneName,
        domainName: vpc.domainName,
      },
    };
  },
  // The client's deleteVpc confirms the record gone (its operation's confirmGone).
  delete: async (ctx, id, state) => {
    await ctx.client.vpc.delete({ uuid: id, zoneUuid: state.zoneUuid });
  },
});
