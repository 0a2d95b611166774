/**
 * The one scheduler of the emulator: every deferred change goes through it, so that `stop()` cancels
 * all pending timers at once and nothing keeps the process alive (timers are unref'd).
 */
export class Clock {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  /** Epoch milliseconds. */
  now(): number {
    return Date.now();
  }

  /** Run `task` at `dueAt` (epoch ms), at once if that is past. Returns a cancel function. */
  at(dueAt: number, task: () => void): () => void {
    if (this.stopped) return () => undefined;
    let timer: NodeJS.Timeout;
    // A timer runs on the monotonic clock and may fire a millisecond before Date.now() reaches
    // dueAt: it is armed again for the rest, so that no task runs before its due time.
    const arm = () => {
      timer = setTimeout(
        () => {
          this.timers.delete(timer);
          if (this.now() < dueAt) arm();
          else task();
        },
        Math.max(0, dueAt - this.now()),
      );
      timer.unref();
      this.timers.add(timer);
    };
    arm();
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  /** Cancel every pending task but keep accepting new ones (used by reset). */
  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Cancel everything and accept nothing more. */
  stop(): void {
    this.cancelAll();
    this.stopped = true;
  }
}
