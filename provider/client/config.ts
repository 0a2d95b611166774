// Client configuration: explicit options first, then the environment (CREDENTIAL_ENV, which the provider's settings
// table also names: ../settings.ts), then defaults.
import { ConfigError } from "./errors";

/** The environment variables the client falls back to for its endpoint and credentials. */
export const CREDENTIAL_ENV = {
  apiUrl: "RESTCLOUD_API_URL",
  apiKey: "RESTCLOUD_API_KEY",
  secretKey: "RESTCLOUD_SECRET_KEY",
} as const;

export interface RetryOptions {
  /**
   * Attempts in all, the first included (default 8: the first try and 7 retries, about 40 s of
   * backoff before a call gives up). A service that fails one request in five still fails a call
   * only once in some 400,000 calls; fewer attempts made long deployments fail on such a service.
   * 1 disables retries.
   */
  maxAttempts?: number;
  /** The first backoff delay (default 1000 ms); it doubles per retry, with jitter. */
  baseDelayMs?: number;
  /** The cap of one backoff delay (default 8000 ms). */
  maxDelayMs?: number;
  /** The longest Retry-After the client honours (default 60000 ms); a longer one fails the call at once. */
  maxRetryAfterMs?: number;
}

/** One request as the debug hook sees it: credentials and secret fields are already redacted. */
export interface RequestEvent {
  operation: string;
  method: string;
  /** Path and query, without the host. */
  url: string;
  attempt: number;
  /** Request headers, with the credentials replaced by "[REDACTED]". */
  headers: Record<string, string>;
  /** The JSON body sent, with secret fields replaced by "[REDACTED]". */
  body?: unknown;
  /** The HTTP status received; undefined when no response arrived. */
  status?: number;
  durationMs: number;
  /** The failure, when there was one (already redacted). */
  error?: string;
}

/** Shared reads (coalesce.ts). */
export interface SharedReadsOptions {
  /** How long a batch waits for more calls (default 15 ms). */
  windowMs?: number;
  /** The common clock of polls (default: the client's pollIntervalMs); 0 sends polls as other reads. */
  pollTickMs?: number;
}

export interface ClientOptions {
  /** Base URL of the service, e.g. https://cloud.example.com (the client appends /restapi/...). */
  apiUrl?: string;
  apiKey?: string;
  secretKey?: string;
  /** Per-request timeout (default 30000 ms). */
  timeoutMs?: number;
  /** At most this many requests of this client in flight at once (default: unlimited). */
  maxConcurrentRequests?: number;
  /** Retry policy for transient failures, or false for none. */
  retry?: RetryOptions | false;
  /**
   * Share reads (see coalesce.ts): concurrent identical reads, and list calls that differ only by
   * their uuid filter, are served by one request. Default: off.
   */
  shareReads?: boolean | SharedReadsOptions;
  /**
   * How often a wait reads what it waits for (default 100 ms), from the start of one read to the
   * next; with shared reads, also the common clock every wait's reads leave on, so that any number
   * of waits on one kind in one zone make one request per interval.
   */
  pollIntervalMs?: number;
  /** Debug log: one redacted line per request attempt and per notable tolerance (count mismatch, duplicates). */
  log?: (line: string) => void;
  /** Debug hook: one redacted event per request attempt. */
  onRequest?: (event: RequestEvent) => void;
  /** Where the fallbacks are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface ResolvedConfig {
  apiUrl: string;
  apiKey: string;
  secretKey: string;
  timeoutMs: number;
  maxConcurrentRequests: number | undefined;
  /** Undefined when reads are not shared. */
  shareReads: SharedReadsOptions | undefined;
  pollIntervalMs: number;
  retry: Required<RetryOptions>;
  log: ((line: string) => void) | undefined;
  onRequest: ((event: RequestEvent) => void) | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * A wait's reads, 10 a second: a job that ends is seen 50 ms later on average. Shared reads make it
 * one request per kind and zone per interval however many resources wait (coalesce.ts).
 */
export const DEFAULT_POLL_INTERVAL_MS = 100;
export const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = {
  maxAttempts: 8,
  baseDelayMs: 1000,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

const positive = (name: string, value: number | undefined, integer = false): void => {
  if (value === undefined) return;
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new ConfigError(`RestCloud client: ${name} must be a positive ${integer ? "integer" : "number"}`);
};

/** Resolve options against the environment. Throws a ConfigError naming every missing or invalid setting. */
export function resolveConfig(options: ClientOptions = {}): ResolvedConfig {
  const env = options.env ?? process.env;
  const pick = (key: "apiUrl" | "apiKey" | "secretKey"): string | undefined => {
    const value = options[key] ?? env[CREDENTIAL_ENV[key]];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  };
  const apiUrl = pick("apiUrl");
  const apiKey = pick("apiKey");
  const secretKey = pick("secretKey");
  const missing = (["apiUrl", "apiKey", "secretKey"] as const)
    .filter((key) => ({ apiUrl, apiKey, secretKey })[key] === undefined)
    .map((key) => `${key} (or the environment variable ${CREDENTIAL_ENV[key]})`);
  if (missing.length > 0) throw new ConfigError(`RestCloud client: missing ${missing.join(", ")}`);

  let url: URL;
  try {
    url = new URL(apiUrl!);
  } catch {
    throw new ConfigError(`RestCloud client: apiUrl is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ConfigError(`RestCloud client: apiUrl must be an http or https URL`);
  if (url.username || url.password) throw new ConfigError(`RestCloud client: apiUrl must not embed credentials`);

  positive("timeoutMs", options.timeoutMs);
  positive("maxConcurrentRequests", options.maxConcurrentRequests, true);
  positive("pollIntervalMs", options.pollIntervalMs);
  if (typeof options.shareReads === "object") {
    positive("shareReads.windowMs", options.shareReads.windowMs);
    const tick = options.shareReads.pollTickMs;
    if (tick !== undefined && !(Number.isFinite(tick) && tick >= 0))
      throw new ConfigError("RestCloud client: shareReads.pollTickMs must be 0 or a positive number");
  }
  const retry = options.retry === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
  positive("retry.maxAttempts", retry.maxAttempts, true);
  positive("retry.baseDelayMs", retry.baseDelayMs);
  positive("retry.maxDelayMs", retry.maxDelayMs);
  positive("retry.maxRetryAfterMs", retry.maxRetryAfterMs);

  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const shareReads = options.shareReads === true ? {} : options.shareReads || undefined;
  return {
    // The operation paths start with /restapi; a base URL given with /restapi or a trailing slash works too.
    apiUrl: url.href.replace(/\/+$/, "").replace(/\/restapi$/, ""),
    apiKey: apiKey!,
    secretKey: secretKey!,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxConcurrentRequests: options.maxConcurrentRequests,
    // Polls of every wait leave together on the tick of their pace.
    shareReads: shareReads && { pollTickMs: pollIntervalMs, ...shareReads },
    pollIntervalMs,
    retry,
    log: options.log,
    onRequest: options.onRequest,
  };
}
