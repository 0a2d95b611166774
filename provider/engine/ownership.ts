// Who owns a record: the `pulumi-owner` tag with the holder's URN, put on every record the API lets carry tags. The
// service keeps one tag per key, so creating it is an atomic claim (identity.ts); discover, recover and the emulator's
// console read it. Untaggable kinds settle identity otherwise (each declaration's `identity`). docs/ownership.md.
import { createHash } from "node:crypto";
import type { z } from "zod";
import { ApiError } from "../client/errors";
import type { resourceType } from "../client/schema";
import type { RestCloudClient } from "../client";

/** The tag key that says which resource of which stack holds a record. */
export const OWNER_TAG_KEY = "pulumi-owner";

/** The API's longest tag value. */
const MAX_VALUE_LENGTH = 255;

/** The kinds of record the API tags (its spellings: UserVm is an instance), as the client's schema has them. */
export type OwnerTagType = z.infer<typeof resourceType>;

/**
 * The tag's value for a resource: its URN (`urn:pulumi:<stack>::<project>::<type>::<name>`); a URN
 * longer than the API takes keeps its start (stack, project, type) and ends with a digest of the whole.
 */
export function ownerTagValue(urn: string): string {
  if (urn.length <= MAX_VALUE_LENGTH) return urn;
  const digest = createHash("sha256").update(urn).digest("hex").slice(0, 32);
  return `${urn.slice(0, MAX_VALUE_LENGTH - digest.length - 1)}#${digest}`;
}

/** What an owner tag says: the stack, project, resource type token and logical name of the holder. */
export interface Owner {
  /** The tag's value as it is (the URN, or its shortened form). */
  value: string;
  stack: string;
  project: string;
  /** The resource's type token, as its URN spells it (parents' types joined with `$`). */
  type: string;
  /** The logical name; absent from a shortened value. */
  name?: string;
}

/** Reads an owner tag's value; undefined when it is not a Pulumi URN. */
export function parseOwner(value: string): Owner | undefined {
  const match = /^urn:pulumi:([^:]+)::([^:]+)::(.*)$/.exec(value);
  if (!match) return undefined;
  const [, stack, project, rest] = match;
  const shortened = /#[0-9a-f]{32}$/.test(rest) && value.length === MAX_VALUE_LENGTH;
  const at = rest.indexOf("::");
  const type = at < 0 ? rest : rest.slice(0, at);
  const name = at < 0 || shortened ? undefined : rest.slice(at + 2);
  return { value, stack, project, type, ...(name !== undefined ? { name } : {}) };
}

/** Whether a tag value names this URN (whole, or shortened as ownerTagValue shortens it). */
export function ownedBy(value: string | undefined, urn: string): boolean {
  return value !== undefined && value === ownerTagValue(urn);
}

/** The owner tag's value of each record of a kind that has one: record uuid to value. One request. */
export async function ownersOf(client: RestCloudClient, resourceType: OwnerTagType): Promise<Map<string, string>> {
  const tags = await client.resourceTag.list({ resourceType });
  const owners = new Map<string, string>();
  for (const tag of tags) {
    if (tag.key === OWNER_TAG_KEY && tag.resourceUuid && tag.value !== undefined)
      owners.set(tag.resourceUuid, tag.value);
  }
  return owners;
}

/** What a claim found: the record is this resource's now (or was already), or another's (its tag's value). */
export type ClaimOutcome = { claimed: true } | { claimed: false; owner: string };

export interface ClaimRequest {
  resourceType: OwnerTagType;
  /** The record's zone (the tag's create takes it). */
  zoneUuid: string;
  resourceUuid: string;
  /** The URN of the resource taking the record. */
  urn: string;
}

/**
 * Tags the record as this resource's. The service's one-tag-per-key rule makes it atomic: a 409 is
 * answered by reading the tag, which is ours (a resend of our own claim) or another's. Any other
 * refusal throws: the caller decides what an unmarked record means.
 */
export async function claimRecord(client: RestCloudClient, request: ClaimRequest): Promise<ClaimOutcome> {
  const value = ownerTagValue(request.urn);
  const ownerTag = async () =>
    (await client.resourceTag.list({ resourceUuid: request.resourceUuid, resourceType: request.resourceType })).find(
      (tag) => tag.key === OWNER_TAG_KEY,
    );
  try {
    await client.resourceTag.create(
      {
        resourceType: request.resourceType,
        zoneUuid: request.zoneUuid,
        resourceUuid: request.resourceUuid,
        key: OWNER_TAG_KEY,
        value,
      },
      // A lost answer: the tag is there if the claim took effect (ours), else it is sent again.
      {
        verify: async () => {
          const tag = await ownerTag();
          return tag?.value === value ? tag : undefined;
        },
      },
    );
    return { claimed: true };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    const owner = (await ownerTag())?.value;
    if (owner === undefined) throw error;
    return owner === value ? { claimed: true } : { claimed: false, owner };
  }
}

/** "resource web-ip of stack dev (project shop)", from an owner tag's value. */
export function describeOwner(value: string): string {
  const owner = parseOwner(value);
  if (!owner) return `owner "${value}"`;
  return `${owner.name ? `resource ${owner.name}` : "a resource"} of stack ${owner.stack} (project ${owner.project})`;
}
