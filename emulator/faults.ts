// Injected faults as a flaky service shows them: latency, 429 with Retry-After, 503 before processing (nothing
// changed), and 503 after processing (the change applied: the ambiguous case clients must cope with).
import { ApiFault, badInput, missing } from "./core";

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

// ---------------------------------------------------------------------------------------------
// Fault rules: a chosen failure for chosen operations, before or after processing

export const FAULT_EFFECTS = ["status", "hang", "reset"] as const;
/** `status`: an error answer; `hang`: no answer for a while, then the connection closes; `reset`: the connection is reset. */
export type FaultEffect = (typeof FAULT_EFFECTS)[number];

export const FAULT_MOMENTS = ["before", "after"] as const;
/** `before`: the request is not processed; `after`: it is processed in full, and the answer is lost. */
export type FaultMoment = (typeof FAULT_MOMENTS)[number];

export const FAULT_METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
export type FaultMethod = (typeof FAULT_METHODS)[number];

/** One rule, as `PUT /_emulator/faults` (`rules`), `POST /_emulator/faults/rules`, the `faultRules` option and `--fault` give it. */
export interface FaultRule {
  /** The spec's operation name(s) (`createFirewallRule`); absent: every API operation. */
  operation?: string | readonly string[];
  method?: FaultMethod;
  /** Only mutating (true) or only non-mutating (false) operations. */
  mutating?: boolean;
  effect: FaultEffect;
  when: FaultMoment;
  /** Effect `status` only: the HTTP status answered (default 503). */
  status?: number;
  /** Effect `hang` only: how long the request is held before its connection is closed (default 120000). */
  hangMs?: number;
  /** Chance that a matching request fires the rule (default 1). */
  probability?: number;
  /** Fires at most this many times, then stops matching (absent: no limit). */
  count?: number;
}

export const DEFAULT_FAULT_STATUS = 503;
export const DEFAULT_HANG_MS = 120_000;
/** The longest delay a Node timer takes. */
const MAX_HANG_MS = 2 ** 31 - 1;

const RULE_FIELDS = ["operation", "method", "mutating", "effect", "when", "status", "hangMs", "probability", "count"];
/** What `GET /_emulator/faults` adds to a rule: accepted back (so a listing can be sent again) and ignored. */
const READ_ONLY_FIELDS = ["id", "fired", "remaining"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isInteger = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);

/**
 * Validate one rule and fill in its defaults. `at` prefixes the field names of the 400s
 * (`rules[0]` gives `rules[0].effect: ...`). Operation names are checked when `operations` is given.
 */
export function parseFaultRule(input: unknown, at = "", operations?: ReadonlySet<string>): FaultRule {
  const name = (field: string) => (at ? `${at}.${field}` : field);
  if (!isObject(input)) throw badInput(at || "rule", "must be a JSON object");
  for (const key of Object.keys(input)) {
    if (!RULE_FIELDS.includes(key) && !READ_ONLY_FIELDS.includes(key)) {
      throw badInput(name(key), `unknown field (known: ${RULE_FIELDS.join(", ")})`);
    }
  }
  const rule: Partial<FaultRule> = {};

  const { operation } = input;
  if (operation !== undefined) {
    const names = Array.isArray(operation) ? operation : [operation];
    if (names.length === 0 || !names.every((n) => typeof n === "string" && n !== "")) {
      throw badInput(name("operation"), "must be an operation name or a non-empty list of them");
    }
    const unknown = operations ? (names as string[]).find((n) => !operations.has(n)) : undefined;
    if (unknown !== undefined) throw badInput(name("operation"), `unknown operation ${unknown}`);
    rule.operation = Array.isArray(operation) ? [...(operation as string[])] : (operation as string);
  }

  if (input.method !== undefined) {
    const method = typeof input.method === "string" ? input.method.toUpperCase() : input.method;
    if (!(FAULT_METHODS as readonly unknown[]).includes(method)) {
      throw badInput(name("method"), `must be one of ${FAULT_METHODS.join(", ")}`);
    }
    rule.method = method as FaultMethod;
  }

  if (input.mutating !== undefined) {
    if (typeof input.mutating !== "boolean") throw badInput(name("mutating"), "must be true or false");
    rule.mutating = input.mutating;
  }

  for (const [field, values] of [
    ["effect", FAULT_EFFECTS],
    ["when", FAULT_MOMENTS],
  ] as const) {
    const value = input[field];
    if (value === undefined || value === null || value === "") throw missing(name(field));
    if (!(values as readonly unknown[]).includes(value)) {
      throw badInput(name(field), `must be one of ${values.join(", ")}`);
    }
  }
  rule.effect = input.effect as FaultEffect;
  rule.when = input.when as FaultMoment;

  if (input.status !== undefined && rule.effect !== "status") {
    throw badInput(name("status"), "only applies to effect status");
  }
  if (rule.effect === "status") {
    const status = input.status ?? DEFAULT_FAULT_STATUS;
    if (!isInteger(status) || status < 400 || status > 599) {
      throw badInput(name("status"), "must be an integer from 400 to 599");
    }
    rule.status = status;
  }

  if (input.hangMs !== undefined && rule.effect !== "hang")
    throw badInput(name("hangMs"), "only applies to effect hang");
  if (rule.effect === "hang") {
    const hangMs = input.hangMs ?? DEFAULT_HANG_MS;
    if (!isInteger(hangMs) || hangMs < 0 || hangMs > MAX_HANG_MS) {
      throw badInput(name("hangMs"), `must be an integer from 0 to ${MAX_HANG_MS}`);
    }
    rule.hangMs = hangMs;
  }

  const probability = input.probability ?? 1;
  if (typeof probability !== "number" || !(probability >= 0 && probability <= 1)) {
    throw badInput(name("probability"), "must be a number from 0 to 1");
  }
  rule.probability = probability;

  if (input.count !== undefined) {
    if (!isInteger(input.count) || input.count < 1) throw badInput(name("count"), "must be a positive integer");
    rule.count = input.count;
  }
  return rule as FaultRule;
}

