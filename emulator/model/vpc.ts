// VPCs: a private CIDR block in a zone split into tiers (networks with a `vpcUuid`). Name and description updates
// answer 202; a restart passes through "Restarting" for one delay.
import { blockOfGateway, containsBlock, formatCidr, overlaps, parseCidr, parseIpv4, size, type Block } from "../cidr";
import { badInput, conflict, notFound, type AccountScope, type EmulatorContext } from "../core";
import { describeReferences, referencesTo, requireRecord } from "../references";
import { NETWORKS, VPCS, type NetworkRecord, type VpcRecord } from "./collections";
import { definedFields, networkRecord, privateBlock, requireNetworkOffering, type NameChange } from "./network";
import { requireZone } from "./records";

/** The CIDR sizes a VPC may have. */
export const VPC_PREFIX = { min: 16, max: 28 } as const;
/** The CIDR sizes a tier may have (a /30 or smaller leaves no room for instances). */
export const TIER_PREFIX = { min: 16, max: 29 } as const;

export interface VpcInput {
  name: string;
  zoneUuid: string;
  vpcOfferingUuid: string;
  cidr: string;
  description?: string;
  networkDomain?: string;
  publicLoadBalancerProvider?: string;
}

export interface TierInput {
  name: string;
  vpcUuid: string;
  networkOfferingUuid: string;
  gateway: string;
  netmask: string;
  zoneUuid?: string;
  aclUuid?: string;
}

export function requireVpc(scope: AccountScope, uuid: string): VpcRecord {
  return requireRecord(scope, VPCS, "VPC", uuid);
}

export function createVpc(ctx: EmulatorContext, scope: AccountScope, input: VpcInput): VpcRecord {
  const block = privateBlock("cidr", input.cidr, VPC_PREFIX);
  const zone = requireZone(ctx, input.zoneUuid);
  if (!ctx.catalog.vpcOffering(input.vpcOfferingUuid, input.zoneUuid)) {
    if (ctx.catalog.vpcOffering(input.vpcOfferingUuid)) {
      throw badInput("vpcOfferingUuid", `VPC offering ${input.vpcOfferingUuid} is not offered in zone ${zone.name}`);
    }
    throw notFound("VPC offering", input.vpcOfferingUuid);
  }
  const uuid = ctx.newUuid();
  const vpc: VpcRecord = {
    uuid,
    name: input.name,
    description: input.description ?? input.name,
    cidr: formatCidr(block),
    zoneUuid: zone.uuid,
    zoneName: zone.name,
    domainName: scope.account.name,
    status: "Active",
    isActive: true,
  };
  scope.collection(VPCS)[uuid] = vpc;
  scope.changed();
  return vpc;
}

export function listVpcs(ctx: EmulatorContext, scope: AccountScope, zoneUuid: string, uuid?: string): VpcRecord[] {
  requireZone(ctx, zoneUuid);
  return Object.values(scope.collection(VPCS)).filter(
    (v) => v.zoneUuid === zoneUuid && (uuid === undefined || v.uuid === uuid),
  );
}

/** Answers the record as it is now; the new values become visible after the async delay. */
export function updateVpc(ctx: EmulatorContext, scope: AccountScope, uuid: string, change: NameChange): VpcRecord {
  const vpc = requireVpc(scope, uuid);
  const set = definedFields(change);
  if (Object.keys(set).length) ctx.later(scope, "updateVpc", [{ collection: VPCS, uuid, set }]);
  return vpc;
}

export function restartVpc(ctx: EmulatorContext, scope: AccountScope, uuid: string): VpcRecord {
  const vpc = requireVpc(scope, uuid);
  vpc.status = "Restarting";
  scope.changed();
  ctx.later(scope, "restartVpc", [{ collection: VPCS, uuid, set: { status: "Active" } }]);
  return vpc;
}

