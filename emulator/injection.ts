// Faults at the HTTP edge: the `onRequest` and `onSend` hooks that inject them, the fault log, and the connections held
// or cut on purpose, which `close()` destroys so that stopping never waits for a hang.
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  drawFault,
  faultErrorCode,
  InjectedStatus,
  throttled,
  unavailable,
  type ChosenRule,
  type FaultEffect,
  type FaultLog,
  type FaultLogEntry,
  type FaultRules,
  type FaultSettings,
} from "./faults";

export interface InjectorDeps {
  settings(): FaultSettings;
  rules: FaultRules;
  log: FaultLog;
  /** A draw from the seeded fault stream, in [0, 1). */
  draw(): number;
  now(): number;
  /** Count a request that gets no HTTP answer (stats key "hang" or "reset"). */
  countUnanswered(request: FastifyRequest, outcome: "hang" | "reset"): void;
}

/** A fault decided before processing that fires once the request has been processed. */
type PendingAfter = { kind: "rule"; chosen: ChosenRule } | { kind: "rate" };

const PUBLIC_KEY_PATH = "/restapi/costestimate/getpublickey";
const pathOf = (request: FastifyRequest): string => request.url.split("?")[0];
const errorBody = (errorCode: string, errorMsg: string) => ({ listErrorResponse: { errorCode, errorMsg } });

/** A promise that never settles: an `onSend` hook returning it keeps Fastify from ever writing the answer. */
const never = (): Promise<never> => new Promise<never>(() => undefined);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The uuid of the first record of an answer: of the envelope's first list, of a bare array, or of a bare object. */
export function firstRecordUuid(payload: unknown): string | undefined {
  if (typeof payload !== "string") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return undefined;
  }
  let record: unknown = Array.isArray(body) ? body[0] : body;
  if (isObject(record) && record.uuid === undefined) {
    const list = Object.values(record).find(Array.isArray);
    if (list) record = list[0];
  }
  return isObject(record) && typeof record.uuid === "string" && record.uuid !== "" ? record.uuid : undefined;
}

interface Held {
  socket: Socket;
  timer: NodeJS.Timeout;
}

export class FaultInjector {
  private readonly pending = new WeakMap<FastifyRequest, PendingAfter>();
  private readonly unanswered = new WeakSet<FastifyRequest>();
  private readonly held = new Set<Held>();
  private readonly sleeping = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private closing = false;

  constructor(private readonly deps: InjectorDeps) {}

  /** Whether a request is subject to faults (and latency) at all. */
  static applies(request: FastifyRequest): boolean {
    const path = pathOf(request);
    return path.startsWith("/restapi/") && path !== PUBLIC_KEY_PATH;
  }

  /** True for a request that was held or reset: it has no HTTP status, and was counted already. */
  wasUnanswered(request: FastifyRequest): boolean {
    return this.unanswered.has(request);
  }

