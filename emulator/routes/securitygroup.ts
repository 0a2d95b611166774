// Security groups and their embedded firewall, egress and port-forwarding rules.
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readString, type Inputs } from "../http";
import { PROTOCOLS } from "../model/rules-common";
import { PF_PROTOCOLS } from "../model/portforwardingrule";
import {
  createSecurityGroup,
  createSecurityGroupEgressRule,
  createSecurityGroupFirewallRule,
  createSecurityGroupPortForwardingRule,
  deleteSecurityGroup,
  deleteSecurityGroupRule,
  listSecurityGroups,
  RULE_TYPES,
} from "../model/securitygroup";

const BASE = "/restapi/securitygroup";
const KEY = "listSecurityGroupResponse";
const required = { required: true } as const;

const securityGroupUuid = (inputs: Inputs) => readString(inputs, "securityGroupUuid", required);
const traffic = (body: Inputs) => ({
  securityGroupUuid: securityGroupUuid(body),
  protocol: readEnum(body, "protocol", PROTOCOLS, required),
  startPort: readString(body, "startPort"),
  endPort: readString(body, "endPort"),
  icmpType: readString(body, "icmpType"),
  icmpCode: readString(body, "icmpCode"),
});

/** The three embedded-rule creates: each answers the envelope of the group. */
const RULE_CREATES: ReadonlyArray<[string, Endpoint["handle"]]> = [
  [
    "createSecurityGroupFirewallRule",
    ({ body, scope }, ctx) =>
      createSecurityGroupFirewallRule(scope, ctx, { ...traffic(body), cidrList: readString(body, "cidrList") }),
  ],
  ["createSecurityGroupEgressRule", ({ body, scope }, ctx) => createSecurityGroupEgressRule(scope, ctx, traffic(body))],
  [
    "createSecurityGroupPortForwardingRule",
    ({ body, scope }, ctx) =>
      createSecurityGroupPortForwardingRule(scope, ctx, {
        securityGroupUuid: securityGroupUuid(body),
        protocolType: readEnum(body, "protocolType", PF_PROTOCOLS, required),
        privateStartPort: readString(body, "privateStartPort", required),
        privateEndPort: readString(body, "privateEndPort"),
        publicStartPort: readString(body, "publicStartPort", required),
        publicEndPort: readString(body, "publicEndPort"),
      }),
  ],
];

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: `${BASE}/createSecurityGroup`,
    operation: "createSecurityGroup",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(KEY, [
        createSecurityGroup(scope, ctx, {
          name: readString(body, "name", required),
          description: readString(body, "description"),
        }),
      ]),
  },
  {
    method: "GET",
    path: `${BASE}/securityList`,
    operation: "securityList",
    mutating: false,
    handle: ({ query, scope }) => envelope(KEY, listSecurityGroups(scope, { uuid: readString(query, "uuid") })),
  },
  ...RULE_CREATES.map(([operation, create]): Endpoint => ({
    method: "POST",
    path: `${BASE}/${operation}`,
    operation,
    mutating: true,
    handle: (inputs, ctx) => envelope(KEY, [create(inputs, ctx)]),
  })),
  {
    method: "DELETE",
    path: `${BASE}/deleteSecurityGroupRule`,
    operation: "deleteSecurityGroupRule",
    mutating: true,
    handle: ({ query, scope }) =>
      envelope(KEY, [
        deleteSecurityGroupRule(scope, {
          securityGroupUuid: securityGroupUuid(query),
          ruleType: readEnum(query, "ruleType", RULE_TYPES, required),
          ruleUuid: readString(query, "ruleUuid", required),
        }),
      ]),
  },
  {
    method: "DELETE",
    path: `${BASE}/deleteSecurityGroup/:uuid`,
    operation: "deleteSecurityGroup",
    mutating: true,
    handle: ({ params, scope }) => deleteSecurityGroup(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
