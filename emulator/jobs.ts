// Asynchronous work as data: deferred changes and their jobs, persisted with a due time, applied when due on the one
// clock (or at start, if it fell due while down). In manual mode nothing is scheduled: `advance` completes the work.
import type { Clock } from "./clock";
import type { AccountScope, DeferredChange, JobKind, JobRecord } from "./core";
import type { PendingWork, Store } from "./store";
import type { WorkTimeline } from "./timeline";

/** `auto`: work completes when due; `manual`: only when advanced (`POST /_emulator/advance`). */
export type AsyncMode = "auto" | "manual";
export const ASYNC_MODES: readonly AsyncMode[] = ["auto", "manual"];

export class DeferredWork {
  /** The cancel function of each armed piece of work, by work id. */
  private readonly timers = new Map<string, () => void>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly newId: () => string,
    readonly mode: AsyncMode = "auto",
    /** Where each piece of work is recorded when scheduled and when it ends. */
    private readonly timeline?: WorkTimeline,
  ) {}

  /** Schedule `changes` of `kind` for `scope`'s account after `delayMs`; returns the work's id. */
  schedule(scope: AccountScope, kind: JobKind, changes: DeferredChange[], delayMs: number, jobId?: string): string {
    const existedAtStart = changes.map((c) => scope.collection(c.collection)[c.uuid] !== undefined);
    const startedAt = this.clock.now();
    const work: PendingWork = {
      id: this.newId(),
      accountId: scope.account.id,
      dueAt: startedAt + delayMs,
      changes: structuredClone(changes),
      existedAtStart,
      ...(jobId ? { jobId } : {}),
    };
    this.store.pending.push(work);
    this.timeline?.scheduled({
      id: work.id,
      kind,
      account: scope.account.name,
      resourceType: (jobId ? this.store.jobs[jobId]?.resourceType : undefined) ?? changes[0]?.collection ?? "",
      resourceIds: [...new Set(changes.map((c) => c.uuid))],
      jobId: jobId ?? null,
      startedAt,
      dueAt: work.dueAt,
    });
    scope.changed();
    this.arm(work);
    return work.id;
  }

  startJob(
    scope: AccountScope,
    kind: JobKind,
    resourceType: string,
    resourceId: string,
    changes: DeferredChange[],
    delayMs: number,
  ): string {
    const jobId = this.newId();
    this.store.jobs[jobId] = {
      jobId,
      resourceId,
      resourceType,
      status: "IN_PROGRESS",
      errorCode: null,
      errorMessage: null,
      accountId: scope.account.id,
    };
    this.schedule(scope, kind, changes, delayMs, jobId);
    return jobId;
  }

  /** The job as the API shows it, if it belongs to the account. */
  job(accountId: string, jobId: string): JobRecord | undefined {
    const stored = this.store.jobs[jobId];
    if (!stored || stored.accountId !== accountId) return undefined;
    const { accountId: _owner, ...job } = stored;
    return job;
  }

  /**
   * On start (and after a snapshot is loaded): apply what fell due while the emulator was down,
   * schedule the rest. In manual mode everything stays pending.
   */
  resume(): void {
    if (this.mode === "manual") return;
    const now = this.clock.now();
    for (const work of this.pendingWork()) {
      if (work.dueAt <= now) this.complete(work.id);
      else this.arm(work);
    }
  }

  /** The pending work, soonest due first (in the order it was scheduled for equal due times). */
  pendingWork(): PendingWork[] {
    return [...this.store.pending].sort((a, b) => a.dueAt - b.dueAt);
  }

  /** The pending work `id` names: its own id, or the id of the job it completes. */
  find(id: string): PendingWork | undefined {
    return this.store.pending.find((w) => w.id === id || w.jobId === id);
  }

  /**
   * Complete pending work now, whatever the mode and its due time: the piece `id` names (see
   * `find`; the caller checks that it exists), or every piece pending at the call, soonest due first.
   * Returns how many pieces were completed.
   */
  advance(id?: string): number {
    const chosen = id === undefined ? this.pendingWork() : [this.find(id)].filter((w) => w !== undefined);
    let completed = 0;
    for (const work of chosen) if (this.complete(work.id)) completed++;
    return completed;
  }

  /** Cancel every armed timer; the pending work stays (as data). */
  cancelAll(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  /** Cancel every armed timer; the caller drops the pending work (a reset, a snapshot loaded over it). */
  discardAll(): void {
    this.cancelAll();
    this.timeline?.discardPending(this.clock.now());
  }

  private arm(work: PendingWork): void {
    if (this.mode === "manual") return;
    this.timers.get(work.id)?.();
    this.timers.set(
      work.id,
      this.clock.at(work.dueAt, () => {
        this.timers.delete(work.id);
        this.complete(work.id);
      }),
    );
  }

  /**
   * Apply one piece of work. A change to a record that existed when the work was scheduled and has
   * been removed since is not applied (an update must not resurrect a deleted record); under a job
   * that makes the whole job FAILED with NOT_FOUND and nothing is applied.
   */
  private complete(workId: string): boolean {
    const index = this.store.pending.findIndex((w) => w.id === workId);
    if (index < 0) return false; // reset or advanced meanwhile
    this.timers.get(workId)?.();
    this.timers.delete(workId);
    const [work] = this.store.pending.splice(index, 1);
    const resources = this.store.resources(work.accountId);
    const vanished = work.changes.map(
      (c, i) => work.existedAtStart[i] && "set" in c && resources[c.collection]?.[c.uuid] === undefined,
    );
    const job = work.jobId ? this.store.jobs[work.jobId] : undefined;
    if (job && vanished.some(Boolean)) {
      job.status = "FAILED";
      job.errorCode = "NOT_FOUND";
      job.errorMessage = `${job.resourceType} ${job.resourceId} no longer exists`;
    } else {
      work.changes.forEach((change, i) => {
        const collection = (resources[change.collection] ??= {});
        if ("remove" in change) this.store.removeRecord(work.accountId, change.collection, change.uuid);
        else if (!vanished[i]) collection[change.uuid] = { ...collection[change.uuid], ...change.set };
      });
      if (job) job.status = "SUCCEEDED";
    }
    this.timeline?.completed(
      work.id,
      this.clock.now(),
      job ? (job.status === "FAILED" ? "failed" : "succeeded") : "applied",
    );
    this.store.persist();
    return true;
  }
}
