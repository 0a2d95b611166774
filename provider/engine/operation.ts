// An operation on a resource (create, read, update, delete) as the engine runs it (`runOperation`): which resource,
// timeout, deadline and activity; the client reads it as its call scope (client/scope.ts). While operations run, a
// monitor checks the API's health each second and tells the user through `notify` (OperationMonitor).
import { clockTime, describeOutageBriefly, type ApiHealth, type HealthSnapshot } from "../client/health";
import { durationText } from "../client/errors";
import { currentActivity, OperationCancelledError, runInScope, type CallScope } from "../client/scope";

export type OperationAction = "create" | "read" | "update" | "delete";

/** What the user is told: a passing status, or a lasting warning or line; on a resource's row or the stack's. */
export interface Notice {
  kind: "status" | "warning" | "info";
  /** The resource's URN; undefined for the stack's row. */
  urn?: string;
  message: string;
}

/**
 * How old a list may be to answer a read of the recorded state (a refresh, an import): about the time
 * a refresh of a thousand resources takes to hand out its reads. A refresh is no atomic snapshot
 * anyway; what this process changed since is never read from such a list (coalesce.ts).
 */
export const RECENT_LISTS_MS = 10_000;

export interface OperationSpec {
  /** The resource's type (`Instance`), logical name and URN, and its id when it has one. */
  type: string;
  name?: string;
  urn?: string;
  id?: string;
  action: OperationAction;
  /** The timeout that bounds it (reads are bounded by the update timeout) and its length. */
  timeoutName: "create" | "update" | "delete";
  timeoutMs: number;
  /** The API's health (the client's), when there is a client. */
  health?: ApiHealth;
  /** Where notices go (the front end's); none: the operation runs silently. */
  notify?: (notice: Notice) => void;
  /** The clock (tests inject theirs). */
  now?: () => number;
}

/** `restcloud:Instance web-1` (the id stands in for a resource whose logical name is unknown). */
export function subjectOf(spec: Pick<OperationSpec, "type" | "name" | "id">): string {
  const who = spec.name ?? spec.id;
  return `restcloud:${spec.type}${who ? ` ${who}` : ""}`;
}

const DOING: Record<OperationAction, string> = {
  create: "creating",
  read: "reading",
  update: "updating",
  delete: "deleting",
};

const DONE: Record<OperationAction, string> = {
  create: "created",
  read: "read",
  update: "updated",
  delete: "deleted",
};

interface Tracked {
  spec: OperationSpec;
  scope: CallScope;
  cancel: AbortController;
  /** When its last status was shown, and whether that status was about an outage. */
  lastStatusAt?: number;
  showedOutage?: boolean;
}

export interface MonitorOptions {
  /** How often the monitor looks (default 1 s). */
  tickMs?: number;
  /** How long the API must not have answered before the user is told (default 3 s). */
  noticeAfterMs?: number;
  /** How often an operation's status is renewed (default 5 s; six times less often after a minute). */
  statusEveryMs?: number;
  /** How long an ordinary wait lasts before it shows a status (default 10 s). */
  longWaitMs?: number;
}

/**
 * Watches the operations in progress and tells the user through `notify`, never through Pulumi directly: once the API
 * has not answered for a few seconds, a passing status per operation (on its resource's row, else the stack's: since
 * when, the last error, what it waits on, until when it retries), renewed every few seconds; one lasting warning when
 * an outage begins and one line when the API answers again, for logs without the live display; and for an ordinary
 * long wait, what it awaits, the state seen and the time spent.
 */
export class OperationMonitor {
  private readonly active = new Set<Tracked>();
  /** Per API (its health), the outage announced to the user: when it began. */
  private readonly announced = new WeakMap<ApiHealth, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly options: Required<MonitorOptions>;

  constructor(options: MonitorOptions = {}) {
    this.options = { tickMs: 1000, noticeAfterMs: 3000, statusEveryMs: 5000, longWaitMs: 10_000, ...options };
  }

