/**
 * Security groups ("securitygroup") with their embedded rules. The spec does not show the fields of
 * the rule arrays' elements: they are FirewallRule, EgressRule and PortForwardingRule records (same
 * fields and types), with "" where a field does not apply to a group (ipAddressUuid, zoneUuid,
 * networkUuid, virtualMachineName).
 */
import { badInput, conflict, notFound, type AccountScope, type ApiRecord, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import { filterRecords } from "./records";
import {
  cidrList,
  portRange,
  rangesOverlap,
  storedRange,
  traffic,
  trafficOverlaps,
  type TrafficInput,
} from "./rules-common";
import type { PortForwardingProtocol } from "./portforwardingrule";

export const COLLECTION = "securitygroup";

/** The spec's ruleType values (PORTFORWATDING sic; the correct spelling is accepted too) to the array they name. */
export const RULE_ARRAYS = {
  FIREWALLRULE: "securityGroupFirewallRule",
  EGRESSRULE: "securityGroupEgressRule",
  PORTFORWATDING: "securityGroupPortForwarding",
  PORTFORWARDING: "securityGroupPortForwarding",
} as const;
export type RuleType = keyof typeof RULE_ARRAYS;
export const RULE_TYPES = Object.keys(RULE_ARRAYS) as RuleType[];

const KIND = "security group";

const rulesOf = (group: ApiRecord, array: string): ApiRecord[] => group[array] as ApiRecord[];

export function createSecurityGroup(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: { name: string; description?: string },
): ApiRecord {
  if (Object.values(scope.collection(COLLECTION)).some((g) => g.name === input.name)) {
    throw conflict(`a security group named "${input.name}" already exists`);
  }
  const uuid = ctx.newUuid();
  const record: ApiRecord = {
    securityGroupFirewallRule: [],
    securityGroupPortForwarding: [],
    securityGroupEgressRule: [],
    name: input.name,
    description: input.description ?? "",
    isActive: true,
    uuid,
    status: "Active",
  };
  scope.collection(COLLECTION)[uuid] = record;
  scope.changed();
  return record;
}

export const listSecurityGroups = (scope: AccountScope, filters: { uuid?: string }): ApiRecord[] =>
  filterRecords(scope, COLLECTION, filters);

/** Append a rule to a group's array after validation; answers the group. */
function addRule(scope: AccountScope, group: ApiRecord, array: string, rule: ApiRecord): ApiRecord {
  rulesOf(group, array).push(rule);
  scope.changed();
  return group;
}

export function createSecurityGroupFirewallRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: TrafficInput & { securityGroupUuid: string; cidrList?: string },
): ApiRecord {
  const group = requireRecord(scope, COLLECTION, KIND, input.securityGroupUuid);
  const rule = traffic(input);
  const cidrs = cidrList("cidrList", input.cidrList);
  const clash = rulesOf(group, RULE_ARRAYS.FIREWALLRULE).find(
    (r) =>
      trafficOverlaps(rule, r) &&
      String(r.cidrList)
        .split(",")
        .some((c) => cidrs.split(",").includes(c)),
  );
  if (clash) throw conflict(`firewall rule ${clash.uuid} of the group already covers this traffic`);
  return addRule(scope, group, RULE_ARRAYS.FIREWALLRULE, {
    startPort: rule.startPort,
    ipAddressUuid: "",
    icmpType: rule.icmpType,
    protocol: rule.protocol,
    cidrList: cidrs,
    icmpCode: rule.icmpCode,
    zoneUuid: "",
    isActive: true,
    uuid: ctx.newUuid(),
    endPort: rule.endPort,
    status: "Active",
  });
}

export function createSecurityGroupEgressRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: TrafficInput & { securityGroupUuid: string },
): ApiRecord {
  const group = requireRecord(scope, COLLECTION, KIND, input.securityGroupUuid);
  const rule = traffic(input);
  const clash = rulesOf(group, RULE_ARRAYS.EGRESSRULE).find((r) => trafficOverlaps(rule, r));
  if (clash) throw conflict(`egress rule ${clash.uuid} of the group already covers this traffic`);
  return addRule(scope, group, RULE_ARRAYS.EGRESSRULE, {
    startPort: rule.startPort,
    icmpType: rule.icmpType,
    protocol: rule.protocol,
    icmpCode: rule.icmpCode,
    zoneUuid: "",
    isActive: true,
    uuid: ctx.newUuid(),
    endPort: rule.endPort,
    networkUuid: "",
    status: "Active",
  });
}

export interface SecurityGroupPortForwardingInput {
  securityGroupUuid: string;
  protocolType: PortForwardingProtocol;
  privateStartPort: string;
  privateEndPort?: string;
  publicStartPort: string;
  publicEndPort?: string;
}

export function createSecurityGroupPortForwardingRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: SecurityGroupPortForwardingInput,
): ApiRecord {
  const group = requireRecord(scope, COLLECTION, KIND, input.securityGroupUuid);
  const pub = portRange("publicStartPort", input.publicStartPort, "publicEndPort", input.publicEndPort);
  const priv = portRange("privateStartPort", input.privateStartPort, "privateEndPort", input.privateEndPort);
  if (pub.end - pub.start !== priv.end - priv.start) {
    throw badInput("privateEndPort", "the private port range must be as long as the public one");
  }
  const clash = rulesOf(group, RULE_ARRAYS.PORTFORWATDING).find(
    (r) => r.protocol === input.protocolType && rangesOverlap(pub, storedRange(r, "publicPort", "publicEndPort")),
  );
  if (clash) throw conflict(`port-forwarding rule ${clash.uuid} of the group already uses these public ports`);
  return addRule(scope, group, RULE_ARRAYS.PORTFORWATDING, {
    ipAddressUuid: "",
    protocol: input.protocolType,
    virtualMachineName: "",
    privatePort: String(priv.start),
    privateEndPort: String(priv.end),
    publicPort: String(pub.start),
    publicEndPort: String(pub.end),
    zoneUuid: "",
    isActive: true,
    uuid: ctx.newUuid(),
    status: "Active",
  });
}

export function deleteSecurityGroupRule(
  scope: AccountScope,
  input: { securityGroupUuid: string; ruleType: RuleType; ruleUuid: string },
): ApiRecord {
  const group = requireRecord(scope, COLLECTION, KIND, input.securityGroupUuid);
  const rules = rulesOf(group, RULE_ARRAYS[input.ruleType]);
  const index = rules.findIndex((r) => r.uuid === input.ruleUuid);
  if (index < 0) throw notFound(`${input.ruleType} rule of security group ${input.securityGroupUuid}`, input.ruleUuid);
  rules.splice(index, 1);
  scope.changed();
  return group;
}

/** A group that a network uses cannot go (409). */
export function deleteSecurityGroup(scope: AccountScope, uuid: string): true {
  requireRecord(scope, COLLECTION, KIND, uuid);
  const user = filterRecords(scope, "network", { securityGroupUuid: uuid })[0];
  if (user) throw conflict(`security group ${uuid} is used by network ${user.uuid}`);
  delete scope.collection(COLLECTION)[uuid];
  scope.changed();
  return true;
}
