// The emulator's HTTP server: options, the areas' context, authentication, faults, stats, quirks, the error envelope
// and the `/_emulator` control endpoints (who may use them: control/access.ts).
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { createCatalog } from "./seeded-catalog";
import { Clock } from "./clock";
import { resolveAccounts, type AccountsOption } from "./control/accounts";
import { controlAccessFor, installControlAccess, type ControlAccess } from "./control/access";
import { ControlError } from "./control/errors";
import { AttributingFaultLog, redactUrl, RequestLog } from "./control/requestlog";
import { registerControlRoutes } from "./control/routes";
import { countRecords, InvalidSnapshot, readSnapshot } from "./control/snapshot";
import { registerConsole } from "./console/index";
import {
  ApiFault,
  badInput,
  notFound,
  type AccountScope,
  type EmulatorContext,
  type JobKind,
  type Quirk,
} from "./core";
import {
  JobDurations,
  readDurations,
  readMilliseconds,
  readProfile,
  type JobDurationInput,
  type JobDurationSettings,
  type JobProfile,
} from "./durations";
import {
  FaultRules,
  InjectedStatus,
  mergeFaults,
  NO_FAULTS,
  parseFaultRule,
  parseFaultRules,
  type FaultRule,
  type FaultSettings,
} from "./faults";
import { FaultInjector } from "./injection";
import { allocatePrivateIp, PublicIpPools } from "./ippool";
import { ASYNC_MODES, DeferredWork, type AsyncMode } from "./jobs";
import { installQuirks, parseQuirks } from "./quirks";
import { RandomStream } from "./random";
import { registerAsyncJob } from "./routes/asyncjob";
import { AREAS } from "./routes/index";
import { spelledResources } from "./routes/spellings";
import { RequestStats } from "./stats";
import { readFileSync } from "node:fs";
import { Store, type State } from "./store";
import { WorkTimeline, type TimelineEntry } from "./timeline";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The spec's operation name (last path segment), for stats, faults and quirks. */
    operation?: string;
    /** Whether the operation changes state. */
    mutating?: boolean;
    /** A control endpoint whose errors answer `{error: "..."}` instead of the API's envelope. */
    plainErrors?: boolean;
  }
}

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Beyond loopback (0.0.0.0, a LAN address...), the control endpoints need a token. */
  host?: string;
  /**
   * The token the `/_emulator` control endpoints require when `host` is not a loopback address
   * (default: `RESTCLOUD_EMULATOR_CONTROL_TOKEN`, else a random one; see control/access.ts). On
   * loopback they are open and this is not used.
   */
  controlToken?: string;
  /** Delay of asynchronous work in milliseconds (default 3000): every kind that `jobProfile` and `jobDurations` do not set. */
  asyncDelayMs?: number;
  /** Durations of every kind of asynchronous work: `uniform` (default: `asyncDelayMs`) or `realistic` (README, "Job durations"). */
  jobProfile?: JobProfile;
  /** Durations of chosen kinds, over the profile: `{createVolume: 5000, createInstance: {ms: 40000, jitterMs: 10000}}`. */
  jobDurations?: Partial<Record<JobKind, JobDurationInput>>;
  /** Persist the state to this JSON file after each change and reload it on start. */
  stateFile?: string;
  /** Added latency per API request, in milliseconds. */
  latencyMs?: number;
  /** Probability of a 503 before processing. */
  failRate?: number;
  /** Probability of a 429 with `Retry-After: 1`. */
  throttleRate?: number;
  /** Probability of a 503 after processing (the change is applied). */
  failAfterRate?: number;
  /** Faults aimed at operations, checked in order before the random rates (see README, "Fault rules"). */
  faultRules?: readonly FaultRule[];
  /** Makes uuids, random numbers and fault draws deterministic. */
  seed?: string | number;
  /**
   * Further accounts, `[{name, apiKey, secretKey}]` (an entry named demo or admin gives that built-in
   * account other keys); or, by name, other keys for the built-in accounts: `{demo: {apiKey, secretKey}}`.
   * A missing part, a duplicate name or a duplicate key: `startEmulator` rejects, naming the entry.
   */
  accounts?: AccountsOption;
  /** `auto` (default): asynchronous work completes when due; `manual`: only on `POST /_emulator/advance`. */
  asyncMode?: AsyncMode;
  /** A snapshot file (from `GET /_emulator/state`) to load at start, replacing the state file's content. */
  loadStateFile?: string;
  /** A snapshot (as `GET /_emulator/state` answers it) to load at start; wins over `loadStateFile`. */
  initialState?: unknown;
  /** Deployment differences to switch on. */
  quirks?: readonly Quirk[];
  /** Fastify's request log (default false). */
  logger?: boolean;
}

