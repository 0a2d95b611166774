// Security groups with their embedded rules. The spec leaves the rule arrays' elements unshown: they are FirewallRule,
// EgressRule and PortForwardingRule records, with "" for fields that do not apply to a group.
import { badInput, conflict, notFound, type AccountScope, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import {
  INSTANCES,
  NETWORKS,
  SECURITY_GROUPS,
  type EgressRuleRecord,
  type FirewallRuleRecord,
  type PortForwardingRuleRecord,
  type SecurityGroupRecord,
} from "./collections";
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

export function createSecurityGroup(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: { name: string; description?: string },
): SecurityGroupRecord {
  if (Object.values(scope.collection(SECURITY_GROUPS)).some((g) => g.name === input.name)) {
    throw conflict(`a security group named "${input.name}" already exists`);
  }
  const uuid = ctx.newUuid();
  const record: SecurityGroupRecord = {
    securityGroupFirewallRule: [],
    securityGroupPortForwarding: [],
    securityGroupEgressRule: [],
    name: input.name,
    description: input.description ?? "",
    isActive: true,
    uuid,
    status: "Active",
  };
  scope.collection(SECURITY_GROUPS)[uuid] = record;
  scope.changed();
  return record;
}

export const listSecurityGroups = (scope: AccountScope, filters: { uuid?: string }): SecurityGroupRecord[] =>
  filterRecords(scope, SECURITY_GROUPS, filters);

/** Append a rule to one of a group's arrays after validation; answers the group. */
function addRule<A extends (typeof RULE_ARRAYS)[RuleType]>(
  scope: AccountScope,
  group: SecurityGroupRecord,
  array: A,
  rule: SecurityGroupRecord[A][number],
): SecurityGroupRecord {
  (group[array] as Array<typeof rule>).push(rule);
  scope.changed();
  return group;
}

export function createSecurityGroupFirewallRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: TrafficInput & { securityGroupUuid: string; cidrList?: string },
): SecurityGroupRecord {
  const group = requireRecord(scope, SECURITY_GROUPS, KIND, input.securityGroupUuid);
  const rule = traffic(input);
  const cidrs = cidrList("cidrList", input.cidrList);
  const clash = group.securityGroupFirewallRule.find(
    (r) =>
      trafficOverlaps(rule, r) &&
      String(r.cidrList)
        .split(",")
        .some((c) => cidrs.split(",").includes(c)),
  );
  if (clash) throw conflict(`firewall rule ${clash.uuid} of the group already covers this traffic`);
  const record: FirewallRuleRecord = {
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
  };
  return addRule(scope, group, RULE_ARRAYS.FIREWALLRULE, record);
}

export function createSecurityGroupEgressRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: TrafficInput & { securityGroupUuid: string },
): SecurityGroupRecord {
  const group = requireRecord(scope, SECURITY_GROUPS, KIND, input.securityGroupUuid);
  const rule = traffic(input);
  const clash = group.securityGroupEgressRule.find((r) => trafficOverlaps(rule, r));
  if (clash) throw conflict(`egress rule ${clash.uuid} of the group already covers this traffic`);
  const record: EgressRuleRecord = {
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
  };
  return addRule(scope, group, RULE_ARRAYS.EGRESSRULE, record);
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
): SecurityGroupRecord {
  const group = requireRecord(scope, SECURITY_GROUPS, KIND, input.securityGroupUuid);
  const pub = portRange("publicStartPort", input.publicStartPort, "publicEndPort", input.publicEndPort);
  const priv = portRange("privateStartPort", input.privateStartPort, "privateEndPort", input.privateEndPort);
  if (pub.end - pub.start !== priv.end - priv.start) {
    throw badInput("privateEndPort", "the private port range must be as long as the public one");
  }
  const clash = group.securityGroupPortForwarding.find(
    (r) => r.protocol === input.protocolType && rangesOverlap(pub, storedRange(r, "publicPort", "publicEndPort")),
  );
  if (clash) throw conflict(`port-forwarding rule ${clash.uuid} of the group already uses these public ports`);
  const record: PortForwardingRuleRecord = {
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
  };
  return addRule(scope, group, RULE_ARRAYS.PORTFORWATDING, record);
}

export function deleteSecurityGroupRule(
  scope: AccountScope,
  input: { securityGroupUuid: string; ruleType: RuleType; ruleUuid: string },
): SecurityGroupRecord {
  const group = requireRecord(scope, SECURITY_GROUPS, KIND, input.securityGroupUuid);
  const rules: Array<{ uuid: string }> = group[RULE_ARRAYS[input.ruleType]];
  const index = rules.findIndex((r) => r.uuid === input.ruleUuid);
  if (index < 0) throw notFound(`${input.ruleType} rule of security group ${input.securityGroupUuid}`, input.ruleUuid);
  rules.splice(index, 1);
  scope.changed();
  return group;
}

/**
 * A group that a network or an instance uses cannot go (409), as CloudStack refuses it. An instance
 * holds its group (by name) until it is expunged: a destroyed one still counts.
 */
export function deleteSecurityGroup(scope: AccountScope, uuid: string): true {
  const group = requireRecord(scope, SECURITY_GROUPS, KIND, uuid);
  const network = filterRecords(scope, NETWORKS, { securityGroupUuid: uuid })[0];
  if (network) throw conflict(`security group ${uuid} is used by network ${network.uuid}`);
  const instances = Object.entries(scope.internal(INSTANCES))
    .filter(
      ([instanceUuid, internal]) =>
        internal.securityGroupName === group.name && scope.collection(INSTANCES)[instanceUuid],
    )
    .map(([instanceUuid]) => instanceUuid);
  if (instances.length) {
    throw conflict(
      `security group ${uuid} is in use by ${instances.length} instance(s) (${instances.join(", ")}); delete those first`,
    );
  }
  scope.remove(SECURITY_GROUPS, uuid);
  scope.changed();
  return true;
}
