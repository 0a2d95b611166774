// Site-to-site VPN customer gateways.
import type { AreaRegistrar } from "../core";
import { accepted, registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readBool, readString, type Inputs } from "../http";
import {
  addVpnCustomerGateway,
  BOOLEAN_INPUTS,
  deleteVpnCustomerGateway,
  listVpnCustomerGateways,
  REQUIRED_INPUTS,
  STRING_INPUTS,
  updateVpnCustomerGateway,
  type GatewayInput,
} from "../model/vpncustomergateway";

const KEY = "listVpnCustomerGatewayResponse";
const required = { required: true } as const;

/** The gateway fields of a body; on add the spec's required ones must be present. */
function gatewayInput(body: Inputs, adding: boolean): GatewayInput {
  const input: GatewayInput = {};
  for (const field of STRING_INPUTS) {
    input[field] = readString(body, field, { required: adding && REQUIRED_INPUTS.includes(field) });
  }
  for (const field of BOOLEAN_INPUTS) input[field] = readBool(body, field);
  return input;
}

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/vpncustomergateway/addVpnCustomerGateway",
    operation: "addVpnCustomerGateway",
    mutating: true,
    handle: ({ body, scope }, ctx) => envelope(KEY, [addVpnCustomerGateway(scope, ctx, gatewayInput(body, true))]),
  },
  {
    method: "GET",
    path: "/restapi/vpncustomergateway/vpnCustomerGatewayList",
    operation: "vpnCustomerGatewayList",
    mutating: false,
    handle: ({ query, scope }) => envelope(KEY, listVpnCustomerGateways(scope, { uuid: readString(query, "uuid") })),
  },
  {
    method: "PUT",
    path: "/restapi/vpncustomergateway/updateVpnCustomerGateway",
    operation: "updateVpnCustomerGateway",
    mutating: true,
    handle: ({ body, scope }, ctx) => {
      const uuid = readString(body, "uuid", required);
      return accepted(envelope(KEY, [updateVpnCustomerGateway(scope, ctx, uuid, gatewayInput(body, false))]));
    },
  },
  {
    method: "DELETE",
    path: "/restapi/vpncustomergateway/deleteVpnCustomerGateway/:uuid",
    operation: "deleteVpnCustomerGateway",
    mutating: true,
    handle: ({ params, scope }) => deleteVpnCustomerGateway(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
