// Shared reads: concurrent reads one request can answer share it (same input within a short window; uuid-filtered lists
// served by one scope-wide list, of which only the records asked are parsed; polls aligned on a common tick). A call
// joins only an unsent request, so a read after a write sees it. Answers are copied per caller; each caller keeps its
// own operation's deadline (scope.ts).
import type { SharedReadsOptions } from "./config";
import type { AnyOperation } from "./operations/define";
import { OperationTimeoutError } from "./errors";
import {
  asyncStorage,
  currentScope,
  deadlineError,
  outageText,
  remainingMs,
  runInScope,
  type CallScope,
} from "./scope";

/** How long a batch stays open for more calls before its request leaves. */
export const DEFAULT_SHARE_WINDOW_MS = 15;
/** The common clock of polls when the client names none: a repeated read leaves on the next multiple of this. */
export const DEFAULT_POLL_TICK_MS = 100;
/** How long the time of a read is kept, to tell how soon a poll repeats it. */
const POLL_MEMORY_MS = 30_000;

/**
 * Per list operation, the input that filters by the record's own uuid: calls that differ only by
 * it are served by one unfiltered list. Not here: `listCluster` (some deployments answer only the
 * first cluster of an unfiltered list), `internalLbList` (its records carry no uuid to filter on).
 */
export const UUID_FILTERS: Readonly<Record<string, string>> = {
  vpcList: "uuid",
  networkList: "uuid",
  instanceList: "vmUuid",
  volumeList: "uuid",
  vmsnapshotList: "uuid",
  snapshotList: "uuid",
  snapshotPolicyList: "uuid",
  firewallRuleList: "uuid",
  egressRuleList: "uuid",
  portForwardingRuleList: "uuid",
  loadBalancerRuleList: "uuid",
  vpnConnectionList: "uuid",
  vpnCustomerGatewayList: "uuid",
  securityList: "uuid",
  resourceTagsList: "uuid",
};

/**
 * Inputs that filter a list by another field of its records, shared the same way: the tags of one
 * record (`resourceUuid`), which a refresh of many tagged resources reads at once.
 */
export const FIELD_FILTERS: Readonly<Record<string, { readonly input: string; readonly field: string }>> = {
  resourceTagsList: { input: "resourceUuid", field: "resourceUuid" },
};

/** Records of a list whose field has this value (compared as text): a filter applied here, the service has no input for it. */
export interface RecordWhere {
  field: string;
  value: string;
}

/** What a call filters on: the field of the records it matches and the value; the input that asks it of the service, if any. */
interface RecordFilter extends RecordWhere {
  input?: string;
}

/** The filter of a call: its uuid filter, else its field filter, when given as a string. */
function filterOf(operation: string, values: Record<string, unknown>): RecordFilter | undefined {
  const uuidInput = UUID_FILTERS[operation];
  if (uuidInput !== undefined && typeof values[uuidInput] === "string")
    return { input: uuidInput, field: "uuid", value: values[uuidInput] as string };
  const byField = FIELD_FILTERS[operation];
  if (byField !== undefined && typeof values[byField.input] === "string")
    return { ...byField, value: values[byField.input] as string };
  return undefined;
}

/** The records of a list answer that a filter keeps. */
export const kept = (answer: unknown[], filter: RecordWhere): unknown[] =>
  answer.filter(
    (record) =>
      record !== null &&
      typeof record === "object" &&
      (record as Record<string, unknown>)[filter.field] === filter.value,
  );

const polling = asyncStorage<true>();

/** Runs a waiter's poll: the reads it makes leave on the common tick, with every other waiter's. */
export function asPoll<T>(read: () => Promise<T>): Promise<T> {
  return polling().run(true, read);
}

/** Which raw records of a list a call wants. */
export type RecordKeeper = (record: Record<string, unknown>) => boolean;

/**
 * Sends one read with validated inputs (the caller's own path: retries, parsing); of a list, only the
 * records `keep` wants are parsed and answered.
 */
export type ReadSender = (
  operation: AnyOperation,
  values: Record<string, unknown>,
  keep?: RecordKeeper,
) => Promise<unknown>;

/**
 * The raw records any of `filters` may keep: a raw field may be a number or boolean (the parse makes it text), and a
 * record without the field (spelt otherwise by some deployment) is parsed too; each caller's filter then picks from
 * the parsed.
 */
export function keeperOf(filters: readonly RecordWhere[]): RecordKeeper {
  const wanted = new Map<string, Set<string>>();
  for (const { field, value } of filters) {
    let values = wanted.get(field);
    if (!values) wanted.set(field, (values = new Set()));
    values.add(value);
  }
  const fields = [...wanted];
  return (record) =>
    fields.some(([field, values]) => {
      const value = record[field];
      if (value === undefined || value === null) return true;
      return (
        (typeof value === "string" || typeof value === "number" || typeof value === "boolean") &&
        values.has(String(value))
      );
    });
}

