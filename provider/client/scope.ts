// The operation a call belongs to (engine/operation.ts opens one per create, read, update, delete): its resource,
// timeout and deadline, activity and the API's health. Inside one, a call the API does not answer is retried until the
// deadline rather than for a number of attempts, and fails with an OperationTimeoutError built here.
import type { AsyncLocalStorage } from "node:async_hooks";
import { OperationTimeoutError, type ApiError } from "./errors";
import { describeOutage, type ApiHealth } from "./health";

/** Something the operation does now: a wait, a call, the check of an ambiguous call. */
export interface Activity {
  /** `waiting for instance 1234 to be Running`, `calling createVm`. */
  readonly what: string;
  /** When it began (the scope's clock). */
  readonly since: number;
  /** The last state seen (waits). */
  state?: string;
}

export interface CallScope {
  /** The resource: `restcloud:Instance web-1`. */
  readonly subject: string;
  /** The timeout that bounds the operation: "create", "update" or "delete". */
  readonly timeoutName: string;
  readonly timeoutMs: number;
  /** When the operation began and when its timeout runs out (the scope's clock, epoch ms). */
  readonly started: number;
  /** Moved to now when the operation is cancelled (Ctrl-C): every retry and wait bound by it ends. */
  deadline: number;
  /** Aborted when the operation is cancelled: sleeps of waits and retries wake at once. */
  readonly signal?: AbortSignal;
  /** The API's health, when known. */
  readonly health?: ApiHealth;
  /**
   * Set for reads of the recorded state (refresh, import): how old a list of a record's kind may be
   * for the record to be read from it (coalesce.ts), if the client has changed nothing since.
   */
  readonly recentListsMs?: number;
  /** What the operation does now, innermost last. */
  readonly activities: Activity[];
  /** The scope's clock (Date.now; tests inject theirs). */
  now(): number;
}

/**
 * An AsyncLocalStorage made on first use: the client is in the release plugin's startup snapshot (native-plugin.ts),
 * where Node.js has not verified node:async_hooks, so the module loads at run time.
 */
export function asyncStorage<T>(): () => AsyncLocalStorage<T> {
  let storage: AsyncLocalStorage<T> | undefined;
  return () => (storage ??= new (process.getBuiltinModule("node:async_hooks").AsyncLocalStorage)<T>());
}

const scopes = asyncStorage<CallScope>();

/** The scope the current call runs in, if any. */
export function currentScope(): CallScope | undefined {
  return scopes().getStore();
}

/** Runs `fn` inside `scope`; with undefined, outside any scope. */
export function runInScope<T>(scope: CallScope | undefined, fn: () => T): T {
  return scope ? scopes().run(scope, fn) : scopes().exit(fn);
}

/** The time left until the scope's deadline (ms, negative once past). */
export function remainingMs(scope: CallScope): number {
  return scope.deadline - scope.now();
}

/** What the operation is doing now (the innermost activity), if anything. */
export function currentActivity(scope: CallScope): Activity | undefined {
  return scope.activities[scope.activities.length - 1];
}

/**
 * Runs `fn` as an activity of the current scope (if any), removed when it ends. `outermost`: only
 * when the scope is doing nothing else yet (a call inside a wait is described by the wait).
 */
export async function withActivity<T>(
  what: string,
  fn: (activity: Activity | undefined) => Promise<T>,
  options: { outermost?: boolean } = {},
): Promise<T> {
  const entered = enterActivity(currentScope(), what, options);
  try {
    return await fn(entered?.activity);
  } finally {
    entered?.leave();
  }
}

/** `withActivity` in two steps, for code that learns only half-way that it is doing something worth naming. */
export function enterActivity(
  scope: CallScope | undefined,
  what: string,
  options: { outermost?: boolean } = {},
): { activity: Activity; leave(): void } | undefined {
  if (!scope || (options.outermost && scope.activities.length > 0)) return undefined;
  const activity: Activity = { what, since: scope.now() };
  scope.activities.push(activity);
  return {
    activity,
    leave: () => {
      const at = scope.activities.lastIndexOf(activity);
      if (at >= 0) scope.activities.splice(at, 1);
    },
  };
}

/** What a wait or retry cut short by a cancellation (Ctrl-C, the engine's Cancel) fails with. */
export class OperationCancelledError extends Error {
  constructor(subject: string, doing: string | undefined) {
    super(`${subject}: cancelled${doing ? ` while ${doing}` : ""}`);
    this.name = "OperationCancelledError";
  }
}

/** The outage, described, if the API is not answering now. */
export function outageText(scope: CallScope): string | undefined {
  const outage = scope.health?.snapshot().outage;
  return outage ? describeOutage(outage, scope.now()) : undefined;
}

/** The error of an operation whose timeout ran out while it did `activity` (default: its current one). */
export function deadlineError(
  scope: CallScope,
  options: { cause?: ApiError; activity?: Activity; doing?: string } = {},
): OperationTimeoutError {
  const activity = options.activity ?? currentActivity(scope);
  const doing = options.doing ?? activity?.what ?? (options.cause ? `calling ${options.cause.operation}` : "working");
  return new OperationTimeoutError({
    subject: scope.subject,
    timeoutName: scope.timeoutName,
    timeoutMs: scope.timeoutMs,
    doing,
    ...(activity?.state !== undefined ? { lastState: activity.state } : {}),
    elapsedMs: scope.now() - scope.started,
    ...(outageText(scope) !== undefined ? { outage: outageText(scope) } : {}),
    ...(options.cause ? { cause: options.cause } : {}),
  });
}