/** 409 while tiers, VPN connections, IP addresses or anything else refers to the VPC. */
export function deleteVpc(scope: AccountScope, uuid: string): true {
  requireVpc(scope, uuid);
  const users = referencesTo(scope, ["vpcUuid"], uuid);
  if (users.length) throw conflict(`VPC ${uuid} is in use (${describeReferences(users)}); delete those first`);
  scope.remove(VPCS, uuid);
  scope.changed();
  return true;
}

/** A tier: its gateway and netmask define a block inside the VPC's, overlapping no sibling tier. */
export function createTier(ctx: EmulatorContext, scope: AccountScope, input: TierInput): NetworkRecord {
  if (parseIpv4(input.gateway) === undefined) throw badInput("gateway", `${input.gateway} is not an IPv4 address`);
  const block = blockOfGateway(input.gateway, input.netmask);
  if (!block) throw badInput("netmask", `${input.netmask} is not a netmask such as 255.255.255.0`);
  if (block.prefix < TIER_PREFIX.min || block.prefix > TIER_PREFIX.max) {
    throw badInput("netmask", `prefix /${block.prefix} is outside /${TIER_PREFIX.min} to /${TIER_PREFIX.max}`);
  }
  const gateway = parseIpv4(input.gateway) as number;
  if (gateway === block.network || gateway === block.network + size(block) - 1) {
    throw badInput("gateway", `${input.gateway} is the network or broadcast address of ${formatCidr(block)}`);
  }
  const vpc = requireVpc(scope, input.vpcUuid);
  if (input.zoneUuid !== undefined && input.zoneUuid !== vpc.zoneUuid) {
    requireZone(ctx, input.zoneUuid);
    throw badInput("zoneUuid", `the VPC ${input.vpcUuid} is in zone ${vpc.zoneUuid}`);
  }
  const offering = requireNetworkOffering(ctx, input.networkOfferingUuid, vpc.zoneUuid);
  if (offering.type !== "VPC") {
    throw badInput("networkOfferingUuid", `network offering ${offering.name} is not for VPC tiers`);
  }
  const vpcBlock = parseCidr(vpc.cidr) as Block;
  if (!containsBlock(vpcBlock, block)) {
    throw badInput("gateway", `the tier ${formatCidr(block)} is not inside the VPC's ${vpc.cidr}`);
  }
  const sibling = tiersOf(scope, input.vpcUuid).find((t) => overlaps(parseCidr(t.cidr) as Block, block));
  if (sibling) {
    throw conflict(`the tier ${formatCidr(block)} overlaps tier ${sibling.name} (${sibling.cidr})`);
  }
  const tier = networkRecord(ctx, scope, {
    name: input.name,
    zoneUuid: vpc.zoneUuid,
    offering,
    cidr: formatCidr(block),
    gateway: input.gateway,
    networkType: "Isolated",
    networkAclList: input.aclUuid ?? "",
    vpcUuid: input.vpcUuid,
  });
  scope.collection(NETWORKS)[tier.uuid] = tier;
  scope.changed();
  return tier;
}

export function tiersOf(scope: AccountScope, vpcUuid: string): NetworkRecord[] {
  return Object.values(scope.collection(NETWORKS)).filter((n) => n.vpcUuid === vpcUuid);
}

export interface TierChange extends NameChange {
  networkOfferingUuid?: string;
  networkDomain?: string;
}

/** Answers the tier as it is now; the changes become visible after the async delay. */
export function updateTier(ctx: EmulatorContext, scope: AccountScope, uuid: string, change: TierChange): NetworkRecord {
  const tier = scope.collection(NETWORKS)[uuid];
  if (!tier || tier.vpcUuid === undefined) throw notFound("VPC tier", uuid);
  if (change.networkOfferingUuid !== undefined) {
    const offering = requireNetworkOffering(ctx, change.networkOfferingUuid, tier.zoneUuid);
    if (offering.type !== "VPC") {
      throw badInput("networkOfferingUuid", `network offering ${offering.name} is not for VPC tiers`);
    }
  }
  const set = definedFields(change);
  if (Object.keys(set).length) ctx.later(scope, "updateVpcNetwork", [{ collection: NETWORKS, uuid, set }]);
  return tier;
}
