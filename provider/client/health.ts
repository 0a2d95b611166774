// The API's health as the client sees it: fed by the transport on every attempt, read by retries, waiters and whoever
// tells the user. "Not answering": no answer, or a 502/503/504; any other answer, errors included, shows the API is
// there. Texts come from ApiErrors, already redacted.
import { ApiError, durationText, excerpt } from "./errors";

/** Statuses a gateway answers for an API that does not. */
const NO_ANSWER_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Whether the failure means the API did not answer (as opposed to answering with an error). */
export function isNoAnswer(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === undefined || NO_ANSWER_STATUSES.has(error.status));
}

/** A failure in a few words: `connect ECONNREFUSED 127.0.0.1:8080`, `HTTP 503 SERVICE_UNAVAILABLE`. */
export function describeFailure(error: ApiError): string {
  return error.status === undefined ? excerpt(error.serverMessage, 160) : `HTTP ${error.status} ${error.errorCode}`;
}

export interface Outage {
  /** When the first attempt failed without an answer since the API last answered (epoch ms). */
  since: number;
  /** The last failure, described (already redacted). */
  lastError: string;
  /** How many attempts failed so. */
  failures: number;
}

export interface HealthSnapshot {
  /** The API's base URL (never holds credentials). */
  apiUrl: string;
  /** Set while the API does not answer. */
  outage?: Outage;
  /** The last outage that ended, and when it ended. */
  lastOutage?: Outage & { until: number };
  /** When the API last answered (epoch ms). */
  lastAnswer?: number;
}

export class ApiHealth {
  private outage: Outage | undefined;
  private lastOutage: (Outage & { until: number }) | undefined;
  private lastAnswer: number | undefined;

  constructor(
    readonly apiUrl: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** One attempt's outcome: an answer (a status that is not a gateway's), or a failure. */
  record(outcome: { status?: number; failure?: ApiError }): void {
    if (outcome.failure && isNoAnswer(outcome.failure)) this.unanswered(outcome.failure);
    else if (outcome.status !== undefined) this.answered();
  }

  answered(): void {
    const at = this.now();
    this.lastAnswer = at;
    if (this.outage) {
      this.lastOutage = { ...this.outage, until: at };
      this.outage = undefined;
    }
  }

  unanswered(error: ApiError): void {
    const lastError = describeFailure(error);
    if (this.outage) {
      this.outage.lastError = lastError;
      this.outage.failures++;
    } else {
      this.outage = { since: this.now(), lastError, failures: 1 };
    }
  }

  snapshot(): HealthSnapshot {
    return {
      apiUrl: this.apiUrl,
      ...(this.outage ? { outage: { ...this.outage } } : {}),
      ...(this.lastOutage ? { lastOutage: { ...this.lastOutage } } : {}),
      ...(this.lastAnswer !== undefined ? { lastAnswer: this.lastAnswer } : {}),
    };
  }

  /** How long the API has not answered (ms), or undefined while it answers. */
  silentFor(at: number = this.now()): number | undefined {
    return this.outage ? Math.max(0, at - this.outage.since) : undefined;
  }
}

/** A time of day, local: `12:01:03`. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

/** `the API has not answered for 12s (since 12:01:03: connect ECONNREFUSED 127.0.0.1:41234)` */
export function describeOutage(outage: Outage, at: number): string {
  return `the API has not answered for ${durationText(at - outage.since)} (since ${clockTime(outage.since)}: ${outage.lastError})`;
}

/**
 * The same, short, for a status line that the live display may cut at the terminal's edge: what
 * matters first. `API not answering for 12s (connect ECONNREFUSED 127.0.0.1:41234; since 12:01:03)`
 */
export function describeOutageBriefly(outage: Outage, at: number): string {
  return `API not answering for ${durationText(at - outage.since)} (${outage.lastError}; since ${clockTime(outage.since)})`;
}
