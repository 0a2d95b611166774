/** Resource tags: key/value pairs on the account's resources, one value per key and resource. */
import type { AccountScope, ApiRecord, EmulatorContext } from "../core";
import { badInput, conflict, notFound } from "../core";
import { requireRecord } from "../references";
import { filterRecords, requireSameZone, requireZone } from "./records";

export const TAGS = "tag";

export const RESOURCE_TYPES = [
  "UserVm",
  "Volume",
  "Snapshot",
  "VMSnapshot",
  "Network",
  "PublicIpAddress",
  "FirewallRule",
  "LoadBalancer",
  "PortForwardingRule",
  "Vpc",
  "StaticRoute",
  "NetworkACL",
  "Template",
  "ISO",
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/**
 * Where a tagged resource must exist: an account collection or the catalog. Types the emulator does
 * not model (static routes, ACLs, ISOs) take any uuid.
 */
const TAGGED_RESOURCES: Partial<Record<ResourceType, { kind: string; collection?: string; catalog?: "template" }>> = {
  UserVm: { kind: "instance", collection: "instance" },
  Volume: { kind: "volume", collection: "volume" },
  Snapshot: { kind: "snapshot", collection: "snapshot" },
  VMSnapshot: { kind: "VM snapshot", collection: "vmsnapshot" },
  Network: { kind: "network", collection: "network" },
  PublicIpAddress: { kind: "IP address", collection: "ipaddress" },
  Vpc: { kind: "VPC", collection: "vpc" },
  FirewallRule: { kind: "firewall rule", collection: "firewallrule" },
  LoadBalancer: { kind: "load balancer rule", collection: "loadbalancerrule" },
  PortForwardingRule: { kind: "port forwarding rule", collection: "portforwardingrule" },
  Template: { kind: "template", catalog: "template" },
};

const MAX_KEY_LENGTH = 255;

export interface TagInput {
  resourceType: ResourceType;
  zoneUuid: string;
  resourceUuid: string;
  key: string;
  value: string;
}

export function createTag(ctx: EmulatorContext, scope: AccountScope, input: TagInput): ApiRecord {
  requireZone(ctx, input.zoneUuid);
  const where = TAGGED_RESOURCES[input.resourceType];
  if (where?.collection) {
    const resource = requireRecord(scope, where.collection, where.kind, input.resourceUuid);
    requireSameZone("zoneUuid", resource, input.zoneUuid);
  } else if (where?.catalog === "template" && !ctx.catalog.template(input.resourceUuid)) {
    throw notFound(where.kind, input.resourceUuid);
  }
  if (input.key.length > MAX_KEY_LENGTH) throw badInput("key", `must be at most ${MAX_KEY_LENGTH} characters`);
  const taken = Object.values(scope.collection(TAGS)).some(
    (tag) => tag.resourceUuid === input.resourceUuid && tag.key === input.key,
  );
  if (taken) throw conflict(`resource ${input.resourceUuid} already has a tag with key ${input.key}`);

  const tag: ApiRecord = {
    uuid: ctx.newUuid(),
    key: input.key,
    value: input.value,
    resourceUuid: input.resourceUuid,
    resourceType: input.resourceType,
    status: "Active",
    isActive: true,
  };
  scope.collection(TAGS)[tag.uuid as string] = tag;
  scope.changed();
  return tag;
}

export function listTags(
  scope: AccountScope,
  filters: { uuid?: string; resourceUuid?: string; resourceType?: ResourceType },
): ApiRecord[] {
  return filterRecords(scope, TAGS, filters);
}

/** Removes the tag and answers it as it was. */
export function deleteTag(scope: AccountScope, uuid: string): ApiRecord {
  const tag = requireRecord(scope, TAGS, "tag", uuid);
  delete scope.collection(TAGS)[uuid];
  scope.changed();
  return tag;
}

/** A resource that goes takes its tags with it (the caller persists). */
export function dropTagsOf(scope: AccountScope, resourceUuids: readonly string[]): void {
  const gone = new Set(resourceUuids);
  const tags = scope.collection(TAGS);
  for (const [uuid, tag] of Object.entries(tags)) if (gone.has(tag.resourceUuid as string)) delete tags[uuid];
}
