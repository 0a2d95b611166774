// Ingress firewall rules on public IPs.
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readString } from "../http";
import { createFirewallRule, deleteFirewallRule, listFirewallRules } from "../model/firewallrule";
import { PROTOCOLS } from "../model/rules-common";

const KEY = "listFirewallRuleResponse";
const required = { required: true } as const;

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/firewallrule/createFirewallRule",
    operation: "createFirewallRule",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(KEY, [
        createFirewallRule(scope, ctx, {
          ipAddressUuid: readString(body, "ipAddressUuid", required),
          protocol: readEnum(body, "protocol", PROTOCOLS, required),
          startPort: readString(body, "startPort"),
          endPort: readString(body, "endPort"),
          icmpType: readString(body, "icmpType"),
          icmpCode: readString(body, "icmpCode"),
          cidrList: readString(body, "cidrList"),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/firewallrule/firewallRuleList",
    operation: "firewallRuleList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(
        KEY,
        listFirewallRules(scope, ctx, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          ipAddressUuid: readString(query, "ipAddressUuid"),
        }),
      ),
  },
  {
    method: "DELETE",
    path: "/restapi/firewallrule/deleteFirewallRule/:uuid",
    operation: "deleteFirewallRule",
    mutating: true,
    handle: ({ params, scope }) => deleteFirewallRule(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
