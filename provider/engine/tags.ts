// The tags a program puts on a record: `tags` on every kind whose declaration has a `tagType` (defineResource adds the
// argument and its update step). The API keeps one tag per key and record, made by createTags and removed by
// deleteResourceTag; it has no update, so a changed value is a delete, then a create. Check merges the provider's
// `defaultTags` in; refresh reads back the keys the state declares, an import every key. The owner tag (ownership.ts)
// is never one of them, and the keys a resource does not declare (a ResourceTag's, another tool's) are left alone.
import { z } from "zod";
import { ApiError, isNotFound } from "../client/errors";
import type { Tag } from "../client/operations/tags";
import type { OperationContext, ProviderSettings } from "./context";
import { OWNER_TAG_KEY, type OwnerTagType } from "./ownership";

/** The argument's name on every taggable kind. */
export const TAGS_ARGUMENT = "tags";

/** Key to value. */
export type Tags = Record<string, string>;

/** The API's longest tag key and value. */
const MAX_TAG_LENGTH = 255;

/**
 * What is wrong with the keys of a tag map, each in words (empty: nothing): empty or too long, or the
 * owner tag's key. One rule for the `tags` argument and the provider's `defaultTags`.
 */
export function tagKeyProblems(tags: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(tags)) {
    if (key === "") problems.push("has an empty key: a tag's key must not be empty");
    else if (key.length > MAX_TAG_LENGTH)
      problems.push(`has a key longer than ${MAX_TAG_LENGTH} characters ("${key.slice(0, 20)}...")`);
    else if (key === OWNER_TAG_KEY)
      problems.push(
        `must not hold the key "${OWNER_TAG_KEY}": the provider tags every record it creates with it, ` +
          "naming the resource that holds the record (docs/ownership.md)",
      );
  }
  return problems;
}

/** What is wrong with a tag map's values (empty: nothing): each must be a string of at most 255 characters. */
export function tagValueProblems(tags: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(tags).flatMap(([key, value]) =>
    typeof value !== "string"
      ? [`has a value that is not a string (key "${key}")`]
      : value.length > MAX_TAG_LENGTH
        ? [`has a value longer than ${MAX_TAG_LENGTH} characters (key "${key}")`]
        : [],
  );
}

/** The `tags` argument: its keys checked by tagKeyProblems, its values by the schema (so a failure names the key). */
export const tagsArgument = z
  .record(z.string(), z.string().max(MAX_TAG_LENGTH))
  .superRefine((tags, ctx) => {
    for (const message of tagKeyProblems(tags)) ctx.addIssue({ code: "custom", message, input: tags });
  })
  .optional()
  .describe(
    "Key/value tags on the record (createTags), beside those other resources or tools put on it. The provider's " +
      "`restcloud:defaultTags` are merged in, this map's value winning for a key; state holds the merged map. " +
      `Keys are 1 to ${MAX_TAG_LENGTH} characters, values at most ${MAX_TAG_LENGTH}; \`${OWNER_TAG_KEY}\` is the ` +
      "owner tag's key. A key is declared in one place: here or in a ResourceTag (docs/tags.md).",
  );

/** The API calls of the tags' update step, for the docs. */
export const TAGS_VIA = "createTags, deleteResourceTag";

/**
 * The tags check keeps: the provider's defaults, then the resource's own (which win for a key). A map
 * not known yet (a preview's unknown) or not a map (validation says so) is left as it is; none at all
 * is absent, so that a resource without tags shows no `{}`.
 */
