// Egress rules of guest networks.
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readString } from "../http";
import { createEgressRule, deleteEgressRule, listEgressRules } from "../model/egressrule";
import { PROTOCOLS } from "../model/rules-common";

const KEY = "listEgressRuleResponse";
const required = { required: true } as const;

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/egressrule/createEgressRule",
    operation: "createEgressRule",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(KEY, [
        createEgressRule(scope, ctx, {
          networkUuid: readString(body, "networkUuid", required),
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
    path: "/restapi/egressrule/egressRuleList",
    operation: "egressRuleList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(
        KEY,
        listEgressRules(scope, ctx, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          networkUuid: readString(query, "networkUuid"),
        }),
      ),
  },
  {
    method: "DELETE",
    path: "/restapi/egressrule/deleteEgressRule/:uuid",
    operation: "deleteEgressRule",
    mutating: true,
    handle: ({ params, scope }) => deleteEgressRule(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
