// The provider's settings in one table (name, environment variable, type, secret, required, default, meaning), read by
// everything that reads or lists them: front ends, functions, client, schema.json, docs and README. Read in the
// provider process only (and by functions in the program), never captured in state.
import { RestCloudClient } from "./client";
import { DEFAULT_POLL_INTERVAL_MS, DEFAULT_TIMEOUT_MS, CREDENTIAL_ENV } from "./client/config";
import { parseDuration } from "./duration";
import { tagKeyProblems, tagValueProblems, type Tags } from "./engine/tags";
import { UNKNOWN, containsUnknown } from "./wire";

/**
 * How a setting's value reads: `integer` is a whole number of at least 1; `duration` is a string
 * such as "30s", "2m", "500ms" or "1h30m" (a string in schema.json); `tags` is a map of strings
 * under the rules of a tag (engine/tags.ts), given as JSON where only text can be (a variable).
 */
export type SettingType = "string" | "integer" | "boolean" | "duration" | "tags";

export interface ProviderSetting {
  /** `apiUrl`: `restcloud:apiUrl` in the stack config, the provider's `apiUrl` argument. */
  readonly key: string;
  /** The environment variable read when the setting is not given. */
  readonly env: string;
  readonly type: SettingType;
  /** Kept secret: set with `pulumi config set --secret`, marked secret in schema.json. */
  readonly secret: boolean;
  /** Must be given (config, argument or environment): nothing applies without it. */
  readonly required: boolean;
  /** What applies when it is not given, as a user writes it (`8`, `true`, `"30s"`). */
  readonly default?: string | number | boolean;
  /** What it does; settingDescription adds the default ("Default: 8."). */
  readonly description: string;
}

/** One request's timeout when `restcloud:requestTimeout` is not set: the client's own default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = DEFAULT_TIMEOUT_MS;

/** Requests in flight at once when `restcloud:maxConcurrentRequests` is not set. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;

/** Whether reads are shared when `restcloud:shareReads` is not set. */
const DEFAULT_SHARE_READS = true;

/** Whether creates tag their records when `restcloud:ownerTags` is not set. */
const DEFAULT_OWNER_TAGS = true;