export function withDefaultTags(
  tags: unknown,
  defaults: Readonly<Tags> | undefined,
  isUnknown: (value: unknown) => boolean,
): unknown {
  if (isUnknown(tags) || (tags !== undefined && (typeof tags !== "object" || tags === null || Array.isArray(tags))))
    return tags;
  const merged = { ...defaults, ...(tags as Tags | undefined) };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/**
 * The arguments less the provider's default tags (key and value both the default's): what a program
 * declares, given those defaults, to match a record (`restcloud discover`'s code).
 */
export function withoutDefaultTags(
  inputs: Readonly<Record<string, unknown>>,
  defaults: Readonly<Tags> | undefined,
): Record<string, unknown> {
  const { [TAGS_ARGUMENT]: tags, ...rest } = inputs;
  if (!declaresTags(tags)) return rest;
  const own = Object.fromEntries(Object.entries(tags).filter(([key, value]) => defaults?.[key] !== value));
  return Object.keys(own).length > 0 ? { ...rest, [TAGS_ARGUMENT]: own } : rest;
}

/** Which record the tags are on, and the zone their creates name (the API checks it is the record's). */
export interface TagTarget {
  tagType: OwnerTagType;
  resourceUuid: string;
  zoneUuid: string | undefined;
}

/**
 * The zone a tag's create names: the record's (`zoneUuid`), a rule's (the zone its create answered,
 * `ruleZoneUuid`), else the provider's default.
 */
export function tagZoneOf(state: Record<string, unknown>, settings: ProviderSettings): string | undefined {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  return text(state.zoneUuid) ?? text(state.ruleZoneUuid) ?? text(settings.zoneUuid);
}

/** Whether a value is a map with at least one key: refresh reads tags only for such a state. */
export function declaresTags(tags: unknown): tags is Tags {
  return typeof tags === "object" && tags !== null && !Array.isArray(tags) && Object.keys(tags).length > 0;
}

/**
 * The record's tags, the owner tag left out. Asked by record alone (a uuid names one record of any
 * type): concurrent reads, a refresh's, then share one list of the account's tags (client/coalesce.ts).
 */
async function tagRecordsOf(ctx: OperationContext, resourceUuid: string): Promise<Tag[]> {
  const tags = await ctx.client.resourceTag.list({ resourceUuid });
  return tags.filter((tag) => tag.resourceUuid === resourceUuid && tag.key !== undefined && tag.key !== OWNER_TAG_KEY);
}

/**
 * The record's tags as a map, the owner tag left out; with `keys`, only those (refresh: the keys the
 * state declares, so a key removed outside Pulumi shows as drift and others' keys stay out).
 */
export async function liveTags(ctx: OperationContext, resourceUuid: string, keys?: readonly string[]): Promise<Tags> {
  const wanted = keys && new Set(keys);
  const tags: Tags = {};
  for (const tag of await tagRecordsOf(ctx, resourceUuid))
    if (!wanted || wanted.has(tag.key!)) tags[tag.key!] = tag.value ?? "";
  return tags;
}

/**
 * Brings the record's tags from `olds` to `news`: removed and changed keys are deleted, added and
 * changed ones created (the API has no update). Each call may be resent after a lost answer: a delete
 * that finds its tag gone succeeded, and a create that meets its key (409) succeeded when the key holds
 * this value, the way a claim does (ownership.ts). A key held with another value, by a ResourceTag or
 * another tool, is an error naming it. Keys neither map names are left alone.
 */
export async function applyTagChanges(
  ctx: OperationContext,
  target: TagTarget,
  olds: Readonly<Tags>,
  news: Readonly<Tags>,
): Promise<void> {
  const dropped = Object.keys(olds).filter((key) => news[key] !== olds[key]);
  const wanted = Object.keys(news).filter((key) => news[key] !== olds[key]);
  if (dropped.length > 0) {
    const live = await tagRecordsOf(ctx, target.resourceUuid);
    const stale = live.filter((tag) => dropped.includes(tag.key!) && tag.value !== news[tag.key!]);
    await settleAll(stale.map((tag) => () => deleteTag(ctx, tag)));
  }
  if (wanted.length === 0) return;
  if (target.zoneUuid === undefined)
    throw new Error(`cannot tag ${target.resourceUuid}: its zone is not known (set restcloud:zoneUuid)`);
  const zoneUuid = target.zoneUuid;
  await settleAll(wanted.map((key) => () => createTag(ctx, { ...target, zoneUuid }, key, news[key]!)));
}

/** Runs every call, then throws the first failure (with the count of the others): no call is left half-seen. */
async function settleAll(calls: readonly (() => Promise<void>)[]): Promise<void> {
  const failed = (await Promise.allSettled(calls.map((call) => call()))).flatMap((r) =>
    r.status === "rejected" ? [r.reason as unknown] : [],
  );
  if (failed.length === 0) return;
  if (failed.length === 1) throw failed[0];
  const first = failed[0] instanceof Error ? failed[0].message : String(failed[0]);
  throw new Error(`${first} (and ${failed.length - 1} more tag changes failed)`);
}

/** Gone is gone: a tag already deleted (404) is what was asked. */
async function deleteTag(ctx: OperationContext, tag: Tag): Promise<void> {
  try {
    await ctx.client.resourceTag.delete({ uuid: tag.uuid });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

async function createTag(
  ctx: OperationContext,
  target: TagTarget & { zoneUuid: string },
  key: string,
  value: string,
): Promise<void> {
  const holding = async () => (await tagRecordsOf(ctx, target.resourceUuid)).find((tag) => tag.key === key);
  try {
    await ctx.client.resourceTag.create(
      { resourceType: target.tagType, zoneUuid: target.zoneUuid, resourceUuid: target.resourceUuid, key, value },
      // A lost answer: the tag is there if the create took effect, else it is sent again.
      {
        verify: async () => {
          const tag = await holding();
          return tag?.value === value ? tag : undefined;
        },
      },
    );
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    const tag = await holding();
    if (tag === undefined) throw error;
    if (tag.value === value) return; // ours: a resend, or a create finished again
    throw new Error(
      `tag "${key}" of ${target.resourceUuid} already exists with another value: ` +
        "a ResourceTag or another tool holds this key. Declare a key in one place, in `tags` or in a ResourceTag.",
      { cause: error },
    );
  }
}
