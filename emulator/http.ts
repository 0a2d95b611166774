// Input readers for the routes (query, path or JSON body; numbers and booleans as strings too; a 400 naming the field)
// and envelope builders for the responses.
import { badInput, missing } from "./core";

export type Inputs = Record<string, unknown> | undefined | null;

interface ReadOptions {
  required?: boolean;
}

function raw(src: Inputs, field: string, opts: ReadOptions): unknown {
  const value = src?.[field];
  if (value === undefined || value === null || value === "") {
    if (opts.required) throw missing(field);
    return undefined;
  }
  return value;
}

export function readString(src: Inputs, field: string, opts: { required: true }): string;
export function readString(src: Inputs, field: string, opts?: ReadOptions): string | undefined;
export function readString(src: Inputs, field: string, opts: ReadOptions = {}): string | undefined {
  const value = raw(src, field, opts);
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw badInput(field, "must be a string");
}

export function readBool(src: Inputs, field: string, opts: { required: true }): boolean;
export function readBool(src: Inputs, field: string, opts?: ReadOptions): boolean | undefined;
export function readBool(src: Inputs, field: string, opts: ReadOptions = {}): boolean | undefined {
  const value = raw(src, field, opts);
  if (value === undefined) return undefined;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw badInput(field, "must be true or false");
}

interface NumberOptions extends ReadOptions {
  min?: number;
  max?: number;
}

function checkRange(field: string, n: number, opts: NumberOptions): number {
  if (opts.min !== undefined && n < opts.min) throw badInput(field, `must be at least ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw badInput(field, `must be at most ${opts.max}`);
  return n;
}

export function readInt(src: Inputs, field: string, opts: NumberOptions & { required: true }): number;
export function readInt(src: Inputs, field: string, opts?: NumberOptions): number | undefined;
export function readInt(src: Inputs, field: string, opts: NumberOptions = {}): number | undefined {
  const value = raw(src, field, opts);
  if (value === undefined) return undefined;
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw badInput(field, "must be an integer");
  return checkRange(field, n, opts);
}

export function readNumber(src: Inputs, field: string, opts: NumberOptions & { required: true }): number;
export function readNumber(src: Inputs, field: string, opts?: NumberOptions): number | undefined;
export function readNumber(src: Inputs, field: string, opts: NumberOptions = {}): number | undefined {
  const value = raw(src, field, opts);
  if (value === undefined) return undefined;
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw badInput(field, "must be a number");
  return checkRange(field, n, opts);
}

export function readEnum<T extends string>(
  src: Inputs,
  field: string,
  values: readonly T[],
  opts: { required: true },
): T;
export function readEnum<T extends string>(
  src: Inputs,
  field: string,
  values: readonly T[],
  opts?: ReadOptions,
): T | undefined;
export function readEnum<T extends string>(
  src: Inputs,
  field: string,
  values: readonly T[],
  opts: ReadOptions = {},
): T | undefined {
  const value = readString(src, field, opts);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) throw badInput(field, `must be one of ${values.join(", ")}`);
  return value as T;
}

/**
 * A model record under the spec's field names: each field `names` maps is renamed (in place, so the
 * fields keep their order); the rest pass as they are.
 */
export function spelled<R extends object>(record: R, names: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([field, value]) => [names[field] ?? field, value]));
}

/** `{count, [key]: records}`: the list-style envelope of the spec. */
export function envelope<T>(key: string, records: readonly T[]): Record<string, unknown> {
  return { count: records.length, [key]: records };
}
