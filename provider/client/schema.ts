// Building blocks of the operation tables. Record fields (answers) are tolerant: optional, strings and numbers either
// way, nulls dropped, unknown fields kept (the spec's legend S, I32/I64, N, B). Input fields are strict: a bad field is
// refused before any request leaves.
import { z } from "zod";
import { CIDR_REGEX, IPV4_REGEX } from "./ipv4";

// ---- records ---------------------------------------------------------------------------------

const numeric = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const integer = /^-?\d+$/;

const string = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const int = z.union([z.number().int(), z.string().trim().regex(integer).transform(Number)]);
const num = z.union([z.number(), z.string().trim().regex(numeric).transform(Number)]);
const bool = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

/** A string field (also accepts a number or boolean, as text). */
export const stringField = string.optional();
/** An integer field (also accepts an integer in a string). */
export const integerField = int.optional();
/** A number field (also accepts a number in a string). */
export const numberField = num.optional();
/** A boolean field (also accepts "true"/"false"). */
export const booleanField = bool.optional();
/** An array of objects whose fields the spec does not show. */
export const objectArrayField = z.array(z.looseObject({})).optional();
/** The record identifier: always present on records that have one. */
export const recordId = string;

/**
 * A record: the spec's fields, typed; unknown fields pass through. `aliases` maps a field name some
 * deployments use to the spec's name (e.g. cIDR to getcIDR): one field reaches the caller.
 */
export function record<Shape extends z.core.$ZodLooseShape>(shape: Shape, aliases: Record<string, string> = {}) {
  return z.preprocess((value) => normalizeRecord(value, aliases), z.looseObject(shape));
}

function normalizeRecord(value: unknown, aliases: Record<string, string>): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null || item === undefined) continue;
    const name = aliases[key] ?? key;
    if (name !== key && out[name] !== undefined) continue; // the spec's own field wins
    out[name] = item;
  }
  return out;
}

// ---- inputs ----------------------------------------------------------------------------------

/** A strict input object: an unknown field is refused (it is a typo, and would silently be ignored). */
export const input = <Shape extends z.core.$ZodShape>(shape: Shape) => z.strictObject(shape);

/** The input of an operation that takes none. */
export const noInput = z.strictObject({});

/** The inputs of an operation whose parameters the spec does not show: any scalar, sent as given. */
export const anyInput = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** A non-empty identifier or name. */
export const ref = z.string().trim().min(1, "must not be empty");
/** Free text (may be empty). */
export const text = z.string();
export const int64 = z.number().int("must be an integer");
export const positiveInt = z.number().int("must be an integer").positive("must be positive");
export const int32 = z.number().int("must be an integer").min(-2147483648).max(2147483647);
export const number = z.number().refine(Number.isFinite, "must be a finite number");
export const flag = z.boolean();

export const ipv4 = z.string().trim().regex(IPV4_REGEX, "must be an IPv4 address such as 10.0.0.1");
/** An IPv4 CIDR block such as 10.1.0.0/16. */
export const cidr = z.string().trim().regex(CIDR_REGEX, "must be a CIDR block such as 10.1.0.0/16");
/** One or more CIDR blocks, comma-separated. */
export const cidrList = z
  .string()
  .trim()
  .refine(
    (value) => value.split(",").every((part) => CIDR_REGEX.test(part.trim())),
    "must be CIDR blocks such as 10.1.0.0/16, comma-separated",
  );

/** A port: 1-65535. Travels as a string (the spec's type); a number is accepted and converted. */
export const port = z
  .union([z.string().trim(), z.number()])
  .transform(String)
  .refine((value) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 65535, "must be a port, 1-65535");

/** `start <= end` for two optional port fields of the same input. */
export function portOrder(
  start: string,
  end: string,
): [(value: Record<string, unknown>) => boolean, { message: string; path: string[] }] {
  return [
    (value) => value[start] === undefined || value[end] === undefined || Number(value[start]) <= Number(value[end]),
    { message: `must not be lower than ${start}`, path: [end] },
  ];
}

// ---- enumerations of the spec ----------------------------------------------------------------

export const protocol = z.enum(["TCP", "UDP", "ICMP"]);
export const portProtocol = z.enum(["TCP", "UDP"]);
export const lbAlgorithm = z.enum(["source", "roundrobin", "leastconn"]);
export const invoiceStatus = z.enum(["DRAFT", "DUE", "PAID", "OVER_DUE", "CANCEL", "TAX_PENDING"]);
export const resourceType = z.enum([
  "UserVm",
  "Volume",
  "Snapshot",
  "VMSnapshot",
  "Network",
  "PublicIpAddress",
  "FirewallRule",
  "LoadBalancer",
  "PortForwardingRule",
  "Vpc",
  "StaticRoute",
  "NetworkACL",
  "Template",
  "ISO",
]);
