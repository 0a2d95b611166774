// The only code in the provider that speaks HTTP: one attempt of one request under the concurrency limit, credentials
// as headers and redacted everywhere. Node's own client, not got: got's loading and per-request work were the largest
// part of the provider processes' CPU time (bench/profile.ts). Retries live in retry.ts; shapes in operations/.
import type * as http from "node:http";
import type { ResolvedConfig } from "./config";
import { ApiError, RETRYABLE_STATUSES, excerpt, parseErrorBody } from "./errors";
import { parseRetryAfter } from "./backoff";
import { Redactor } from "./redact";
import { ApiHealth } from "./health";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface WireRequest {
  operation: string;
  method: HttpMethod;
  /** The path with its parameters substituted, e.g. /restapi/vpc/deleteVpc/1234. */
  path: string;
  query: Record<string, string>;
  /** The JSON body; absent for requests without one (every GET and DELETE). */
  body?: Record<string, unknown>;
  /** False for the one operation that takes no credentials (getpublickey). */
  authenticated: boolean;
  /** Changes state: decides whether a failure without an answer is ambiguous. */
  mutating: boolean;
  /** Overrides the client's per-request timeout. */
  timeoutMs?: number;
}

export interface WireResponse {
  status: number;
  text: string;
}

interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One exchange: the whole answer, its body as UTF-8 text (whatever its status; no redirect is
 * followed: it would carry the credentials elsewhere, and the API does not redirect). Fails with the
 * socket's error (its code: ECONNREFUSED, ECONNRESET...), or with ETIMEDOUT once `timeoutMs` has
 * passed since the request started, whatever it was waiting for.
 */
function exchange(
  url: string,
  method: HttpMethod,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outcome();
    };
    const fail = (error: Error) => settle(() => reject(error));
    const target = new URL(url);
    // Loaded here, not imported: node:http cannot be in the release plugin's startup snapshot (native-plugin.ts).
    const client = process.getBuiltinModule(target.protocol === "https:" ? "node:https" : "node:http");
    const request = client.request(target, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", fail);
      response.on("end", () =>
        settle(() =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        ),
      );
    });
    // The deadline's error is the answer, whatever the socket reports as it is destroyed.
    const deadline = setTimeout(() => {
      const timedOut = Object.assign(new Error(`Timeout awaiting 'request' for ${timeoutMs}ms`), { code: "ETIMEDOUT" });
      fail(timedOut);
      request.destroy(timedOut);
    }, timeoutMs);
    request.on("error", fail);
    request.end(body);
  });
}

/** Connection failures where the request certainly never reached the server. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
]);

/** A counting semaphore: at most `limit` holders at once, the others queue in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** Who waits to see a slot free, without taking it (see `whenFree`). */
  private watchers: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // Hand the slot straight to the next waiter; the count stays the same.
      if (next) next();
      else {
        this.active--;
        const watchers = this.watchers;
        this.watchers = [];
        for (const watcher of watchers) watcher();
      }
    };
  }

  /** Resolves once a slot is free, without taking it: a request not yet sent may still gather work. */
  async whenFree(): Promise<void> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.watchers.push(resolve));
  }

  get inFlight(): number {
    return this.active;
  }
}

export class HttpTransport {
  readonly #config: ResolvedConfig;
  readonly #redactor: Redactor;
  readonly #semaphore: Semaphore | undefined;
  /** Whether the API answers, fed by every attempt (health.ts). */
  readonly health: ApiHealth;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    this.health = new ApiHealth(config.apiUrl);
    this.#redactor = new Redactor([config.apiKey, config.secretKey]);
    this.#semaphore = config.maxConcurrentRequests ? new Semaphore(config.maxConcurrentRequests) : undefined;
  }

  /** Resolves once a request could leave at once (the concurrency limit has a free slot). */
  whenFree(): Promise<void> {
    return this.#semaphore?.whenFree() ?? Promise.resolve();
  }

  get redactor(): Redactor {
    return this.#redactor;
  }

  /** Write a line to the debug log, scrubbed. */
  log(line: string): void {
    this.#config.log?.(this.#redactor.text(line));
  }

  /** One attempt. Resolves with a 2xx answer; throws an ApiError for anything else. */
  async send(request: WireRequest, attempt: number): Promise<WireResponse> {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": "pulumi-restcloud" };
    if (request.authenticated) {
      headers.apikey = this.#config.apiKey;
      headers.secretkey = this.#config.secretKey;
    }
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    const search = new URLSearchParams(request.query).toString();
    const url = `${request.path}${search ? `?${search}` : ""}`;
    const release = await this.#semaphore?.acquire();
    const started = Date.now();
    let status: number | undefined;
    let failure: ApiError | undefined;
    try {
      const answer = await exchange(
        `${this.#config.apiUrl}${url}`,
        request.method,
        headers,
        body,
        request.timeoutMs ?? this.#config.timeoutMs,
      );
      status = answer.status;
      if (status >= 200 && status < 300) return { status, text: answer.text };
      failure = this.httpError(request, status, answer.text, answer.headers["retry-after"]);
      throw failure;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      failure = this.connectionError(request, error);
      throw failure;
    } finally {
      release?.();
      this.health.record({ status, failure });
      this.report(request, url, headers, attempt, started, status, failure);
    }
  }

  private httpError(
    request: WireRequest,
    status: number,
    text: string,
    retryAfter: string | string[] | undefined,
  ): ApiError {
    const parsed = parseErrorBody(text);
    return new ApiError({
      operation: request.operation,
      method: request.method,
      path: request.path,
      status,
      errorCode: this.#redactor.text(parsed.errorCode ?? `HTTP_${status}`),
      message: this.#redactor.text(parsed.message ?? "(empty body)"),
      retryable: RETRYABLE_STATUSES.has(status),
      // A 5xx after a mutation was sent may come after the work was done. 550 is a refusal, 501 never ran.
      ambiguous: request.mutating && status >= 500 && status !== 550 && status !== 501,
      retryAfterMs: parseRetryAfter(retryAfter),
    });
  }

  private connectionError(request: WireRequest, error: unknown): ApiError {
    const code = (error as { code?: unknown }).code;
    const errorCode = typeof code === "string" ? code : "REQUEST_FAILED";
    // The socket's errors may come from another realm (a test's VM context): no `instanceof Error`.
    const message = (error as { message?: unknown }).message;
    const raw = typeof message === "string" ? message : String(error);
    return new ApiError({
      operation: request.operation,
      method: request.method,
      path: request.path,
      errorCode,
      message: this.#redactor.text(excerpt(raw)),
      retryable: true,
      ambiguous: request.mutating && !NOT_SENT_CODES.has(errorCode),
    });
  }

  private report(
    request: WireRequest,
    url: string,
    headers: Record<string, string>,
    attempt: number,
    started: number,
    status: number | undefined,
    failure: ApiError | undefined,
  ): void {
    const durationMs = Date.now() - started;
    const outcome = status !== undefined ? String(status) : `${failure?.errorCode ?? "no response"}`;
    this.log(`${request.method} ${url} -> ${outcome} (${durationMs} ms) [${request.operation} attempt ${attempt}]`);
    const onRequest = this.#config.onRequest;
    if (!onRequest) return;
    onRequest({
      operation: request.operation,
      method: request.method,
      url: this.#redactor.text(url),
      attempt,
      headers: this.#redactor.headers(headers),
      ...(request.body !== undefined ? { body: this.#redactor.value(request.body) } : {}),
      ...(status !== undefined ? { status } : {}),
      durationMs,
      ...(failure ? { error: failure.message } : {}),
    });
  }
}
