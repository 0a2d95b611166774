import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { defaultValue, stateDefaults, withDefault, withDefaultText } from "../engine/defaults";
import { uuid } from "../engine/validators";
import { findInZones } from "../engine/import";
import { gone, recordLookup } from "../engine/waits";
import { byUuid, minutes, recordOutputs } from "./common";
import { orNone, text } from "../engine/inventory";
import { zoneVolumes } from "./volume";

const INTERVAL_TYPES = ["HOURLY", "DAILY", "WEEKLY", "MONTHLY"] as const;
const MINUTE = /^\d{1,2}$/;
const TIME_OF_DAY = /^([01]?\d|2[0-3]):[0-5]\d$/;

async function getPolicy(ctx: OperationContext, volumeUuid: string, id: string) {
  return byUuid(await ctx.client.snapshotPolicy.list({ volumeUuid, uuid: id }), id);
}

function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** A number the API writes as text; undefined when empty (the day fields of other interval types). */
const whole = (value: string | undefined) => (value === undefined || value === "" ? undefined : Number(value));

const inputs = z
  .object({
    volumeUuid: uuid.describe("The volume to snapshot on schedule."),
    intervalType: z
      .enum(INTERVAL_TYPES)
      .describe(
        "How often a snapshot is taken: HOURLY, DAILY, WEEKLY or MONTHLY. A volume has at most one policy per " +
          "interval type.",
      ),
    scheduleTime: z
      .string()
      .trim()
      .refine(
        (t) => (MINUTE.test(t) && Number(t) <= 59) || TIME_OF_DAY.test(t),
        'must be a minute of the hour ("0" to "59") or a time of day "HH:MM"',
      )
      .describe(
        'When the snapshot is taken, in timeZone: the minute of the hour for HOURLY (e.g. "30"), else the time ' +
          'of day "HH:MM" (such as "02:30").',
      ),
    dayOfWeek: z
      .number()
      .int()
      .min(1, "must be from 1 (Sunday) to 7 (Saturday)")
      .max(7, "must be from 1 (Sunday) to 7 (Saturday)")
      .optional()
      .describe("The day of a WEEKLY snapshot, 1 (Sunday) to 7 (Saturday): required for WEEKLY, refused otherwise."),
    dayOfMonth: z
      .number()
      .int()
      .min(1, "must be from 1 to 28")
      .max(28, "must be from 1 to 28 (every month has these days)")
      .optional()
      .describe("The day of a MONTHLY snapshot, 1 to 28: required for MONTHLY, refused otherwise."),
    timeZone: withDefault(
      z
        .string()
        .refine(isTimeZone, "must be a time zone such as Etc/GMT+12 or Europe/Berlin")
        .optional()
        .describe('The time zone of scheduleTime (e.g. "Europe/Berlin", "Etc/GMT+12").'),
      "Etc/UTC",
      { keptInState: true },
    ),
    maximumSnapshots: withDefaultText(
      z
        .number()
        .int()
        .min(1)
        .optional()
        .describe("How many of the policy's snapshots are kept; the oldest goes when a new one is taken."),
      "the API's (8 on the emulator)",
    ),
  })
  .superRefine((v, ctx) => {
    const hourly = v.intervalType === "HOURLY";
    const valid = hourly ? MINUTE.test(v.scheduleTime) : TIME_OF_DAY.test(v.scheduleTime);
    if (v.intervalType !== undefined && v.scheduleTime !== undefined && !valid)
      ctx.addIssue({
        code: "custom",
        path: ["scheduleTime"],
        message: hourly
          ? 'must be the minute of the hour, "0" to "59", for HOURLY'
          : `must be a time of day "HH:MM" ("00:00" to "23:59") for ${v.intervalType}`,
      });
    const dayRule = (field: "dayOfWeek" | "dayOfMonth", interval: string) => {
      if (v.intervalType === interval && v[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: `is required for ${interval}` });
      if (v.intervalType !== undefined && v.intervalType !== interval && v[field] !== undefined)
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `is only for ${interval} (intervalType is ${v.intervalType})`,
        });
    };
    dayRule("dayOfWeek", "WEEKLY");
    dayRule("dayOfMonth", "MONTHLY");
  });

