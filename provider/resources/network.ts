import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { withDefault } from "../engine/defaults";
import { byName } from "../engine/identity";
import { catalogReference, uuid } from "../engine/validators";
import { showing, until } from "../engine/waits";
import { perOffering } from "../pricing";
import { args, getNetwork, networkRecord, replaceAclStep, minutes, recordOutputs, triggered, triggers } from "./common";
import { text, type InventoryLists } from "../engine/inventory";

type NetworkRecord = NonNullable<Awaited<ReturnType<typeof getNetwork>>>;

/** A zone's networks, each with whether it is a VPC tier: Network and VpcTier share the one list. */
export async function zoneNetworks(lists: InventoryLists) {
  const { client, zoneUuid } = lists;
  const [networks, offerings] = await Promise.all([
    lists.once("network.list", () => client.network.list({ zoneUuid })),
    lists.once("costEstimate.networkOfferings", () => client.costEstimate.networkOfferings({ zoneUuid })),
  ]);
  const tierOfferings = new Set(offerings.filter((o) => o.type === "VPC").map((o) => o.uuid));
  // A tier is a network to the API: its record names its VPC, or its offering is a tier's.
  const tier = (n: (typeof networks)[number]) =>
    text(n.vpcUuid) !== undefined || tierOfferings.has(n.networkOfferingUuid ?? "");
  return networks.map((network) => ({ network, tier: tier(network) }));
}

/** A guest network (isolated or shared) outside any VPC. */
export const networkDeclaration = defineResource({
  type: "Network",
  description: "A guest network outside any VPC; instances, public IPs, egress rules and clusters attach to it.",
  price: perOffering("Network offering", "networkOfferingUuid", "network offering", "networkOffering"),
  inputs: z.object({
    name: args.name("network"),
    zoneUuid: args.zoneUuid("network"),
    networkOfferingUuid: catalogReference("networkOffering").describe(
      "The network offering (see getNetworkOfferings).",
    ),
    isPublic: withDefault(z.boolean().optional().describe("Whether the network is shared with other accounts."), false),
    securityGroupUuid: uuid.optional().describe("The security group applied to the network."),
    aclUuid: uuid.optional().describe("The network ACL list applied to the network."),
    description: z.string().optional().describe("Free text shown with the network."),
    networkDomain: z.string().optional().describe("The network's DNS domain."),
    restartTriggers: triggers("restarts the network (restartNetwork, without clean-up)"),
  }),
  outputs: z.object({
    ...recordOutputs,
    cidr: z.string().optional().describe("The network's address block, assigned by the cloud."),
    gateway: z.string().optional().describe("The network's gateway address."),
    networkType: z.string().optional().describe("The network type the API reports (e.g. Isolated)."),
    domainName: z.string().optional().describe("The account's domain."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  // The record does not show it; the triggers are the program's alone.
  unreadable: ["isPublic", "restartTriggers"],
  replaceOn: ["zoneUuid", "networkOfferingUuid", "isPublic"],
  updates: [
    {
      fields: ["name", "description", "networkDomain"],
      via: "updateNetwork",
      awaits: ["visible"],
      async *apply(ctx, id, news) {
        await ctx.client.network.update({
          uuid: id,
          name: news.name,
          description: news.description,
          networkDomain: news.networkDomain,
        });
        yield showing({ name: news.name, networkDomain: news.networkDomain }); // the record carries no description
      },
    },
    {
      fields: ["securityGroupUuid"],
      via: "changeSecurityGroup",
      apply: async (ctx, id, news) => {
        if (news.securityGroupUuid) {
          await ctx.client.network.changeSecurityGroup({ uuid: id, securityGroupId: news.securityGroupUuid });
        }
      },
    },
    replaceAclStep,
    {
      fields: ["restartTriggers"],
      via: "restartNetwork",
      reaches: ["network.restart"],
      awaits: ["state"],
      async *apply(ctx, id, news) {
        if (!triggered(news.restartTriggers)) return;
        ctx.progress(`restarting network ${id}`);
        // A restart may be sent again after an ambiguous failure (the operation is idempotent).
        await ctx.client.network.restart({ uuid: id, cleanUpNetwork: false });
        yield until<NetworkRecord>("to finish restarting", (network) => network.status !== "Restarting");
      },
    },
  ],
  defaultTimeouts: { create: minutes(10), update: minutes(10), delete: minutes(10) },
  identity: {
    scope: (inputs) => `${inputs.zoneUuid!}/${inputs.name}`,
    candidates: (ctx, inputs, where) => ctx.client.network.list({ zoneUuid: inputs.zoneUuid! }, { where }),
    ...byName,
  },
  tagType: "Network",
  // The zone's networks that are no VPC tier (a tier is a network to the API: vpc-tier.ts lists those).
  inventory: {
    list: async (lists) =>
      (await zoneNetworks(lists))
        .filter(({ tier }) => !tier)
        .map(({ network }) => ({ id: network.uuid, name: text(network.name) })),
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const network = await ctx.client.network.create(
      {
        name,
        zoneUuid: inputs.zoneUuid!,
        networkOfferingUuid: inputs.networkOfferingUuid,
        isPublic: inputs.isPublic,
        securityGroupUuid: inputs.securityGroupUuid,
      },
      { verify: ctx.findCreated },
    );
    return { id: network.uuid };
  },
  // After the id is in hand (a failure here keeps it in state): createNetwork takes none of these.
  record: networkRecord("network"),
  // The create call takes none of them: their update steps set them.
  createdAs: () => ({ description: undefined, networkDomain: undefined, aclUuid: undefined }),
  read: async (ctx, id, state) => {
    const network = await networkRecord("network").find(ctx, id, state);
    if (!network) return undefined;
    return {
      // isPublic is not carried by the record; description and securityGroupUuid are fields beyond
      // the spec's record, read where the record carries them.
      inputs: {
        name: network.name,
        zoneUuid: network.zoneUuid,
        networkOfferingUuid: network.networkOfferingUuid,
        networkDomain: network.networkDomain,
        aclUuid: network.networkAclList,
        description: network.description,
        securityGroupUuid: network.securityGroupUuid,
      },
      outputs: {
        uuid: network.uuid,
        status: network.status,
        isActive: network.isActive,
        cidr: network.getcIDR,
        gateway: network.gateway,
        networkType: network.networkType,
        domainName: network.domainName,
      },
    };
  },
  // The client's deleteNetwork confirms the record gone (its operation's confirmGone).
  delete: async (ctx, id, state) => {
    await ctx.client.network.delete({ uuid: id, zoneUuid: state.zoneUuid });
  },
});
