// The shape of an operation table entry: where the operation lives, where each input travels, how inputs are validated,
// what it answers. One generic caller (../caller.ts) serves them all.
import type { z } from "zod";
import type { HttpMethod } from "../http";

/** What an operation answers, and what the caller gets back. */
export type ResponseShape =
  /**
   * `{count, [key]: [records]}`. `pick`: "all" gives the array; "one" the single record (the answer
   * to a create or an action); "first" the record or undefined (a get by uuid). `keys`: the spec's
   * key first, then names some deployments use instead (the `kong` spelling of a `svc` key is always
   * accepted too: see `envelopeKeySpellings`).
   */
  | { kind: "envelope"; keys: readonly string[]; record: z.ZodType; pick: "all" | "one" | "first" }
  /** A bare JSON boolean (deletes). `{}` and an empty answer count as true; `false` is an error. */
  | { kind: "boolean" }
  /** A plain object (a bare Cluster, the VM status, a price, an acknowledgement). */
  | { kind: "object"; schema: z.ZodType }
  /** A bare array of records (List Cluster); one bare object is accepted as a one-element array. */
  | { kind: "array"; record: z.ZodType };

export type ResponseOutput<R extends ResponseShape> = R extends {
  kind: "envelope";
  record: infer S extends z.ZodType;
  pick: infer P;
}
  ? P extends "all"
    ? z.output<S>[]
    : P extends "one"
      ? z.output<S>
      : z.output<S> | undefined
  : R extends { kind: "boolean" }
    ? true
    : R extends { kind: "object"; schema: infer S extends z.ZodType }
      ? z.output<S>
      : R extends { kind: "array"; record: infer S extends z.ZodType }
        ? z.output<S>[]
        : never;

/** After a delete answers success, poll `lookup` until the record is gone (deployments where deletes linger). */
export interface ConfirmGone {
  /** A list or get operation that finds the record by uuid. */
  readonly lookup: Operation<z.ZodType, Extract<ResponseShape, { kind: "envelope" }>>;
  /** Its input for the deleted record, or undefined when the delete's input does not say enough. */
  readonly params: (input: Record<string, unknown>) => Record<string, unknown> | undefined;
  /** When `params` finds too little (no zone given): a get by uuid that answers the record or nothing. */
  readonly otherwise?: Operation<z.ZodType, Extract<ResponseShape, { kind: "envelope" }>>;
}

export interface Operation<I extends z.ZodType = z.ZodType, R extends ResponseShape = ResponseShape> {
  /** The spec's operation name: the last path segment (e.g. "createVpc", "zone-list"). */
  readonly name: string;
  readonly method: HttpMethod;
  /** The spec's path; `{uuid}` marks a path parameter. */
  readonly path: string;
  readonly input: I;
  readonly response: R;
  /** Changes state (including the GET start/stop/resize/attach/acquire calls). */
  readonly mutating: boolean;
  /** Where the inputs that are not path parameters travel: default query for GET/DELETE, body for POST/PUT. */
  readonly inputsIn?: "query" | "body";
  /** Inputs that travel in the query although the others go in the body. */
  readonly queryFields?: readonly string[];
  /** Inputs the client uses itself and never sends (e.g. the zone in which to confirm a delete). */
  readonly localFields?: readonly string[];
  /** False for the one operation that needs no credentials. */
  readonly authenticated?: boolean;
  /** Not in the spec; from api-notes.md (the async job status). */
  readonly outsideSpec?: boolean;
  /** A 404 means "no such record": the call answers undefined (gets by uuid). */
  readonly notFoundIsEmpty?: boolean;
  readonly confirmGone?: ConfirmGone;
  /**
   * How a mutation may be resent after an ambiguous failure (5xx or timeout after sending) without a call-site `verify`:
   * "idempotent" (twice is once: a set of values, an ACL replacement, a restart) is resent; "delete" too, and a 404 to
   * the resend means the first took effect. Unset: the error stands unless the call site verifies (creates, actions
   * whose repeat the service refuses).
   */
  readonly resend?: "idempotent" | "delete";
}

export type AnyOperation = Operation<z.ZodType, ResponseShape>;
export type InputOf<O extends AnyOperation> = z.input<O["input"]>;
export type OutputOf<O extends AnyOperation> = ResponseOutput<O["response"]>;

/** Identity with inference: keeps the literal types of a table row. */
export const op = <I extends z.ZodType, R extends ResponseShape>(operation: Operation<I, R>): Operation<I, R> =>
  operation;

/**
 * Every key under which an envelope's records may arrive, the spec's first: each key as given, and
 * for a key the spec spells `svc...` its `kong...` spelling, which live deployments answer instead
 * (api-notes.md: kongCreateTagsResponse, kongAttachStaticNatResponse, kongInstanceNetworkResponses).
 * For every envelope of the tables, not per operation.
 */
export function envelopeKeySpellings(keys: readonly string[]): readonly string[] {
  const spellings = keys.flatMap((key) => (/^svc[A-Z]/.test(key) ? [key, `kong${key.slice(3)}`] : [key]));
  return [...new Set(spellings)];
}

/** Envelope answers. */
export const list = <S extends z.ZodType>(keys: string | readonly string[], record: S) =>
  ({ kind: "envelope", keys: typeof keys === "string" ? [keys] : keys, record, pick: "all" }) as const;
export const one = <S extends z.ZodType>(keys: string | readonly string[], record: S) =>
  ({ kind: "envelope", keys: typeof keys === "string" ? [keys] : keys, record, pick: "one" }) as const;
export const first = <S extends z.ZodType>(keys: string | readonly string[], record: S) =>
  ({ kind: "envelope", keys: typeof keys === "string" ? [keys] : keys, record, pick: "first" }) as const;
/** Bare answers. */
export const bool = { kind: "boolean" } as const;
export const object = <S extends z.ZodType>(schema: S) => ({ kind: "object", schema }) as const;
export const array = <S extends z.ZodType>(record: S) => ({ kind: "array", record }) as const;
