/**
 * Retries, and the rule that a mutation is never blindly repeated.
 *
 * - A read (list/get) is retried on a retryable failure (429, 502, 503, 504, connection error, timeout).
 * - A mutation is retried only when it certainly was not processed: 429 (throttled before any work)
 *   or a connection that was never made. After an ambiguous failure (5xx, timeout, reset after the
 *   request left) the caller's `verify` reads the state back: if the effect is there it is the
 *   result; if not, the mutation is sent again. Without `verify`, a mutation whose repeat is
 *   harmless (`resendable`: updates, deletes) is sent again; any other throws the ambiguous error.
 * - 4xx and 550 are never retried.
 */
import type { RetryOptions } from "./config";
import { ApiError } from "./errors";
import { backoffDelay, jittered, sleep as realSleep } from "./backoff";

export interface RetryContext<T> {
  mutating: boolean;
  /** Reads the state back after an ambiguous failure: the effect when it is there, else undefined. */
  verify?: () => Promise<T | undefined>;
  /** Sending the mutation twice has the effect of sending it once: after an ambiguous failure, send it again. */
  resendable?: boolean;
  policy: Required<RetryOptions>;
  log?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** The wait before retry number `retry` (1-based): the server's Retry-After, else jittered backoff. */
export function retryDelay(
  error: ApiError,
  retry: number,
  policy: Required<RetryOptions>,
  random: () => number = Math.random,
): number | undefined {
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  return jittered(backoffDelay(retry - 1, { initialMs: policy.baseDelayMs, maxMs: policy.maxDelayMs }), random);
}

export async function withRetries<T>(attempt: (n: number) => Promise<T>, context: RetryContext<T>): Promise<T> {
  const { policy, log } = context;
  const pause = context.sleep ?? realSleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      error.attempts = n;
      const last = n >= policy.maxAttempts;
      const delay = retryDelay(error, n, policy, context.random);

      // An ambiguous failure of a mutation: read the state back, unless the call is simply resent.
      if (error.ambiguous && context.mutating && (context.verify !== undefined || !context.resendable)) {
        if (!context.verify) throw error;
        // Give the effect a moment to become visible before reading it back.
        await pause(delay ?? policy.baseDelayMs);
        let effect: T | undefined;
        // The service may be briefly unreachable (a restart): the verification is a read, retried
        // as reads are, and only then does the ambiguous error stand.
        for (let v = 1; ; v++) {
          try {
            effect = await context.verify();
            break;
          } catch (verifyError) {
            log?.(`${error.operation}: verification after ${error.errorCode} failed: ${String(verifyError)}`);
            const again = verifyError instanceof ApiError && verifyError.retryable && v < policy.maxAttempts;
            if (!again) throw error;
            await pause(retryDelay(verifyError, v, policy, context.random) ?? policy.maxDelayMs);
          }
        }
        if (effect !== undefined) {
          log?.(`${error.operation}: ${error.errorCode} after the request, but verification found the effect applied`);
          return effect;
        }
        if (!error.retryable || last || delay === undefined) throw error;
        log?.(`${error.operation}: ${error.errorCode} and verification found no effect; sending again`);
        continue;
      }

      if (!error.retryable || last || delay === undefined) throw error;
      log?.(`${error.operation}: ${error.errorCode}; retry ${n} of ${policy.maxAttempts - 1} in ${delay} ms`);
      await pause(delay);
    }
  }
}
