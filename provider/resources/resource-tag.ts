import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { uuid } from "../engine/validators";
import { resourceType } from "../client/schema";
import { findInZones } from "../engine/import";
import { gone, recordLookup } from "../engine/waits";
import { args, byUuid, minutes, recordOutputs } from "./common";
import { inventoryLists, text } from "../engine/inventory";
import { OWNER_TAG_KEY } from "../engine/ownership";

/** The kinds of resources the API tags (its own spellings: UserVm is an instance), as the client knows them. */
const RESOURCE_TYPES = resourceType.options;

/** What a tag type is to a user, where the API's name is not the resource's. */
const TAG_TYPE_NOTES: Partial<Record<string, string>> = {
  UserVm: " (an Instance)",
  Snapshot: " (a VolumeSnapshot)",
  Network: " (also a VpcTier)",
};

/** "a, b or c". */
const listed = (items: readonly string[]) => `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;

async function getTag(ctx: OperationContext, id: string) {
  return byUuid(await ctx.client.resourceTag.list({ uuid: id }), id);
}

/**
 * The zone of a tagged resource (the tag's record does not carry the zone its create took): the
 * first zone whose inventory of a kind of that tag type holds it (`Network`: networks and VPC tiers).
 * Undefined for types no declaration carries (StaticRoute, NetworkACL, Template, ISO).
 */
async function zoneOfTagged(ctx: OperationContext, resourceType: string, uuid: string): Promise<string | undefined> {
  const facets = (ctx.declarations ?? []).flatMap((d) =>
    d.tagType === resourceType && d.inventory && !d.inventory.accountWide ? [d.inventory] : [],
  );
  if (facets.length === 0) return undefined;
  const listsIn = inventoryLists(ctx.client);
  const found = await findInZones(ctx, async (zoneUuid) => {
    for (const facet of facets) if ((await facet.list(listsIn(zoneUuid))).some((r) => r.id === uuid)) return zoneUuid;
    return undefined;
  });
  return found?.zoneUuid;
}

/** One key/value tag on a resource. */
export const resourceTagDeclaration = defineResource({
  type: "ResourceTag",
  description:
    "A key/value tag on a resource (an instance, volume, snapshot, network, VPC, public IP, rule...), of this " +
    "stack or not. A resource's own keys are its `tags` argument: declare each key in one place (docs/tags.md).",
  inputs: z.object({
    resourceType: z
      .enum(RESOURCE_TYPES)
      .describe(
        `The kind of the tagged resource: ${listed(RESOURCE_TYPES.map((t) => t + (TAG_TYPE_NOTES[t] ?? "")))}.`,
      ),
    resourceUuid: uuid.describe("The tagged resource's id."),
    key: z
      .string()
      .min(1, "must not be empty")
      .max(255, "must be at most 255 characters")
      .describe("The tag's key; a resource has one value per key."),
    value: z.string().max(255).describe("The tag's value."),
    zoneUuid: args.zoneUuid("tag (the tagged resource's zone)"),
  }),
  outputs: z.object({ ...recordOutputs }),
  zoneDefault: "zoneUuid",
  // One value per key and resource: a new value can only be created once the old tag is gone.
  deleteBeforeReplace: true,
  replaceOn: ["resourceType", "resourceUuid", "key", "value", "zoneUuid"],
  updates: [],
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  // A resource has one tag per key.
  identity: {
    scope: (inputs) => `${inputs.resourceUuid}/${inputs.key}`,
    candidates: (ctx, inputs) => ctx.client.resourceTag.list({ resourceUuid: inputs.resourceUuid }),
    matches: (tag, inputs) => tag.key === inputs.key && tag.value === inputs.value,
  },
  inventory: {
    accountWide: true,
    naming: { alias: "tag" },
    // The owner tags say who holds a record (discover reads them): they are no resources.
    list: async (lists) =>
      (await lists.client.resourceTag.list({}))
        .filter((tag) => tag.key !== OWNER_TAG_KEY)
        .map((tag) => ({
          id: tag.uuid,
          parentId: text(tag.resourceUuid),
          detail: `${tag.key ?? ""}=${tag.value ?? ""}`,
          tagKey: tag.key,
        })),
  },
  create: async (ctx, inputs) => {
    const tag = await ctx.client.resourceTag.create(
      {
        resourceType: inputs.resourceType,
        zoneUuid: inputs.zoneUuid!,
        resourceUuid: inputs.resourceUuid,
        key: inputs.key,
        value: inputs.value,
      },
      { verify: ctx.findCreated },
    );
    return { id: tag.uuid };
  },
  // Import: the tag list is the account's; the zone (which the record does not carry) is the tagged
  // resource's.
  locate: async (ctx, id) => {
    const tag = await getTag(ctx, id);
    if (!tag) return undefined;
    const zoneUuid =
      tag.resourceType && tag.resourceUuid ? await zoneOfTagged(ctx, tag.resourceType, tag.resourceUuid) : undefined;
    return zoneUuid === undefined ? {} : { zoneUuid };
  },
  read: async (ctx, id) => {
    const tag = await getTag(ctx, id);
    if (!tag) return undefined;
    return {
      // The record does not carry its zone: zoneUuid is kept from state.
      inputs: {
        resourceType: tag.resourceType as (typeof RESOURCE_TYPES)[number],
        resourceUuid: tag.resourceUuid,
        key: tag.key,
        value: tag.value,
      },
      // status is not among the Tag record's typed fields; every record carries it (the spec's convention).
      outputs: {
        uuid: tag.uuid,
        status: tag.status === undefined ? undefined : String(tag.status),
        isActive: tag.isActive,
      },
    };
  },
  record: recordLookup("tag", (ctx, id) => getTag(ctx, id)),
  async *delete(ctx, id) {
    // A resource that goes takes its tags with it: nothing left to do then.
    if (!(await getTag(ctx, id))) return;
    await ctx.client.resourceTag.delete({ uuid: id });
    yield gone();
  },
});