/** Validate a list of rules (`rules` of `PUT /_emulator/faults`): `rules[i].field` names a bad field. */
export function parseFaultRules(input: unknown, at: string, operations?: ReadonlySet<string>): FaultRule[] {
  if (!Array.isArray(input)) throw badInput(at, "must be a list of rules");
  return input.map((rule, i) => parseFaultRule(rule, `${at}[${i}]`, operations));
}

/** A rule as `GET /_emulator/faults` lists it. */
export type FaultRuleView = { id: string } & FaultRule & { fired: number; remaining?: number };

/** What a rule is matched against. */
export interface RequestFacts {
  /** Undefined for a path no operation serves: no rule matches it. */
  operation: string | undefined;
  method: string;
  mutating: boolean;
}

interface ActiveRule {
  readonly id: string;
  readonly rule: FaultRule;
  readonly operations?: ReadonlySet<string>;
  fired: number;
  /** Chosen by a request still being processed (an "after" rule fires, or not, once it is answered). */
  reserved: number;
}

/** A rule a request drew. `fire()` counts it; `release()` gives the draw back (an "after" rule whose request failed). */
export interface ChosenRule {
  readonly id: string;
  readonly rule: FaultRule;
  fire(): void;
  release(): void;
}

/** The ordered rule list, with each rule's count of firings. */
export class FaultRules {
  private rules: ActiveRule[] = [];
  private nextId = 1;

  private activate(rule: FaultRule): ActiveRule {
    const names = rule.operation === undefined ? undefined : [rule.operation].flat();
    return { id: `r${this.nextId++}`, rule, operations: names && new Set(names), fired: 0, reserved: 0 };
  }

  replace(rules: readonly FaultRule[]): void {
    this.rules = rules.map((r) => this.activate(r));
  }

  append(rules: readonly FaultRule[]): FaultRuleView[] {
    const added = rules.map((r) => this.activate(r));
    this.rules.push(...added);
    return added.map(view);
  }

  clear(): void {
    this.rules = [];
  }

  /** Remove one rule; false when there is no such id. */
  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  list(): FaultRuleView[] {
    return this.rules.map(view);
  }

  /**
   * The first rule that matches the request and whose probability draw succeeds (a draw is made
   * only for probabilities strictly between 0 and 1), reserved for the request; undefined if none.
   */
  choose(facts: RequestFacts, draw: () => number): ChosenRule | undefined {
    if (facts.operation === undefined) return undefined;
    for (const active of this.rules) {
      const { rule } = active;
      if (active.operations && !active.operations.has(facts.operation)) continue;
      if (rule.method !== undefined && rule.method !== facts.method) continue;
      if (rule.mutating !== undefined && rule.mutating !== facts.mutating) continue;
      if (rule.count !== undefined && active.fired + active.reserved >= rule.count) continue;
      const p = rule.probability ?? 1;
      if (p <= 0 || (p < 1 && draw() >= p)) continue;
      active.reserved++;
      let settled = false;
      const settle = (fired: boolean) => {
        if (settled) return;
        settled = true;
        active.reserved--;
        if (fired) active.fired++;
      };
      return { id: active.id, rule, fire: () => settle(true), release: () => settle(false) };
    }
    return undefined;
  }
}

