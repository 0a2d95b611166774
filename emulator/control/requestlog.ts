// The request log (`GET /_emulator/requests`): one entry per API request, newest last, in a bounded ring. Credentials
// never enter it: no headers, no bodies, and secret-named query parameters masked (`redactUrl`, also for log lines).
import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyRequest } from "fastify";
import { FaultLog, type FaultLogEntry } from "../faults";
import { ControlError } from "./errors";

export interface RequestLogEntry {
  seq: number;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** The account the keys belong to, or null (no keys, wrong keys, or a request that needs none). */
  account: string | null;
  method: string;
  /** Path and query, query parameters that hold secrets masked. */
  path: string;
  /** The route table's operation name, or null for a path no operation serves. */
  operation: string | null;
  /** The HTTP status answered, or null when no answer was sent (an injected hang or reset). */
  status: number | null;
  /** A short description of the fault injected into the request (`status 503 before (rule r1)`), or null. */
  fault: string | null;
  /** From arrival to the answer (or to the moment the connection was held or cut). */
  durationMs: number;
}

export const REQUEST_LOG_LIMIT = 10_000;
export const DEFAULT_PAGE = 500;
export const MAX_PAGE = 5000;

/** Query parameter names that may carry a secret: their values are masked wherever a URL is shown. */
const SECRET_PARAM =
  /^(api[-_]?key|secret[-_]?key|access[-_]?key|token|auth\w*|\w*password\w*|\w*passwd\w*|\w*secret\w*|\w*psk\w*|\w*presharedkey\w*|\w*credential\w*|signature)$/i;
export const MASK = "***";

/** The URL (path and query) with the values of secret-looking query parameters masked. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const parts = url.slice(q + 1).split("&");
  let changed = false;
  const masked = parts.map((part) => {
    const eq = part.indexOf("=");
    const rawName = eq < 0 ? part : part.slice(0, eq);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, " "));
    } catch {
      // an undecodable name is checked as it is
    }
    if (!SECRET_PARAM.test(name.trim())) return part;
    changed = true;
    return `${rawName}=${MASK}`;
  });
  return changed ? `${url.slice(0, q)}?${masked.join("&")}` : url;
}

/** `status 503 before (rule r1)`, `hang after`, `reset before (rule r2)`. */
export function describeFault(entry: Pick<FaultLogEntry, "effect" | "status" | "when" | "rule">): string {
  const status = entry.effect === "status" && entry.status !== undefined ? ` ${entry.status}` : "";
  return `${entry.effect}${status} ${entry.when}${entry.rule ? ` (rule ${entry.rule})` : ""}`;
}

/**
 * The fault log, which also tells the request log which request each fault struck: the injector's
 * hooks run inside `within(request, ...)`, so an entry added there belongs to that request.
 */
export class AttributingFaultLog extends FaultLog {
  private readonly current = new AsyncLocalStorage<FastifyRequest>();
  private readonly faults = new WeakMap<FastifyRequest, string>();

  /** Run one of the injector's hooks for `request`. */
  within<T>(request: FastifyRequest, hook: () => T): T {
    return this.current.run(request, hook);
  }

  override add(entry: Omit<FaultLogEntry, "seq" | "at">, now: number): FaultLogEntry {
    const full = super.add(entry, now);
    const request = this.current.getStore();
    if (request) this.faults.set(request, describeFault(full));
    return full;
  }

  /** The fault injected into `request`, if any. */
  faultOf(request: FastifyRequest): string | null {
    return this.faults.get(request) ?? null;
  }
}

export interface RequestQuery {
  since?: number;
  operation?: string;
  limit: number;
}

/** A bounded ring of entries, oldest first; `seq` goes on across clears. */
export class RequestLog {
  private readonly ring: (RequestLogEntry | undefined)[];
  /** Index of the oldest entry. */
  private start = 0;
  private size = 0;
  private seq = 0;

  constructor(private readonly limit = REQUEST_LOG_LIMIT) {
    this.ring = new Array<RequestLogEntry | undefined>(limit);
  }

  add(entry: Omit<RequestLogEntry, "seq">): RequestLogEntry {
    const full = { seq: ++this.seq, ...entry };
    const index = (this.start + this.size) % this.limit;
    this.ring[index] = full;
    if (this.size < this.limit) this.size++;
    else this.start = (this.start + 1) % this.limit;
    return full;
  }

  /** The seq of the newest entry ever added (0 before the first). */
  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Entries matching `operation`, newest last. With `since`: the oldest `limit` entries after it
   * (paging forward misses none); without: the newest `limit`. `next` is the seq to pass as `since`
   * to get what comes after this answer.
   */
  query({ since, operation, limit }: RequestQuery): { entries: RequestLogEntry[]; next: number } {
    const matches = (e: RequestLogEntry) => operation === undefined || e.operation === operation;
    const entries: RequestLogEntry[] = [];
    if (since !== undefined) {
      for (let i = 0; i < this.size; i++) {
        const e = this.ring[(this.start + i) % this.limit] as RequestLogEntry;
        if (e.seq <= since || !matches(e)) continue;
        entries.push({ ...e });
        if (entries.length === limit) return { entries, next: e.seq };
      }
      return { entries, next: Math.max(since, this.seq) };
    }
    for (let i = this.size - 1; i >= 0 && entries.length < limit; i--) {
      const e = this.ring[(this.start + i) % this.limit] as RequestLogEntry;
      if (matches(e)) entries.push({ ...e });
    }
    return { entries: entries.reverse(), next: this.seq };
  }

  clear(): void {
    this.ring.fill(undefined);
    this.start = 0;
    this.size = 0;
  }
}

const QUERY_FIELDS = ["since", "operation", "limit"];

/** The query of `GET /_emulator/requests`, validated; a 400 names the parameter. */
export function readRequestQuery(query: unknown, operations: ReadonlySet<string>): RequestQuery {
  const q = (query ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(q).find((k) => !QUERY_FIELDS.includes(k));
  if (unknown !== undefined) {
    throw new ControlError(400, `${unknown}: unknown query parameter (expected ${QUERY_FIELDS.join(", ")})`);
  }
  const single = (name: string): string | undefined => {
    const value = q[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw new ControlError(400, `${name}: must be given once`);
    return value;
  };
  const integer = (name: string, text: string | undefined, min: number, max: number): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min || Number(text) > max) {
      throw new ControlError(400, `${name}: must be an integer from ${min} to ${max} (got ${JSON.stringify(text)})`);
    }
    return Number(text);
  };
  const operation = single("operation");
  if (operation !== undefined && !operations.has(operation)) {
    throw new ControlError(400, `operation: unknown operation ${JSON.stringify(operation)}`);
  }
  return {
    since: integer("since", single("since"), 0, Number.MAX_SAFE_INTEGER),
    operation,
    limit: integer("limit", single("limit"), 1, MAX_PAGE) ?? DEFAULT_PAGE,
  };
}
