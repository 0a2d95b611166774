// What a declaration waits for, as values; the engine does the waiting. A declaration names its record's
// `RecordLookup`; its procedures are async functions or generators yielding `Wait`s in order (`yield showing(change)`),
// each answered with the record it ended on. `runProcedure` polls through the waiters within the operation's timeout.
import type { WaitOptions } from "../client/waiters";
import { sleep } from "../client/backoff";
import { asPoll } from "../client/coalesce";
import { pollUntil, waitFor, waitForGone, waitForVisible } from "../client/waiters";
import type { OperationContext } from "./context";

/** Where a kind's live record is found: every wait of the kind polls it. */
export interface RecordLookup<R> {
  /** How waits name the record: "VPC" (waiting for VPC 1234 to show the update). */
  readonly noun: string;
  /** The record, or undefined when it is gone. `state` holds the arguments and outputs known. */
  find(ctx: OperationContext, id: string, state: Record<string, unknown>): Promise<R | undefined>;
}

/**
 * Declares a kind's lookup; its type gives the waits of the declaration their record type. The
 * first lookup after a wait of the same operation is answered with the record the wait ended on,
 * unless a change was sent since (the read that follows a wait is on the way to the dependants).
 */
export function recordLookup<R, S extends object = Record<string, unknown>>(
  noun: string,
  find: (ctx: OperationContext, id: string, state: S) => Promise<R | undefined>,
): RecordLookup<R> {
  return {
    noun,
    find: (ctx, id, state) => {
      const seen = takeLastSeen(ctx, noun, id);
      return seen ? Promise.resolve(seen.record as R) : find(ctx, id, state as S);
    },
  };
}

function rememberLastSeen(ctx: OperationContext, noun: string, id: string, record: unknown): void {
  const changes = ctx.client.sharedReads?.changesSoFar;
  if (ctx.lastSeen && changes !== undefined && record !== undefined)
    ctx.lastSeen.set(`${noun} ${id}`, { record: structuredClone(record), changes });
}

function takeLastSeen(ctx: OperationContext, noun: string, id: string): { record: unknown } | undefined {
  const key = `${noun} ${id}`;
  const seen = ctx.lastSeen?.get(key);
  if (!seen) return undefined;
  ctx.lastSeen!.delete(key);
  return seen.changes === ctx.client.sharedReads?.changesSoFar ? { record: seen.record } : undefined;
}

/** Until every field of `expected` reads back as sent (an update is visible only after a while). */
export interface ShowingWait<R> {
  readonly kind: "showing";
  readonly expected: Partial<R>;
  readonly what: string;
}
/** Until the record meets a condition (with `orGone`, or is gone). */
export interface UntilWait<R> {
  readonly kind: "until";
  readonly holds: (record: R) => boolean;
  readonly what: string;
  readonly orGone?: boolean;
}
/** Until an asynchronous job finishes: its id, or where the record names it. */
export interface JobWait<R> {
  readonly kind: "job";
  readonly jobId: string | undefined | ((record: R) => string | undefined);
}
/** Until the record is gone. */
export interface GoneWait {
  readonly kind: "gone";
  readonly what: string;
}

/** A wait a procedure yields. The engine answers each with the record it ended on (undefined: gone, or a job). */
export type Wait<R> = ShowingWait<R> | UntilWait<R> | JobWait<R> | GoneWait;

/**
 * What an update step declares it awaits, for the docs ("updateVpc (awaited until visible)"); the
 * engine refuses a step that yields a wait of a kind it did not declare, so the docs stay true.
 */
export type AwaitedKind = "visible" | "state" | "job" | "gone";

const KIND_OF_WAIT: Record<Wait<unknown>["kind"], AwaitedKind> = {
  showing: "visible",
  until: "state",
  job: "job",
  gone: "gone",
};

/** How the docs say a step waits: "awaited until visible", "job awaited". */
export const AWAITED_TEXT: Record<AwaitedKind, string> = {
  visible: "awaited until visible",
  state: "awaited until its state settles",
  job: "job awaited",
  gone: "awaited until gone",
};

