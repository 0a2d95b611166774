// Resource tags: key/value pairs on the account's resources, one value per key and resource.
import type { AccountScope, EmulatorContext } from "../core";
import { badInput, conflict, notFound } from "../core";
import { requireRecord } from "../references";
import {
  FIREWALL_RULES,
  INSTANCES,
  IP_ADDRESSES,
  LOAD_BALANCER_RULES,
  NETWORKS,
  PORT_FORWARDING_RULES,
  SNAPSHOTS,
  TAGS,
  VM_SNAPSHOTS,
  VOLUMES,
  VPCS,
  type Collection,
  type TagRecord,
} from "./collections";
import { filterRecords, requireSameZone, requireZone } from "./records";

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
interface TaggedResource {
  kind: string;
  collection?: Collection<{ uuid: string; zoneUuid: string }, unknown>;
  catalog?: "template";
}
const TAGGED_RESOURCES: Partial<Record<ResourceType, TaggedResource>> = {
  UserVm: { kind: "instance", collection: INSTANCES },
  Volume: { kind: "volume", collection: VOLUMES },
  Snapshot: { kind: "snapshot", collection: SNAPSHOTS },
  VMSnapshot: { kind: "VM snapshot", collection: VM_SNAPSHOTS },
  Network: { kind: "network", collection: NETWORKS },
  PublicIpAddress: { kind: "IP address", collection: IP_ADDRESSES },
  Vpc: { kind: "VPC", collection: VPCS },
  FirewallRule: { kind: "firewall rule", collection: FIREWALL_RULES },
  LoadBalancer: { kind: "load balancer rule", collection: LOAD_BALANCER_RULES },
  PortForwardingRule: { kind: "port forwarding rule", collection: PORT_FORWARDING_RULES },
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

export function createTag(ctx: EmulatorContext, scope: AccountScope, input: TagInput): TagRecord {
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

  const tag: TagRecord = {
    uuid: ctx.newUuid(),
    key: input.key,
    value: input.value,
    resourceUuid: input.resourceUuid,
    resourceType: input.resourceType,
    status: "Active",
    isActive: true,
  };
  scope.collection(TAGS)[tag.uuid] = tag;
  scope.changed();
  return tag;
}

export function listTags(
  scope: AccountScope,
  filters: { uuid?: string; resourceUuid?: string; resourceType?: ResourceType },
): TagRecord[] {
  return filterRecords(scope, TAGS, filters);
}

/** Removes the tag and answers it as it was. */
export function deleteTag(scope: AccountScope, uuid: string): TagRecord {
  const tag = requireRecord(scope, TAGS, "tag", uuid);
  scope.remove(TAGS, uuid);
  scope.changed();
  return tag;
}

/** A resource that goes takes its tags with it (the caller persists). */
export function dropTagsOf(scope: AccountScope, resourceUuids: readonly string[]): void {
  const gone = new Set(resourceUuids);
  const tags = scope.collection(TAGS);
  for (const [uuid, tag] of Object.entries(tags)) if (gone.has(tag.resourceUuid)) delete tags[uuid];
}
