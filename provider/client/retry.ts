// Retries without ever blindly repeating a mutation: reads retry on any retryable failure, a mutation only when surely
// unprocessed, else it is verified (read back) or, if harmless, resent; 4xx never; an outage until the operation's deadline.
import type { RetryOptions } from "./config";
import { ApiError, VerificationRefusedError } from "./errors";
import { isNoAnswer } from "./health";
import { currentScope, deadlineError, enterActivity, remainingMs, withActivity } from "./scope";
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
  const named: { activity?: ReturnType<typeof enterActivity> } = {};
  try {
    return await retryLoop(attempt, context, named);
  } finally {
    named.activity?.leave();
  }
}

async function retryLoop<T>(
  attempt: (n: number) => Promise<T>,
  context: RetryContext<T>,
  named: { activity?: ReturnType<typeof enterActivity> },
): Promise<T> {
  const { policy, log } = context;
  const pause = context.sleep ?? realSleep;
  // Set once a mutation was sent again after an ambiguous failure that verification did not explain.
  let resentAfterAmbiguous = false;
  const scope = currentScope();
  // The failures the API answered (a 429, a 500): they use up maxAttempts. Inside an operation, the
  // attempts an outage took do not: a throttled answer after a long outage is still retried.
  let answered = 0;
  for (let n = 1; ; n++) {
    if (n > 1 && scope?.signal?.aborted) throw scope.signal.reason;
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      error.attempts = n;
      // What the operation waits on, for its status and its timeout error (unless a wait already says it).
      named.activity ??= enterActivity(scope, `calling ${error.operation}`, { outermost: true });
      // The API did not answer, inside an operation: the operation's deadline bounds the retries.
      const outage = scope !== undefined && isNoAnswer(error);

      // The resend was refused as a duplicate (409): the first request did take effect after all,
      // and became visible only now. The same verification decides whether the record is this call's.
      if (resentAfterAmbiguous && error.status === 409 && context.verify) {
        const effect = await context.verify();
        if (effect !== undefined) {
          log?.(`${error.operation}: 409 to the resend; verification found the first request's effect`);
          return effect;
        }
        throw error;
      }
      if (!outage) answered++;
      const last = outage ? n >= policy.maxAttempts && !(remainingMs(scope) > 0) : answered >= policy.maxAttempts;
      const delay = retryDelay(error, n, policy, context.random);

      // An ambiguous failure of a mutation: read the state back, unless the call is simply resent.
      if (error.ambiguous && context.mutating && (context.verify !== undefined || !context.resendable)) {
        if (!context.verify) throw error;
        const effect = await readBackEffect(error, delay, context, scope, pause);
        if (effect !== undefined) {
          log?.(`${error.operation}: ${error.errorCode} after the request, but verification found the effect applied`);
          return effect;
        }
        if (!error.retryable || delay === undefined) throw error;
        if (last) throw outage ? deadlineError(scope, { cause: error }) : error;
        log?.(`${error.operation}: ${error.errorCode} and verification found no effect; sending again`);
        resentAfterAmbiguous = true;
        continue;
      }

      if (!error.retryable || delay === undefined) throw error;
      if (last) throw outage ? deadlineError(scope, { cause: error }) : error;
      const left = outage ? remainingMs(scope) : 0;
      const wait = left > 0 ? Math.min(delay, left) : delay;
      log?.(
        `${error.operation}: ${error.errorCode}; retry ${n} ` +
          (left > 0 ? `(until the ${scope!.timeoutName} timeout runs out)` : `of ${policy.maxAttempts - 1}`) +
          ` in ${wait} ms`,
      );
      await pause(wait);
    }
  }
}

// After an ambiguous failure the verification is a read, retried as reads are (the service may be
// restarting): only when it cannot run does the ambiguous error stand.
async function readBackEffect<T>(
  error: ApiError,
  delay: number | undefined,
  context: RetryContext<T>,
  scope: ReturnType<typeof currentScope>,
  pause: (ms: number) => Promise<void>,
): Promise<T | undefined> {
  const { policy, log } = context;
  // Give the effect a moment to become visible before reading it back.
  await pause(delay ?? policy.baseDelayMs);
  const checking = `checking whether ${error.operation} took effect (its answer was lost: ${error.errorCode})`;
  for (let v = 1; ; v++) {
    try {
      return await withActivity(checking, () => context.verify!());
    } catch (verifyError) {
      log?.(`${error.operation}: verification after ${error.errorCode} failed: ${String(verifyError)}`);
      // A verification that ran and refused to decide (several candidates): its word stands.
      if (verifyError instanceof VerificationRefusedError) throw verifyError;
      if (!(verifyError instanceof ApiError)) throw error;
      // Inside an operation, an API that does not answer is waited for until the deadline.
      const unanswered = scope !== undefined && isNoAnswer(verifyError);
      const again = verifyError.retryable && (v < policy.maxAttempts || (unanswered && remainingMs(scope) > 0));
      if (!again) throw unanswered ? deadlineError(scope, { cause: verifyError, doing: checking }) : error;
      const pauseMs = retryDelay(verifyError, v, policy, context.random) ?? policy.maxDelayMs;
      const left = unanswered ? remainingMs(scope) : 0;
      await pause(left > 0 ? Math.min(pauseMs, left) : pauseMs);
    }
  }
}
