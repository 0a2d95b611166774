import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { uuid } from "../engine/validators";
import { ApiError, isNotFound } from "../client/errors";
import { findInZones } from "../engine/import";
import { minutes } from "./common";
import { isConflict, zoneAddress } from "./networking-common";

/**
 * Remote-access VPN on a public IP address (users dial in to the address's network). Its id is the
 * address's uuid. The API shows no trace of it (the address record does not say whether remote
 * access is enabled): a refresh drops the resource when its address is gone, but cannot see remote
 * access disabled out of band. Nor does discover list it: it has no inventory facet.
 */
export const remoteAccessVpnDeclaration = defineResource({
  type: "RemoteAccessVpn",
  description:
    "Remote-access VPN on a public IP address (enableremotevpnaccess): VPN users dial in to the address's network. Not on an address with static NAT. The resource's id is the address's uuid. The API does not show whether remote access is enabled: a refresh sees the address, not the VPN.",
  inputs: z.object({
    ipAddressUuid: uuid.describe("The public IP address (a PublicIpAddress) that accepts VPN users."),
  }),
  outputs: z.object({
    address: z.string().optional().describe("The public IPv4 address VPN users dial."),
    zoneUuid: z.string().optional().describe("The zone of the address."),
  }),
  replaceOn: ["ipAddressUuid"],
  updates: [],
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  // Remote access is the address's (one per address): its id is the address's uuid.
  identity: { scope: (inputs) => inputs.ipAddressUuid },
  create: async (ctx, inputs) => {
    const request = { ipAddressUuid: inputs.ipAddressUuid };
    // No record shows whether remote access is on: after an ambiguous failure the check is to ask
    // again, and "already enabled" (409) means the first request took effect.
    const verify = async () => {
      try {
        return await ctx.client.ipAddress.enableRemoteVpnAccess(request);
      } catch (error) {
        if (!(error instanceof ApiError && isConflict(error))) throw error;
        return { uuid: request.ipAddressUuid }; // the read that follows the create fills in the address
      }
    };
    const address = await ctx.client.ipAddress.enableRemoteVpnAccess(request, { verify });
    return {
      id: inputs.ipAddressUuid,
      known: { address: address.publicIpAddress, zoneUuid: address.zoneUuid ?? ctx.settings.zoneUuid },
    };
  },
  // Import: the zone whose list holds the address. Whether remote access is enabled on it, no record
  // shows: an address without it imports too (as a refresh keeps it).
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, async (zoneUuid) => zoneAddress(ctx, zoneUuid, id));
    return hit && { zoneUuid: hit.zoneUuid };
  },
  read: async (ctx, id, state) => {
    const address = await zoneAddress(ctx, state.zoneUuid!, id);
    if (!address) return undefined;
    return {
      inputs: { ipAddressUuid: id },
      outputs: { address: address.publicIpAddress, zoneUuid: address.zoneUuid ?? state.zoneUuid },
    };
  },
  // Synchronous, and nothing to poll: done when the API says so, or says it was not enabled (409, 404).
  delete: async (ctx, id) => {
    try {
      await ctx.client.ipAddress.disableRemoteVpnAccess({ ipAddressUuid: id });
    } catch (error) {
      if (!(isNotFound(error) || (error instanceof ApiError && isConflict(error)))) throw error;
    }
  },
});
