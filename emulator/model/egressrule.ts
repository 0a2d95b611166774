/** Egress rules of a guest network ("egressrule"). The spec's record omits cidrList: it is validated, not returned. */
import { conflict, type AccountScope, type ApiRecord, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import { filterRecords, removeRecord, requireZone } from "./records";
import { cidrList, traffic, trafficOverlaps, type TrafficInput } from "./rules-common";

export const COLLECTION = "egressrule";

export interface EgressRuleInput extends TrafficInput {
  networkUuid: string;
  cidrList?: string;
}

/** A rule on a network of the caller; one whose traffic overlaps an existing rule of the network is a 409. */
export function createEgressRule(scope: AccountScope, ctx: EmulatorContext, input: EgressRuleInput): ApiRecord {
  const network = requireRecord(scope, "network", "network", input.networkUuid);
  const rule = traffic(input);
  cidrList("cidrList", input.cidrList);
  const clash = filterRecords(scope, COLLECTION, { networkUuid: input.networkUuid }).find((r) =>
    trafficOverlaps(rule, r),
  );
  if (clash) throw conflict(`egress rule ${clash.uuid} of network ${input.networkUuid} already covers this traffic`);
  const uuid = ctx.newUuid();
  const record: ApiRecord = {
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
  scope.collection(COLLECTION)[uuid] = record;
  scope.changed();
  return record;
}

export function listEgressRules(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; networkUuid?: string },
): ApiRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, COLLECTION, filters);
}

export const deleteEgressRule = (scope: AccountScope, uuid: string): true =>
  removeRecord(scope, COLLECTION, "egress rule", uuid);
