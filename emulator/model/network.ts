// Guest networks (and the shape VPC tiers share): the account's next free 10.1.N.0/24, gateway .1. Updates answer 202
// and show after the delay; a restart passes through "Restarting"; a network anything uses cannot be deleted.
import {
  containsAddress,
  formatCidr,
  formatIpv4,
  isPrivate,
  overlaps,
  parseCidr,
  parseIpv4,
  type Block,
} from "../cidr";
import type { NetworkOfferingCostRecord } from "../seeded-catalog";
import { badInput, conflict, notFound, type AccountScope, type ApiRecord, type EmulatorContext } from "../core";
import { INSTANCES, NETWORKS, SECURITY_GROUPS, type NetworkRecord } from "./collections";
import { describeReferences, referencesTo, requireRecord } from "../references";
import { requireZone } from "./records";

/** The CIDR sizes a network may be changed to. */
export const NETWORK_PREFIX = { min: 16, max: 29 } as const;

export interface NameChange {
  name?: string;
  description?: string;
}

/** The fields of `change` that were given. */
export function definedFields(change: object): ApiRecord {
  return Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
}

/** A private IPv4 block of an allowed size, or a 400 naming `field`. */
export function privateBlock(field: string, cidr: string, prefix: { min: number; max: number }): Block {
  const block = parseCidr(cidr);
  if (!block) throw badInput(field, `${cidr} is not an IPv4 CIDR block such as 10.0.0.0/16 (host bits zero)`);
  if (!isPrivate(block)) throw badInput(field, `${cidr} is not a private (RFC 1918) block`);
  if (block.prefix < prefix.min || block.prefix > prefix.max) {
    throw badInput(field, `prefix /${block.prefix} is outside /${prefix.min} to /${prefix.max}`);
  }
  return block;
}

/** The offering, offered in the zone: 404 when it does not exist, 400 when the zone does not offer it. */
export function requireNetworkOffering(
  ctx: EmulatorContext,
  uuid: string,
  zoneUuid: string,
): NetworkOfferingCostRecord {
  const offering = ctx.catalog.networkOffering(uuid, zoneUuid);
  if (offering) return offering;
  if (ctx.catalog.networkOffering(uuid)) {
    throw badInput("networkOfferingUuid", `network offering ${uuid} is not offered in zone ${zoneUuid}`);
  }
  throw notFound("network offering", uuid);
}

export function requireNetwork(scope: AccountScope, uuid: string): NetworkRecord {
  return requireRecord(scope, NETWORKS, "network", uuid);
}

/** The DNS domain of an account's networks when none is given. */
export const defaultNetworkDomain = (scope: AccountScope): string => `${scope.account.name}.restcloud.internal`;

interface NetworkShape {
  name: string;
  zoneUuid: string;
  offering: NetworkOfferingCostRecord;
  cidr: string;
  gateway: string;
  networkType: string;
  networkAclList: string;
  vpcUuid?: string;
  securityGroupUuid?: string;
}

/** A Network record (spec fields, plus description, and vpcUuid for a tier, securityGroupUuid when one is set). */
export function networkRecord(ctx: EmulatorContext, scope: AccountScope, shape: NetworkShape): NetworkRecord {
  return {
    uuid: ctx.newUuid(),
    name: shape.name,
    description: shape.name,
    zoneUuid: shape.zoneUuid,
    networkOfferingUuid: shape.offering.uuid,
    cidr: shape.cidr,
    gateway: shape.gateway,
    networkType: shape.networkType,
    networkAclList: shape.networkAclList,
    networkDomain: defaultNetworkDomain(scope),
    domainName: scope.account.name,
    cleanUpNetwork: false,
    ...(shape.vpcUuid !== undefined ? { vpcUuid: shape.vpcUuid } : {}),
    ...(shape.securityGroupUuid !== undefined ? { securityGroupUuid: shape.securityGroupUuid } : {}),
    status: "Active",
    isActive: true,
  };
}

export interface NetworkInput {
  name: string;
  zoneUuid: string;
  networkOfferingUuid: string;
  isPublic?: boolean;
  securityGroupUuid?: string;
  virtualmachineUuid?: string;
}

/** The lowest 10.1.N.0/24 that overlaps none of the account's (non-tier) networks. */
function nextNetworkBlock(scope: AccountScope): Block {
  const taken = Object.values(scope.collection(NETWORKS))
    .filter((n) => n.vpcUuid === undefined)
    .map((n) => parseCidr(n.cidr))
    .filter((b): b is Block => b !== undefined);
  for (let n = 1; n <= 255; n++) {
    const block: Block = { network: parseIpv4(`10.1.${n}.0`) as number, prefix: 24 };
    if (!taken.some((t) => overlaps(t, block))) return block;
  }
  throw conflict("no free 10.1.N.0/24 block left for another network in this account");
}

