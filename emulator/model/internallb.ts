// Internal load balancers of a VPC tier. The spec's record has no uuid, so the name (unique per account) is the id that
// deleteInternalLb/{uuid}, assignLbRule?uuid= and internalLbList?uuid= take. Status "Add" until assignLbRule applies it
// to the tier's instances ("Active").
import { inBlock } from "../ippool";
import { parseIpv4 } from "../cidr";
import { badInput, conflict, notFound, type AccountScope, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import {
  ATTACHED_NETWORKS,
  INSTANCES,
  INTERNAL_LBS,
  NETWORKS,
  type InternalLbRecord,
  type NetworkRecord,
} from "./collections";
import { filterRecords, requireZone } from "./records";
import { port } from "./rules-common";
import type { Algorithm } from "./loadbalancerrule";

export interface InternalLbInput {
  name: string;
  networkUuid: string;
  algorithm: Algorithm;
  sourceport: string;
  instanceport: string;
  description?: string;
  sourceIpAddress?: string;
}

/** The stored key and record of the internal LB named `name`, or a 404. */
function byName(scope: AccountScope, name: string): [string, InternalLbRecord] {
  const found = Object.entries(scope.collection(INTERNAL_LBS)).find(([, r]) => r.name === name);
  if (!found) throw notFound("internal load balancer", name);
  return found;
}

/** The addresses in use in a network: its gateway, its instances' (default and attached NICs) and its internal LBs'. */
function usedAddresses(scope: AccountScope, network: NetworkRecord): Set<string> {
  const networkUuid = network.uuid;
  const addresses: unknown[] = [
    network.gateway,
    ...filterRecords(scope, INSTANCES, { networkUuid }).map((r) => r.instancePrivateIp),
    ...filterRecords(scope, ATTACHED_NETWORKS, { networkUuid }).map((r) => r.privateIp),
    ...filterRecords(scope, INTERNAL_LBS, { networkUuid }).map((r) => r.sourceIpAddress),
  ];
  return new Set(addresses.filter((a): a is string => typeof a === "string" && a !== ""));
}

export function createInternalLb(scope: AccountScope, ctx: EmulatorContext, input: InternalLbInput): InternalLbRecord {
  const network = requireRecord(scope, NETWORKS, "network", input.networkUuid);
  if (network.vpcUuid === undefined) {
    throw badInput(
      "networkUuid",
      `network ${input.networkUuid} is not a VPC tier; internal load balancers live in VPC tiers`,
    );
  }
  const sourcePort = port("sourceport", input.sourceport);
  const instancePort = port("instanceport", input.instanceport);
  if (Object.values(scope.collection(INTERNAL_LBS)).some((r) => r.name === input.name)) {
    throw conflict(`an internal load balancer named "${input.name}" already exists`);
  }
  const cidr = network.cidr;
  const used = usedAddresses(scope, network);
  let sourceIpAddress = input.sourceIpAddress;
  if (sourceIpAddress !== undefined) {
    if (parseIpv4(sourceIpAddress) === undefined) throw badInput("sourceIpAddress", "must be an IPv4 address");
    if (cidr && !inBlock(cidr, sourceIpAddress)) throw badInput("sourceIpAddress", `must lie in the network's ${cidr}`);
    if (used.has(sourceIpAddress))
      throw conflict(`address ${sourceIpAddress} is already in use in network ${input.networkUuid}`);
  } else {
    sourceIpAddress = cidr ? ctx.allocatePrivateIp(cidr, used) : "";
  }
  const record: InternalLbRecord = {
    instancePort: String(instancePort),
    sourcePort: String(sourcePort),
    name: input.name,
    zoneUuid: String(network.zoneUuid ?? ""),
    description: input.description ?? "",
    sourceIpAddress,
    isActive: true,
    networkUuid: input.networkUuid,
    algorithm: input.algorithm,
    status: "Add",
  };
  scope.collection(INTERNAL_LBS)[ctx.newUuid()] = record;
  scope.changed();
  return record;
}

/** `uuid` filters by name (the identifier of an internal LB). */
export function listInternalLbs(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; networkUuid?: string },
): InternalLbRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, INTERNAL_LBS, {
    zoneUuid: filters.zoneUuid,
    name: filters.uuid,
    networkUuid: filters.networkUuid,
  });
}

/** Assigns the tier's instances to the internal LB: it becomes "Active". Idempotent. */
export function assignLbRule(scope: AccountScope, name: string): InternalLbRecord {
  const [, record] = byName(scope, name);
  if (record.status !== "Active") {
    record.status = "Active";
    scope.changed();
  }
  return record;
}

export function deleteInternalLb(scope: AccountScope, name: string): true {
  const [key] = byName(scope, name);
  scope.remove(INTERNAL_LBS, key);
  scope.changed();
  return true;
}
