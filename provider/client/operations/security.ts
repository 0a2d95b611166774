// Security groups (rules embedded) and the per-IP / per-network rules: /restapi/securitygroup,
// /restapi/firewallrule, /restapi/egressrule.
import { z } from "zod";
import {
  objectArrayField,
  booleanField,
  recordId,
  stringField,
  cidrList,
  input,
  port,
  portOrder,
  portProtocol,
  protocol,
  record,
  ref,
  text,
} from "../schema";
import { bool, list, one, op } from "./define";

export const securityGroupRecord = record({
  uuid: recordId,
  name: stringField,
  description: stringField,
  securityGroupFirewallRule: objectArrayField,
  securityGroupPortForwarding: objectArrayField,
  securityGroupEgressRule: objectArrayField,
  status: stringField,
  isActive: booleanField,
});
export type SecurityGroup = z.output<typeof securityGroupRecord>;

export const firewallRuleRecord = record({
  uuid: recordId,
  ipAddressUuid: stringField,
  protocol: stringField,
  startPort: stringField,
  endPort: stringField,
  icmpType: stringField,
  icmpCode: stringField,
  cidrList: stringField,
  zoneUuid: stringField,
  status: stringField,
  isActive: booleanField,
});
export type FirewallRule = z.output<typeof firewallRuleRecord>;

export const egressRuleRecord = record({
  uuid: recordId,
  networkUuid: stringField,
  protocol: stringField,
  startPort: stringField,
  endPort: stringField,
  icmpType: stringField,
  icmpCode: stringField,
  zoneUuid: stringField,
  status: stringField,
  isActive: booleanField,
});
export type EgressRule = z.output<typeof egressRuleRecord>;

const GROUP = "listSecurityGroupResponse";
const byUuid = input({ uuid: ref });

/** ICMP type and code travel as strings; -1 means "any". */
const icmp = text.optional();

/** The input of a firewall or egress rule (on an IP, a network or a security group): one shape. */
const ruleInput = <Target extends string>(target: Target) =>
  input({
    ...({ [target]: ref } as Record<Target, typeof ref>),
    protocol,
    startPort: port.optional(),
    endPort: port.optional(),
    cidrList: cidrList.optional(),
    icmpType: icmp,
    icmpCode: icmp,
  }).refine(...portOrder("startPort", "endPort"));

const listGroups = op({
  name: "securityList",
  method: "GET",
  path: "/restapi/securitygroup/securityList",
  input: input({ uuid: ref.optional() }),
  response: list(GROUP, securityGroupRecord),
  mutating: false,
});

export const securityGroupOperations = {
  create: op({
    name: "createSecurityGroup",
    method: "POST",
    path: "/restapi/securitygroup/createSecurityGroup",
    input: input({ name: ref, description: text.optional() }),
    response: one(GROUP, securityGroupRecord),
    mutating: true,
  }),
  list: listGroups,
  addFirewallRule: op({
    name: "createSecurityGroupFirewallRule",
    method: "POST",
    path: "/restapi/securitygroup/createSecurityGroupFirewallRule",
    input: ruleInput("securityGroupUuid"),
    response: one(GROUP, securityGroupRecord),
    mutating: true,
  }),
  addEgressRule: op({
    name: "createSecurityGroupEgressRule",
    method: "POST",
    path: "/restapi/securitygroup/createSecurityGroupEgressRule",
    input: input({
      securityGroupUuid: ref,
      protocol,
      startPort: port.optional(),
      endPort: port.optional(),
      icmpType: icmp,
      icmpCode: icmp,
    }).refine(...portOrder("startPort", "endPort")),
    response: one(GROUP, securityGroupRecord),
    mutating: true,
  }),
  addPortForwardingRule: op({
    name: "createSecurityGroupPortForwardingRule",
    method: "POST",
    path: "/restapi/securitygroup/createSecurityGroupPortForwardingRule",
    input: input({
      securityGroupUuid: ref,
      protocolType: portProtocol,
      privateStartPort: port,
      publicStartPort: port,
      privateEndPort: port.optional(),
      publicEndPort: port.optional(),
    })
      .refine(...portOrder("privateStartPort", "privateEndPort"))
      .refine(...portOrder("publicStartPort", "publicEndPort")),
    response: one(GROUP, securityGroupRecord),
    mutating: true,
  }),
  deleteRule: op({
    name: "deleteSecurityGroupRule",
    method: "DELETE",
    path: "/restapi/securitygroup/deleteSecurityGroupRule",
    input: input({
      securityGroupUuid: ref,
      // PORTFORWATDING: the spec's spelling.
      ruleType: z.enum(["EGRESSRULE", "FIREWALLRULE", "PORTFORWATDING"]),
      ruleUuid: ref,
    }),
    response: one(GROUP, securityGroupRecord),
    mutating: true,
    resend: "delete",
  }),
  delete: op({
    name: "deleteSecurityGroup",
    method: "DELETE",
    path: "/restapi/securitygroup/deleteSecurityGroup/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
    confirmGone: { lookup: listGroups, params: (i) => ({ uuid: i.uuid }) },
  }),
};

export const firewallRuleOperations = {
  create: op({
    name: "createFirewallRule",
    method: "POST",
    path: "/restapi/firewallrule/createFirewallRule",
    input: ruleInput("ipAddressUuid"),
    response: one("listFirewallRuleResponse", firewallRuleRecord),
    mutating: true,
  }),
  list: op({
    name: "firewallRuleList",
    method: "GET",
    path: "/restapi/firewallrule/firewallRuleList",
    input: input({ zoneUuid: ref, uuid: ref.optional(), ipAddressUuid: ref.optional() }),
    response: list("listFirewallRuleResponse", firewallRuleRecord),
    mutating: false,
  }),
  delete: op({
    name: "deleteFirewallRule",
    method: "DELETE",
    path: "/restapi/firewallrule/deleteFirewallRule/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};

export const egressRuleOperations = {
  create: op({
    name: "createEgressRule",
    method: "POST",
    path: "/restapi/egressrule/createEgressRule",
    input: ruleInput("networkUuid"),
    response: one("listEgressRuleResponse", egressRuleRecord),
    mutating: true,
  }),
  list: op({
    name: "egressRuleList",
    method: "GET",
    path: "/restapi/egressrule/egressRuleList",
    input: input({ zoneUuid: ref, uuid: ref.optional(), networkUuid: ref.optional() }),
    response: list("listEgressRuleResponse", egressRuleRecord),
    mutating: false,
  }),
  delete: op({
    name: "deleteEgressRule",
    method: "DELETE",
    path: "/restapi/egressrule/deleteEgressRule/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};
