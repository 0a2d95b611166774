// The contract between the emulator's core (server, store, clock, jobs) and its areas. An area is `model/<area>.ts`
// (the domain, domain field names, throws `ApiFault`s, never sees a request) and `routes/<area>.ts` (thin: reads
// inputs, calls the model, spells the envelope as the spec does) exporting `register: AreaRegistrar`, listed in
// `server.ts`.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Collection } from "./model/collections";

/** An error the API answers with `{"listErrorResponse": {"errorCode", "errorMsg"}}`. */
export class ApiFault extends Error {
  constructor(
    readonly httpStatus: 400 | 401 | 404 | 409 | 429 | 503 | 550,
    readonly errorCode: string,
    message: string,
    /** The input the fault names, in the model's spelling, when it names one (`cidr: ...`). */
    readonly field?: string,
  ) {
    super(message);
    this.name = "ApiFault";
  }

  /** The same fault naming its field as the request spells it (the route's `specNames`). */
  spelled(names: Readonly<Record<string, string>>): ApiFault {
    const name = this.field === undefined ? undefined : names[this.field];
    if (name === undefined) return this;
    return new ApiFault(this.httpStatus, this.errorCode, name + this.message.slice(this.field!.length), name);
  }
}

/** 400, naming the field: `badInput("cidr", "must be a CIDR block such as 10.0.0.0/16")`. */
export const badInput = (field: string, reason: string): ApiFault =>
  new ApiFault(400, "INVALID_PARAMETER", `${field}: ${reason}`, field);

/** 400 for a required input that is absent or empty. */
export const missing = (field: string): ApiFault =>
  new ApiFault(400, "MISSING_PARAMETER", `${field}: is required`, field);

/** 404 for an unknown (or another account's) uuid. */
export const notFound = (kind: string, uuid: string): ApiFault =>
  new ApiFault(404, "NOT_FOUND", `${kind} ${uuid} does not exist`);

/** 409: the request is well formed but the current state forbids it. */
export const conflict = (message: string): ApiFault => new ApiFault(409, "CONFLICT", message);

/** 550: valid credentials, insufficient rights. */
export const permissionDenied = (message: string): ApiFault => new ApiFault(550, "PERMISSION_DENIED", message);

/** A stored record: the JSON object exactly as the API returns it. */
export type ApiRecord = Record<string, unknown> & { uuid?: string };

/** One account's resources: collection name (e.g. "vpc", "instance") to uuid to record. */
export type AccountResources = Record<string, Record<string, ApiRecord>>;

/** One account's internal entries: collection name to the key of a record to what the emulator keeps about it. */
export type AccountInternals = Record<string, Record<string, Record<string, unknown>>>;

export interface Account {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly isAdmin: boolean;
}

/** The state of one account as areas see it. All mutations go through it so they persist. */
export interface AccountScope {
  readonly account: Account;
  /**
   * The records of one collection, created empty on first use. Mutate, then call `changed()`. Typed
   * by the collection's constant (`collection(VPCS)`: `Record<string, VpcRecord>`); a plain name
   * gives untyped records (for code that walks every collection, and for tests).
   */
  collection<R, I>(kind: Collection<R, I>): Record<string, R>;
  collection(name: string): Record<string, ApiRecord>;
  /** The internal entries of a collection's records, by the record's key (never returned by the API). */
  internal<R, I>(kind: Collection<R, I>): Record<string, I>;
  internal(name: string): Record<string, Record<string, unknown>>;
  /** Remove a record and its internal entry (the caller persists). */
  remove(name: string, key: string): void;
  /** Persist after a mutation (atomic write of the state file, when one is configured). */
  changed(): void;
  /** The names of the collections created so far (for rules that look for any record referring to a uuid). */
  collectionNames(): string[];
}

export type JobStatus = "IN_PROGRESS" | "SUCCEEDED" | "FAILED";

export interface JobRecord {
  jobId: string;
  resourceId: string;
  resourceType: string;
  status: JobStatus;
  errorCode: string | null;
  errorMessage: string | null;
}

/**
 * A change that asynchronous work applies later. Data, not a closure, so that pending work is
 * persisted in the state file and completed after a restart.
 * - `set`: merge these fields into the record, creating it if absent (an upsert); record fields only;
 * - `remove`: delete the record and its internal entry.
 */
export type DeferredChange =
  { collection: string; uuid: string; set: ApiRecord } | { collection: string; uuid: string; remove: true };

