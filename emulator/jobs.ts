/**
 * Asynchronous work as data: deferred changes and the jobs they complete. Each piece of work is
 * stored (and persisted) with its due time, scheduled on the one clock, and applied when due, or at
 * once on start when it fell due while the emulator was down.
 */
import type { Clock } from "./clock";
import type { AccountScope, DeferredChange, JobRecord } from "./core";
import type { PendingWork, Store } from "./store";

export class DeferredWork {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly newId: () => string,
  ) {}

  /** Schedule `changes` for `scope`'s account after `delayMs`; returns the work's id. */
  schedule(scope: AccountScope, changes: DeferredChange[], delayMs: number, jobId?: string): string {
    const existedAtStart = changes.map((c) => scope.collection(c.collection)[c.uuid] !== undefined);
    const work: PendingWork = {
      id: this.newId(),
      accountId: scope.account.id,
      dueAt: this.clock.now() + delayMs,
      changes: structuredClone(changes),
      existedAtStart,
      ...(jobId ? { jobId } : {}),
    };
    this.store.pending.push(work);
    scope.changed();
    this.arm(work);
    return work.id;
  }

  startJob(scope: AccountScope, resourceType: string, resourceId: string, changes: DeferredChange[], delayMs: number) {
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
    this.schedule(scope, changes, delayMs, jobId);
    return jobId;
  }

  /** The job as the API shows it, if it belongs to the account. */
  job(accountId: string, jobId: string): JobRecord | undefined {
    const stored = this.store.jobs[jobId];
    if (!stored || stored.accountId !== accountId) return undefined;
    const { accountId: _owner, ...job } = stored;
    return job;
  }

  /** On start: apply what fell due while the emulator was down, schedule the rest. */
  resume(): void {
    const now = this.clock.now();
    for (const work of [...this.store.pending].sort((a, b) => a.dueAt - b.dueAt)) {
      if (work.dueAt <= now) this.complete(work.id);
      else this.arm(work);
    }
  }

  private arm(work: PendingWork): void {
    this.clock.at(work.dueAt, () => this.complete(work.id));
  }

  /**
   * Apply one piece of work. A change to a record that existed when the work was scheduled and has
   * been removed since is not applied (an update must not resurrect a deleted record); under a job
   * that makes the whole job FAILED with NOT_FOUND and nothing is applied.
   */
  private complete(workId: string): void {
    const index = this.store.pending.findIndex((w) => w.id === workId);
    if (index < 0) return; // reset meanwhile
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
        if ("remove" in change) delete collection[change.uuid];
        else if (!vanished[i]) collection[change.uuid] = { ...collection[change.uuid], ...change.set };
      });
      if (job) job.status = "SUCCEEDED";
    }
    this.store.persist();
  }
}
