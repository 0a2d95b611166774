/** Request counters of `/restapi/...` calls, for tests that check how many calls a client made. */
export interface StatsSnapshot {
  total: number;
  mutating: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
}

export class RequestStats {
  private counters: StatsSnapshot = RequestStats.empty();

  private static empty(): StatsSnapshot {
    return { total: 0, mutating: 0, byOperation: {}, byStatus: {} };
  }

  /** `status` is the HTTP status, or "hang" / "reset" for an injected fault that answered nothing. */
  record(operation: string | undefined, mutating: boolean, status: number | "hang" | "reset"): void {
    const c = this.counters;
    c.total++;
    if (mutating) c.mutating++;
    if (operation) c.byOperation[operation] = (c.byOperation[operation] ?? 0) + 1;
    c.byStatus[String(status)] = (c.byStatus[String(status)] ?? 0) + 1;
  }

  snapshot(): StatsSnapshot {
    return structuredClone(this.counters);
  }

  reset(): void {
    this.counters = RequestStats.empty();
  }
}