function view(active: ActiveRule): FaultRuleView {
  const { id, rule, fired, reserved } = active;
  const remaining = rule.count === undefined ? undefined : Math.max(0, rule.count - fired - reserved);
  return { id, ...structuredClone(rule), fired, ...(remaining === undefined ? {} : { remaining }) };
}

/** The API's errorCode for an injected status. */
export function faultErrorCode(status: number): string {
  const known: Record<number, string> = {
    400: "INVALID_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    408: "REQUEST_TIMEOUT",
    409: "CONFLICT",
    429: "TOO_MANY_REQUESTS",
    500: "INTERNAL_ERROR",
    502: "BAD_GATEWAY",
    503: "SERVICE_UNAVAILABLE",
    504: "GATEWAY_TIMEOUT",
    550: "PERMISSION_DENIED",
  };
  return known[status] ?? (status >= 500 ? "SERVICE_UNAVAILABLE" : "INVALID_REQUEST");
}

/** An injected error answer with any status (the error handler answers it with the error envelope). */
export class InjectedStatus extends Error {
  readonly errorCode: string;
  constructor(readonly httpStatus: number) {
    super(`injected fault: HTTP ${httpStatus}`);
    this.name = "InjectedStatus";
    this.errorCode = faultErrorCode(httpStatus);
  }
}

// ---------------------------------------------------------------------------------------------
// The fault log: every fault that fired, rules and random rates alike

export interface FaultLogEntry {
  /** 1, 2, 3...: never reused, not even after the log is cleared. */
  seq: number;
  /** ISO 8601 time the fault fired. */
  at: string;
  /** The spec's operation name; absent for a path no operation serves. */
  operation?: string;
  method: string;
  path: string;
  effect: FaultEffect;
  when: FaultMoment;
  /** The status answered (effect "status"). */
  status?: number;
  /** The rule's id; absent for the random-rate faults. */
  rule?: string;
  /** Whether the request was processed (its change applied). */
  applied: boolean;
  /** For an "after" fault: the uuid of the first record of the answer that was withheld, when it had one. */
  recordUuid?: string;
}

export const FAULT_LOG_LIMIT = 10_000;

export class FaultLog {
  private entries: FaultLogEntry[] = [];
  private seq = 0;

  constructor(private readonly limit = FAULT_LOG_LIMIT) {}

  add(entry: Omit<FaultLogEntry, "seq" | "at">, now: number): FaultLogEntry {
    const full: FaultLogEntry = { seq: ++this.seq, at: new Date(now).toISOString(), ...dropUndefined(entry) };
    this.entries.push(full);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    return full;
  }

  list(): FaultLogEntry[] {
    return structuredClone(this.entries);
  }

  clear(): void {
    this.entries = [];
  }
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

// ---------------------------------------------------------------------------------------------
// `--fault SPEC`

const SPEC_NUMBERS = new Set(["status", "hangMs", "probability", "count"]);

/**
 * A rule from the CLI's `--fault` syntax: comma-separated `key=value` pairs, operation lists
 * separated by `|`: `operation=acquireIpAddress|createVpc,effect=hang,when=after,probability=0.3`.
 * Throws an Error whose one-line message names the offending key. Operation names are checked
 * when the emulator starts (the route table knows them).
 */
export function parseFaultSpec(spec: string): FaultRule {
  const fail = (message: string): never => {
    throw new Error(`--fault ${spec}: ${message}`);
  };
  const input: Record<string, unknown> = {};
  for (const pair of spec.split(",")) {
    if (pair.trim() === "") continue;
    const eq = pair.indexOf("=");
    if (eq < 0) fail(`${pair.trim()}: expected key=value`);
    const key = pair.slice(0, eq).trim();
    const text = pair.slice(eq + 1).trim();
    if (!RULE_FIELDS.includes(key)) fail(`${key}: unknown key (known: ${RULE_FIELDS.join(", ")})`);
    if (key in input) fail(`${key}: given twice`);
    if (key === "operation") {
      const names = text.split("|").map((n) => n.trim());
      input.operation = names.length === 1 ? names[0] : names;
    } else if (key === "mutating") {
      if (text !== "true" && text !== "false") fail("mutating: must be true or false");
      input.mutating = text === "true";
    } else if (SPEC_NUMBERS.has(key)) {
      const n = Number(text);
      if (text === "" || !Number.isFinite(n)) fail(`${key}: not a number: ${text}`);
      input[key] = n;
    } else {
      input[key] = text;
    }
  }
  try {
    return parseFaultRule(input);
  } catch (err) {
    return fail((err as Error).message);
  }
}
