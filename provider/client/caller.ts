// The one generic caller: validate the input, place it (path, query, body), send with retries, unwrap and check the
// answer, and for deletes that may linger, confirm the record is gone.
import type { z } from "zod";
import type { RetryOptions } from "./config";
import { ApiError, ApiInputError, isNotFound } from "./errors";
import type { HttpTransport, WireRequest, WireResponse } from "./http";
import { withRetries } from "./retry";
import { SharedReads, keeperOf, kept, type RecordKeeper, type RecordWhere } from "./coalesce";
import { waitForGone, type WaitOptions } from "./waiters";
import { currentScope } from "./scope";
import { ParsedRecords } from "./parsed-records";
import {
  envelopeKeySpellings,
  type AnyOperation,
  type InputOf,
  type OutputOf,
  type ResponseShape,
} from "./operations/define";

export interface CallOptions<T> {
  /**
   * For a mutation: after an ambiguous failure (5xx, timeout, reset), read the state back and answer
   * the effect if it is there (e.g. the VPC of this name), else undefined (the call is then sent again).
   */
  verify?: () => Promise<T | undefined>;
  /** This call's per-request timeout. */
  timeoutMs?: number;
  /** For deletes of records that may linger after success: wait until gone (default true). */
  confirmGone?: boolean;
  /** Options of that wait (default timeout 2 minutes). */
  confirmGoneWait?: WaitOptions<unknown>;
  /**
   * For a list: the records to parse and answer; the others are dropped unparsed (a shared read wanting a
   * few records of a long list: parsing is most of a list's cost).
   */
  keepRecords?: RecordKeeper;
  /**
   * For a list: answer only the records whose field has this value, a filter the service has no input for (a name;
   * the uuid where the list takes none). Only those records are parsed; shared reads still share the request.
   */
  where?: RecordWhere;
}

export interface CallerContext {
  readonly transport: HttpTransport;
  readonly retry: Required<RetryOptions>;
  /** When set, reads made without per-call options share requests (coalesce.ts). */
  readonly sharedReads?: SharedReads;
  /** How often a wait reads what it waits for (config.ts). */
  readonly pollIntervalMs?: number;
}

export const DEFAULT_CONFIRM_GONE_TIMEOUT_MS = 120_000;

/** Call one operation of a table. */
export async function callOperation<O extends AnyOperation>(
  context: CallerContext,
  operation: O,
  rawInput: InputOf<O> | undefined,
  options: CallOptions<OutputOf<O>> = {},
): Promise<OutputOf<O>> {
  const values = validateInput(operation, rawInput);
  if (context.sharedReads && SharedReads.shareable(operation, options))
    return context.sharedReads.call(operation, values, options.where) as Promise<OutputOf<O>>;
  if (!operation.mutating || !context.sharedReads) return sendOperation(context, operation, values, options);
  // What lists taken before (or while) this change says of its kind is out of date: none answers a read after it.
  const settled = context.sharedReads.mutationStarted();
  try {
    return await sendOperation(context, operation, values, options);
  } finally {
    settled();
  }
}

/** Call one operation with validated inputs, on its own request. */
export async function sendOperation<O extends AnyOperation>(
  context: CallerContext,
  operation: O,
  values: Record<string, unknown>,
  options: CallOptions<OutputOf<O>> = {},
): Promise<OutputOf<O>> {
  const where = options.where;
  const keepRecords = options.keepRecords ?? (where ? keeperOf([where]) : undefined);
  const request = toWire(operation, values, options.timeoutMs);
  const log = (line: string): void => context.transport.log(line);
  const gone = confirmGoneCheck(context, operation, values, options);

  // A delete whose record is already gone succeeded, whatever its answer was.
  const verify =
    options.verify ??
    (gone ? async () => ((await gone.isGone()) ? (acknowledgement(operation) as OutputOf<O>) : undefined) : undefined);

  // A delete sent again after an ambiguous failure and answered 404: the first request took effect.
  let ambiguousBefore = false;
  const attempt = async (n: number): Promise<OutputOf<O>> => {
    try {
      return parseResponse(operation, await context.transport.send(request, n), log, keepRecords) as OutputOf<O>;
    } catch (error) {
      if (operation.resend === "delete" && ambiguousBefore && isNotFound(error)) {
        log(`${operation.name}: 404 after an earlier ambiguous failure; the first request took effect`);
        return acknowledgement(operation) as OutputOf<O>;
      }
      if (error instanceof ApiError && error.ambiguous) ambiguousBefore = true;
      throw error;
    }
  };

  let result: OutputOf<O>;
  try {
    result = await withRetries(attempt, {
      mutating: operation.mutating,
      verify,
      resendable: operation.resend !== undefined,
      policy: context.retry,
      log,
    });
  } catch (error) {
    if (operation.notFoundIsEmpty && isNotFound(error)) return undefined as OutputOf<O>;
    throw error;
  }
  if (gone) await gone.wait();
  return where && Array.isArray(result) ? (kept(result, where) as OutputOf<O>) : result;
}

