import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { withDefaultText } from "../engine/defaults";
import { uuid } from "../engine/validators";
import { isNotFound } from "../client/errors";
import { findInZones } from "../engine/import";
import { minutes } from "./common";
import { isConflict, removeUntilGone, zoneAddress, zoneOfNetwork } from "./networking-common";
import { recordLookup } from "../engine/waits";
import { orNone, text, type InventoryLists } from "../engine/inventory";
import { liveInstances } from "./instance";
import { zoneAddresses } from "./public-ip-address";

/**
 * The zone's static NATs: they show only on the instances' NICs (an address's record does not say).
 * A cluster's nodes are the service's, their addresses too.
 */
async function staticNats(lists: InventoryLists) {
  const [instances, ips] = await Promise.all([liveInstances(lists), zoneAddresses(lists)]);
  const perInstance = await Promise.all(
    instances
      .filter((instance) => !lists.marked("Instance", instance.uuid))
      .map(async (instance) =>
        (await orNone(() => lists.client.instance.networks({ uuid: instance.uuid }))).flatMap((nic) => {
          const ip = nic.publicIp ? ips.find((i) => i.publicIpAddress === nic.publicIp) : undefined;
          if (!ip) return [];
          return [
            { id: ip.uuid, parentId: ip.uuid, detail: `${nic.publicIp} -> ${text(instance.name) ?? instance.uuid}` },
          ];
        }),
      ),
  );
  return perInstance.flat();
}

/**
 * The instance's NIC that shows this public address (the API lists no static NAT: a NIC's publicIp
 * is the address static NAT maps onto it); undefined when the address or the instance is gone.
 */
async function natNic(ctx: OperationContext, state: { zoneUuid?: string; instanceUuid: string }, id: string) {
  const address = await zoneAddress(ctx, state.zoneUuid!, id);
  if (!address?.publicIpAddress) return undefined;
  try {
    const nics = await ctx.client.instance.networks({ uuid: state.instanceUuid });
    const nic = nics.find((n) => n.publicIp === address.publicIpAddress);
    return nic && { nic, address };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Static NAT is found through the NIC that shows its address. */
const natRecord = recordLookup("static NAT of", (ctx, id, state: { zoneUuid?: string; instanceUuid: string }) =>
  natNic(ctx, state, id),
);

/**
 * Static NAT of a public IP address to an instance: every port of the address reaches the
 * instance. Its id is the address's uuid (the API identifies static NAT by its address).
 */
export const staticNatDeclaration = defineResource({
  type: "StaticNat",
  description:
    "Static NAT of a public IP address to an instance: all traffic to the address reaches the instance (enableStaticNat). One per address and one per instance; the address may carry no port-forwarding or load-balancer rule. The resource's id is the address's uuid.",
  inputs: z.object({
    ipAddressUuid: uuid.describe("The public IP address (a PublicIpAddress) to map."),
    instanceUuid: uuid.describe("The instance the address maps to."),
    networkUuid: withDefaultText(
      uuid
        .optional()
        .describe(
          "The instance's network that receives the traffic: the address's network, or a tier of the address's VPC.",
        ),
      "the instance's default network",
    ),
  }),
  outputs: z.object({
    address: z.string().optional().describe("The public IPv4 address."),
    instanceName: z.string().optional().describe("The display name of the instance."),
    privateIp: z.string().optional().describe("The instance's address that the public address maps to."),
    zoneUuid: z.string().optional().describe("The zone of the address."),
    status: z.string().optional().describe("The static NAT's status as the API reports it at creation."),
  }),
  replaceOn: ["ipAddressUuid", "instanceUuid", "networkUuid"],
  updates: [],
  // One static NAT per instance: a replacement on the same instance can only follow the delete.
  deleteBeforeReplace: true,
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  // The binding is the address's (one per address): its id is the address's uuid, and the create
  // verifies by asking whether the instance shows the address.
  identity: { scope: (inputs) => inputs.ipAddressUuid },
  inventory: { list: staticNats, naming: { alias: "nat", withoutDetail: true } },
  create: async (ctx, inputs) => {
    // The answer names no zone; the network the NAT applies to does (address lists are per zone).
    const networkUuid =
      inputs.networkUuid ??
      (await ctx.client.instance.networks({ uuid: inputs.instanceUuid })).find((n) => n.defaultNetwork)?.uuid;
    const zoneUuid = networkUuid ? await zoneOfNetwork(ctx, networkUuid) : ctx.settings.zoneUuid;
    const request = { ipAddressUuid: inputs.ipAddressUuid, vmUuid: inputs.instanceUuid, networkUuid };
    const nat = await ctx.client.ipAddress.enableStaticNat(request, {
      // After an ambiguous failure: the NAT is there if the instance shows the address.
      verify: async () =>
        (await natNic(ctx, { zoneUuid, instanceUuid: inputs.instanceUuid }, inputs.ipAddressUuid))
          ? request
          : undefined,
    });
    return {
      id: inputs.ipAddressUuid,
      known: { zoneUuid, instanceName: nat.vmName, status: nat.status },
    };
  },
  // Import: the zone whose list holds the address, then the instance of that zone one of whose
  // networks shows the address (the API lists no static NAT: the NIC's publicIp is the only trace).
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, (zoneUuid) => zoneAddress(ctx, zoneUuid, id));
    const publicIp = hit?.found.publicIpAddress;
    if (!hit || !publicIp) return undefined;
    const instances = await ctx.client.instance.list({ zoneUuid: hit.zoneUuid });
    for (const instance of instances) {
      if (instance.state === "Destroyed" || instance.state === "Expunging") continue;
      const nics = await ctx.client.instance.networks({ uuid: instance.uuid }).catch((error: unknown) => {
        if (isNotFound(error)) return []; // expunged meanwhile
        throw error;
      });
      if (nics.some((nic) => nic.publicIp === publicIp)) {
        return {
          zoneUuid: hit.zoneUuid,
          instanceUuid: instance.uuid,
          instanceName: instance.displayName ?? instance.name,
        };
      }
    }
    return undefined; // the address maps onto no instance: it has no static NAT
  },
  read: async (ctx, id, state) => {
    const found = await natNic(ctx, state, id);
    if (!found) return undefined;
    return {
      inputs: { ipAddressUuid: id, instanceUuid: state.instanceUuid, networkUuid: found.nic.uuid },
      outputs: {
        address: found.address.publicIpAddress,
        privateIp: found.nic.privateIp,
        zoneUuid: state.zoneUuid,
        instanceName: state.instanceName,
        status: state.status,
      },
    };
  },
  record: natRecord,
  delete: (ctx, id, state) =>
    removeUntilGone(ctx, id, state, {
      lookup: natRecord,
      remove: () => ctx.client.ipAddress.disableStaticNat({ ipAddressUuid: id }),
      // 409: the address has no static NAT (disabled meanwhile).
      alreadyGone: isConflict,
    }),
});
