// Public IP addresses for a network or VPC from the zone's pool; static NAT (one per address and per instance) and
// remote-access VPN on an address. An address in use by NAT, VPN or rules cannot be released.
import { badInput, conflict, type AccountScope, type EmulatorContext } from "../core";
import { describeReferences, referencesTo, requireRecord } from "../references";
import {
  INSTANCES,
  IP_ADDRESSES,
  LOAD_BALANCER_RULES,
  NETWORKS,
  PORT_FORWARDING_RULES,
  REMOTE_VPNS,
  STATIC_NATS,
  type Collection,
  type IpAddressRecord,
  type StaticNatRecord,
} from "./collections";
import { requireNetwork } from "./network";
import { filterRecords, requireZone } from "./records";
import { requireVpc } from "./vpc";

/** Rules that sit on an address and exclude static NAT on it. */
const NAT_EXCLUSIVE: ReadonlyArray<Collection<{ ipAddressUuid: string }>> = [
  PORT_FORWARDING_RULES,
  LOAD_BALANCER_RULES,
];

export type NetworkKind = "NETWORK" | "VPC";
export const NETWORK_KINDS: readonly NetworkKind[] = ["NETWORK", "VPC"];

export function requireIpAddress(scope: AccountScope, uuid: string): IpAddressRecord {
  return requireRecord(scope, IP_ADDRESSES, "IP address", uuid);
}

export function acquireIpAddress(
  ctx: EmulatorContext,
  scope: AccountScope,
  networkUuid: string,
  kind: NetworkKind,
): IpAddressRecord {
  const owner = kind === "VPC" ? requireVpc(scope, networkUuid) : requireNetwork(scope, networkUuid);
  const zone = requireZone(ctx, owner.zoneUuid);
  const uuid = ctx.newUuid();
  const ip: IpAddressRecord = {
    uuid,
    publicIpAddress: ctx.allocatePublicIp(zone.uuid),
    zoneUuid: zone.uuid,
    zoneName: zone.name,
    networkUuid,
    ...(kind === "VPC" ? { vpcUuid: networkUuid } : {}),
    isSourcenat: false,
    state: "Allocated",
    status: "Active",
    isActive: true,
  };
  scope.collection(IP_ADDRESSES)[uuid] = ip;
  scope.changed();
  return ip;
}

export function listIpAddresses(
  ctx: EmulatorContext,
  scope: AccountScope,
  filter: { zoneUuid: string; networkUuid?: string; uuid?: string },
): IpAddressRecord[] {
  requireZone(ctx, filter.zoneUuid);
  return Object.values(scope.collection(IP_ADDRESSES)).filter(
    (ip) =>
      ip.zoneUuid === filter.zoneUuid &&
      (filter.networkUuid === undefined || ip.networkUuid === filter.networkUuid) &&
      (filter.uuid === undefined || ip.uuid === filter.uuid),
  );
}

/** The fields by which other records name the address they sit on. */
const ADDRESS_REFERENCES = ["ipAddressUuid", "publicIpUuid"] as const;

export function releaseIpAddress(ctx: EmulatorContext, scope: AccountScope, uuid: string): true {
  const ip = requireIpAddress(scope, uuid);
  const users = referencesTo(scope, ADDRESS_REFERENCES, uuid);
  if (users.length) throw conflict(`IP address ${uuid} is in use (${describeReferences(users)}); remove those first`);
  scope.remove(IP_ADDRESSES, uuid);
  ctx.releasePublicIp(ip.publicIpAddress);
  scope.changed();
  return true;
}

export interface StaticNatInput {
  ipAddressUuid: string;
  vmUuid: string;
  networkUuid?: string;
}

/** Static NAT maps the address one-to-one onto the instance: neither may already have one. */
export function enableStaticNat(scope: AccountScope, input: StaticNatInput): StaticNatRecord {
  const ip = requireIpAddress(scope, input.ipAddressUuid);
  const vm = requireRecord(scope, INSTANCES, "instance", input.vmUuid);
  const networkUuid = input.networkUuid ?? vm.networkUuid ?? ip.networkUuid;
  const network = requireRecord(scope, NETWORKS, "network", networkUuid);
  if (ip.vpcUuid !== undefined ? network.vpcUuid !== ip.vpcUuid : network.uuid !== ip.networkUuid) {
    throw badInput("networkUuid", `network ${networkUuid} cannot reach IP address ${input.ipAddressUuid}`);
  }
  const nats = scope.collection(STATIC_NATS);
  if (nats[input.ipAddressUuid]) throw conflict(`IP address ${input.ipAddressUuid} already has static NAT`);
  const vmNat = Object.values(nats).find((n) => n.vmUuid === input.vmUuid);
  if (vmNat) throw conflict(`instance ${input.vmUuid} already has static NAT on ${vmNat.ipAddressUuid}`);
  if (scope.collection(REMOTE_VPNS)[input.ipAddressUuid]) {
    throw conflict(`IP address ${input.ipAddressUuid} has remote-access VPN enabled`);
  }
  const rules = NAT_EXCLUSIVE.flatMap((c) => filterRecords(scope, c, { ipAddressUuid: input.ipAddressUuid }));
  if (rules.length) {
    throw conflict(`IP address ${input.ipAddressUuid} has ${rules.length} port-forwarding or load-balancer rule(s)`);
  }
  const nat: StaticNatRecord = {
    ipAddressUuid: input.ipAddressUuid,
    vmName: vm.displayName ?? vm.name,
    vmUuid: input.vmUuid,
    networkUuid,
    status: "Active",
    isActive: true,
  };
  nats[input.ipAddressUuid] = nat;
  scope.changed();
  return nat;
}

export function disableStaticNat(scope: AccountScope, ipAddressUuid: string): true {
  requireIpAddress(scope, ipAddressUuid);
  const nats = scope.collection(STATIC_NATS);
  if (!nats[ipAddressUuid]) throw conflict(`IP address ${ipAddressUuid} has no static NAT`);
  delete nats[ipAddressUuid];
  scope.changed();
  return true;
}

export function enableRemoteVpn(ctx: EmulatorContext, scope: AccountScope, ipAddressUuid: string): IpAddressRecord {
  const ip = requireIpAddress(scope, ipAddressUuid);
  const vpns = scope.collection(REMOTE_VPNS);
  if (vpns[ipAddressUuid]) throw conflict(`IP address ${ipAddressUuid} already has remote-access VPN`);
  if (scope.collection(STATIC_NATS)[ipAddressUuid]) throw conflict(`IP address ${ipAddressUuid} has static NAT`);
  vpns[ipAddressUuid] = {
    ipAddressUuid,
    publicIpAddress: ip.publicIpAddress,
    networkUuid: ip.networkUuid,
    presharedKey: ctx.newUuid().replaceAll("-", "").slice(0, 24),
    state: "Running",
    status: "Active",
    isActive: true,
  };
  scope.changed();
  return ip;
}

export function disableRemoteVpn(scope: AccountScope, ipAddressUuid: string): IpAddressRecord {
  const ip = requireIpAddress(scope, ipAddressUuid);
  const vpns = scope.collection(REMOTE_VPNS);
  if (!vpns[ipAddressUuid]) throw conflict(`IP address ${ipAddressUuid} has no remote-access VPN`);
  delete vpns[ipAddressUuid];
  scope.changed();
  return ip;
}
