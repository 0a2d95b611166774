// The timeline of asynchronous work, for benchmarks: each piece as scheduled and how it ended. In memory only, the
// newest `TIMELINE_LIMIT`.
import type { JobKind } from "./core";

export const TIMELINE_LIMIT = 10_000;

/**
 * `applied`: deferred changes (no job) were applied; `succeeded` / `failed`: the job's status once
 * done; `discarded`: the work was dropped unapplied (a reset, or a snapshot loaded over it).
 */
export type WorkOutcome = "pending" | "succeeded" | "failed" | "applied" | "discarded";

export interface TimelineEntry {
  /** The work's own id (`GET /_emulator/jobs` shows it as the jobId of work without a job). */
  id: string;
  kind: JobKind;
  /** The account's name. */
  account: string;
  /** The job's resourceType, else the collection of the first change. */
  resourceType: string;
  /** The uuids the changes touch, each once, in the order of the changes. */
  resourceIds: string[];
  jobId: string | null;
  /** Epoch milliseconds. */
  startedAt: number;
  dueAt: number;
  completedAt: number | null;
  outcome: WorkOutcome;
}

export class WorkTimeline {
  private readonly entries: TimelineEntry[] = [];
  /** The entries still pending, by work id: completion finds its entry without a scan. */
  private readonly pending = new Map<string, TimelineEntry>();

  constructor(private readonly limit = TIMELINE_LIMIT) {}

  scheduled(entry: Omit<TimelineEntry, "completedAt" | "outcome">): void {
    const full: TimelineEntry = {
      ...entry,
      resourceIds: [...entry.resourceIds],
      completedAt: null,
      outcome: "pending",
    };
    this.entries.push(full);
    this.pending.set(full.id, full);
    // Trimmed in batches: one splice per thousand entries, not one shift per entry.
    if (this.entries.length > this.limit + 1000) {
      for (const dropped of this.entries.splice(0, this.entries.length - this.limit)) this.pending.delete(dropped.id);
    }
  }

  /** The work `id` ended at `at`; work the timeline does not hold (trimmed, cleared, loaded) is ignored. */
  completed(id: string, at: number, outcome: Exclude<WorkOutcome, "pending">): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    entry.completedAt = at;
    entry.outcome = outcome;
    this.pending.delete(id);
  }

  /** Every pending entry was dropped unapplied at `at`. */
  discardPending(at: number): void {
    for (const id of [...this.pending.keys()]) this.completed(id, at, "discarded");
  }

  /** The newest `limit` entries, oldest first, as copies. */
  list(): TimelineEntry[] {
    return this.entries.slice(-this.limit).map((e) => ({ ...e, resourceIds: [...e.resourceIds] }));
  }

  clear(): void {
    this.entries.length = 0;
    this.pending.clear();
  }
}
