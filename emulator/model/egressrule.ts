// Egress rules of a guest network ("egressrule"). The spec's record omits cidrList: it is validated, not returned.
import { conflict, type AccountScope, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import { EGRESS_RULES, NETWORKS, type EgressRuleRecord } from "./collections";
import { filterRecords, removeRecord, requireZone } from "./records";
import { cidrList, traffic, trafficOverlaps, type TrafficInput } from "./rules-common";

export interface EgressRuleInput extends TrafficInput {
  networkUuid: string;
  cidrList?: string;
}

/** A rule on a network of the caller; one whose traffic overlaps an existing rule of the network is a 409. */
export function createEgressRule(scope: AccountScope, ctx: EmulatorContext, input: EgressRuleInput): EgressRuleRecord {
  const network = requireRecord(scope, NETWORKS, "network", input.networkUuid);
  const rule = traffic(input);
  cidrList("cidrList", input.cidrList);
  const clash = filterRecords(scope, EGRESS_RULES, { networkUuid: input.networkUuid }).find((r) =>
    trafficOverlaps(rule, r),
  );
  if (clash) throw conflict(`egress rule ${clash.uuid} of network ${input.networkUuid} already covers this traffic`);
  const uuid = ctx.newUuid();
  const record: EgressRuleRecord = {
    startPort: rule.startPort,
    icmpType: rule.icmpType,
    protocol: rule.protocol,
    icmpCode: rule.icmpCode,
    zoneUuid: String(network.zoneUuid ?? ""),
    isActive: true,
    uuid,
    endPort: rule.endPort,
    networkUuid: input.networkUuid,
    status: "Active",
  };
  scope.collection(EGRESS_RULES)[uuid] = record;
  scope.changed();
  return record;
}

export function listEgressRules(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; networkUuid?: string },
): EgressRuleRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, EGRESS_RULES, filters);
}

export const deleteEgressRule = (scope: AccountScope, uuid: string): true =>
  removeRecord(scope, EGRESS_RULES, "egress rule", uuid);
