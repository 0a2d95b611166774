// Port-forwarding rules: a public port range of an IP to a private range of an instance. The record names the instance
// but not its uuid or network, so those are kept aside in PORT_FORWARDING_TARGETS for the vmUuid filter.
import { badInput, conflict, type AccountScope, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import {
  ATTACHED_NETWORKS,
  INSTANCES,
  IP_ADDRESSES,
  LOAD_BALANCER_RULES,
  NETWORKS,
  PORT_FORWARDING_RULES,
  PORT_FORWARDING_TARGETS,
  type LoadBalancerRuleRecord,
  type PortForwardingRuleRecord,
} from "./collections";
import { filterRecords, removeRecord, requireZone } from "./records";
import { assertNoStaticNat, assertReaches, portRange, rangesOverlap, storedRange } from "./rules-common";

export const PF_PROTOCOLS = ["TCP", "UDP"] as const;
export type PortForwardingProtocol = (typeof PF_PROTOCOLS)[number];

export interface PortForwardingRuleInput {
  ipAddressUuid: string;
  protocol: PortForwardingProtocol;
  privatePort: string;
  privateEndPort?: string;
  publicPort: string;
  publicEndPort?: string;
  virtualmachineUuid: string;
  /** Absent: the address's network, or for an address of a VPC, the instance's network. */
  networkUuid?: string;
}

/** Whether a public range of an IP is already taken: by a rule of the same protocol, or (TCP) by a load-balancer rule. */
export function publicPortTaken(
  scope: AccountScope,
  ipAddressUuid: string,
  protocol: PortForwardingProtocol,
  range: { start: number; end: number },
): PortForwardingRuleRecord | LoadBalancerRuleRecord | undefined {
  const forwarded = filterRecords(scope, PORT_FORWARDING_RULES, { ipAddressUuid, protocol }).find((r) =>
    rangesOverlap(range, storedRange(r, "publicPort", "publicEndPort")),
  );
  if (forwarded || protocol !== "TCP") return forwarded;
  return filterRecords(scope, LOAD_BALANCER_RULES, { ipAddressUuid }).find((r) =>
    rangesOverlap(range, storedRange(r, "publicPort", "publicPort")),
  );
}

export function createPortForwardingRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: PortForwardingRuleInput,
): PortForwardingRuleRecord {
  const ip = requireRecord(scope, IP_ADDRESSES, "IP address", input.ipAddressUuid);
  const vm = requireRecord(scope, INSTANCES, "instance", input.virtualmachineUuid);
  // The spec does not require networkUuid: an address of a VPC is reached through the instance's tier.
  const networkUuid = input.networkUuid ?? (ip.vpcUuid === undefined ? ip.networkUuid : vm.networkUuid);
  const network = requireRecord(scope, NETWORKS, "network", networkUuid);
  assertReaches(network, ip);
  const onNetwork =
    vm.networkUuid === networkUuid ||
    filterRecords(scope, ATTACHED_NETWORKS, { instanceUuid: input.virtualmachineUuid, networkUuid }).length > 0;
  if (!onNetwork) {
    throw badInput("virtualmachineUuid", `instance ${input.virtualmachineUuid} is not on network ${networkUuid}`);
  }
  const pub = portRange("publicPort", input.publicPort, "publicEndPort", input.publicEndPort);
  const priv = portRange("privatePort", input.privatePort, "privateEndPort", input.privateEndPort);
  if (pub.end - pub.start !== priv.end - priv.start) {
    throw badInput("privateEndPort", "the private port range must be as long as the public one");
  }
  assertNoStaticNat(scope, input.ipAddressUuid);
  const taken = publicPortTaken(scope, input.ipAddressUuid, input.protocol, pub);
  if (taken) {
    throw conflict(
      `public ports ${pub.start}-${pub.end}/${input.protocol} of IP address ${input.ipAddressUuid} overlap rule ${taken.uuid}`,
    );
  }
  const uuid = ctx.newUuid();
  const record: PortForwardingRuleRecord = {
    ipAddressUuid: input.ipAddressUuid,
    protocol: input.protocol,
    virtualMachineName: String(vm.displayName || vm.name || ""),
    privatePort: String(priv.start),
    privateEndPort: String(priv.end),
    publicPort: String(pub.start),
    publicEndPort: String(pub.end),
    zoneUuid: String(ip.zoneUuid ?? ""),
    isActive: true,
    uuid,
    status: "Active",
  };
  scope.collection(PORT_FORWARDING_RULES)[uuid] = record;
  scope.collection(PORT_FORWARDING_TARGETS)[uuid] = {
    uuid,
    vmUuid: input.virtualmachineUuid,
    networkUuid,
  };
  scope.changed();
  return record;
}

export function listPortForwardingRules(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; vmUuid?: string; ipAddressUuid?: string },
): PortForwardingRuleRecord[] {
  requireZone(ctx, filters.zoneUuid);
  const { vmUuid, ...recordFilters } = filters;
  const targets = scope.collection(PORT_FORWARDING_TARGETS);
  return filterRecords(scope, PORT_FORWARDING_RULES, recordFilters).filter(
    (r) => vmUuid === undefined || targets[r.uuid]?.vmUuid === vmUuid,
  );
}

export function deletePortForwardingRule(scope: AccountScope, uuid: string): true {
  removeRecord(scope, PORT_FORWARDING_RULES, "port-forwarding rule", uuid);
  scope.remove(PORT_FORWARDING_TARGETS, uuid);
  scope.changed();
  return true;
}
