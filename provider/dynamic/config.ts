/**
 * Provider configuration: `restcloud:*` stack config first, then the RESTCLOUD_* environment
 * variables. Read inside the provider process only, never captured in state.
 */
import { parseDuration } from "../engine/engine";
export interface ProviderConfig {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly zoneUuid?: string;
  /** At most this many API requests in flight at once, across every resource of the operation. */
  readonly maxConcurrentRequests: number;
  /** Whether concurrent reads share requests (one list call per kind and zone per wave). */
  readonly shareReads: boolean;
  /** How long one request may go unanswered (`restcloud:requestTimeout`), as given ("30s"). */
  readonly requestTimeout: string;
  /** The same, in milliseconds. */
  readonly requestTimeoutMs: number;
  /** What is missing or invalid, each with how to set it; empty when complete. */
  missing(): string[];
}

/** One request's timeout when `restcloud:requestTimeout` is not set. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Requests in flight at once when `restcloud:maxConcurrentRequests` is not set. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;

const SETTINGS = [
  { key: "apiUrl", env: "RESTCLOUD_API_URL", secret: false },
  { key: "apiKey", env: "RESTCLOUD_API_KEY", secret: true },
  { key: "secretKey", env: "RESTCLOUD_SECRET_KEY", secret: true },
] as const;

const howToSet = (key: string, env: string) => `pulumi config set restcloud:${key} <value>, or ${env}`;

export function resolveProviderConfig(source: { get(key: string): string | undefined }): ProviderConfig {
  const read = (key: string, env: string) => source.get(`restcloud:${key}`) || process.env[env] || undefined;
  const values = Object.fromEntries(SETTINGS.map((s) => [s.key, read(s.key, s.env)])) as Record<
    string,
    string | undefined
  >;
  const problems = SETTINGS.filter((s) => !values[s.key]).map(
    (s) =>
      `${s.key} is not set (pulumi config set ${s.secret ? "--secret " : ""}restcloud:${s.key} <value>, or ${s.env})`,
  );

  const limitText = read("maxConcurrentRequests", "RESTCLOUD_MAX_CONCURRENT_REQUESTS");
  const limit = limitText === undefined ? DEFAULT_MAX_CONCURRENT_REQUESTS : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1)
    problems.push(
      `maxConcurrentRequests must be a positive integer (${howToSet("maxConcurrentRequests", "RESTCLOUD_MAX_CONCURRENT_REQUESTS")})`,
    );

  const shareText = read("shareReads", "RESTCLOUD_SHARE_READS")?.trim().toLowerCase();
  if (shareText !== undefined && shareText !== "true" && shareText !== "false")
    problems.push(`shareReads must be true or false (${howToSet("shareReads", "RESTCLOUD_SHARE_READS")})`);

  const timeoutText = read("requestTimeout", "RESTCLOUD_REQUEST_TIMEOUT");
  const requestTimeoutMs = timeoutText === undefined ? DEFAULT_REQUEST_TIMEOUT_MS : parseDuration(timeoutText.trim());
  if (requestTimeoutMs === undefined)
    problems.push(
      `requestTimeout must be a duration such as "30s", "2m" or "500ms" (${howToSet("requestTimeout", "RESTCLOUD_REQUEST_TIMEOUT")})`,
    );

  return {
    apiUrl: values.apiUrl ?? "",
    apiKey: values.apiKey ?? "",
    secretKey: values.secretKey ?? "",
    zoneUuid: read("zoneUuid", "RESTCLOUD_ZONE_UUID"),
    maxConcurrentRequests: limit,
    shareReads: shareText !== "false",
    requestTimeout: timeoutText ?? `${DEFAULT_REQUEST_TIMEOUT_MS / 1000}s`,
    requestTimeoutMs: requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    missing: () => problems,
  };
}

/** Whether two configurations would make the same client (the zone is not the client's concern). */
export function sameClientConfig(a: ProviderConfig, b: ProviderConfig): boolean {
  return (
    a.apiUrl === b.apiUrl &&
    a.apiKey === b.apiKey &&
    a.secretKey === b.secretKey &&
    a.maxConcurrentRequests === b.maxConcurrentRequests &&
    a.shareReads === b.shareReads &&
    a.requestTimeoutMs === b.requestTimeoutMs
  );
}
