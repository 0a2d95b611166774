// Public IP address endpoints (spec section IP Address).
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readString } from "../http";
import {
  acquireIpAddress,
  disableRemoteVpn,
  disableStaticNat,
  enableRemoteVpn,
  enableStaticNat,
  listIpAddresses,
  NETWORK_KINDS,
  releaseIpAddress,
} from "../model/ipaddress";

const KEY = "listIpAddressResponse";
const STATIC_NAT_KEY = "svcAttachStaticNatResponse";
const required = { required: true } as const;

const ENDPOINTS: Endpoint[] = [
  {
    method: "GET",
    path: "/restapi/ipaddress/acquireIpAddress",
    operation: "acquireIpAddress",
    mutating: true,
    handle: ({ query, scope }, ctx) => {
      const networkUuid = readString(query, "networkUuid", required);
      const kind = readEnum(query, "networkType", NETWORK_KINDS, required);
      return envelope(KEY, [acquireIpAddress(ctx, scope, networkUuid, kind)]);
    },
  },
  {
    method: "GET",
    path: "/restapi/ipaddress/ipAddressList",
    operation: "ipAddressList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(
        KEY,
        listIpAddresses(ctx, scope, {
          zoneUuid: readString(query, "zoneUuid", required),
          networkUuid: readString(query, "networkUuid"),
          uuid: readString(query, "uuid"),
        }),
      ),
  },
  {
    method: "DELETE",
    path: "/restapi/ipaddress/releaseIpAddress",
    operation: "releaseIpAddress",
    mutating: true,
    handle: ({ query, scope }, ctx) => releaseIpAddress(ctx, scope, readString(query, "uuid", required)),
  },
  {
    method: "POST",
    path: "/restapi/ipaddress/enableStaticNat",
    operation: "enableStaticNat",
    mutating: true,
    handle: ({ body, scope }) => {
      const nat = enableStaticNat(scope, {
        ipAddressUuid: readString(body, "ipAddressUuid", required),
        vmUuid: readString(body, "vmUuid", required),
        networkUuid: readString(body, "networkUuid"),
      });
      return envelope(STATIC_NAT_KEY, [nat]);
    },
  },
  {
    method: "DELETE",
    path: "/restapi/ipaddress/disableStaticNat",
    operation: "disableStaticNat",
    mutating: true,
    handle: ({ query, scope }) => disableStaticNat(scope, readString(query, "ipAddressUuid", required)),
  },
  {
    method: "GET",
    path: "/restapi/ipaddress/enableremotevpnaccess",
    operation: "enableremotevpnaccess",
    mutating: true,
    handle: ({ query, scope }, ctx) =>
      envelope(KEY, [enableRemoteVpn(ctx, scope, readString(query, "ipAddressUuid", required))]),
  },
  {
    method: "DELETE",
    path: "/restapi/ipaddress/disableremotevpnaccess",
    operation: "disableremotevpnaccess",
    mutating: true,
    handle: ({ query, scope }) =>
      envelope(KEY, [disableRemoteVpn(scope, readString(query, "ipAddressUuid", required))]),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