  /** The `onRequest` hook: latency, then the rules, then the random rates. */
  readonly beforeProcessing = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!FaultInjector.applies(request)) return;
    const { latencyMs } = this.deps.settings();
    if (latencyMs > 0) await this.sleep(latencyMs);

    const config = request.routeOptions.config;
    const facts = { operation: config.operation, method: request.method, mutating: config.mutating === true };
    const chosen = this.deps.rules.choose(facts, this.deps.draw);
    if (chosen?.rule.when === "after") {
      this.awaitAnswer(request, reply, { kind: "rule", chosen });
      return;
    }
    if (chosen) {
      chosen.fire();
      const { effect, status, hangMs } = chosen.rule;
      this.record(request, { effect, when: "before", status, rule: chosen.id, applied: false });
      if (effect === "status") throw new InjectedStatus(status ?? 503);
      reply.hijack(); // the lifecycle stops here: no handler, no answer
      this.deps.countUnanswered(request, effect);
      this.unanswered.add(request);
      if (effect === "hang") this.hold(request.raw.socket, hangMs ?? 0);
      else this.reset(request.raw.socket);
      return;
    }

    const outcome = drawFault(this.deps.settings(), this.deps.draw);
    if (outcome === "throttle") {
      this.record(request, { effect: "status", when: "before", status: 429, applied: false });
      throw throttled();
    }
    if (outcome === "fail") {
      this.record(request, { effect: "status", when: "before", status: 503, applied: false });
      throw unavailable();
    }
    if (outcome === "failAfter") this.awaitAnswer(request, reply, { kind: "rate" });
  };

  /** The `onSend` hook (registered after every other): the faults that strike once the work is done. */
  readonly afterProcessing = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const pending = this.pending.get(request);
    if (!pending) return payload;
    this.pending.delete(request);
    const status = reply.statusCode;

    if (pending.kind === "rate") {
      // As before rules existed: any answer below 400 is replaced.
      if (status >= 400) return payload;
      this.record(request, {
        effect: "status",
        when: "after",
        status: 503,
        applied: true,
        recordUuid: firstRecordUuid(payload),
      });
      return this.replaceAnswer(reply, 503);
    }

    const { chosen } = pending;
    if (status < 200 || status >= 300) {
      // The handler's own error stands; the rule is not consumed.
      chosen.release();
      return payload;
    }
    chosen.fire();
    const { effect, hangMs } = chosen.rule;
    const answered = effect === "status" ? (chosen.rule.status ?? 503) : undefined;
    this.record(request, {
      effect,
      when: "after",
      status: answered,
      rule: chosen.id,
      applied: true,
      recordUuid: firstRecordUuid(payload),
    });
    if (answered !== undefined) return this.replaceAnswer(reply, answered);
    this.deps.countUnanswered(request, effect as "hang" | "reset");
    this.unanswered.add(request);
    if (effect === "hang") this.hold(request.raw.socket, hangMs ?? 0);
    else this.reset(request.raw.socket);
    return never();
  };

  /** Destroy every held connection and cancel every timer; later faults cut their connection at once. */
  close(): void {
    this.closing = true;
    for (const held of this.held) {
      clearTimeout(held.timer);
      held.socket.destroy();
    }
    this.held.clear();
    for (const sleeper of this.sleeping) {
      clearTimeout(sleeper.timer);
      sleeper.wake();
    }
    this.sleeping.clear();
  }

  private awaitAnswer(request: FastifyRequest, reply: FastifyReply, pending: PendingAfter): void {
    this.pending.set(request, pending);
    // A request that never reaches onSend (its connection died first) gives its rule's draw back.
    reply.raw.once("close", () => {
      if (!this.pending.has(request)) return;
      this.pending.delete(request);
      if (pending.kind === "rule") pending.chosen.release();
    });
  }

  private record(
    request: FastifyRequest,
    entry: Pick<FaultLogEntry, "when" | "status" | "rule" | "applied" | "recordUuid"> & { effect: FaultEffect },
  ): void {
    this.deps.log.add(
      { operation: request.routeOptions.config.operation, method: request.method, path: pathOf(request), ...entry },
      this.deps.now(),
    );
  }

  private replaceAnswer(reply: FastifyReply, status: number): string {
    reply.code(status).header("content-type", "application/json; charset=utf-8");
    if (status === 429) reply.header("Retry-After", "1");
    const message =
      status === 503 ? "the service is temporarily unavailable" : `injected fault: HTTP ${status} after processing`;
    return JSON.stringify(errorBody(faultErrorCode(status), message));
  }

  /** Keep the connection open with no answer for `ms`, then close it. */
  private hold(socket: Socket, ms: number): void {
    if (this.closing || socket.destroyed) {
      socket.destroy();
      return;
    }
    const held: Held = {
      socket,
      timer: setTimeout(() => {
        this.held.delete(held);
        socket.destroy();
      }, ms),
    };
    held.timer.unref();
    this.held.add(held);
    // The client gave up first: nothing left to hold.
    socket.once("close", () => {
      clearTimeout(held.timer);
      this.held.delete(held);
    });
  }

  /** Cut the connection with a TCP reset (the client sees ECONNRESET). */
  private reset(socket: Socket): void {
    try {
      socket.resetAndDestroy();
    } catch {
      socket.destroy();
    }
  }

  /** Latency: an unref'd timer that `close()` cuts short. */
  private sleep(ms: number): Promise<void> {
    if (this.closing) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper = {
        wake: () => resolve(),
        timer: setTimeout(() => {
          this.sleeping.delete(sleeper);
          resolve();
        }, ms),
      };
      sleeper.timer.unref();
      this.sleeping.add(sleeper);
    });
  }
}
