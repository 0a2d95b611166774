// Waiters: poll until a condition holds, at a steady pace (100 ms by default; with shared reads, polls of a kind leave
// together), with a timeout per call, progress, and an error naming what was awaited and the last state seen. The poll
// is injected, so that waiters of one kind share list calls.
import { backoffDelay, sleep as realSleep } from "./backoff";
import { asPoll } from "./coalesce";
import { ApiError, JobFailedError, WaitTimeoutError, excerpt, isNotFound } from "./errors";
import { currentScope, deadlineError, enterActivity, outageText, remainingMs } from "./scope";
import type { AsyncJob } from "./operations/jobs";

export interface WaitProgress<T> {
  awaited: string;
  polls: number;
  elapsedMs: number;
  /** The last value polled (undefined: absent, or the poll failed transiently). */
  last: T | undefined;
  /** The last state, described. */
  state: string;
}

export interface WaitOptions<T> {
  /** Overall limit (default: the operation's remaining time inside one, else 10 minutes, as public clients of this API use). */
  timeoutMs?: number;
  /** From the start of the first poll to the second (default 100 ms); the first poll is immediate. */
  initialDelayMs?: number;
  /** Cap of the time between polls (default: initialDelayMs, a steady pace). */
  maxDelayMs?: number;
  /** Growth of the time between polls, per poll (default 1; with a larger maxDelayMs, a backoff). */
  factor?: number;
  /**
   * How the time between polls passes (default: a sleep). It may end early: a job's wait watches
   * the job's record meanwhile and reads the job as soon as the record changes.
   */
  pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Whether polls after the first leave on the shared reads' common tick, to meet other waiters'
   * (default true). A job's status, read by its own id, has no other waiter to meet.
   */
  onCommonTick?: boolean;
  /** Called after every poll. */
  onProgress?: (progress: WaitProgress<T>) => void;
  /** How a polled value reads in progress reports and the timeout error (default: its state/status). */
  describe?: (value: T | undefined) => string;
  signal?: AbortSignal;
  /** Injectable time, for tests. */
  clock?: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
}

export const DEFAULT_WAIT = { timeoutMs: 600_000, initialDelayMs: 100, factor: 1 } as const;

/** A record's lifecycle fields that have a value (an empty errorCode says nothing), never its other values (which may hold secrets). */
export function describeState(value: unknown): string {
  if (value === undefined || value === null) return "absent";
  if (typeof value !== "object") return excerpt(String(value), 100);
  const fields = value as Record<string, unknown>;
  const parts = ["state", "status", "isActive", "errorCode", "errorMessage"]
    .filter((key) => fields[key] !== undefined && fields[key] !== null && fields[key] !== "")
    .map((key) => `${key}=${excerpt(String(fields[key]), 100)}`);
  return parts.length > 0 ? parts.join(" ") : "present";
}

const realClock = { now: () => Date.now(), sleep: realSleep };

/**
 * The core loop: poll until `done(value)`; a retryable ApiError counts as a poll that saw nothing new (the transport
 * already retried it), any other error ends the wait. Inside an operation's scope (scope.ts) the wait is one of its
 * activities and ends at its deadline at the latest, with its OperationTimeoutError; a timeout error names the outage
 * when the API was not answering.
 */
export async function pollUntil<T>(
  awaited: string,
  poll: () => Promise<T | undefined>,
  done: (value: T | undefined) => boolean,
  options: WaitOptions<T> = {},
): Promise<T | undefined> {
  const clock = options.clock ?? realClock;
  const scope = currentScope();
  // Inside an operation, a wait given no limit of its own may take the operation's remaining time.
  const timeoutMs = options.timeoutMs ?? (scope ? Number.POSITIVE_INFINITY : DEFAULT_WAIT.timeoutMs);
  const describe = options.describe ?? describeState;
  const initialMs = options.initialDelayMs ?? DEFAULT_WAIT.initialDelayMs;
  const policy = { initialMs, maxMs: options.maxDelayMs ?? initialMs, factor: options.factor ?? DEFAULT_WAIT.factor };
  const pause = options.pause ?? ((ms: number, signal?: AbortSignal) => clock.sleep(ms, signal));
  const started = clock.now();
  let state = "not polled yet";
  // The operation's deadline bounds the wait too; which of the two ends it decides the error.
  const byScope = scope !== undefined && remainingMs(scope) < timeoutMs;
  const budgetMs = scope && byScope ? Math.max(0, remainingMs(scope)) : timeoutMs;
  const named = enterActivity(scope, `waiting for ${awaited}`);
  try {
    for (let polls = 1; ; polls++) {
      if (scope?.signal?.aborted) throw scope.signal.reason;
      const polledAt = clock.now();
      let value: T | undefined;
      let settled = false;
      try {
        value = await (polls > 1 && options.onCommonTick !== false ? asPoll(poll) : poll());
        state = describe(value);
        settled = done(value);
      } catch (error) {
        if (!(error instanceof ApiError) || !error.retryable) throw error;
        state = `poll failed: ${error.errorCode}`;
      }
      const elapsedMs = clock.now() - started;
      if (named) named.activity.state = state;
      options.onProgress?.({ awaited, polls, elapsedMs, last: value, state });
      if (settled) return value;
      const remaining = budgetMs - elapsedMs;
      if (remaining <= 0) {
        if (scope && byScope) throw deadlineError(scope, { ...(named ? { activity: named.activity } : {}) });
        throw new WaitTimeoutError(awaited, state, elapsedMs, polls, scope && outageText(scope));
      }
      const signals = [options.signal, scope?.signal].filter((x): x is AbortSignal => x !== undefined);
      // The pace runs from the start of a poll: a slow answer does not slow the next one down.
      const untilNext = backoffDelay(polls - 1, policy) - (clock.now() - polledAt);
      await pause(
        Math.max(0, Math.min(untilNext, remaining)),
        signals.length > 1 ? AbortSignal.any(signals) : signals[0],
      );
    }
  } finally {
    named?.leave();
  }
}