/** Until every field of `expected` reads back as sent (an update is visible only after a while). */
export function showing<R>(expected: Partial<R>, what = "to show the update"): ShowingWait<R> {
  return { kind: "showing", expected, what };
}

/** Until the record meets a condition: `until("to be Running", (vm) => vm.state === "Running")`. */
export function until<R>(what: string, holds: (record: R) => boolean): UntilWait<R> {
  return { kind: "until", what, holds };
}

/** Like `until`, but the record being gone also ends the wait (answered undefined). */
export function untilOrGone<R>(what: string, holds: (record: R) => boolean): UntilWait<R> {
  return { kind: "until", what, holds, orGone: true };
}

/**
 * Until the asynchronous job finishes; a failed job fails the operation. The id, or where the record
 * names it (the job still running on it). No job id: nothing to await.
 */
export function job<R>(jobId: string | undefined | ((record: R) => string | undefined)): JobWait<R> {
  return { kind: "job", jobId };
}

/** Until the record is gone from its lookup (or the lookup answers 404). */
export function gone(what = "to be deleted"): GoneWait {
  return { kind: "gone", what };
}

/**
 * A create's follow-up, an update step or a delete: an async function (nothing to wait for), or an
 * async generator yielding its waits, each answered with the record (undefined once gone). The
 * answer's type is the procedure's to state (`(yield until(...)) as Vm`): TypeScript cannot infer it
 * from the declaration the procedure sits in.
 */
export type Procedure<R> = Promise<void> | AsyncGenerator<Wait<R>, void, unknown>;

/**
 * Waits that honour the operation's timeout (customTimeouts), read at the client's pace
 * (`restcloud:pollInterval`) and report progress every few polls.
 */
export function waitOptions<T>(ctx: OperationContext): WaitOptions<T> {
  return {
    timeoutMs: ctx.timeoutMs,
    initialDelayMs: ctx.client.pollIntervalMs,
    onProgress: (p) => {
      if (p.polls % 5 === 0)
        ctx.progress(`waiting for ${p.awaited}: ${p.state} after ${Math.round(p.elapsedMs / 1000)}s`);
    },
  };
}

/** Runs one wait on the record `id` of a kind. */
export async function runWait<R>(
  ctx: OperationContext,
  lookup: RecordLookup<R> | undefined,
  id: string,
  state: Record<string, unknown>,
  wait: Wait<R>,
): Promise<R | undefined> {
  if (wait.kind === "job") {
    let jobId = wait.jobId;
    if (typeof jobId === "function") {
      const record = await lookup?.find(ctx, id, state);
      jobId = record === undefined ? undefined : jobId(record);
    }
    if (jobId !== undefined && jobId !== "") await waitForJobWatchingRecord(ctx, lookup, id, state, jobId);
    return undefined;
  }
  if (!lookup) throw new Error(`a wait (${wait.what}) needs the declaration's record lookup`);
  const awaited = `${lookup.noun} ${id} ${wait.what}`;
  const poll = () => lookup.find(ctx, id, state);
  let record: R | undefined;
  switch (wait.kind) {
    case "showing":
      record = (await waitForVisible(
        { awaited, poll: poll as () => Promise<object | undefined>, expected: wait.expected as Partial<object> },
        waitOptions(ctx),
      )) as R;
      break;
    case "until":
      record = wait.orGone
        ? await pollUntil(awaited, poll, (r) => r === undefined || wait.holds(r), waitOptions(ctx))
        : await waitFor({ awaited, poll, until: wait.holds }, waitOptions(ctx));
      break;
    case "gone":
      await waitForGone({ awaited, poll }, waitOptions(ctx));
      return undefined;
  }
  rememberLastSeen(ctx, lookup.noun, id, record);
  return record;
}