/** Validated input values, or an ApiInputError naming the first field at fault. */
export function validateInput(operation: AnyOperation, rawInput: unknown): Record<string, unknown> {
  const parsed = operation.input.safeParse(rawInput ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0]!;
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  const field = [...issue.path.map(String), ...keys.slice(0, 1)].join(".");
  const reason = issue.code === "unrecognized_keys" ? "is not an input of this operation" : issue.message;
  throw new ApiInputError(operation.name, field, reason);
}

const queryValue = (value: unknown): string =>
  typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);

/** Place the inputs where the operation says: path parameters, query, JSON body; local ones stay here. */
export function toWire(operation: AnyOperation, values: Record<string, unknown>, timeoutMs?: number): WireRequest {
  const pathParams = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const inputsIn =
    operation.inputsIn ?? (operation.method === "GET" || operation.method === "DELETE" ? "query" : "body");
  const query: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || pathParams.includes(key) || operation.localFields?.includes(key)) continue;
    if (inputsIn === "query" || operation.queryFields?.includes(key)) query[key] = queryValue(value);
    else body[key] = value;
  }
  const path = pathParams.reduce(
    (built, name) => built.replace(`{${name}}`, encodeURIComponent(String(values[name]))),
    operation.path,
  );
  return {
    operation: operation.name,
    method: operation.method,
    path,
    query,
    ...(inputsIn === "body" ? { body } : {}),
    authenticated: operation.authenticated ?? true,
    mutating: operation.mutating,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

function unexpected(operation: AnyOperation, message: string): ApiError {
  return new ApiError({
    operation: operation.name,
    method: operation.method,
    path: operation.path,
    status: 200,
    errorCode: "UNEXPECTED_RESPONSE",
    message,
    retryable: false,
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The records this process has parsed (parsed-records.ts): a record listed again is not parsed again. */
const parsedRecords = new ParsedRecords();

/** One record of an answer; a listed one (`listed`) through the records parsed before. */
function parseRecord(
  operation: AnyOperation,
  schema: z.ZodType,
  value: unknown,
  where: string,
  listed = false,
): unknown {
  const parse = (raw: unknown) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    // The issue's path and message only: never the values, which may hold secrets.
    throw unexpected(operation, `${where}: field "${issue.path.join(".")}" ${issue.message}`);
  };
  return listed ? parsedRecords.parse(schema, value, parse) : parse(value);
}

/** Keep the first record of each uuid (some deployments list a record twice). */
function dedupe(records: unknown[], operation: AnyOperation, log: (line: string) => void): unknown[] {
  const seen = new Set<string>();
  const out = records.filter((item) => {
    const uuid = isObject(item) && typeof item.uuid === "string" ? item.uuid : undefined;
    if (uuid === undefined) return true;
    if (seen.has(uuid)) return false;
    seen.add(uuid);
    return true;
  });
  if (out.length < records.length)
    log(`${operation.name}: dropped ${records.length - out.length} duplicate record(s) (same uuid)`);
  return out;
}

/** The records of a list that `keep` wants (all without it), each parsed by `parse` with its place in the list. */
const parseKept = (
  records: unknown[],
  keep: RecordKeeper | undefined,
  parse: (record: unknown, i: number) => unknown,
): unknown[] =>
  keep === undefined
    ? records.map(parse)
    : records.flatMap((record, i) => (isObject(record) && keep(record) ? [parse(record, i)] : []));

/** The answer of a 2xx response, unwrapped and typed; of a list, the records `keep` wants. */
export function parseResponse(
  operation: AnyOperation,
  response: WireResponse,
  log: (line: string) => void,
  keep?: RecordKeeper,
): unknown {
  let body: unknown;
  if (response.text.trim() !== "") {
    try {
      body = JSON.parse(response.text);
    } catch {
      throw unexpected(operation, `HTTP ${response.status} with a body that is not JSON`);
    }
  }
  const shape: ResponseShape = operation.response;
  switch (shape.kind) {
    case "boolean":
      // Some deployments answer {} (or nothing, 204) where the spec says a bare boolean.
      if (body === true || body === undefined || body === "true" || isObject(body)) return true;
      if (body === false || body === "false")
        throw new ApiError({
          operation: operation.name,
          method: operation.method,
          path: operation.path,
          status: response.status,
          errorCode: "REFUSED",
          message: "the service answered false",
          retryable: false,
        });
      throw unexpected(operation, "expected a boolean");
    case "object":
      // The schema decides what it accepts (some take a bare boolean); an empty answer reads as {}.
      return parseRecord(operation, shape.schema, body ?? {}, "answer");
    case "array": {
      // One bare object instead of an array has been seen (List Cluster); {} or nothing is an empty list.
      const items = Array.isArray(body) ? body : isObject(body) && Object.keys(body).length > 0 ? [body] : [];
      if (!Array.isArray(body) && items.length > 0) log(`${operation.name}: answered one object, not an array`);
      return parseKept(dedupe(items, operation, log), keep, (item, i) =>
        parseRecord(operation, shape.record, item, `record ${i}`, true),
      );
    }
    case "envelope":
      return pick(
        operation,
        shape,
        unwrapEnvelope(operation, shape, body, log, shape.pick === "all" ? keep : undefined),
        response.status,
      );
  }
}

function unwrapEnvelope(
  operation: AnyOperation,
  shape: Extract<ResponseShape, { kind: "envelope" }>,
  body: unknown,
  log: (line: string) => void,
  keep: RecordKeeper | undefined,
): unknown[] {
  if (body === undefined) return []; // 202/204 without a body
  if (!isObject(body)) throw unexpected(operation, `expected an envelope {count, ${shape.keys[0]}}`);
  const key = envelopeKeySpellings(shape.keys).find(
    (candidate) => body[candidate] !== undefined && body[candidate] !== null,
  );
  const raw = key === undefined ? [] : body[key];
  const items = Array.isArray(raw) ? raw : isObject(raw) ? [raw] : undefined;
  if (items === undefined) throw unexpected(operation, `${key} is not an array`);
  if (key !== undefined && key !== shape.keys[0])
    log(`${operation.name}: envelope key ${key} (spec: ${shape.keys[0]})`);
  const count = body.count === undefined || body.count === null ? undefined : Number(body.count);
  if (count !== undefined && count !== items.length)
    log(`${operation.name}: count says ${count} but ${items.length} record(s) arrived`);
  if (key === undefined && count !== undefined && count > 0)
    throw unexpected(operation, `count is ${count} but no ${shape.keys[0]} array`);
  return parseKept(dedupe(items, operation, log), keep, (item, i) =>
    parseRecord(operation, shape.record, item, `${key ?? shape.keys[0]}[${i}]`, true),
  );
}

function pick(
  operation: AnyOperation,
  shape: Extract<ResponseShape, { kind: "envelope" }>,
  records: unknown[],
  status: number,
): unknown {
  if (shape.pick === "all") return records;
  if (shape.pick === "first") return records[0];
  if (records.length === 0) throw unexpected(operation, `HTTP ${status} with no record in ${shape.keys[0]}`);
  return records[0];
}

/** The answer a successful delete would have given, for a delete confirmed by reading back. */
function acknowledgement(operation: AnyOperation): unknown {
  const shape = operation.response;
  if (shape.kind === "boolean") return true;
  if (shape.kind === "object") {
    const parsed = shape.schema.safeParse({});
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

function confirmGoneCheck(
  context: CallerContext,
  operation: AnyOperation,
  values: Record<string, unknown>,
  options: CallOptions<unknown>,
): { isGone(): Promise<boolean>; wait(): Promise<void> } | undefined {
  const confirm = operation.confirmGone;
  if (!confirm || options.confirmGone === false) return undefined;
  const inScope = confirm.params(values);
  const [lookup, params] =
    inScope !== undefined
      ? [confirm.lookup, inScope]
      : confirm.otherwise
        ? [confirm.otherwise, { uuid: values.uuid }]
        : [undefined, undefined];
  if (lookup === undefined) return undefined;
  const uuid = String(values.uuid);
  const find = async (): Promise<unknown> => {
    const found: unknown = await callOperation(context, lookup, params);
    const records = Array.isArray(found) ? found : found === undefined ? [] : [found];
    return records.find((item) => isObject(item) && item.uuid === uuid);
  };
  return {
    isGone: async () => {
      try {
        return (await find()) === undefined;
      } catch (error) {
        if (isNotFound(error)) return true;
        throw error;
      }
    },
    wait: () =>
      waitForGone(
        {
          awaited: `${operation.name} of ${uuid} to take effect (record gone from ${lookup.name})`,
          poll: find,
        },
        // Inside an operation (scope.ts), its timeout bounds the wait; outside, a default does.
        {
          ...(currentScope() ? {} : { timeoutMs: DEFAULT_CONFIRM_GONE_TIMEOUT_MS }),
          initialDelayMs: context.pollIntervalMs,
          ...options.confirmGoneWait,
        },
      ),
  };
}
