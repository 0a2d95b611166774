// Deployment differences (core.ts `QUIRKS`), applied at the route edge by operation and method so that no area knows of
// them. cidr-as-cIDR is a field spelling, chosen by the envelope builders instead (routes/network.ts).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { QUIRKS, scopeOf, type ApiRecord, type EmulatorContext, type JobKind, type Quirk } from "./core";

/** Old quirk names that still work, and the quirk each now switches on. */
export const QUIRK_ALIASES: Readonly<Partial<Record<Quirk, Quirk>>> = {
  "tags-kong-envelope": "kong-envelopes",
};

/** The quirks switched on by `names` (aliases resolved); an unknown name is an error. */
export function parseQuirks(names: readonly string[]): Set<Quirk> {
  const unknown = names.filter((n) => !(QUIRKS as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`unknown quirk(s): ${unknown.join(", ")} (known: ${QUIRKS.join(", ")})`);
  return new Set((names as Quirk[]).map((name) => QUIRK_ALIASES[name] ?? name));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Numbers anywhere inside a record become strings. */
function stringifyNumbers(value: unknown): unknown {
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map(stringifyNumbers);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringifyNumbers(v)]));
  return value;
}

/** The records of a response: the arrays of an envelope (beside its `count`), the elements of a bare array, or the bare object. */
function mapRecords(body: unknown, f: (record: unknown) => unknown): unknown {
  if (Array.isArray(body)) return body.map(f);
  if (!isObject(body)) return body;
  if (!("count" in body)) return f(body);
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v.map(f) : v]));
}

/**
 * The `kong` spelling of an envelope key the spec spells with `svc` (svcCreateTagsResponse ->
 * kongCreateTagsResponse, svcInstanceNetworkResponses -> kongInstanceNetworkResponses); any other
 * key is returned as it is.
 */
export function kongKey(key: string): string {
  return /^svc[A-Z]/.test(key) ? `kong${key.slice(3)}` : key;
}

/** An answer with each `svc...` envelope key (a top-level key holding the records) renamed to its `kong...` form. */
export function kongEnvelopes(body: unknown): unknown {
  if (!isObject(body)) return body;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [Array.isArray(v) ? kongKey(k) : k, v]));
}

/** The job statuses of deployments that say COMPLETE (api-notes.md: one client expects PENDING, COMPLETE, FAILED). */
const COMPLETE_VOCABULARY: Readonly<Record<string, string>> = {
  IN_PROGRESS: "PENDING",
  SUCCEEDED: "COMPLETE",
  FAILED: "FAILED",
};

interface RouteFacts {
  operation: string | undefined;
  method: string;
}

/** Each quirk that rewrites a successful JSON response. */
const RESPONSE_REWRITES: Partial<Record<Quirk, (body: unknown, route: RouteFacts) => unknown>> = {
  "cluster-list-object": (body, { operation }) =>
    operation === "listCluster" && Array.isArray(body) && body.length > 0 ? body[0] : body,
  "duplicate-list-records": (body, { operation }) => {
    if (operation !== "volumeList" || !isObject(body) || !Array.isArray(body.listVolumeResponse)) return body;
    const doubled = body.listVolumeResponse.flatMap((r: unknown) => [r, r]);
    return { ...body, count: doubled.length, listVolumeResponse: doubled };
  },
  "numbers-as-strings": (body) => mapRecords(body, stringifyNumbers),
  "delete-returns-object": (body, { method }) => (method === "DELETE" && typeof body === "boolean" ? {} : body),
  "kong-envelopes": (body) => kongEnvelopes(body),
  "job-status-complete": (body, { operation }) =>
    operation === "resourceStatus" && isObject(body) && typeof body.status === "string"
      ? { ...body, status: COMPLETE_VOCABULARY[body.status] ?? body.status }
      : body,
};

/** The deletes whose record stays listed for one async delay under "lingering-deletes" (the work's kind). */
const LINGERING_OPERATIONS: readonly JobKind[] = ["deleteVpc", "deleteNetwork", "deleteVolume", "deleteSecurityGroup"];
const lingeringKind = (operation: string | undefined): JobKind | undefined =>
  LINGERING_OPERATIONS.find((kind) => kind === operation);

interface LingeringRecord {
  collection: string;
  uuid: string;
  record: ApiRecord;
  internal: Record<string, unknown> | undefined;
}
const lingering = new WeakMap<FastifyRequest, { kind: JobKind; records: LingeringRecord[] }>();

const isSuccess = (status: number): boolean => status >= 200 && status < 300;

export function installQuirks(app: FastifyInstance, ctx: EmulatorContext): void {
  if (ctx.quirks.size === 0) return;

  if (ctx.quirks.has("lingering-deletes")) {
    // Before the delete: remember the record (whatever collection holds it).
    app.addHook("preHandler", async (request) => {
      const kind = lingeringKind(request.routeOptions.config.operation);
      if (!kind) return;
      const uuid = (request.params as Record<string, string> | undefined)?.uuid;
      if (!uuid) return;
      const scope = scopeOf(request);
      const found = scope.collectionNames().flatMap((collection) => {
        const record = scope.collection(collection)[uuid];
        if (!record) return [];
        const internal = structuredClone(scope.internal(collection)[uuid]);
        return [{ collection, uuid, record: structuredClone(record), internal }];
      });
      lingering.set(request, { kind, records: found });
    });
    // After a successful delete: put the record back and drop it one async delay later.
    app.addHook("onSend", async (request, reply, payload) => {
      const stashed = lingering.get(request);
      if (!stashed || !isSuccess(reply.statusCode)) return payload;
      const scope = scopeOf(request);
      const removed = stashed.records.filter(
        ({ collection, uuid }) => scope.collection(collection)[uuid] === undefined,
      );
      if (removed.length === 0) return payload;
      for (const { collection, uuid, record, internal } of removed) {
        scope.collection(collection)[uuid] = record;
        if (internal) scope.internal(collection)[uuid] = internal;
      }
      scope.changed();
      ctx.later(
        scope,
        stashed.kind,
        removed.map(({ collection, uuid }) => ({ collection, uuid, remove: true as const })),
      );
      return payload;
    });
  }

  const rewrites = [...ctx.quirks].flatMap((q) => RESPONSE_REWRITES[q] ?? []);
  if (rewrites.length === 0) return;
  app.addHook("onSend", async (request, reply, payload) => {
    if (!request.url.startsWith("/restapi/") || !isSuccess(reply.statusCode) || typeof payload !== "string") {
      return payload;
    }
    if (!String(reply.getHeader("content-type") ?? "").includes("json")) return payload;
    const route: RouteFacts = { operation: request.routeOptions.config.operation, method: request.method };
    const body = rewrites.reduce((b, rewrite) => rewrite(b, route), JSON.parse(payload) as unknown);
    return JSON.stringify(body);
  });
}
