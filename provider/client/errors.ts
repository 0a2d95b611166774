// The client's errors. Every failure that leaves the client is one of these: none of them holds a request object,
// headers or credentials (got's own errors do, so they never escape).

/** The base of every error the client throws. */
export class RestCloudError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The configuration is incomplete or invalid (names what is missing). */
export class ConfigError extends RestCloudError {}

/** An input failed validation before any request left. */
export class ApiInputError extends RestCloudError {
  constructor(
    readonly operation: string,
    /** The input field at fault, dotted for nested fields ("svcLbSticky.cookieName"); "" for the whole input. */
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${operation}: invalid input ${field ? `"${field}"` : "(whole input)"}: ${reason}`);
  }
}

export interface ApiErrorDetails {
  operation: string;
  method: string;
  /** The request path without host or query. */
  path: string;
  /** The HTTP status; undefined when no response arrived (connection error, timeout). */
  status?: number;
  errorCode: string;
  message: string;
  /** A transient failure: repeating the same request later may succeed. */
  retryable: boolean;
  /** A mutation whose effect is unknown: it may or may not have been applied. */
  ambiguous?: boolean;
  /** Server-requested wait before a retry (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** How many attempts were made before this error was thrown. */
  attempts?: number;
}

/** A failed call: an error answer of the API, a connection failure, a timeout or an unreadable answer. */
export class ApiError extends RestCloudError {
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly errorCode: string;
  readonly retryable: boolean;
  readonly ambiguous: boolean;
  readonly retryAfterMs: number | undefined;
  /** The server's own message (or the transport's), without the operation and status prefix. */
  readonly serverMessage: string;
  attempts: number;

  constructor(details: ApiErrorDetails) {
    const where = details.status === undefined ? "no response" : `HTTP ${details.status}`;
    const flags = details.ambiguous ? " (ambiguous: the mutation may have been applied)" : "";
    super(`${details.operation} failed: ${where} ${details.errorCode}: ${details.message}${flags}`);
    this.operation = details.operation;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.errorCode = details.errorCode;
    this.retryable = details.retryable;
    this.ambiguous = details.ambiguous ?? false;
    this.retryAfterMs = details.retryAfterMs;
    this.serverMessage = details.message;
    this.attempts = details.attempts ?? 1;
  }
}

/** An asynchronous job ended FAILED. */
export class JobFailedError extends ApiError {
  constructor(
    readonly jobId: string,
    readonly resourceId: string | undefined,
    errorCode: string,
    message: string,
  ) {
    super({
      operation: "resourceStatus",
      method: "GET",
      path: "/restapi/asyncjob/resourceStatus",
      status: 200,
      errorCode,
      message: `job ${jobId}${resourceId ? ` (resource ${resourceId})` : ""} failed: ${message}`,
      retryable: false,
    });
  }
}

/** A waiter ran out of time. Says what was awaited, the last state seen and, if the API stopped answering, since when. */
export class WaitTimeoutError extends RestCloudError {
  constructor(
    readonly awaited: string,
    readonly lastState: string,
    readonly elapsedMs: number,
    readonly polls: number,
    /** The outage, described (health.ts), when the API was not answering as the time ran out. */
    readonly outage?: string,
  ) {
    super(
      `timed out after ${elapsedMs} ms waiting for ${awaited}; last state seen: ${lastState} (${polls} polls)` +
        (outage ? `; ${outage}` : ""),
    );
  }
}

/**
 * An operation on a resource ran out of its timeout (create, update or delete; `customTimeouts`
 * lengthens it) while it waited: on a state, or on an API that did not answer. Names the resource,
 * the timeout, what it was doing and, when the API was not answering, since when and its last error.
 */
export class OperationTimeoutError extends WaitTimeoutError {
  constructor(
    readonly details: {
      /** The resource: `restcloud:Instance web-1`. */
      subject: string;
      /** Which timeout ("create", "update", "delete") and its length. */
      timeoutName: string;
      timeoutMs: number;
      /** What it was doing: `waiting for instance 1234 to be Running`, `calling createVm`. */
      doing: string;
      lastState?: string;
      elapsedMs: number;
      /** The outage, described (health.ts); undefined when the API was answering. */
      outage?: string;
      /** The last failure of a call, when a call ran out of time. */
      cause?: ApiError;
    },
  ) {
    super(details.doing, details.lastState ?? "unknown", details.elapsedMs, 0, details.outage);
    const d = details;
    this.message =
      `${d.subject}: the ${d.timeoutName} timeout (${durationText(d.timeoutMs)}) ran out while ${d.doing}` +
      (d.lastState ? ` (last state seen: ${d.lastState})` : "") +
      (d.outage ? `; ${d.outage}` : d.cause ? `; the last attempt failed: ${d.cause.message}` : "") +
      `. customTimeouts on the resource lengthens the wait (e.g. customTimeouts: { ${d.timeoutName}: "30m" }).`;
  }
}

/** `40s`, `10m`, `1h30m`: how a timeout reads (as customTimeouts spells it). */
export function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const text = `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${rest ? `${rest}s` : ""}`;
  return text || `${ms}ms`;
}

/**
 * A verification after an ambiguous failure that ran and refuses to decide (several records could
 * each be the effect): its word stands, in place of the ambiguous error.
 */
export class VerificationRefusedError extends RestCloudError {}

/** HTTP statuses that mean "try again later": throttled, or a gateway/back end briefly unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** An unknown record is a 404 (the emulator's reading; the spec is silent). */
export function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 404;
}

const MAX_TEXT = 300;

/** Cut a text body to a few hundred characters, on one line. */
export function excerpt(text: string, max = MAX_TEXT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}... (${flat.length} characters)`;
}

const asText = (value: unknown): string | undefined =>
  typeof value === "string" && value !== ""
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : undefined;

/**
 * The error code and message of an error answer, from any of the shapes deployments use:
 * `{"listErrorResponse": {errorCode, errorMsg}}` (also as a one-element array), a flat
 * `{errorCode, errorMsg}`, `{message}` / `{error}`, or plain text (cut short).
 */
export function parseErrorBody(text: string): { errorCode?: string; message?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.trim() === "" ? {} : { message: excerpt(text) };
  }
  if (parsed === null || typeof parsed !== "object") return { message: excerpt(text) };
  let body = parsed as Record<string, unknown>;
  const wrapped = body.listErrorResponse;
  const inner = Array.isArray(wrapped) ? wrapped[0] : wrapped;
  if (inner !== null && typeof inner === "object") body = inner as Record<string, unknown>;
  const errorCode = asText(body.errorCode) ?? asText(body.code);
  const message =
    asText(body.errorMsg) ?? asText(body.errorMessage) ?? asText(body.message) ?? asText(body.error) ?? undefined;
  return {
    ...(errorCode !== undefined ? { errorCode: excerpt(errorCode, 100) } : {}),
    ...(message !== undefined ? { message: excerpt(message) } : text.trim() ? { message: excerpt(text) } : {}),
  };
}