const TABLE = [
  {
    key: "apiUrl",
    env: CREDENTIAL_ENV.apiUrl,
    type: "string",
    secret: false,
    required: true,
    description:
      "The base URL of the RestCloud API (or of the emulator, which prints its own: `restcloud-emulator` listens on http://127.0.0.1:8080 by default).",
  },
  {
    key: "apiKey",
    env: CREDENTIAL_ENV.apiKey,
    type: "string",
    secret: true,
    required: true,
    description: "The account's API key (the `apikey` header). A secret: set it with `pulumi config set --secret`.",
  },
  {
    key: "secretKey",
    env: CREDENTIAL_ENV.secretKey,
    type: "string",
    secret: true,
    required: true,
    description:
      "The account's secret key (the `secretkey` header). A secret: set it with `pulumi config set --secret`.",
  },
  {
    key: "zoneUuid",
    env: "RESTCLOUD_ZONE_UUID",
    type: "string",
    secret: false,
    required: false,
    description: "The zone of resources and functions given no `zoneUuid` of their own.",
  },
  {
    key: "maxConcurrentRequests",
    env: "RESTCLOUD_MAX_CONCURRENT_REQUESTS",
    type: "integer",
    secret: false,
    required: false,
    default: DEFAULT_MAX_CONCURRENT_REQUESTS,
    description: "At most this many API requests in flight at once, across every resource of an operation.",
  },
  {
    key: "shareReads",
    env: "RESTCLOUD_SHARE_READS",
    type: "boolean",
    secret: false,
    required: false,
    default: DEFAULT_SHARE_READS,
    description: "Whether concurrent reads share requests (one list call per kind and zone at a time).",
  },
  {
    key: "requestTimeout",
    env: "RESTCLOUD_REQUEST_TIMEOUT",
    type: "duration",
    secret: false,
    required: false,
    default: `${DEFAULT_REQUEST_TIMEOUT_MS / 1000}s`,
    description:
      'How long one API request may go unanswered before it counts as failed (and is retried, or verified if it changed something), as a duration: "30s", "2m", "500ms".',
  },
  {
    key: "pollInterval",
    env: "RESTCLOUD_POLL_INTERVAL",
    type: "duration",
    secret: false,
    required: false,
    default: `${DEFAULT_POLL_INTERVAL_MS}ms`,
    description:
      'How often a resource that waits (for a job, a state, an update to show, a deletion) reads what it waits for, as a duration: "100ms", "1s". With shareReads, every resource waiting on one kind in one zone shares one list request per interval.',
  },
  {
    key: "ownerTags",
    env: "RESTCLOUD_OWNER_TAGS",
    type: "boolean",
    secret: false,
    required: false,
    default: DEFAULT_OWNER_TAGS,
    description:
      "Whether each record the provider creates is tagged `pulumi-owner` with its resource's URN (instances, volumes, snapshots, networks, tiers, VPCs, public IPs, firewall, port-forwarding and load-balancer rules): one more request per create. The tag is an atomic claim, so that stacks creating records under one parent at once never take each other's, and `restcloud discover` and `restcloud recover` know whose a record is. Without it, a create that cannot tell its record from another stack's fails instead, and a killed `pulumi up` leaves only names to go by.",
  },
  {
    key: "defaultTags",
    env: "RESTCLOUD_DEFAULT_TAGS",
    type: "tags",
    secret: false,
    required: false,
    description:
      'Tags for every resource that takes `tags` (the kinds the API tags), merged into its own `tags`, whose value wins for a key: `pulumi config set --path restcloud:defaultTags.team payments`, or JSON in the variable (`{"team":"payments"}`). A change updates the tags in place, replacing neither the provider nor any resource (docs/tags.md).',
  },
] as const satisfies readonly ProviderSetting[];

/** A setting's key: `apiUrl`, `maxConcurrentRequests`... */
export type ProviderSettingKey = (typeof TABLE)[number]["key"];

/** The value a setting of this type takes as a provider input (a duration is a string: "30s"). */
export type SettingValue<T extends SettingType> = T extends "integer"
  ? number
  : T extends "boolean"
    ? boolean
    : T extends "tags"
      ? Tags
      : string;

/** Every setting by key, with its value's type: `{ apiUrl: string; maxConcurrentRequests: number; ... }`. */
export type ProviderSettingValues = { [S in (typeof TABLE)[number] as S["key"]]: SettingValue<S["type"]> };

/** Every provider setting, in the order the docs list them. */
export const PROVIDER_SETTINGS: readonly ProviderSetting[] = TABLE;

/** The settings' keys (without the `restcloud:` prefix): what else a config or a provider's inputs hold is no setting. */
export const PROVIDER_SETTING_KEYS: readonly string[] = TABLE.map((s) => s.key);

/** The table's row of a setting. */
export function providerSetting(key: ProviderSettingKey): ProviderSetting {
  return PROVIDER_SETTINGS.find((s) => s.key === key)!;
}

/** The description with what applies when it is not given: "... Default: 8.", "... Default: none.". */
export function settingDescription(s: ProviderSetting): string {
  if (s.default !== undefined) return `${s.description} Default: ${JSON.stringify(s.default)}.`;
  return s.required ? s.description : `${s.description} Default: none.`;
}

/** `pulumi config set [--secret] restcloud:<key> <value>, or <ENV>`: how a setting is set. */
export function howToSet(s: ProviderSetting): string {
  if (s.type === "tags") return `pulumi config set --path restcloud:${s.key}.<key> <value>, or ${s.env} as JSON`;
  return `pulumi config set ${s.secret ? "--secret " : ""}restcloud:${s.key} <value>, or ${s.env}`;
}

