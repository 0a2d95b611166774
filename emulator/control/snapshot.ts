// Snapshots of the emulator's whole mutable state (`/_emulator/state`, `--load`): validated in full before anything
// changes, the first problem reported as `<where>: <what>`; older versions are migrated (`migrateState`).
import type { ApiRecord } from "../core";
import { KEYED_BY } from "../model/collections";
import {
  migrateState,
  READABLE_STATE_VERSIONS,
  STATE_VERSION,
  type PendingWork,
  type State,
  type StoredJob,
} from "../store";

export const SNAPSHOT_FORMAT = "restcloud-emulator-state";
/** The version written; the snapshot's and its state's version are the same. */
export const SNAPSHOT_VERSION = STATE_VERSION;
/** The versions read: older ones are migrated on load. */
const READABLE_VERSIONS = READABLE_STATE_VERSIONS;

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  /** When the snapshot was taken (ISO 8601): pending work resumes with the time it had left then. */
  savedAt: string;
  state: State;
}

/** A snapshot that cannot be loaded; the message names what is wrong. */
export class InvalidSnapshot extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidSnapshot";
  }
}

const STATE_FIELDS_V1 = ["version", "accounts", "jobs", "pending", "publicIps", "uuidCounter"] as const;
const STATE_FIELDS = [...STATE_FIELDS_V1, "internal"] as const;
const JOB_STATUSES = ["IN_PROGRESS", "SUCCEEDED", "FAILED"];
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const typeName = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`);
const fail = (where: string, what: string): never => {
  throw new InvalidSnapshot(`${where}: ${what}`);
};
/** `a.b` for plain keys (uuids, names, numbers), `a["odd key"]` otherwise. */
const at = (where: string, key: string): string =>
  /^[\w$.-]+$/.test(key) ? `${where}.${key}` : `${where}[${JSON.stringify(key)}]`;

/** The snapshot of a state, taken at `now` (epoch ms). */
export function takeSnapshot(state: State, now: number): Snapshot {
  return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, savedAt: new Date(now).toISOString(), state };
}

/** How many records the state holds, over every account and collection. */
export function countRecords(state: State): number {
  let n = 0;
  for (const resources of Object.values(state.accounts)) {
    for (const collection of Object.values(resources)) n += Object.keys(collection).length;
  }
  return n;
}

/**
 * Check a snapshot in full and return it with its state ready to load: the pending work keeps the
 * time it had left when the snapshot was taken, counted from `now`. `accountIds` are the accounts
 * this emulator serves (a snapshot's records must belong to one of them). `where` prefixes messages
 * (the body of a request, or a file name).
 */
export function readSnapshot(
  input: unknown,
  accountIds: ReadonlySet<string>,
  now: number,
  where = "body",
): { state: State; savedAt: number } {
  if (!isObject(input)) {
    return fail(where, `must be a JSON object {format, version, savedAt, state} (got ${typeName(input)})`);
  }
  const unknown = Object.keys(input).find((k) => !["format", "version", "savedAt", "state"].includes(k));
  if (unknown !== undefined) fail(at(where, unknown), "unknown field (expected format, version, savedAt, state)");
  if (input.format !== SNAPSHOT_FORMAT) {
    fail("format", `must be "${SNAPSHOT_FORMAT}" (got ${JSON.stringify(input.format) ?? "nothing"})`);
  }
  if (typeof input.version !== "number" || !READABLE_VERSIONS.includes(input.version)) {
    fail(
      "version",
      `unsupported version ${JSON.stringify(input.version) ?? "(none)"}; this emulator reads versions ${READABLE_VERSIONS.join(", ")}`,
    );
  }
  const savedAt = typeof input.savedAt === "string" ? Date.parse(input.savedAt) : NaN;
  if (!Number.isFinite(savedAt)) {
    fail("savedAt", `must be an ISO 8601 date such as 2025-01-31T12:00:00.000Z (got ${JSON.stringify(input.savedAt)})`);
  }
  const state = readState(input.state, accountIds, input.version as number);
  // Pending work resumes with the time it had left when the snapshot was taken.
  for (const work of state.pending) work.dueAt = now + Math.max(0, work.dueAt - savedAt);
  return { state, savedAt };
}

function readState(input: unknown, accountIds: ReadonlySet<string>, version: number): State {
  const where = "state";
  if (!isObject(input)) return fail(where, `must be an object (got ${typeName(input)})`);
  const fields: readonly string[] = version === 1 ? STATE_FIELDS_V1 : STATE_FIELDS;
  const unknown = Object.keys(input).find((k) => !fields.includes(k));
  if (unknown !== undefined) fail(at(where, unknown), `unknown field (expected ${fields.join(", ")})`);
  if (input.version !== undefined && input.version !== version) {
    fail("state.version", `must be ${version}, the snapshot's version`);
  }
  // Checked in this order, so the first problem reported stays the same.
  const accounts = readAccounts(input.accounts ?? {}, accountIds, version);
  const internal = readInternal(input.internal ?? {}, accounts, accountIds);
  const jobs = readJobs(input.jobs ?? {}, accountIds);
  const pending = readPending(input.pending ?? [], accountIds, jobs);
  const publicIps = readPublicIps(input.publicIps ?? {});
  const uuidCounter = input.uuidCounter ?? 0;
  if (!Number.isSafeInteger(uuidCounter) || (uuidCounter as number) < 0) {
    fail("state.uuidCounter", `must be a non-negative integer (got ${JSON.stringify(uuidCounter)})`);
  }
  return migrateState(
    structuredClone({ version, accounts, internal, jobs, pending, publicIps, uuidCounter: uuidCounter as number }),
  );
}