/** Behaviours of real deployments that differ from the spec (api-notes.md), switched on by option. */
export const QUIRKS = [
  /** VPC and network records carry `cIDR` instead of `getcIDR`. */
  "cidr-as-cIDR",
  /** List Cluster answers one bare object (the first cluster) instead of an array. */
  "cluster-list-object",
  /** volumeList returns every record twice. */
  "duplicate-list-records",
  /** Deletes of a VPC, network, volume or security group answer success while the record stays listed for one async delay. */
  "lingering-deletes",
  /** Integer and number fields of records arrive as strings. */
  "numbers-as-strings",
  /** Deletes answer `{}` where the spec says a bare boolean. */
  "delete-returns-object",
  /** Every `svc...` envelope key arrives under its `kong...` spelling (svcCreateTagsResponse -> kongCreateTagsResponse). */
  "kong-envelopes",
  /** The old name of `kong-envelopes` (it once renamed the tags envelope only); an alias now. */
  "tags-kong-envelope",
  /** The async job status speaks PENDING / COMPLETE / FAILED instead of IN_PROGRESS / SUCCEEDED / FAILED. */
  "job-status-complete",
] as const;
export type Quirk = (typeof QUIRKS)[number];

/**
 * Every kind of asynchronous work: the API operation that starts it, by its operation name in the
 * route table. The one list: durations are set per kind, and the timeline names each piece's kind.
 */
export const JOB_KINDS = [
  // Instances
  "createInstance",
  "startInstance",
  "stopInstance",
  "resizeVm",
  "destroyInstance",
  "updateInstanceName",
  // Kubernetes clusters
  "createKubernetes",
  "startKubernetes",
  "stopKubernetes",
  "scaleKubernetes",
  "destroyKubernetes",
  // Volumes (jobs)
  "createVolume",
  "attachVolume",
  "detachVolume",
  "resizeVolume",
  "uploadVolume",
  // Snapshots
  "createSnapshot",
  "createVmSnapshot",
  "revertToVmSnapshot",
  // VPCs, tiers and networks
  "updateVpc",
  "restartVpc",
  "updateVpcNetwork",
  "updateNetwork",
  "restartNetwork",
  // Load balancing and VPN
  "createLoadBalancerRule",
  "updateLoadBalancerRule",
  "addVpnConnection",
  "resetVpnConnection",
  "updateVpnCustomerGateway",
  // The `lingering-deletes` quirk: the deleted record goes later
  "deleteVpc",
  "deleteNetwork",
  "deleteVolume",
  "deleteSecurityGroup",
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const isJobKind = (name: string): name is JobKind => (JOB_KINDS as readonly string[]).includes(name);

/** What the core offers every area. */
export interface EmulatorContext {
  /** The shared, read-only catalog (zones, offerings, templates, prices). */
  readonly catalog: import("./seeded-catalog").Catalog;
  /** Switched-on deployment differences; applied by the core at the route edge (areas rarely need them). */
  readonly quirks: ReadonlySet<Quirk>;
  /** A new record identifier (UUID v4, deterministic under `--seed`). */
  newUuid(): string;
  /** Deterministic pseudo-random numbers in [0, 1) under `--seed`. */
  random(): number;
  /** The current time in epoch milliseconds (the clock tests can control). */
  now(): number;
  /** The default asynchronous delay in milliseconds (kinds the duration setting does not name). */
  readonly asyncDelayMs: number;
  /**
   * Apply `changes` after the duration of `kind` (the operation that started the work; see
   * durations.ts), through the one scheduler, then persist.
   */
  later(scope: AccountScope, kind: JobKind, changes: DeferredChange[]): void;
  /**
   * Start an asynchronous job of `kind` (the operation that starts it): returns its jobId at once
   * (status IN_PROGRESS); after the duration of `kind` the changes are applied and the job becomes SUCCEEDED, or
   * FAILED (errorCode NOT_FOUND) when a change targets a record that was removed meanwhile and is not
   * a creation.
   */
  startJob(
    scope: AccountScope,
    kind: JobKind,
    resourceType: string,
    resourceId: string,
    changes: DeferredChange[],
  ): string;
  /** Allocate a free public IPv4 address from the zone's pool (pools are global, persisted). */
  allocatePublicIp(zoneUuid: string): string;
  releasePublicIp(address: string): void;
  /** Allocate a free private address inside `cidr` (skipping network, gateway .1 and broadcast) not used in `used`. */
  allocatePrivateIp(cidr: string, used: ReadonlySet<string>): string;
}

/** The account the request authenticated as, set by the auth hook. */
export function scopeOf(request: FastifyRequest): AccountScope {
  const scope = (request as FastifyRequest & { restcloudScope?: AccountScope }).restcloudScope;
  if (!scope) throw new ApiFault(401, "UNAUTHORIZED", "missing or invalid apikey/secretkey headers");
  return scope;
}

/** Each routes file exports one of these as `register`. */
export type AreaRegistrar = (app: FastifyInstance, ctx: EmulatorContext) => void;
