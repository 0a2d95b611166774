/**
 * Port-forwarding rules ("portforwardingrule"): a public port range of an IP to a private port range
 * of an instance. The record names the instance but not its uuid or network, so those are kept beside
 * it in TARGETS (not returned) for the vmUuid filter.
 */
import { badInput, conflict, type AccountScope, type ApiRecord, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import { filterRecords, removeRecord, requireZone } from "./records";
import { assertNoStaticNat, assertReaches, portRange, rangesOverlap, storedRange } from "./rules-common";

export const COLLECTION = "portforwardingrule";
/** Rule uuid to `{uuid, vmUuid, networkUuid}`. */
export const TARGETS = "portforwardingrule.target";

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
  networkUuid: string;
}

/** Whether a public range of an IP is already taken: by a rule of the same protocol, or (TCP) by a load-balancer rule. */
export function publicPortTaken(
  scope: AccountScope,
  ipAddressUuid: string,
  protocol: PortForwardingProtocol,
  range: { start: number; end: number },
): ApiRecord | undefined {
  const forwarded = filterRecords(scope, COLLECTION, { ipAddressUuid, protocol }).find((r) =>
    rangesOverlap(range, storedRange(r, "publicPort", "publicEndPort")),
  );
  if (forwarded || protocol !== "TCP") return forwarded;
  return filterRecords(scope, "loadbalancerrule", { ipAddressUuid }).find((r) =>
    rangesOverlap(range, storedRange(r, "publicPort", "publicPort")),
  );
}

export function createPortForwardingRule(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: PortForwardingRuleInput,
): ApiRecord {
  const ip = requireRecord(scope, "ipaddress", "IP address", input.ipAddressUuid);
  const vm = requireRecord(scope, "instance", "instance", input.virtualmachineUuid);
  const network = requireRecord(scope, "network", "network", input.networkUuid);
  assertReaches(network, ip);
  const onNetwork =
    vm.networkUuid === input.networkUuid ||
    filterRecords(scope, "nic", { instanceUuid: input.virtualmachineUuid, networkUuid: input.networkUuid }).length > 0;
  if (!onNetwork) {
    throw badInput("virtualmachineUuid", `instance ${input.virtualmachineUuid} is not on network ${input.networkUuid}`);
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
  const record: ApiRecord = {
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
  scope.collection(COLLECTION)[uuid] = record;
  scope.collection(TARGETS)[uuid] = { uuid, vmUuid: input.virtualmachineUuid, networkUuid: input.networkUuid };
  scope.changed();
  return record;
}

export function listPortForwardingRules(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; vmUuid?: string; ipAddressUuid?: string },
): ApiRecord[] {
  requireZone(ctx, filters.zoneUuid);
  const { vmUuid, ...recordFilters } = filters;
  const targets = scope.collection(TARGETS);
  return filterRecords(scope, COLLECTION, recordFilters).filter(
    (r) => vmUuid === undefined || targets[String(r.uuid)]?.vmUuid === vmUuid,
  );
}

export function deletePortForwardingRule(scope: AccountScope, uuid: string): true {
  removeRecord(scope, COLLECTION, "port-forwarding rule", uuid);
  delete scope.collection(TARGETS)[uuid];
  scope.changed();
  return true;
}