export interface EmulatorServer {
  app: FastifyInstance;
  context: EmulatorContext;
  /** The token the control endpoints require, and its source; undefined when they are open (loopback). */
  controlAccess: ControlAccess | undefined;
  /** An account's state by name or id. */
  scope(account: string): AccountScope;
  /** The timeline of the asynchronous work, oldest first (as `GET /_emulator/timeline` answers it). */
  timeline(): TimelineEntry[];
  /** Cancel pending timers and close the server. */
  close(): Promise<void>;
}

const PUBLIC_KEY_PATH = "/restapi/costestimate/getpublickey";
export const DEFAULT_HOST = "127.0.0.1";

const pathOf = (request: FastifyRequest): string => request.url.split("?")[0];
const isApi = (request: FastifyRequest): boolean => pathOf(request).startsWith("/restapi/");
/** `/_emulator/...`: never logged in the request log. */
const isControl = (request: FastifyRequest): boolean => /^\/_emulator(\/|$)/.test(pathOf(request));

const errorBody = (errorCode: string, errorMsg: string) => ({ listErrorResponse: { errorCode, errorMsg } });

/** The snapshot to load at start, read from the option or the file; throws an Error naming what is wrong. */
function initialSnapshot(options: EmulatorOptions): { source: string; snapshot: unknown } | undefined {
  if (options.initialState !== undefined) return { source: "initialState", snapshot: options.initialState };
  const file = options.loadStateFile;
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`${file}: cannot read the snapshot: ${(err as Error).message}`);
  }
  try {
    return { source: file, snapshot: JSON.parse(text) };
  } catch (err) {
    throw new Error(`${file}: not JSON: ${(err as Error).message}`);
  }
}

export async function createServer(options: EmulatorOptions = {}): Promise<EmulatorServer> {
  const settings = resolveSettings(options);
  const parts = createParts(options, settings);
  const app = createApp(options.logger === true);
  const operations = collectOperations(app);
  const log = requestLogger(parts);
  const injector = createFaultInjector(parts, log);

  installJsonParser(app);
  app.setErrorHandler(sendError);
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody("NOT_FOUND", `no such endpoint: ${request.method} ${pathOf(request)}`)),
  );
  if (settings.controlAccess) installControlAccess(app, settings.controlAccess);
  installRequestHooks(app, parts, injector, log);
  registerEverything(app, parts, operations);

  try {
    applyStartOptions(options, settings, parts, operations);
  } catch (err) {
    parts.clock.stop();
    await app.close();
    throw err;
  }

  return {
    app,
    context: parts.context,
    controlAccess: settings.controlAccess,
    scope: (name) => {
      const account = parts.store.account(name);
      if (!account) throw new Error(`no account ${name}`);
      return parts.store.scope(account);
    },
    timeline: () => parts.timeline.list(),
    close: async () => {
      parts.clock.stop();
      // Held and reset connections first: the server's close waits for every open request.
      injector.close();
      await app.close();
    },
  };
}

/** The options checked and resolved before anything starts: a mistake throws, naming the option. */
interface Settings {
  seed: string | undefined;
  asyncMode: AsyncMode;
  jobDurations: JobDurationSettings;
  accounts: ReturnType<typeof resolveAccounts>;
  initial: { source: string; snapshot: unknown } | undefined;
  /** Undefined when the control endpoints are open (bound to loopback). */
  controlAccess: ControlAccess | undefined;
}

function resolveSettings(options: EmulatorOptions): Settings {
  const asyncMode = options.asyncMode ?? "auto";
  if (!ASYNC_MODES.includes(asyncMode)) {
    throw new Error(`asyncMode: must be one of ${ASYNC_MODES.join(", ")} (got ${JSON.stringify(asyncMode)})`);
  }
  return {
    seed: options.seed === undefined ? undefined : String(options.seed),
    asyncMode,
    jobDurations: {
      profile: options.jobProfile === undefined ? "uniform" : readProfile("jobProfile", options.jobProfile),
      defaultMs: options.asyncDelayMs === undefined ? 3000 : readMilliseconds("asyncDelayMs", options.asyncDelayMs),
      overrides: options.jobDurations === undefined ? {} : readDurations("jobDurations", options.jobDurations),
    },
    accounts: resolveAccounts(options.accounts),
    initial: initialSnapshot(options),
    controlAccess: controlAccessFor(options.host ?? DEFAULT_HOST, options.controlToken),
  };
}

