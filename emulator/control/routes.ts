// The control endpoints under /_emulator (snapshots, the request log, asynchronous work, accounts, owners): listed in
// emulator/README.md; errors answer `{error}` (ControlError) and a rejected request changes nothing.
import type { FastifyInstance } from "fastify";
import type { Account, DeferredChange } from "../core";
import { InvalidJobDurations, readDurations, readMilliseconds, readProfile, type JobDurations } from "../durations";
import type { DeferredWork } from "../jobs";
import type { State, Store } from "../store";
import type { WorkTimeline } from "../timeline";
import { roleOf } from "./accounts";
import { ControlError } from "./errors";
import { ownersOf } from "./owners";
import { readRequestQuery, type RequestLog } from "./requestlog";
import { InvalidSnapshot, readSnapshot, takeSnapshot } from "./snapshot";

export interface ControlRoutesDeps {
  store: Store;
  work: DeferredWork;
  timeline: WorkTimeline;
  durations: JobDurations;
  requests: RequestLog;
  /** The operation names of the route table. */
  operations: ReadonlySet<string>;
  now(): number;
  /** Replace the whole state by a validated one: cancel the timers, load, reschedule. Returns the record count. */
  load(state: State): number;
}

/** Snapshots can be large: a state of many thousand records is many megabytes. */
export const SNAPSHOT_BODY_LIMIT = 512 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `state=Running`, `{...}` for an object: one line describing a deferred change. */
function describeChange(change: DeferredChange): string {
  if ("remove" in change) return `${change.collection} ${change.uuid}: removed`;
  const fields = Object.entries(change.set).map(([key, value]) => {
    const shown =
      value !== null && typeof value === "object" ? (Array.isArray(value) ? "[...]" : "{...}") : String(value);
    return `${key}=${shown.length > 40 ? `${shown.slice(0, 37)}...` : shown}`;
  });
  const text = fields.join(", ");
  return `${change.collection} ${change.uuid}: ${text.length > 200 ? `${text.slice(0, 197)}...` : text}`;
}

/**
 * The body of `PUT /_emulator/job-durations`: the fields given replace theirs (`durations` replaces
 * every explicit duration; `{}` clears them), the others stay. Checked in full before anything changes.
 */
function readDurationSettings(body: unknown, durations: JobDurations) {
  if (!isObject(body)) throw new ControlError(400, "body: must be {profile?, defaultMs?, durations?}");
  const unknown = Object.keys(body).find((k) => !["profile", "defaultMs", "durations"].includes(k));
  if (unknown !== undefined) {
    throw new ControlError(400, `${unknown}: unknown field (expected profile, defaultMs, durations)`);
  }
  const current = durations.settings;
  try {
    return {
      profile: body.profile === undefined ? current.profile : readProfile("profile", body.profile),
      defaultMs: body.defaultMs === undefined ? current.defaultMs : readMilliseconds("defaultMs", body.defaultMs),
      overrides: body.durations === undefined ? current.overrides : readDurations("durations", body.durations),
    };
  } catch (err) {
    if (err instanceof InvalidJobDurations) throw new ControlError(400, err.message);
    throw err;
  }
}

export function registerControlRoutes(app: FastifyInstance, deps: ControlRoutesDeps): void {
  const config = { plainErrors: true };
  const accountIds = () => new Set(deps.store.accounts.map((a) => a.id));

  app.get("/_emulator/state", { config }, async (_request, reply) => {
    // Serialised here, at once: the state cannot change between the copy and the answer.
    const body = JSON.stringify(takeSnapshot(deps.store.exportState(), deps.now()));
    return reply.type("application/json; charset=utf-8").send(body);
  });

  app.put("/_emulator/state", { config, bodyLimit: SNAPSHOT_BODY_LIMIT }, async (request) => {
    let state: State;
    try {
      ({ state } = readSnapshot(request.body, accountIds(), deps.now()));
    } catch (err) {
      if (err instanceof InvalidSnapshot) throw new ControlError(400, err.message);
      throw err;
    }
    return { loaded: true, records: deps.load(state) };
  });

  app.get("/_emulator/requests", { config }, async (request) =>
    deps.requests.query(readRequestQuery(request.query, deps.operations)),
  );
  app.delete("/_emulator/requests", { config }, async () => {
    deps.requests.clear();
    return { entries: [], next: deps.requests.lastSeq };
  });

  app.get("/_emulator/jobs", { config }, async () => ({ pending: pendingJobs(deps) }));
  app.post("/_emulator/advance", { config }, async (request) => advance(deps, request.body ?? {}));

  app.get("/_emulator/timeline", { config }, async () => ({ work: deps.timeline.list() }));
  app.delete("/_emulator/timeline", { config }, async () => {
    deps.timeline.clear();
    return { work: [] };
  });

  app.get("/_emulator/job-durations", { config }, async () => deps.durations.view());
  app.put("/_emulator/job-durations", { config }, async (request) => {
    deps.durations.replace(readDurationSettings(request.body, deps.durations));
    return deps.durations.view();
  });

  app.get("/_emulator/accounts", { config }, async () => ({
    accounts: deps.store.accounts.map((a: Account) => ({ name: a.name, role: roleOf(a) })),
  }));

  app.get("/_emulator/owners", { config }, async (request) => {
    const name = (request.query as Record<string, unknown>).account ?? "demo";
    const account = typeof name === "string" ? deps.store.account(name) : undefined;
    if (!account) throw new ControlError(404, `account: no account ${String(name)} (see GET /_emulator/accounts)`);
    return ownersOf(account.name, deps.store.resourcesWithInternals(account.id));
  });
}

/** The pending asynchronous work, one line each, as `GET /_emulator/jobs` lists it. */
function pendingJobs(deps: ControlRoutesDeps) {
  const nameOf = (accountId: string): string => deps.store.account(accountId)?.name ?? accountId;
  return deps.work.pendingWork().map((work) => {
    const job = work.jobId ? deps.store.jobs[work.jobId] : undefined;
    return {
      jobId: work.jobId ?? work.id,
      account: nameOf(work.accountId),
      kind: job ? job.resourceType : (work.changes[0]?.collection ?? "change"),
      description: work.changes.map(describeChange).join("; "),
      dueAt: new Date(work.dueAt).toISOString(),
    };
  });
}

// `POST /_emulator/advance`: the body is checked in full (a job that is not pending says why) before any work completes.
function advance(deps: ControlRoutesDeps, body: unknown) {
  if (!isObject(body)) throw new ControlError(400, 'body: must be {} (every pending job) or {jobId: "..."}');
  const unknown = Object.keys(body).find((k) => k !== "jobId");
  if (unknown !== undefined) throw new ControlError(400, `${unknown}: unknown field (expected jobId, or nothing)`);
  const { jobId } = body;
  if (jobId !== undefined && (typeof jobId !== "string" || jobId === "")) {
    throw new ControlError(400, "jobId: must be a non-empty string (a jobId of GET /_emulator/jobs)");
  }
  if (typeof jobId === "string" && !deps.work.find(jobId)) {
    const done = deps.store.jobs[jobId];
    throw new ControlError(
      400,
      done
        ? `jobId: job ${jobId} is not pending (it is ${done.status})`
        : `jobId: no pending job ${jobId} (see GET /_emulator/jobs)`,
    );
  }
  const completed = deps.work.advance(jobId as string | undefined);
  return { completed, pending: deps.store.pending.length };
}
