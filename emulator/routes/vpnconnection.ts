// Site-to-site VPN connections between VPCs and customer gateways.
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readBool, readString } from "../http";
import { addVpnConnection, deleteVpnConnection, listVpnConnections, resetVpnConnection } from "../model/vpnconnection";

const KEY = "listVpnConnectionResponse";
const required = { required: true } as const;

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/vpnconnection/addVpnConnection",
    operation: "addVpnConnection",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(KEY, [
        addVpnConnection(scope, ctx, {
          vpcUuid: readString(body, "vpcUuid", required),
          customerGatewayUuid: readString(body, "customerGatewayUuid", required),
          passive: readBool(body, "passive"),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/vpnconnection/vpnConnectionList",
    operation: "vpnConnectionList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(
        KEY,
        listVpnConnections(scope, ctx, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          vpcUuid: readString(query, "vpcUuid"),
        }),
      ),
  },
  {
    method: "PUT",
    path: "/restapi/vpnconnection/resetVpnConnection/:uuid",
    operation: "resetVpnConnection",
    mutating: true,
    handle: ({ params, scope }, ctx) =>
      envelope(KEY, [resetVpnConnection(scope, ctx, readString(params, "uuid", required))]),
  },
  {
    method: "DELETE",
    path: "/restapi/vpnconnection/deleteVpnConnection/:uuid",
    operation: "deleteVpnConnection",
    mutating: true,
    handle: ({ params, scope }, ctx) => deleteVpnConnection(scope, ctx, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