/** The emulator's mutable parts: state, clock, ids, asynchronous work, faults, counters and logs. */
interface Parts {
  clock: Clock;
  store: Store;
  uuids: RandomStream;
  work: DeferredWork;
  timeline: WorkTimeline;
  durations: JobDurations;
  context: EmulatorContext;
  faults: { get(): FaultSettings; set(next: FaultSettings): void };
  faultRules: FaultRules;
  /** The fault log, which also tells the request log which request a fault struck. */
  faultLog: AttributingFaultLog;
  faultDraws: RandomStream;
  requests: RequestLog;
  stats: RequestStats;
}

function createParts(options: EmulatorOptions, settings: Settings): Parts {
  const clock = new Clock();
  const store = new Store(options.stateFile, settings.accounts);
  const uuids = new RandomStream(settings.seed, "uuid", store.uuidCounter);
  const randoms = new RandomStream(settings.seed, "random");
  const newUuid = (): string => {
    const id = uuids.uuid();
    store.uuidCounter = uuids.counter;
    return id;
  };
  const timeline = new WorkTimeline();
  const work = new DeferredWork(store, clock, newUuid, settings.asyncMode, timeline);
  const catalog = createCatalog();
  const pools = new PublicIpPools(
    () => store.publicIps,
    (zoneUuid) => catalog.zones.findIndex((z: { uuid?: unknown }) => z.uuid === zoneUuid),
  );
  // Its own stream: a drawn duration never shifts the next uuid or random number.
  const durationDraws = new RandomStream(settings.seed, "duration");
  const durations = new JobDurations(settings.jobDurations, () => durationDraws.next());
  let faults: FaultSettings = mergeFaults(NO_FAULTS, {
    failRate: options.failRate,
    throttleRate: options.throttleRate,
    failAfterRate: options.failAfterRate,
    latencyMs: options.latencyMs,
  });
  const context: EmulatorContext = {
    catalog,
    quirks: parseQuirks(options.quirks ?? []),
    get asyncDelayMs() {
      return durations.defaultMs;
    },
    newUuid,
    random: () => randoms.next(),
    now: () => clock.now(),
    later: (scope, kind, changes) => void work.schedule(scope, kind, changes, durations.draw(kind)),
    startJob: (scope, kind, resourceType, resourceId, changes) =>
      work.startJob(scope, kind, resourceType, resourceId, changes, durations.draw(kind)),
    allocatePublicIp: (zoneUuid) => {
      const address = pools.allocate(zoneUuid);
      store.persist();
      return address;
    },
    releasePublicIp: (address) => {
      pools.release(address);
      store.persist();
    },
    allocatePrivateIp,
  };
  return {
    clock,
    store,
    uuids,
    work,
    timeline,
    durations,
    context,
    faults: { get: () => faults, set: (next) => (faults = next) },
    faultRules: new FaultRules(),
    faultLog: new AttributingFaultLog(),
    faultDraws: new RandomStream(settings.seed, "fault"),
    requests: new RequestLog(),
    stats: new RequestStats(),
  };
}

/** The request log's side: when each request arrived, and its entry once answered (or dropped). */
interface RequestLogger {
  arrived(request: FastifyRequest): void;
  answered(request: FastifyRequest, status: number | null): void;
}

function requestLogger({ clock, store, requests, faultLog }: Parts): RequestLogger {
  /** When each request arrived (epoch ms, and a monotonic mark for its duration). */
  const arrivals = new WeakMap<FastifyRequest, { at: number; mark: number }>();
  return {
    arrived: (request) => void arrivals.set(request, { at: clock.now(), mark: performance.now() }),
    answered: (request, status) => {
      if (isControl(request)) return;
      const arrival = arrivals.get(request) ?? { at: clock.now(), mark: performance.now() };
      const scope = (request as FastifyRequest & { restcloudScope?: AccountScope }).restcloudScope;
      // A request faulted before authentication still shows whose keys it carried.
      const account = scope?.account ?? store.authenticate(request.headers.apikey, request.headers.secretkey);
      requests.add({
        time: new Date(arrival.at).toISOString(),
        account: account?.name ?? null,
        method: request.method,
        path: redactUrl(request.url),
        operation: request.routeOptions.config?.operation ?? null,
        status,
        fault: faultLog.faultOf(request),
        durationMs: Math.round((performance.now() - arrival.mark) * 100) / 100,
      });
    },
  };
}

