/**
 * Injected faults, as a flaky real service shows them: latency, throttling (429 with Retry-After),
 * outright failure before processing (503, nothing changed) and failure after processing (the change
 * is applied, yet a 503 is answered: the ambiguous case clients must cope with).
 */
import { ApiFault, badInput } from "./core";

export interface FaultSettings {
  /** Probability of a 503 before the request is processed. */
  failRate: number;
  /** Probability of a 429 (with `Retry-After: 1`) before the request is processed. */
  throttleRate: number;
  /** Probability of a 503 answered after the request was processed. */
  failAfterRate: number;
  /** Added delay before every request is processed, in milliseconds. */
  latencyMs: number;
}

export const NO_FAULTS: FaultSettings = { failRate: 0, throttleRate: 0, failAfterRate: 0, latencyMs: 0 };

const RATES = ["failRate", "throttleRate", "failAfterRate"] as const;

/** Validate a partial update (the body of `PUT /_emulator/faults`, or the options) and merge it. */
export function mergeFaults(current: FaultSettings, update: unknown): FaultSettings {
  if (update === undefined || update === null) return current;
  if (typeof update !== "object" || Array.isArray(update)) throw badInput("body", "must be a JSON object");
  const input = update as Record<string, unknown>;
  const next = { ...current };
  for (const field of RATES) {
    const value = input[field];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value >= 0 && value <= 1)) throw badInput(field, "must be a number from 0 to 1");
    next[field] = value;
  }
  if (input.latencyMs !== undefined) {
    const value = input.latencyMs;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw badInput("latencyMs", "must be a non-negative number");
    }
    next.latencyMs = value;
  }
  return next;
}

/** What happens to one request. */
export type FaultOutcome = "none" | "throttle" | "fail" | "failAfter";

/** The request's fate: throttled first (a gateway refuses before the service sees it), then failed, then failed after. */
export function drawFault(settings: FaultSettings, draw: () => number): FaultOutcome {
  if (settings.throttleRate > 0 && draw() < settings.throttleRate) return "throttle";
  if (settings.failRate > 0 && draw() < settings.failRate) return "fail";
  if (settings.failAfterRate > 0 && draw() < settings.failAfterRate) return "failAfter";
  return "none";
}

export const throttled = (): ApiFault => new ApiFault(429, "TOO_MANY_REQUESTS", "request rate exceeded; retry later");
export const unavailable = (): ApiFault =>
  new ApiFault(503, "SERVICE_UNAVAILABLE", "the service is temporarily unavailable");