/**
 * Walks a map of account id -> collection name -> key -> value (the records, or their internal
 * entries), failing on any level that is not an object or an account this emulator lacks.
 */
function eachEntry(
  where: string,
  map: unknown,
  accountIds: ReadonlySet<string>,
  keyedAs: string,
  visit: (entryAt: string, accountId: string, name: string, key: string, value: unknown) => void,
): void {
  if (!isObject(map)) fail(where, `must be an object of accounts (got ${typeName(map)})`);
  for (const [accountId, collections] of Object.entries(map as Record<string, unknown>)) {
    const aw = at(where, accountId);
    if (!accountIds.has(accountId)) {
      fail(aw, `no account ${accountId} in this emulator (accounts: ${[...accountIds].join(", ")})`);
    }
    if (!isObject(collections)) fail(aw, `must be an object of collections (got ${typeName(collections)})`);
    for (const [name, entries] of Object.entries(collections as Record<string, unknown>)) {
      const cw = at(aw, name);
      if (!isObject(entries)) fail(cw, `must be an object of ${keyedAs} (got ${typeName(entries)})`);
      for (const [key, value] of Object.entries(entries as Record<string, unknown>))
        visit(at(cw, key), accountId, name, key, value);
    }
  }
}

/** accounts: account id -> collection name -> key -> record. */
function readAccounts(accounts: unknown, accountIds: ReadonlySet<string>, version: number): State["accounts"] {
  eachEntry("state.accounts", accounts, accountIds, "records keyed by uuid", (where, _accountId, name, key, record) =>
    readRecord(where, name, key, record, version),
  );
  return accounts as State["accounts"];
}

/** internal: account id -> collection name -> key -> the internal entry of a record that exists. */
function readInternal(
  internal: unknown,
  accounts: State["accounts"],
  accountIds: ReadonlySet<string>,
): State["internal"] {
  const records = accounts as Record<string, Record<string, Record<string, unknown>> | undefined>;
  eachEntry(
    "state.internal",
    internal,
    accountIds,
    "entries keyed like the records",
    (where, accountId, name, key, entry) => {
      if (!isObject(entry)) fail(where, `must be an object of internal fields (got ${typeName(entry)})`);
      if (records[accountId]?.[name]?.[key] === undefined)
        fail(where, `no record ${name} ${key} in state.accounts.${accountId}`);
    },
  );
  return internal as State["internal"];
}

/** jobs: jobId -> job. */
function readJobs(jobs: unknown, accountIds: ReadonlySet<string>): State["jobs"] {
  if (!isObject(jobs)) fail("state.jobs", `must be an object of jobs keyed by jobId (got ${typeName(jobs)})`);
  for (const [jobId, job] of Object.entries(jobs as Record<string, unknown>))
    readJob(at("state.jobs", jobId), jobId, job, accountIds);
  return jobs as State["jobs"];
}

/** pending: the asynchronous work not yet applied, each with its own id. */
function readPending(pending: unknown, accountIds: ReadonlySet<string>, jobs: State["jobs"]): PendingWork[] {
  if (!Array.isArray(pending)) fail("state.pending", `must be an array of pending work (got ${typeName(pending)})`);
  const ids = new Set<string>();
  (pending as unknown[]).forEach((work, i) => {
    const id = readWork(`state.pending[${i}]`, work, accountIds, jobs as Record<string, StoredJob>);
    if (ids.has(id)) fail(`state.pending[${i}].id`, `duplicate work id ${id}`);
    ids.add(id);
  });
  return pending as PendingWork[];
}

/** publicIps: zoneUuid -> allocated addresses, none allocated twice. */
function readPublicIps(publicIps: unknown): State["publicIps"] {
  if (!isObject(publicIps))
    fail("state.publicIps", `must be an object of address lists by zone (got ${typeName(publicIps)})`);
  const allocated = new Set<string>();
  for (const [zone, addresses] of Object.entries(publicIps as Record<string, unknown>)) {
    const zw = at("state.publicIps", zone);
    if (!Array.isArray(addresses)) fail(zw, `must be an array of IPv4 addresses (got ${typeName(addresses)})`);
    (addresses as unknown[]).forEach((address, i) => {
      if (typeof address !== "string" || !IPV4.test(address)) fail(`${zw}[${i}]`, "must be an IPv4 address");
      if (allocated.has(address as string)) fail(`${zw}[${i}]`, `address ${String(address)} is allocated twice`);
      allocated.add(address as string);
    });
  }
  return publicIps as State["publicIps"];
}