/** Faults before and after processing; a request it leaves unanswered is counted and logged here. */
function createFaultInjector(parts: Parts, log: RequestLogger): FaultInjector {
  return new FaultInjector({
    settings: () => parts.faults.get(),
    rules: parts.faultRules,
    log: parts.faultLog,
    draw: () => parts.faultDraws.next(),
    now: () => parts.clock.now(),
    countUnanswered: (request, outcome) => {
      const config = request.routeOptions.config;
      parts.stats.record(config.operation, config.mutating === true, outcome);
      log.answered(request, null);
    },
  });
}

/**
 * The Fastify instance. Its log goes to stderr so that stdout keeps the CLI's one "listening on"
 * line first; requests are logged without headers, and with secret-looking query parameters masked.
 */
function createApp(logger: boolean): FastifyInstance {
  return Fastify({
    logger: logger
      ? {
          level: "info",
          stream: process.stderr,
          serializers: {
            req: (request: FastifyRequest) => ({
              method: request.method,
              url: redactUrl(request.url),
              host: request.host,
              remoteAddress: request.ip,
            }),
          },
        }
      : false,
  });
}

/** Every operation name of the route table, filled as routes register, for validating fault rules. */
function collectOperations(app: FastifyInstance): Set<string> {
  const operations = new Set<string>();
  app.addHook("onRoute", (route) => {
    if (route.config?.operation) operations.add(route.config.operation);
  });
  return operations;
}