export function createNetwork(ctx: EmulatorContext, scope: AccountScope, input: NetworkInput): NetworkRecord {
  const zone = requireZone(ctx, input.zoneUuid);
  const offering = requireNetworkOffering(ctx, input.networkOfferingUuid, input.zoneUuid);
  if (offering.type === "VPC") {
    throw badInput("networkOfferingUuid", `network offering ${offering.name} is for VPC tiers (createVpcNetwork)`);
  }
  if (input.securityGroupUuid !== undefined) {
    requireRecord(scope, SECURITY_GROUPS, "security group", input.securityGroupUuid);
  }
  if (input.virtualmachineUuid !== undefined) {
    requireRecord(scope, INSTANCES, "instance", input.virtualmachineUuid);
  }
  const block = nextNetworkBlock(scope);
  const network = networkRecord(ctx, scope, {
    name: input.name,
    zoneUuid: zone.uuid,
    offering,
    cidr: formatCidr(block),
    gateway: formatIpv4(block.network + 1),
    networkType: offering.type,
    networkAclList: "",
    securityGroupUuid: input.securityGroupUuid,
  });
  scope.collection(NETWORKS)[network.uuid] = network;
  scope.changed();
  return network;
}

export function listNetworks(
  ctx: EmulatorContext,
  scope: AccountScope,
  filter: { zoneUuid: string; uuid?: string; vpcUuid?: string },
): NetworkRecord[] {
  requireZone(ctx, filter.zoneUuid);
  return Object.values(scope.collection(NETWORKS)).filter(
    (n) =>
      n.zoneUuid === filter.zoneUuid &&
      (filter.uuid === undefined || n.uuid === filter.uuid) &&
      (filter.vpcUuid === undefined || n.vpcUuid === filter.vpcUuid),
  );
}

export interface NetworkChange extends NameChange {
  cidr?: string;
  networkDomain?: string;
}

/** Answers the network as it is now; the changes become visible after the async delay. */
export function updateNetwork(
  ctx: EmulatorContext,
  scope: AccountScope,
  uuid: string,
  change: NetworkChange,
): NetworkRecord {
  const { cidr, ...names } = change;
  const set = definedFields(names);
  if (cidr !== undefined) {
    const block = privateBlock("cidr", cidr, NETWORK_PREFIX);
    const network = requireNetwork(scope, uuid);
    if (network.vpcUuid !== undefined) {
      throw badInput("cidr", "a VPC tier's block is fixed by its gateway and netmask");
    }
    const outside = Object.values(scope.collection(INSTANCES)).filter((i) => {
      const ip = typeof i.instancePrivateIp === "string" ? parseIpv4(i.instancePrivateIp) : undefined;
      return i.networkUuid === uuid && ip !== undefined && !containsAddress(block, ip);
    });
    if (outside.length) {
      throw conflict(`${outside.length} instance(s) of network ${uuid} have addresses outside ${formatCidr(block)}`);
    }
    Object.assign(set, { cidr: formatCidr(block), gateway: formatIpv4(block.network + 1) });
  }
  const network = requireNetwork(scope, uuid);
  if (Object.keys(set).length) ctx.later(scope, "updateNetwork", [{ collection: NETWORKS, uuid, set }]);
  return network;
}

export function restartNetwork(
  ctx: EmulatorContext,
  scope: AccountScope,
  uuid: string,
  cleanUp: boolean,
): NetworkRecord {
  const network = requireNetwork(scope, uuid);
  network.cleanUpNetwork = cleanUp;
  network.status = "Restarting";
  scope.changed();
  ctx.later(scope, "restartNetwork", [{ collection: NETWORKS, uuid, set: { status: "Active" } }]);
  return network;
}

/** Network ACLs apply to VPC tiers; the ACL uuid is opaque (the ACL lists are outside the spec). */
export function replaceAcl(scope: AccountScope, uuid: string, aclUuid: string): NetworkRecord {
  const network = requireNetwork(scope, uuid);
  if (network.vpcUuid === undefined) throw badInput("uuid", `network ${uuid} is not a VPC tier; ACLs apply to tiers`);
  network.networkAclList = aclUuid;
  scope.changed();
  return network;
}

/**
 * The spec types securityGroupId as an integer while security groups are identified by uuid: a
 * uuid must name one of the account's security groups; an integer id is accepted as opaque.
 */
export function changeSecurityGroup(scope: AccountScope, uuid: string, securityGroupId: string): NetworkRecord {
  const network = requireNetwork(scope, uuid);
  if (!/^\d+$/.test(securityGroupId)) requireRecord(scope, SECURITY_GROUPS, "security group", securityGroupId);
  network.securityGroupUuid = securityGroupId;
  scope.changed();
  return network;
}

/** The fields by which other records name the network they use. */
const NETWORK_REFERENCES = ["networkUuid"] as const;

export function deleteNetwork(scope: AccountScope, uuid: string): true {
  requireNetwork(scope, uuid);
  const users = referencesTo(scope, NETWORK_REFERENCES, uuid);
  if (users.length) throw conflict(`network ${uuid} is in use (${describeReferences(users)}); delete those first`);
  scope.remove(NETWORKS, uuid);
  scope.changed();
  return true;
}
