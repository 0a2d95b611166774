// Backoff maths shared by the retries and the waiters. Pure, so that it is unit tested.

export interface BackoffPolicy {
  /** The first delay. */
  initialMs: number;
  /** The cap of one delay. */
  maxMs: number;
  /** Growth per step (default 2). */
  factor?: number;
}

/** The un-jittered delay before step `step` (0-based): initial * factor^step, capped. */
export function backoffDelay(step: number, policy: BackoffPolicy): number {
  const grown = policy.initialMs * Math.pow(policy.factor ?? 2, Math.max(0, step));
  return Math.min(policy.maxMs, grown);
}

/**
 * "Equal jitter": half the delay fixed, half random. Keeps a floor (the server gets a real pause)
 * while spreading clients that failed together.
 */
export function jittered(delayMs: number, random: () => number = Math.random): number {
  return Math.round(delayMs / 2 + random() * (delayMs / 2));
}

/**
 * Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110). Undefined when absent or
 * unreadable; never negative.
 */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Sleep, waking early (with the signal's reason) if aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
