// Public load-balancer rules: a public port of an IP balanced to a private port of a network's instances. New rules are
// "Add", then "Active" after the delay; an update answers 202 and shows after the delay.
import { badInput, conflict, missing, type AccountScope, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import { IP_ADDRESSES, LOAD_BALANCER_RULES, NETWORKS, type LoadBalancerRuleRecord } from "./collections";
import { filterRecords, removeRecord, requireZone } from "./records";
import { assertNoStaticNat, assertReaches, port } from "./rules-common";
import { publicPortTaken } from "./portforwardingrule";

export const ALGORITHMS = ["source", "roundrobin", "leastconn"] as const;
export type Algorithm = (typeof ALGORITHMS)[number];
export const STICKINESS_METHODS = ["None", "LbCookie", "AppCookie", "SourceBased"] as const;

export interface Stickiness {
  stickyHoldTime?: string;
  stickinessMethod?: (typeof STICKINESS_METHODS)[number];
  stickinessName?: string;
  uuid?: string;
  cookieName?: string;
}

export interface LoadBalancerRuleInput {
  name: string;
  publicIpUuid: string;
  /** Absent: the address's network (an address of a VPC needs it: the rule names no instance). */
  networkUuid?: string;
  publicport: string;
  privateport: string;
  algorithm: Algorithm;
  stickinessPolicyUuid?: string;
  svcLbSticky?: Stickiness;
}

export function createLoadBalancerRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: LoadBalancerRuleInput,
): LoadBalancerRuleRecord {
  const ip = requireRecord(scope, IP_ADDRESSES, "IP address", input.publicIpUuid);
  // The spec does not require networkUuid; an address of a VPC leaves the tier to name.
  if (input.networkUuid === undefined && ip.vpcUuid !== undefined) {
    throw badInput("networkUuid", `is required for IP address ${ip.uuid} of VPC ${ip.vpcUuid} (which tier?)`);
  }
  const networkUuid = input.networkUuid ?? ip.networkUuid;
  assertReaches(requireRecord(scope, NETWORKS, "network", networkUuid), ip);
  const publicPort = port("publicport", input.publicport);
  const privatePort = port("privateport", input.privateport);
  assertNoStaticNat(scope, input.publicIpUuid);
  const taken = publicPortTaken(scope, input.publicIpUuid, "TCP", { start: publicPort, end: publicPort });
  if (taken)
    throw conflict(`public port ${publicPort} of IP address ${input.publicIpUuid} is used by rule ${taken.uuid}`);
  const uuid = ctx.newUuid();
  const record: LoadBalancerRuleRecord = {
    ipAddressUuid: input.publicIpUuid,
    stickinessName: input.svcLbSticky?.stickinessName ?? "",
    privatePort: String(privatePort),
    name: input.name,
    publicPort: String(publicPort),
    zoneUuid: String(ip.zoneUuid ?? ""),
    state: "Add",
    isActive: true,
    uuid,
    algorithm: input.algorithm,
    status: "Active",
  };
  scope.collection(LOAD_BALANCER_RULES)[uuid] = record;
  scope.changed();
  ctx.later(scope, "createLoadBalancerRule", [{ collection: LOAD_BALANCER_RULES, uuid, set: { state: "Active" } }]);
  return record;
}

export function listLoadBalancerRules(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; ipAddressUuid?: string },
): LoadBalancerRuleRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, LOAD_BALANCER_RULES, filters);
}

/** Accepted at once, applied after the delay; answers the record as it is now. */
export function updateLoadBalancerRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: { uuid: string; name?: string; algorithm?: Algorithm },
): LoadBalancerRuleRecord {
  const record = requireRecord(scope, LOAD_BALANCER_RULES, "load-balancer rule", input.uuid);
  if (input.name === undefined && input.algorithm === undefined) throw missing("name or algorithm");
  const set: Partial<LoadBalancerRuleRecord> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.algorithm !== undefined) set.algorithm = input.algorithm;
  ctx.later(scope, "updateLoadBalancerRule", [{ collection: LOAD_BALANCER_RULES, uuid: input.uuid, set }]);
  return record;
}

export const deleteLoadBalancerRule = (scope: AccountScope, uuid: string): true =>
  removeRecord(scope, LOAD_BALANCER_RULES, "load-balancer rule", uuid);
