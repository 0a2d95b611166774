// Recurring snapshot policies of a volume: one per interval type and volume. The schedule is validated and recorded;
// the emulator takes no snapshots on its own.
import type { AccountScope, EmulatorContext } from "../core";
import { SNAPSHOT_POLICIES, type SnapshotPolicyRecord } from "./collections";
import { badInput, conflict, missing } from "../core";
import { filterRecords } from "./records";
import { requireRecord } from "../references";
import { requireVolume } from "./volume";

export const INTERVAL_TYPES = ["HOURLY", "DAILY", "WEEKLY", "MONTHLY"] as const;
export type IntervalType = (typeof INTERVAL_TYPES)[number];

/** Kept snapshots when the caller does not say. */
export const DEFAULT_MAXIMUM_SNAPSHOTS = 8;

export interface SnapshotPolicyInput {
  volumeUuid: string;
  intervalType: IntervalType;
  timer: string;
  timeZone: string;
  dayOfWeek?: number;
  dayOfMonth?: number;
  maximumSnapshots?: number;
}

/** HOURLY: the minute of the hour (0-59); otherwise the time of day, HH:MM. */
function requireTimer(intervalType: IntervalType, timer: string): void {
  if (intervalType === "HOURLY") {
    if (!/^\d{1,2}$/.test(timer) || Number(timer) > 59)
      throw badInput("timer", "must be a minute from 0 to 59 for HOURLY");
    return;
  }
  const match = /^(\d{1,2}):(\d{2})$/.exec(timer);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) {
    throw badInput("timer", `must be a time of day HH:MM (00:00 to 23:59) for ${intervalType}`);
  }
}

/** An IANA zone (Europe/Berlin) or a fixed offset of the form Etc/GMT+12. */
function requireTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
  } catch {
    throw badInput("timeZone", "must be a time zone such as Etc/GMT+12 or Europe/Berlin");
  }
}

export function createSnapshotPolicy(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: SnapshotPolicyInput,
): SnapshotPolicyRecord {
  requireVolume(scope, input.volumeUuid);
  requireTimer(input.intervalType, input.timer);
  requireTimeZone(input.timeZone);
  if (input.intervalType === "WEEKLY") {
    if (input.dayOfWeek === undefined) throw missing("dayOfWeek");
    if (input.dayOfWeek < 1 || input.dayOfWeek > 7) throw badInput("dayOfWeek", "must be from 1 (Sunday) to 7");
  }
  if (input.intervalType === "MONTHLY") {
    if (input.dayOfMonth === undefined) throw missing("dayOfMonth");
    if (input.dayOfMonth < 1 || input.dayOfMonth > 28) throw badInput("dayOfMonth", "must be from 1 to 28");
  }
  const maximumSnapshots = input.maximumSnapshots ?? DEFAULT_MAXIMUM_SNAPSHOTS;
  if (maximumSnapshots < 1) throw badInput("maximumSnapshots", "must be a positive integer");
  const existing = filterRecords(scope, SNAPSHOT_POLICIES, {
    volumeUuid: input.volumeUuid,
    intervalType: input.intervalType,
  });
  if (existing.length) {
    throw conflict(
      `volume ${input.volumeUuid} already has a ${input.intervalType} snapshot policy (${existing[0].uuid})`,
    );
  }

  const policy: SnapshotPolicyRecord = {
    uuid: ctx.newUuid(),
    volumeUuid: input.volumeUuid,
    intervalType: input.intervalType,
    scheduleTime: input.timer,
    // Only the field of its interval type means something; the others are empty.
    dayOfWeek: input.intervalType === "WEEKLY" ? String(input.dayOfWeek) : "",
    dayOfMonth: input.intervalType === "MONTHLY" ? String(input.dayOfMonth) : "",
    timeZone: input.timeZone,
    maximumSnapshots: String(maximumSnapshots),
    status: "Active",
    isActive: true,
  };
  scope.collection(SNAPSHOT_POLICIES)[policy.uuid] = policy;
  scope.changed();
  return policy;
}

/** The policies of a volume; none for a volume that does not exist (any more). */
export function listSnapshotPolicies(
  scope: AccountScope,
  filters: { volumeUuid: string; uuid?: string },
): SnapshotPolicyRecord[] {
  return filterRecords(scope, SNAPSHOT_POLICIES, filters);
}

export function deleteSnapshotPolicy(scope: AccountScope, uuid: string): void {
  requireRecord(scope, SNAPSHOT_POLICIES, "snapshot policy", uuid);
  scope.remove(SNAPSHOT_POLICIES, uuid);
  scope.changed();
}
