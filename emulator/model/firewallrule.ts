// Ingress firewall rules on a public IP ("firewallrule").
import { conflict, type AccountScope, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import { FIREWALL_RULES, IP_ADDRESSES, type FirewallRuleRecord } from "./collections";
import { filterRecords, removeRecord, requireZone } from "./records";
import { cidrList, traffic, trafficOverlaps, type TrafficInput } from "./rules-common";

const sharesBlock = (a: string, b: string): boolean => a.split(",").some((c) => b.split(",").includes(c));

export interface FirewallRuleInput extends TrafficInput {
  ipAddressUuid: string;
  cidrList?: string;
}

/**
 * A rule on a public IP of the caller. A rule whose traffic overlaps an existing rule of the same IP
 * for a common source CIDR is a 409.
 */
export function createFirewallRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: FirewallRuleInput,
): FirewallRuleRecord {
  const ip = requireRecord(scope, IP_ADDRESSES, "IP address", input.ipAddressUuid);
  const rule = traffic(input);
  const cidrs = cidrList("cidrList", input.cidrList);
  const clash = filterRecords(scope, FIREWALL_RULES, { ipAddressUuid: input.ipAddressUuid }).find(
    (r) => trafficOverlaps(rule, r) && sharesBlock(cidrs, String(r.cidrList)),
  );
  if (clash)
    throw conflict(`firewall rule ${clash.uuid} on IP address ${input.ipAddressUuid} already covers this traffic`);
  const uuid = ctx.newUuid();
  const record: FirewallRuleRecord = {
    startPort: rule.startPort,
    ipAddressUuid: input.ipAddressUuid,
    icmpType: rule.icmpType,
    protocol: rule.protocol,
    cidrList: cidrs,
    icmpCode: rule.icmpCode,
    zoneUuid: String(ip.zoneUuid ?? ""),
    isActive: true,
    uuid,
    endPort: rule.endPort,
    status: "Active",
  };
  scope.collection(FIREWALL_RULES)[uuid] = record;
  scope.changed();
  return record;
}

export function listFirewallRules(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; ipAddressUuid?: string },
): FirewallRuleRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, FIREWALL_RULES, filters);
}

export const deleteFirewallRule = (scope: AccountScope, uuid: string): true =>
  removeRecord(scope, FIREWALL_RULES, "firewall rule", uuid);