/** Until the polled record exists and satisfies `until` (e.g. a state); answers that record. */
export async function waitFor<T>(
  spec: { awaited: string; poll: () => Promise<T | undefined>; until: (value: T) => boolean },
  options: WaitOptions<NoInfer<T>> = {},
): Promise<T> {
  const value = await pollUntil(spec.awaited, spec.poll, (v) => v !== undefined && spec.until(v), options);
  return value as T;
}

const sameValue = (actual: unknown, expected: unknown): boolean =>
  typeof expected === "object" && expected !== null
    ? JSON.stringify(actual) === JSON.stringify(expected)
    : actual === expected || (actual !== undefined && actual !== null && String(actual) === String(expected));

/** Until an update is visible: every field of `expected` reads back equal (scalars compared as text). */
export async function waitForVisible<T extends object>(
  spec: { awaited: string; poll: () => Promise<T | undefined>; expected: Partial<T> },
  options: WaitOptions<NoInfer<T>> = {},
): Promise<T> {
  const entries = Object.entries(spec.expected).filter(([, value]) => value !== undefined);
  const describe =
    options.describe ??
    ((value: T | undefined) =>
      value === undefined
        ? "absent"
        : entries
            .filter(([key, want]) => !sameValue((value as Record<string, unknown>)[key], want))
            .map(([key]) => `${key} not yet updated`)
            .join(", ") || "updated");
  return waitFor(
    {
      awaited: spec.awaited,
      poll: spec.poll,
      until: (value) => entries.every(([key, want]) => sameValue((value as Record<string, unknown>)[key], want)),
    },
    { ...options, describe },
  );
}

/** Until the record is gone: the poll answers undefined, or a 404. */
export async function waitForGone<T>(
  spec: { awaited: string; poll: () => Promise<T | undefined> },
  options: WaitOptions<NoInfer<T>> = {},
): Promise<void> {
  const poll = async (): Promise<T | undefined> => {
    try {
      return await spec.poll();
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  };
  await pollUntil(spec.awaited, poll, (value) => value === undefined, {
    ...options,
    describe:
      options.describe ?? ((value) => (value === undefined ? "gone" : `still listed (${describeState(value)})`)),
  });
}

/**
 * IN_PROGRESS -> SUCCEEDED | FAILED; some deployments answer PENDING -> COMPLETE | FAILED
 * (api-notes.md). Any status in neither set (IN_PROGRESS, PENDING, ...) means the job still runs.
 */
export const JOB_SUCCEEDED: ReadonlySet<string> = new Set(["SUCCEEDED", "COMPLETE", "COMPLETED", "SUCCESS"]);
export const JOB_FAILED: ReadonlySet<string> = new Set(["FAILED", "FAILURE", "ERROR"]);

/** Until the job is finished: answers the job when it SUCCEEDED, throws a JobFailedError when it FAILED. */
export async function waitForJob(
  spec: { jobId: string; poll: (jobId: string) => Promise<AsyncJob | undefined> },
  options: WaitOptions<AsyncJob> = {},
): Promise<AsyncJob> {
  const finished = (job: AsyncJob): boolean => {
    const status = (job.status ?? "").toUpperCase();
    return JOB_SUCCEEDED.has(status) || JOB_FAILED.has(status);
  };
  const job = await waitFor(
    { awaited: `job ${spec.jobId} to finish`, poll: () => spec.poll(spec.jobId), until: finished },
    options,
  );
  if (JOB_FAILED.has((job.status ?? "").toUpperCase())) {
    throw new JobFailedError(
      spec.jobId,
      job.resourceId ?? undefined,
      // An empty errorCode/errorMessage (deployments answer "" rather than null) says nothing either.
      job.errorCode || "JOB_FAILED",
      job.errorMessage || "no error message",
    );
  }
  return job;
}
