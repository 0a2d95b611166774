// What the resource declarations share: look-ups by uuid, standard arguments and outputs.
import { z } from "zod";
import type { OperationContext, UpdateStep } from "../engine/declaration";
import { recordLookup } from "../engine/waits";
import { catalogReference, resourceName } from "../engine/validators";

/** The record with this uuid in a list answer (lists may hold duplicates or more than asked for). */
export function byUuid<T extends { uuid?: string }>(records: readonly T[], id: string): T | undefined {
  return records.find((r) => r.uuid === id);
}

/*
 * Records are read by uuid through their zone's list (not the get-by-uuid calls): concurrent reads of
 * a kind (a refresh, the polls of many waiters) then share one list call per zone (coalesce.ts).
 */

/** A VPC, or undefined when it is gone. */
export async function getVpc(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.vpc.list({ zoneUuid, uuid: id }), id);
}

/** A network or a VPC tier (a tier is a network to the API), or undefined when it is gone. */
export async function getNetwork(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.network.list({ zoneUuid, uuid: id }), id);
}

/** Where a network or a tier is found, for the waits of its declaration. */
export const networkRecord = (noun: string) =>
  recordLookup(noun, (ctx, id, state: { zoneUuid?: string }) => getNetwork(ctx, state.zoneUuid!, id));

/** A port as the API writes it (a string) to the number users declare. */
export function portNumber(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  return Number.isInteger(n) ? n : undefined;
}

/** A port users declare to the string the API takes. */
export function portText(value: number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

/** Standard argument documentation, shared so that every resource says the same thing the same way. */
export const args = {
  // The default (the auto-name, the provider's zone) and what a change does are added from the
  // declaration's autoName, zoneDefault, replaceOn and updates (provider/schema/sentences.ts).
  name: (what: string) => resourceName.optional().describe(`The ${what}'s name.`),
  zoneUuid: (what: string) => catalogReference("zone").optional().describe(`The zone of the ${what}.`),
};

/** Outputs every record carries. */
export const recordOutputs = {
  uuid: z.string().describe("The record's identifier (the same as the resource's id)."),
  status: z.string().optional().describe('The record\'s status as the API reports it (e.g. "Active").'),
  isActive: z.boolean().optional().describe("Whether the API reports the record as active."),
};

/** The ACL update that networks and VPC tiers share (a tier is a network to the API). */
export const replaceAclStep: UpdateStep<{ aclUuid?: string }> = {
  fields: ["aclUuid"],
  via: "replaceAcl",
  apply: async (ctx, id, news) => {
    if (news.aclUuid) await ctx.client.network.replaceAcl({ uuid: id, aclUuid: news.aclUuid });
  },
};

/**
 * The `verify` of an action that moves a record on (start, attach, resize...): after an ambiguous
 * failure, the action took effect when the record read back `shows` it (in transition or done).
 * The service refuses the same action a second time, so it cannot simply be resent.
 */
export function appliedWhen<T>(
  read: () => Promise<T | undefined>,
  shows: (record: T) => boolean,
): () => Promise<T | undefined> {
  return async () => {
    const record = await read();
    return record !== undefined && shows(record) ? record : undefined;
  };
}

/** Minutes to milliseconds, for default timeouts. */
export const minutes = (n: number): number => n * 60_000;

/**
 * An action as a trigger, the way pulumi-command's `triggers` work: a list of any values whose
 * change performs the action during `pulumi up` (a preview shows the list changing as an update, and
 * performs nothing). `action` says what a change does, e.g. "restarts the VPC's router (restartVpc)".
 */
export const triggers = (action: string) =>
  z
    .array(z.unknown())
    .optional()
    .describe(
      `Any values (a date, a counter, another resource's output...). A change to the list ${action}, ` +
        "and waits until it is done. Its value at creation and its removal perform nothing.",
    );

/** Whether an update step of a trigger list performs its action: only a (changed) list that is set. */
export const triggered = (list: readonly unknown[] | undefined): boolean => list !== undefined;