/** JSON bodies, and an empty body where JSON is announced (some clients send the header on every call). */
function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new ApiFault(400, "INVALID_JSON", `request body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });
}

/** The error envelope: the API's `listErrorResponse`, or `{error}` on the newer control endpoints. */
function sendError(error: FastifyError | ApiFault, request: FastifyRequest, reply: FastifyReply) {
  if (request.routeOptions.config?.plainErrors) {
    // The newer control endpoints: `{error}`, bad input (bad JSON included) a 400.
    const status =
      error instanceof ControlError
        ? error.httpStatus
        : error instanceof ApiFault
          ? error.httpStatus
          : ((error as FastifyError).statusCode ?? 500) < 500
            ? 400
            : 500;
    if (status >= 500) reply.log.error(error);
    return reply.code(status).send({ error: error.message });
  }
  if (error instanceof ApiFault || error instanceof InjectedStatus) {
    if (error.httpStatus === 429) reply.header("Retry-After", "1");
    return reply.code(error.httpStatus).send(errorBody(error.errorCode, error.message));
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status < 500) {
    // Fastify's own rejections (bad JSON, unsupported content type, body too large): bad input.
    return reply.code(400).send(errorBody("INVALID_REQUEST", error.message));
  }
  reply.log.error(error);
  return reply.code(500).send(errorBody("INTERNAL_ERROR", error.message));
}

/** The API's keys: the account a request acts as, or a 401 (the public key endpoint needs none). */
function installApiAuthentication(app: FastifyInstance, store: Store): void {
  app.addHook("onRequest", async (request) => {
    if (!isApi(request)) return;
    const account = store.authenticate(request.headers.apikey, request.headers.secretkey);
    if (account) {
      (request as FastifyRequest & { restcloudScope?: AccountScope }).restcloudScope = store.scope(account);
    } else if (pathOf(request) !== PUBLIC_KEY_PATH) {
      throw new ApiFault(401, "UNAUTHORIZED", "missing or invalid apikey/secretkey headers");
    }
  });
}

/** Arrival, faults, authentication and quirks on the way in; lost answers, stats and the log on the way out. */
function installRequestHooks(app: FastifyInstance, parts: Parts, injector: FaultInjector, log: RequestLogger): void {
  app.addHook("onRequest", async (request) => log.arrived(request));
  // Faults first (a gateway throttles before the service authenticates), then authentication.
  app.addHook("onRequest", (request, reply) =>
    parts.faultLog.within(request, () => injector.beforeProcessing(request, reply)),
  );
  installApiAuthentication(app, parts.store);
  installQuirks(app, parts.context);
  // The ambiguous failures: the work is done (quirks included), the answer is lost.
  app.addHook("onSend", (request, reply, payload) =>
    parts.faultLog.within(request, () => injector.afterProcessing(request, reply, payload)),
  );
  app.addHook("onResponse", async (request, reply) => {
    if (injector.wasUnanswered(request)) return;
    log.answered(request, reply.statusCode);
    if (!isApi(request)) return;
    const config = request.routeOptions.config;
    parts.stats.record(config.operation, config.mutating === true, reply.statusCode);
  });
}

/** Replace the whole state by a validated snapshot's: cancel the timers, load, reschedule the pending work. */
function loadState({ work, store, uuids }: Parts, state: State): number {
  work.discardAll();
  store.replaceState(state);
  uuids.counter = state.uuidCounter;
  work.resume();
  return countRecords(state);
}

/** The console, the control endpoints, the job status and every API area. */
function registerEverything(app: FastifyInstance, parts: Parts, operations: ReadonlySet<string>): void {
  const { store, stats, work, faultRules, faultLog, requests, clock } = parts;
  registerConsole(app);
  registerControl(app, {
    store,
    stats,
    getFaults: parts.faults.get,
    setFaults: parts.faults.set,
    rules: faultRules,
    log: faultLog,
    operations,
    cancelPending: () => work.discardAll(),
  });
  registerControlRoutes(app, {
    store,
    work,
    timeline: parts.timeline,
    durations: parts.durations,
    requests,
    operations,
    now: () => clock.now(),
    load: (state) => loadState(parts, state),
  });
  registerAsyncJob(app, work);
  for (const area of AREAS) area.register(app, parts.context);
}

/** The fault rules and the snapshot of the options, once the route table is known; throws naming what is wrong. */
function applyStartOptions(
  options: EmulatorOptions,
  settings: Settings,
  parts: Parts,
  operations: ReadonlySet<string>,
): void {
  if (options.faultRules) {
    try {
      parts.faultRules.replace(parseFaultRules(options.faultRules, "faultRules", operations));
    } catch (err) {
      throw new Error((err as Error).message);
    }
  }
  const { initial } = settings;
  if (!initial) {
    // Work that fell due while the emulator was down completes now; the rest is rescheduled.
    parts.work.resume();
    return;
  }
  const accountIds = new Set(settings.accounts.map((a) => a.id));
  try {
    loadState(parts, readSnapshot(initial.snapshot, accountIds, parts.clock.now(), "snapshot").state);
  } catch (err) {
    if (err instanceof InvalidSnapshot) throw new Error(`${initial.source}: ${err.message}`);
    throw err;
  }
}

interface ControlDeps {
  store: Store;
  stats: RequestStats;
  getFaults(): FaultSettings;
  setFaults(next: FaultSettings): void;
  rules: FaultRules;
  log: AttributingFaultLog;
  /** The operation names of the route table. */
  operations: ReadonlySet<string>;
  cancelPending(): void;
}

/** `/_emulator/...`: never faulted, never counted; open on loopback, else behind the control token (control/access.ts). */
function registerControl(app: FastifyInstance, deps: ControlDeps): void {
  app.get("/_emulator/health", async () => ({ status: "ok" }));
  app.post("/_emulator/reset", async () => {
    deps.cancelPending();
    deps.store.reset();
    deps.stats.reset();
    return { status: "ok" };
  });
  app.get("/_emulator/stats", async () => deps.stats.snapshot());
  app.delete("/_emulator/stats", async () => {
    deps.stats.reset();
    return deps.stats.snapshot();
  });
  const faultSettings = () => ({ ...deps.getFaults(), rules: deps.rules.list() });
  app.get("/_emulator/faults", async () => faultSettings());
  app.put("/_emulator/faults", async (request) => {
    // Everything is validated before anything changes.
    const next = mergeFaults(deps.getFaults(), request.body);
    const rules = (request.body as Record<string, unknown> | undefined)?.rules;
    const parsed = rules === undefined ? undefined : parseFaultRules(rules, "rules", deps.operations);
    deps.setFaults(next);
    if (parsed) deps.rules.replace(parsed);
    return faultSettings();
  });
  app.post("/_emulator/faults/rules", async (request) => {
    const body = request.body;
    if (body === undefined || body === null) throw badInput("body", "must be a rule or a list of rules");
    const parsed = Array.isArray(body)
      ? parseFaultRules(body, "rules", deps.operations)
      : [parseFaultRule(body, "", deps.operations)];
    deps.rules.append(parsed);
    return faultSettings();
  });
  app.delete("/_emulator/faults/rules", async () => {
    deps.rules.clear();
    return faultSettings();
  });
  app.delete("/_emulator/faults/rules/:id", async (request) => {
    const { id } = request.params as { id: string };
    if (!deps.rules.remove(id)) throw notFound("fault rule", id);
    return faultSettings();
  });
  app.get("/_emulator/faults/log", async () => ({ entries: deps.log.list() }));
  app.delete("/_emulator/faults/log", async () => {
    deps.log.clear();
    return { entries: [] };
  });
  app.get("/_emulator/resources", async (request) => {
    const name = (request.query as Record<string, unknown>).account ?? "demo";
    const account = typeof name === "string" ? deps.store.account(name) : undefined;
    if (!account) throw notFound("account", String(name));
    return spelledResources(deps.store.resourcesWithInternals(account.id));
  });
}