/** A setting that is missing or invalid: its key (without `restcloud:`) and a message naming it and how to set it. */
export interface SettingProblem {
  key: string;
  message: string;
}

/**
 * What each type accepts, and the value it reads; the texts of stack config and env arrive as strings.
 * `problems` says, of a value read, what else is wrong with it.
 */
const READERS: Record<SettingType, { rule: string; read(raw: unknown): unknown; problems?(value: never): string[] }> = {
  string: { rule: "must be a string", read: (raw) => (typeof raw === "string" ? raw : undefined) },
  integer: {
    rule: "must be a positive integer",
    read: (raw) => {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      return Number.isInteger(n) && n >= 1 ? n : undefined;
    },
  },
  boolean: {
    rule: "must be true or false",
    read: (raw) => {
      if (typeof raw === "boolean") return raw;
      const text = typeof raw === "string" ? raw.trim().toLowerCase() : undefined;
      return text === "true" ? true : text === "false" ? false : undefined;
    },
  },
  duration: {
    rule: 'must be a duration such as "30s", "2m" or "500ms"',
    read: (raw) => (typeof raw === "string" ? parseDuration(raw.trim()) : undefined),
  },
  tags: {
    rule: 'must be a map of tag keys to string values (as JSON in a variable: {"team":"payments"})',
    read: (raw) => {
      let value = raw;
      if (typeof raw === "string") {
        try {
          value = JSON.parse(raw);
        } catch {
          return undefined;
        }
      }
      return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
    },
    problems: (tags: Tags) => [...tagKeyProblems(tags), ...tagValueProblems(tags)],
  },
};

const isAbsent = (raw: unknown): boolean => raw === undefined || raw === null || raw === "";

/**
 * One setting's value: absent (undefined), its typed value (a duration in milliseconds), or a problem.
 * `raw` is what was given: a string from the stack config or the environment, or a provider input.
 */
function readSetting(s: ProviderSetting, raw: unknown): { value?: unknown; problem?: SettingProblem } {
  if (isAbsent(raw)) {
    return s.required ? { problem: { key: s.key, message: `${s.key} is not set (${howToSet(s)})` } } : {};
  }
  const reader = READERS[s.type];
  const value = reader.read(raw);
  if (value === undefined) return { problem: { key: s.key, message: `${s.key} ${reader.rule} (${howToSet(s)})` } };
  const problems = reader.problems?.(value as never) ?? [];
  if (problems.length > 0) return { problem: { key: s.key, message: `${s.key} ${problems.join("; ")}` } };
  return { value };
}

export interface ProviderConfig {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly zoneUuid?: string;
  /** At most this many API requests in flight at once, across every resource of the operation. */
  readonly maxConcurrentRequests: number;
  /** Whether concurrent reads share requests (one list call per kind and zone per wave). */
  readonly shareReads: boolean;
  /** Whether creates tag their records with their owner (`restcloud:ownerTags`; engine/ownership.ts). */
  readonly ownerTags: boolean;
  /** The tags merged into every taggable resource's own (`restcloud:defaultTags`; engine/tags.ts). */
  readonly defaultTags: Readonly<Tags>;
  /** How long one request may go unanswered (`restcloud:requestTimeout`), as given ("30s"). */
  readonly requestTimeout: string;
  /** The same, in milliseconds. */
  readonly requestTimeoutMs: number;
  /** How often a wait reads what it waits for (`restcloud:pollInterval`), as given ("100ms"). */
  readonly pollInterval: string;
  /** The same, in milliseconds. */
  readonly pollIntervalMs: number;
  /** What is missing or invalid, each with how to set it; empty when complete. */
  missing(): string[];
  /** The same, per setting: its key (without `restcloud:`) and the message. */
  problems(): SettingProblem[];
}