function readRecord(where: string, collection: string, key: string, record: unknown, version: number): void {
  if (!isObject(record)) fail(where, `must be a record (a JSON object; got ${typeName(record)})`);
  const r = record as ApiRecord;
  const internalField = version === 1 ? undefined : Object.keys(r).find((field) => field.startsWith("_"));
  if (internalField !== undefined) {
    fail(
      at(where, internalField),
      "a record holds the API's fields only: internal fields belong in state.internal (version 1 snapshots kept them here)",
    );
  }
  const keyed = KEYED_BY[collection];
  if (!keyed) {
    if (r.uuid === undefined || r.uuid === "") fail(where, "the record has no uuid");
    if (typeof r.uuid !== "string") fail(`${where}.uuid`, "must be a string");
    if (r.uuid !== key) fail(`${where}.uuid`, `is ${r.uuid}, but the record is filed under ${key}`);
    return;
  }
  const value = r[keyed.field];
  if (value === undefined || value === null || value === "") fail(where, `the record has no ${keyed.field}`);
  if (keyed.equalsKey && String(value) !== key) {
    fail(`${where}.${keyed.field}`, `is ${String(value)}, but the record is filed under ${key}`);
  }
}

function readJob(where: string, jobId: string, job: unknown, accountIds: ReadonlySet<string>): void {
  if (!isObject(job)) return fail(where, `must be a job object (got ${typeName(job)})`);
  if (job.jobId !== jobId) fail(`${where}.jobId`, `must be ${jobId}, the job's key (got ${JSON.stringify(job.jobId)})`);
  if (typeof job.accountId !== "string" || !accountIds.has(job.accountId)) {
    fail(`${where}.accountId`, `must name an account of this emulator (got ${JSON.stringify(job.accountId)})`);
  }
  for (const field of ["resourceId", "resourceType"]) {
    if (typeof job[field] !== "string") fail(`${where}.${field}`, "must be a string");
  }
  if (!JOB_STATUSES.includes(job.status as string))
    fail(`${where}.status`, `must be one of ${JOB_STATUSES.join(", ")}`);
  for (const field of ["errorCode", "errorMessage"]) {
    if (job[field] !== null && typeof job[field] !== "string") fail(`${where}.${field}`, "must be a string or null");
  }
}

function readWork(
  where: string,
  work: unknown,
  accountIds: ReadonlySet<string>,
  jobs: Record<string, StoredJob>,
): string {
  if (!isObject(work)) return fail(where, `must be a pending work object (got ${typeName(work)})`);
  if (typeof work.id !== "string" || work.id === "") fail(`${where}.id`, "must be a non-empty string");
  if (typeof work.accountId !== "string" || !accountIds.has(work.accountId)) {
    fail(`${where}.accountId`, `must name an account of this emulator (got ${JSON.stringify(work.accountId)})`);
  }
  if (typeof work.dueAt !== "number" || !Number.isFinite(work.dueAt)) {
    fail(`${where}.dueAt`, "must be a time in epoch milliseconds");
  }
  if (!Array.isArray(work.changes)) fail(`${where}.changes`, "must be an array of changes");
  const changes = work.changes as unknown[];
  changes.forEach((change, i) => {
    const cw = `${where}.changes[${i}]`;
    if (!isObject(change)) fail(cw, "must be {collection, uuid, set} or {collection, uuid, remove: true}");
    const c = change as Record<string, unknown>;
    if (typeof c.collection !== "string" || c.collection === "") fail(`${cw}.collection`, "must be a non-empty string");
    if (typeof c.uuid !== "string" || c.uuid === "") fail(`${cw}.uuid`, "must be a non-empty string");
    const hasSet = c.set !== undefined;
    if (hasSet === (c.remove !== undefined)) fail(cw, "must hold either set (an object) or remove: true");
    if (hasSet && !isObject(c.set)) fail(`${cw}.set`, "must be an object of fields");
    if (!hasSet && c.remove !== true) fail(`${cw}.remove`, "must be true");
  });
  const existed = work.existedAtStart;
  if (!Array.isArray(existed) || existed.length !== changes.length || existed.some((e) => typeof e !== "boolean")) {
    fail(`${where}.existedAtStart`, `must be an array of ${changes.length} booleans, one per change`);
  }
  if (work.jobId !== undefined) {
    if (typeof work.jobId !== "string") fail(`${where}.jobId`, "must be a string");
    else if (!jobs[work.jobId]) fail(`${where}.jobId`, `names no job of state.jobs (${work.jobId})`);
    else if (jobs[work.jobId].accountId !== work.accountId) {
      fail(`${where}.jobId`, `job ${work.jobId} belongs to another account`);
    }
  }
  return work.id as string;
}