/** A recurring snapshot schedule of a volume. */
export const snapshotPolicyDeclaration = defineResource({
  type: "SnapshotPolicy",
  description:
    "A recurring snapshot schedule of a volume (hourly, daily, weekly or monthly), keeping its latest snapshots.",
  inputs,
  outputs: z.object({ ...recordOutputs }),
  defaults: stateDefaults(inputs),
  // A volume holds one policy per interval type: the replacement can only be created once the old one is gone.
  deleteBeforeReplace: true,
  replaceOn: ["volumeUuid", "intervalType", "scheduleTime", "dayOfWeek", "dayOfMonth", "timeZone", "maximumSnapshots"],
  updates: [],
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  // A volume has one policy per interval type.
  identity: {
    scope: (inputs) => `${inputs.volumeUuid}/${inputs.intervalType}`,
    candidates: (ctx, inputs) => ctx.client.snapshotPolicy.list({ volumeUuid: inputs.volumeUuid }),
    matches: (policy, inputs) => policy.intervalType === inputs.intervalType,
  },
  // Policies are listed per volume.
  inventory: {
    naming: { alias: "policy" },
    list: async (lists) => {
      const perVolume = await Promise.all(
        (await zoneVolumes(lists)).map(async (volume) =>
          (await orNone(() => lists.client.snapshotPolicy.list({ volumeUuid: volume.uuid }))).map((policy) => ({
            id: policy.uuid,
            parentId: volume.uuid,
            detail: text(policy.intervalType),
          })),
        ),
      );
      return perVolume.flat();
    },
  },
  create: async (ctx, args) => {
    const policy = await ctx.client.snapshotPolicy.create(
      {
        volumeUuid: args.volumeUuid,
        intervalType: args.intervalType,
        timer: args.scheduleTime,
        timeZone: args.timeZone ?? defaultValue(inputs.shape.timeZone),
        dayOfWeek: args.dayOfWeek === undefined ? undefined : String(args.dayOfWeek),
        dayOfMonth: args.dayOfMonth === undefined ? undefined : String(args.dayOfMonth),
        maximumSnapshots: args.maximumSnapshots === undefined ? undefined : String(args.maximumSnapshots),
      },
      { verify: ctx.findCreated },
    );
    return { id: policy.uuid };
  },
  // Import: the policy list is per volume: the volume, among those of each zone, whose list holds it.
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, async (zoneUuid) => {
      for (const volume of await ctx.client.volume.list({ zoneUuid })) {
        if (await getPolicy(ctx, volume.uuid, id)) return volume.uuid;
      }
      return undefined;
    });
    return hit && { volumeUuid: hit.found };
  },
  read: async (ctx, id, state) => {
    const policy = await getPolicy(ctx, state.volumeUuid, id);
    if (!policy) return undefined;
    return {
      inputs: {
        volumeUuid: policy.volumeUuid,
        intervalType: policy.intervalType as (typeof INTERVAL_TYPES)[number],
        scheduleTime: policy.scheduleTime,
        dayOfWeek: whole(policy.dayOfWeek),
        dayOfMonth: whole(policy.dayOfMonth),
        timeZone: policy.timeZone,
        maximumSnapshots: whole(policy.maximumSnapshots),
      },
      outputs: { uuid: policy.uuid, status: policy.status, isActive: policy.isActive },
    };
  },
  record: recordLookup("snapshot policy", (ctx, id, state: { volumeUuid: string }) =>
    getPolicy(ctx, state.volumeUuid, id),
  ),
  async *delete(ctx, id, state) {
    if (!(await getPolicy(ctx, state.volumeUuid, id))) return;
    await ctx.client.snapshotPolicy.delete({ uuid: id });
    yield gone();
  },
});