/** A job's status is read at least this often, whatever its record shows. */
const JOB_READS = { initialDelayMs: 500, maxDelayMs: 5000, factor: 2 } as const;

/**
 * Until the job finishes. A job's status is one request per job, but its record is read through its
 * kind's list, which every waiter of the kind shares (one request per tick). So the record is
 * watched at the waits' pace and the job read as soon as the record changes (the job's work shows on
 * it: a volume becomes Ready, an attachment names its instance), else on a backoff from 0.5 s to 5 s.
 */
async function waitForJobWatchingRecord<R>(
  ctx: OperationContext,
  lookup: RecordLookup<R> | undefined,
  id: string,
  state: Record<string, unknown>,
  jobId: string,
): Promise<void> {
  if (!lookup) {
    await ctx.client.waitForJob(jobId, waitOptions(ctx));
    return;
  }
  let seen: string | undefined;
  let lastRecord: R | undefined;
  let wokenByChange = false;
  const watchRecord = async (ms: number, signal?: AbortSignal): Promise<void> => {
    wokenByChange = false;
    const until = Date.now() + ms;
    for (;;) {
      const remaining = until - Date.now();
      if (remaining <= 0) return;
      const polledAt = Date.now();
      let now: string;
      try {
        lastRecord = await asPoll(() => lookup.find(ctx, id, state));
        now = JSON.stringify(lastRecord ?? null);
      } catch {
        // The record cannot tell: the job's own reads (and their error handling) decide.
        await sleep(Math.max(0, until - Date.now()), signal);
        return;
      }
      const changed = seen !== undefined && now !== seen;
      seen = now;
      if (changed) {
        wokenByChange = true;
        return;
      }
      await sleep(
        Math.max(0, Math.min(ctx.client.pollIntervalMs - (Date.now() - polledAt), until - Date.now())),
        signal,
      );
    }
  };
  await ctx.client.waitForJob(jobId, { ...waitOptions(ctx), ...JOB_READS, pause: watchRecord });
  // The job was read because its record changed: that record is the job's outcome.
  if (wokenByChange) rememberLastSeen(ctx, lookup.noun, id, lastRecord);
}

/** Drives a procedure: runs each wait it yields and answers it with the record the wait ended on. */
export async function runProcedure<R>(
  ctx: OperationContext,
  lookup: RecordLookup<R> | undefined,
  id: string,
  state: Record<string, unknown>,
  procedure: Procedure<R> | undefined,
  declared?: { readonly what: string; readonly awaits: readonly AwaitedKind[] },
): Promise<void> {
  if (procedure === undefined) return;
  if (!isGenerator(procedure)) {
    await procedure;
    return;
  }
  let step = await procedure.next();
  while (!step.done) {
    const kind = KIND_OF_WAIT[step.value.kind];
    if (declared && !declared.awaits.includes(kind)) {
      await procedure.return();
      throw new Error(`${declared.what} yields a wait (${kind}) its declaration does not list in awaits`);
    }
    let record: R | undefined;
    try {
      record = await runWait(ctx, lookup, id, state, step.value);
    } catch (error) {
      // The procedure may clean up (finally) or handle the failure; it rethrows if it does not.
      step = await procedure.throw(error);
      continue;
    }
    step = await procedure.next(record);
  }
}

function isGenerator<R>(value: Procedure<R>): value is AsyncGenerator<Wait<R>, void, unknown> {
  return typeof (value as AsyncGenerator<Wait<R>>)[Symbol.asyncIterator] === "function";
}

/** A declaration's delete with its waits (for callers outside the engine: `restcloud discover --delete`). */
export function deleteWithWaits(
  declaration: {
    readonly record?: RecordLookup<unknown>;
    delete(ctx: OperationContext, id: string, state: never): Procedure<unknown>;
  },
  ctx: OperationContext,
  id: string,
  state: Record<string, unknown>,
): Promise<void> {
  return runProcedure(ctx, declaration.record, id, state, declaration.delete(ctx, id, state as never));
}