  /** Runs `run` as the operation `spec`, watched while it runs. */
  async run<T>(spec: OperationSpec, run: () => Promise<T>): Promise<T> {
    const now = spec.now ?? Date.now;
    const started = now();
    const cancel = new AbortController();
    const scope: CallScope = {
      subject: subjectOf(spec),
      signal: cancel.signal,
      timeoutName: spec.timeoutName,
      timeoutMs: spec.timeoutMs,
      started,
      deadline: started + spec.timeoutMs,
      ...(spec.health ? { health: spec.health } : {}),
      // A refresh reads every record of a stack: a list of their kind taken moments ago answers them all.
      ...(spec.action === "read" ? { recentListsMs: RECENT_LISTS_MS } : {}),
      activities: [],
      now,
    };
    const tracked: Tracked = { spec, scope, cancel };
    this.active.add(tracked);
    this.timer ??= setInterval(() => this.tick(), this.options.tickMs).unref();
    try {
      const result = await runInScope(scope, run);
      this.settled(tracked);
      return result;
    } finally {
      this.active.delete(tracked);
      // The API may have come back just as the operation ended: say so before going quiet.
      if (spec.health) this.announce(spec.health, [tracked], now());
      if (this.active.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }
  }

  /**
   * Cancels every operation in progress (the engine's Cancel, Ctrl-C): their deadlines move to now
   * and their waits wake at once, so a create that already has its id returns it (to be kept in
   * state, marked to finish) instead of leaving an orphan. Answers how many were cancelled.
   */
  cancelAll(): number {
    for (const { scope, cancel } of this.active) {
      scope.deadline = scope.now();
      cancel.abort(new OperationCancelledError(scope.subject, currentActivity(scope)?.what));
    }
    return this.active.size;
  }

  /** One look at every operation in progress (the timer calls it; tests call it with their clock). */
  tick(at?: number): void {
    const byApi = new Map<ApiHealth, Tracked[]>();
    for (const tracked of this.active) {
      const health = tracked.scope.health;
      if (health) byApi.set(health, [...(byApi.get(health) ?? []), tracked]);
    }
    for (const [health, operations] of byApi) this.announce(health, operations, at ?? operations[0]!.scope.now());
    for (const tracked of this.active) this.status(tracked, at ?? tracked.scope.now());
  }

  /** The lasting lines: an outage began (once it lasts `noticeAfterMs`), or it ended. */
  private announce(health: ApiHealth, operations: Tracked[], at: number): void {
    const notify = operations.find((o) => o.spec.notify)?.spec.notify;
    if (!notify) return;
    const snapshot = health.snapshot();
    const since = this.announced.get(health);
    if (since !== undefined && snapshot.outage?.since !== since) {
      this.announced.delete(health);
      const ended = snapshot.lastOutage?.since === since ? snapshot.lastOutage : undefined;
      notify({
        kind: "info",
        message:
          `restcloud: the API at ${snapshot.apiUrl} answered again` +
          (ended
            ? ` at ${clockTime(ended.until)}, after ${durationText(ended.until - ended.since)} without an answer`
            : ""),
      });
    }
    const outage = noticed(snapshot, at, this.options.noticeAfterMs);
    if (outage && !this.announced.has(health)) {
      this.announced.set(health, outage.since);
      const waiting = [...this.active]
        .filter((o) => o.scope.health === health)
        .map((o) => `${o.scope.subject} (${o.spec.action})`);
      // A lasting line: no "for 3s" that would read as stale while the outage goes on.
      notify({
        kind: "warning",
        message:
          `restcloud: API not answering since ${clockTime(outage.since)} (${outage.lastError}), at ${snapshot.apiUrl}` +
          (waiting.length > 0 ? `; waiting on it: ${waiting.join(", ")}` : "") +
          ". Each operation keeps trying until its timeout runs out (customTimeouts lengthens it).",
      });
    }
  }

  /**
   * An operation that showed an outage and then succeeded (before the next look): its row would
   * keep the outage as its last word; say the API came back.
   */
  private settled(tracked: Tracked): void {
    const { spec, scope } = tracked;
    // A long wait's status would stay on the row as its last word: say how it ended.
    if (tracked.lastStatusAt !== undefined && !tracked.showedOutage && spec.notify) {
      spec.notify({
        kind: "status",
        ...(spec.urn ? { urn: spec.urn } : {}),
        message: `${spec.urn ? "" : `${scope.subject}: `}${DONE[spec.action]} after ${durationText(scope.now() - scope.started)}`,
      });
      return;
    }
    const snapshot = scope.health?.snapshot();
    if (!tracked.showedOutage || !spec.notify || !snapshot || snapshot.outage) return;
    const ended = snapshot.lastOutage;
    spec.notify({
      kind: "status",
      ...(spec.urn ? { urn: spec.urn } : {}),
      message:
        `${spec.urn ? "" : `${scope.subject}: `}the API answered again` +
        (ended
          ? ` at ${clockTime(ended.until)}, after ${durationText(ended.until - ended.since)} without an answer`
          : ""),
    });
  }

  /** The passing status of one operation, when there is something to say. */
  private status(tracked: Tracked, at: number): void {
    const { spec, scope } = tracked;
    if (!spec.notify) return;
    const activity = currentActivity(scope);
    const doing = activity?.what ?? DOING[spec.action];
    const left = scope.deadline - at;
    const timeout = `the ${scope.timeoutName} timeout (${durationText(scope.timeoutMs)})`;
    const snapshot = scope.health?.snapshot();
    const outage = snapshot && noticed(snapshot, at, this.options.noticeAfterMs);
    // Every few seconds at first; once the outage or the wait has lasted a minute, six times less
    // often (a log without the live display gets a line per status).
    const lasted = outage ? at - outage.since : activity ? at - activity.since : 0;
    const every = this.options.statusEveryMs * (lasted >= 60_000 ? 6 : 1);
    const due = tracked.lastStatusAt === undefined || at - tracked.lastStatusAt >= every;
    // On the resource's own row the row names it, and the display cuts long lines: what matters first.
    const who = spec.urn ? "" : `${scope.subject}: `;
    let message: string | undefined;
    if (outage) {
      if (!due && tracked.showedOutage) return;
      message =
        `${who}${describeOutageBriefly(outage, at)}; ${doing}; ` +
        (left > 0 ? `retrying until ${timeout} runs out in ${durationText(left)}` : `${timeout} has run out`);
      tracked.showedOutage = true;
    } else if (tracked.showedOutage) {
      message = `${who}the API answers again; ${doing}`;
      tracked.showedOutage = false;
    } else if (activity && at - activity.since >= this.options.longWaitMs && due) {
      message =
        `${who}${activity.what}` +
        (activity.state ? ` (last seen: ${activity.state})` : "") +
        ` for ${durationText(at - activity.since)}; ${timeout} runs out in ${durationText(Math.max(0, left))}`;
    }
    if (message === undefined) return;
    tracked.lastStatusAt = at;
    spec.notify({ kind: "status", ...(spec.urn ? { urn: spec.urn } : {}), message });
  }
}

/** The outage, once it has lasted long enough to tell the user. */
function noticed(snapshot: HealthSnapshot, at: number, afterMs: number) {
  return snapshot.outage && at - snapshot.outage.since >= afterMs ? snapshot.outage : undefined;
}

/** The process's monitor: every engine of the provider process shares it. */
export const operationMonitor = new OperationMonitor();

/** Runs `run` as the operation `spec` (see OperationMonitor.run). */
export function runOperation<T>(spec: OperationSpec, run: () => Promise<T>): Promise<T> {
  return operationMonitor.run(spec, run);
}