interface Caller {
  /** What this caller filters on (a record's uuid, a tag's record); undefined: it wants the whole answer. */
  filter: RecordFilter | undefined;
  /** The operation the call belongs to, if any. */
  scope: CallScope | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A whole-scope list answer, kept for reads of the recorded state. */
interface RecentList {
  answer: unknown[];
  /** When its request left (epoch ms). */
  sentAt: number;
  /** The count of changes sent or settled when it left; and whether one was under way then. */
  changes: number;
  changing: boolean;
}

interface Batch {
  operation: AnyOperation;
  /** The input every caller shares (its filter left out). */
  scope: Record<string, unknown>;
  callers: Caller[];
  /** When the request leaves (epoch ms), and the timer that sends it then. */
  dueAt: number;
  timer: NodeJS.Timeout;
  /** Due, and waiting for a free request slot: still open to callers, no longer rescheduled. */
  due?: boolean;
}

/** A stable text of an input object, whatever the order of its keys. */
const canonical = (values: Record<string, unknown>): string =>
  JSON.stringify(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export class SharedReads {
  private readonly open = new Map<string, Batch>();
  /** When each read (operation and full input) was last made, to tell polls from first reads. */
  private readonly lastRead = new Map<string, number>();
  private readonly windowMs: number;
  private readonly pollTickMs: number;
  /** The reads each operation that accepts recent lists has made: a repeated one is a poll. */
  private readonly readsOf = new WeakMap<CallScope, Set<string>>();
  /** Whole-scope list answers, by operation and scope (see RecentList). */
  private readonly recent = new Map<string, RecentList>();
  /** Changes (mutating requests) sent or settled so far, and those under way. */
  private changes = 0;
  private changing = 0;
  /** Calls made, requests sent, and calls answered by a recent list, for the debug log and tests. */
  readonly counts = { calls: 0, requests: 0, recent: 0 };

  constructor(
    private readonly send: ReadSender,
    options: SharedReadsOptions = {},
    private readonly log: (line: string) => void = () => undefined,
    /** Resolves once a request could leave at once (the transport's concurrency limit). */
    private readonly whenFree: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.windowMs = options.windowMs ?? DEFAULT_SHARE_WINDOW_MS;
    this.pollTickMs = options.pollTickMs ?? DEFAULT_POLL_TICK_MS;
  }

  /** Whether a call can be shared: a read, made without per-call options but `where`. */
  static shareable(operation: AnyOperation, options: object): boolean {
    return (
      !operation.mutating && Object.entries(options).every(([key, value]) => key === "where" || value === undefined)
    );
  }

  /** How many changes were sent or settled so far: an answer read before the count moved is still current. */
  get changesSoFar(): number {
    return this.changes;
  }

  /** A change is being sent: lists taken until it settles answer no later read. Returns its settling. */
  mutationStarted(): () => void {
    this.changes++;
    this.changing++;
    this.recent.clear();
    return () => {
      this.changes++;
      this.changing--;
      this.recent.clear();
    };
  }

  /**
   * A lone call keeps its uuid filter (one small request); several share the unfiltered list of the scope. A poll
   * (inside `asPoll`) leaves on the common tick, finer for a re-read made sooner; other reads after the window.
   * `where` (a filter the service cannot apply) narrows a call without one: only its records are parsed.
   */
  call(operation: AnyOperation, values: Record<string, unknown>, where?: RecordWhere): Promise<unknown> {
    this.counts.calls++;
    const filter: RecordFilter | undefined = filterOf(operation.name, values) ?? where;
    const scope =
      filter?.input === undefined
        ? values
        : Object.fromEntries(Object.entries(values).filter(([k]) => k !== filter.input));
    const key = `${operation.name} ${canonical(scope)}`;
    const readKey = `${operation.name} ${canonical(values)}`;
    const fromRecent = this.fromRecentList(key, readKey, filter);
    if (fromRecent) return fromRecent;
    const dueAt = this.dueAt(readKey);

    let batch = this.open.get(key);
    if (batch && !batch.due && dueAt < batch.dueAt) {
      // A first read joins a batch of polls: the whole batch leaves with it, sooner.
      clearTimeout(batch.timer);
      batch.dueAt = dueAt;
      batch.timer = this.schedule(key, batch);
    }
    if (!batch) {
      batch = { operation, scope, callers: [], dueAt, timer: undefined as unknown as NodeJS.Timeout };
      batch.timer = this.schedule(key, batch);
      this.open.set(key, batch);
    }
    const callers = batch.callers;
    const operationScope = currentScope();
    const answer = new Promise((resolve, reject) => callers.push({ filter, scope: operationScope, resolve, reject }));
    return operationScope ? untilDeadline(operationScope, answer) : answer;
  }

  /**
   * The answer from a recent whole-scope list (the records `filter` keeps, or all of them), when the
   * operation accepts one and has not made this read before (its polls always leave).
   */
  private fromRecentList(key: string, readKey: string, filter: RecordFilter | undefined): Promise<unknown> | undefined {
    const scope = currentScope();
    const maxAgeMs = scope?.recentListsMs;
    if (!scope || maxAgeMs === undefined) return undefined;
    let reads = this.readsOf.get(scope);
    if (!reads) this.readsOf.set(scope, (reads = new Set()));
    const repeated = reads.has(readKey);
    reads.add(readKey);
    const list = this.recent.get(key);
    if (repeated || !list || list.changing || list.changes !== this.changes || Date.now() - list.sentAt > maxAgeMs)
      return undefined;
    this.counts.recent++;
    const answer = filter === undefined ? list.answer : kept(list.answer, filter);
    return Promise.resolve(structuredClone(answer));
  }

  /** When a read made now should leave: after the window, or for a poll on the next tick. */
  private dueAt(readKey: string): number {
    const now = Date.now();
    const last = this.lastRead.get(readKey);
    this.lastRead.set(readKey, now);
    if (this.lastRead.size > 10_000) {
      for (const [k, at] of this.lastRead) if (now - at > POLL_MEMORY_MS) this.lastRead.delete(k);
    }
    const soon = now + this.windowMs;
    if (polling().getStore() !== true || this.pollTickMs <= 0) return soon;
    const tick = this.tickFor(last === undefined ? Number.POSITIVE_INFINITY : now - last);
    return Math.ceil(soon / tick) * tick;
  }

  /**
   * The tick of a poll made this long after its last read: the whole tick for a poll at the waits'
   * pace (timers fire a little early or late, hence the margin), finer for a re-read made sooner.
   */
  private tickFor(sinceLastMs: number): number {
    let tick = this.pollTickMs;
    while (tick / 2 >= this.windowMs && tick > 1.5 * sinceLastMs) tick /= 2;
    return tick;
  }

  private schedule(key: string, batch: Batch): NodeJS.Timeout {
    return setTimeout(
      () => {
        batch.due = true;
        void this.whenFree().then(() => {
          this.open.delete(key);
          return this.dispatch(batch);
        });
      },
      Math.max(0, batch.dueAt - Date.now()),
    );
  }

  private async dispatch(batch: Batch): Promise<void> {
    const { operation, scope, callers } = batch;
    const filters = new Set(callers.map((c) => (c.filter?.input ? `${c.filter.input} ${c.filter.value}` : "")));
    // Reads of the recorded state ask the whole scope: the list then answers the kind's next reads too.
    const keepList = callers.some((c) => c.scope?.recentListsMs !== undefined);
    // One filter the service applies, asked by every caller: send it. Otherwise the whole scope, filtered here.
    const first = callers[0]!.filter;
    const single = filters.size === 1 && !keepList && first?.input !== undefined ? first : undefined;
    const input = single?.input !== undefined ? { ...scope, [single.input]: single.value } : scope;
    // Callers that each want a few records of the scope's list: only those are parsed.
    const asked = callers.map((c) => c.filter);
    const keep =
      single === undefined && !keepList && asked.every((f) => f !== undefined)
        ? keeperOf(asked as RecordFilter[])
        : undefined;
    const sent = { sentAt: Date.now(), changes: this.changes, changing: this.changing > 0 };
    this.counts.requests++;
    if (callers.length > 1) this.log(`${operation.name}: one request serves ${callers.length} calls`);
    let answer: unknown;
    try {
      answer = await runInScope(sharedScope(callers), () => this.send(operation, input, keep));
    } catch (error) {
      for (const caller of callers)
        caller.reject(
          // A deadline that ran out is told in the words of each caller's own operation.
          error instanceof OperationTimeoutError && caller.scope
            ? deadlineError(caller.scope, error.details.cause ? { cause: error.details.cause } : {})
            : error,
        );
      return;
    }
    if (keepList && Array.isArray(answer))
      this.recent.set(`${operation.name} ${canonical(scope)}`, { answer: structuredClone(answer), ...sent });
    // Each caller its own copy; the last takes the answer itself, which no one else holds by then (a
    // copy fewer per shared request: the CPU and, with many callers of a long list, the memory).
    callers.forEach((caller, i) => {
      const mine =
        caller.filter !== undefined && single === undefined && Array.isArray(answer)
          ? kept(answer, caller.filter)
          : answer;
      caller.resolve(i < callers.length - 1 ? structuredClone(mine) : mine);
    });
  }
}

/**
 * The scope a shared request runs in: its callers' one scope, or, for callers of several operations,
 * one whose deadline is the latest of theirs (each caller still ends at its own: `untilDeadline`).
 */
function sharedScope(callers: readonly Caller[]): CallScope | undefined {
  const scopes = [...new Set(callers.map((c) => c.scope).filter((s): s is CallScope => s !== undefined))];
  if (scopes.length <= 1) return scopes[0];
  const latest = scopes.reduce((a, b) => (remainingMs(b) > remainingMs(a) ? b : a));
  return { ...latest, subject: `${scopes.length} operations`, activities: [] };
}

/**
 * The answer, or the operation's timeout error once its deadline has passed while the API does not
 * answer (a shared request may be retried longer, for a caller with a later deadline).
 */
function untilDeadline<T>(scope: CallScope, answer: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const check = (): void => {
      if (remainingMs(scope) <= 0 && outageText(scope) !== undefined) reject(deadlineError(scope));
      else timer = setTimeout(check, Math.max(1000, remainingMs(scope))).unref();
    };
    timer = setTimeout(check, Math.max(0, remainingMs(scope))).unref();
    answer.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