/**
 * The configuration from `restcloud:<key>` of the source (the stack config, or a provider's settings
 * as text), else the setting's environment variable (in `env`), else its default. An empty value counts as
 * not set. Invalid values are reported by `problems()` (and `missing()`); their defaults apply.
 */
export function resolveProviderConfig(
  source: { get(key: string): string | undefined },
  env: Readonly<Record<string, string | undefined>> = process.env,
): ProviderConfig {
  const problems: SettingProblem[] = [];
  const texts: Record<string, string | undefined> = {};
  const values: Record<string, unknown> = {};
  for (const s of PROVIDER_SETTINGS) {
    const text = source.get(`restcloud:${s.key}`) || env[s.env] || undefined;
    const { value, problem } = readSetting(s, text);
    if (problem) problems.push(problem);
    texts[s.key] = text;
    values[s.key] = value;
  }
  const requestTimeoutMs = (values.requestTimeout as number | undefined) ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return {
    apiUrl: texts.apiUrl ?? "",
    apiKey: texts.apiKey ?? "",
    secretKey: texts.secretKey ?? "",
    zoneUuid: texts.zoneUuid,
    maxConcurrentRequests: (values.maxConcurrentRequests as number | undefined) ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
    shareReads: (values.shareReads as boolean | undefined) ?? DEFAULT_SHARE_READS,
    ownerTags: (values.ownerTags as boolean | undefined) ?? DEFAULT_OWNER_TAGS,
    defaultTags: (values.defaultTags as Tags | undefined) ?? {},
    requestTimeout: texts.requestTimeout ?? String(providerSetting("requestTimeout").default),
    requestTimeoutMs,
    pollInterval: texts.pollInterval ?? String(providerSetting("pollInterval").default),
    pollIntervalMs: (values.pollInterval as number | undefined) ?? DEFAULT_POLL_INTERVAL_MS,
    missing: () => problems.map((p) => p.message),
    problems: () => [...problems],
  };
}

/**
 * Per-setting problems of values as a provider resource's inputs give them (number, boolean or
 * string; the stack config's texts are read too): keys that are no setting are ignored (see
 * PROVIDER_SETTING_KEYS), a value not known yet (a preview's UNKNOWN) is not judged, and a setting
 * not given is looked up in `env` (its environment variable), so that a required one is reported
 * only when neither has it.
 */
export function validateProviderSettings(
  values: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): SettingProblem[] {
  return PROVIDER_SETTINGS.flatMap((s) => {
    const given = values[s.key];
    if (given === UNKNOWN || containsUnknown(given)) return [];
    const { problem } = readSetting(s, isAbsent(given) ? env[s.env] || undefined : given);
    return problem ? [problem] : [];
  });
}

/** Whether two configurations would make the same client (the zone is not the client's concern). */
export function sameClientConfig(a: ProviderConfig, b: ProviderConfig): boolean {
  return (
    a.apiUrl === b.apiUrl &&
    a.apiKey === b.apiKey &&
    a.secretKey === b.secretKey &&
    a.maxConcurrentRequests === b.maxConcurrentRequests &&
    a.shareReads === b.shareReads &&
    a.requestTimeoutMs === b.requestTimeoutMs &&
    a.pollIntervalMs === b.pollIntervalMs
  );
}

/** The client of a command (cost, discover, recover): it waits seconds for an API that does not answer, not minutes. */
export function commandClient(
  config: ProviderConfig,
  options: { shareReads?: boolean; env?: NodeJS.ProcessEnv } = {},
): RestCloudClient {
  return new RestCloudClient({
    apiUrl: config.apiUrl,
    apiKey: config.apiKey,
    secretKey: config.secretKey,
    timeoutMs: config.requestTimeoutMs,
    maxConcurrentRequests: config.maxConcurrentRequests,
    shareReads: options.shareReads ?? config.shareReads,
    ...(options.env ? { env: options.env } : {}),
    retry: { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 1000, maxRetryAfterMs: 5000 },
  });
}
