// Port-forwarding rules from public IPs to instances.
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readString } from "../http";
import {
  createPortForwardingRule,
  deletePortForwardingRule,
  listPortForwardingRules,
  PF_PROTOCOLS,
} from "../model/portforwardingrule";

const KEY = "listPortForwardingResponse";
const required = { required: true } as const;

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/portforwardingrule/createPortForwardingRule",
    operation: "createPortForwardingRule",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(KEY, [
        createPortForwardingRule(scope, ctx, {
          ipAddressUuid: readString(body, "ipAddressUuid", required),
          protocol: readEnum(body, "protocol", PF_PROTOCOLS, required),
          privatePort: readString(body, "privatePort", required),
          privateEndPort: readString(body, "privateEndPort"),
          publicPort: readString(body, "publicPort", required),
          publicEndPort: readString(body, "publicEndPort"),
          virtualmachineUuid: readString(body, "virtualmachineUuid", required),
          networkUuid: readString(body, "networkUuid"),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/portforwardingrule/portForwardingRuleList",
    operation: "portForwardingRuleList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(
        KEY,
        listPortForwardingRules(scope, ctx, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          vmUuid: readString(query, "vmUuid"),
          ipAddressUuid: readString(query, "ipAddressUuid"),
        }),
      ),
  },
  {
    method: "DELETE",
    path: "/restapi/portforwardingrule/deletePortForwardingRule/:uuid",
    operation: "deletePortForwardingRule",
    mutating: true,
    handle: ({ params, scope }) => deletePortForwardingRule(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
