// Shared zod validators for resource arguments. Each one fails with a reason a user understands, and carries a
// description that flows into schema.json and the reference docs.
import { z } from "zod";
import { parseCidr } from "../client/ipv4";

function ipv4ToInt(address: string): number | undefined {
  const parts = address.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** How a CIDR block reads is the client's (client/ipv4.ts), for its checks and these alike. */
export { parseCidr };

/** True when `inner` lies inside `outer` (both valid CIDRs). */
export function cidrContains(outer: string, inner: string): boolean {
  const o = parseCidr(outer);
  const i = parseCidr(inner);
  if (!o || !i || i.prefix < o.prefix) return false;
  return i.network - (i.network % 2 ** (32 - o.prefix)) === o.network;
}

export const ipv4Address = z
  .string()
  .refine((v) => ipv4ToInt(v) !== undefined, { message: "must be an IPv4 address such as 203.0.113.10" });

/** An IPv4 CIDR block whose address is the network address (10.1.0.0/16, not 10.1.2.3/16). */
export const cidrBlock = z.string().superRefine((value, ctx) => {
  const parsed = parseCidr(value);
  if (!parsed) {
    ctx.addIssue({ code: "custom", message: `"${value}" is not an IPv4 CIDR block such as 10.1.0.0/16` });
    return;
  }
  if (parsed.address !== parsed.network) {
    ctx.addIssue({ code: "custom", message: `"${value}" has host bits set; the network address is required` });
  }
});

/** A comma-separated list of CIDR blocks, e.g. "0.0.0.0/0" or "10.0.0.0/8,192.168.0.0/16". */
export const cidrList = z.string().superRefine((value, ctx) => {
  for (const item of value.split(",").map((s) => s.trim())) {
    if (!parseCidr(item)) ctx.addIssue({ code: "custom", message: `"${item}" is not an IPv4 CIDR block` });
  }
});

/** A TCP/UDP port, 1 to 65535. Sent to the API as a string, as the spec says. */
export const port = z
  .number({ error: "must be a port number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

/** A record identifier as the API issues them. */
export const uuid = z.string().min(1, "must not be empty");

/** A resource name: what the API and its portal display. */
export const resourceName = z
  .string()
  .min(1, "must not be empty")
  .max(63, "must be at most 63 characters")
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    "must start with a letter or digit and hold only letters, digits, '.', '_', '-'",
  );

export const protocol = z.enum(["TCP", "UDP", "ICMP"], { error: "must be one of TCP, UDP, ICMP" });

/**
 * Cross-field rule for rules with a port range: ports are required for TCP/UDP, absent for ICMP,
 * and start <= end.
 */
export function checkPortRange(
  value: { protocol?: string; startPort?: number; endPort?: number },
  ctx: z.RefinementCtx,
): void {
  if (value.protocol === "ICMP") {
    if (value.startPort !== undefined)
      ctx.addIssue({ code: "custom", path: ["startPort"], message: "must not be set for ICMP" });
    return;
  }
  if (value.startPort === undefined && value.protocol !== undefined) {
    ctx.addIssue({ code: "custom", path: ["startPort"], message: `is required for ${value.protocol}` });
  }
  if (value.startPort !== undefined && value.endPort !== undefined && value.endPort < value.startPort) {
    ctx.addIssue({
      code: "custom",
      path: ["endPort"],
      message: `must be greater than or equal to startPort (${value.startPort})`,
    });
  }
}

// ---- references the catalog can confirm ---------------------------------------------------------

/** The catalog records an argument may refer to: confirmed at preview (provider/engine/references.ts). */
export type CatalogKind =
  "zone" | "vpcOffering" | "networkOffering" | "computeOffering" | "storageOffering" | "template" | "kubernetesVersion";

/** The key of the schema metadata that marks a catalog reference (it survives `.describe()`). */
const CATALOG_KEY = "catalogReference";

/** A uuid of a catalog record of `kind`: validated as a uuid, then looked up in the catalog at preview. */
export const catalogReference = (kind: CatalogKind) => uuid.meta({ [CATALOG_KEY]: kind });

/** The catalog kind an argument refers to, through `.optional()`, `.default()` and `.describe()`. */
export function catalogKindOf(schema: z.ZodType): CatalogKind | undefined {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 8; depth++) {
    const kind = z.globalRegistry.get(current)?.[CATALOG_KEY];
    if (typeof kind === "string") return kind as CatalogKind;
    current = (current._zod.def as { innerType?: z.ZodType }).innerType;
  }
  return undefined;
}

// ---- messages -------------------------------------------------------------------------------------

/** What a value is, in words: "a number", "a list", "null". */
function kindOfValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "boolean") return "a boolean";
  return `a ${typeof value}`;
}

interface CheckDef {
  check?: string;
  value?: number;
  inclusive?: boolean;
  format?: string;
  minimum?: number;
  maximum?: number;
}

/** The bounds a number or a string schema declares (its checks), for messages that name the whole range. */
function boundsOf(schema: unknown) {
  const checks = (
    (schema as { _zod?: { def?: { checks?: { _zod: { def: CheckDef } }[] } } })?._zod?.def?.checks ?? []
  ).map((c) => c._zod.def);
  const bounds: {
    min?: { value: number; inclusive: boolean };
    max?: { value: number; inclusive: boolean };
    isInt: boolean;
    minLength?: number;
    maxLength?: number;
  } = { isInt: false };
  for (const c of checks) {
    if (c.check === "number_format" && (c.format === "safeint" || c.format === "int32" || c.format === "uint32"))
      bounds.isInt = true;
    if (c.check === "greater_than" && c.value !== undefined)
      bounds.min = { value: c.value, inclusive: c.inclusive !== false };
    if (c.check === "less_than" && c.value !== undefined)
      bounds.max = { value: c.value, inclusive: c.inclusive !== false };
    if (c.check === "min_length") bounds.minLength = c.minimum;
    if (c.check === "max_length") bounds.maxLength = c.maximum;
  }
  return bounds;
}

/** "must be a whole number from 1 to 128", "must be a number greater than 0". */
function numberRule(schema: unknown): string {
  const { min, max, isInt } = boundsOf(schema);
  const what = isInt ? "a whole number" : "a number";
  if (min?.inclusive && max?.inclusive) return `must be ${what} from ${min.value} to ${max.value}`;
  const parts = [
    min && (min.inclusive ? `at least ${min.value}` : `greater than ${min.value}`),
    max && (max.inclusive ? `at most ${max.value}` : `less than ${max.value}`),
  ].filter(Boolean);
  return parts.length > 0 ? `must be ${what}, ${parts.join(" and ")}` : `must be ${what}`;
}

function lengthRule(schema: unknown, unit: string): string | undefined {
  const { minLength, maxLength } = boundsOf(schema);
  if (minLength === undefined || maxLength === undefined) return undefined;
  return `must be ${minLength} to ${maxLength} ${unit} long`;
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  bigint: "a whole number",
  date: "a date",
};

/**
 * The project's own wording for a zod issue whose schema gave no message: pass it as the `error`
 * option of `safeParse` wherever arguments are validated (the engine's check, the functions), so
 * that every message names what is allowed ("must be a whole number from 1 to 128", "must be one
 * of TCP, UDP") and none reads as the library's ("Too big: expected number to be <=128").
 */
export function inputIssueMessage(issue: z.core.$ZodRawIssue): string {
  const schema = (issue as { schema?: unknown }).schema ?? issue.inst;
  const missing = ["invalid_type", "invalid_union", "invalid_value"].includes(issue.code ?? "");
  if (missing && issue.input === undefined) return "is required";
  switch (issue.code) {
    case "invalid_type": {
      // The value itself never goes into a message (it may be a secret): only what kind it is.
      const fraction = issue.expected === "int" && typeof issue.input === "number";
      const given = fraction ? "" : `, not ${kindOfValue(issue.input)}`;
      if (issue.expected === "int" || issue.expected === "number") return `${numberRule(schema)}${given}`;
      const expected = EXPECTED[issue.expected];
      return expected ? `must be ${expected}${given}` : `must be of type ${issue.expected}${given}`;
    }
    case "too_small":
    case "too_big": {
      const limit = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const inclusive = issue.inclusive !== false;
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") {
        const { min, max } = boundsOf(schema);
        if (min && max) return numberRule(schema);
        if (issue.code === "too_small")
          return inclusive ? `must be at least ${limit}` : `must be greater than ${limit}`;
        return inclusive ? `must be at most ${limit}` : `must be less than ${limit}`;
      }
      if (issue.origin === "string") {
        if (issue.code === "too_small" && Number(limit) === 1) return "must not be empty";
        return (
          lengthRule(schema, "characters") ??
          (issue.code === "too_small" ? `must be at least ${limit} characters` : `must be at most ${limit} characters`)
        );
      }
      if (issue.origin === "array" || issue.origin === "set") {
        if (issue.code === "too_small" && Number(limit) === 1) return "must hold at least one item";
        return issue.code === "too_small" ? `must hold at least ${limit} items` : `must hold at most ${limit} items`;
      }
      return issue.code === "too_small" ? `must be at least ${limit}` : `must be at most ${limit}`;
    }
    case "invalid_value": {
      const values = issue.values.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
      return values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(", ")}`;
    }
    case "invalid_format": {
      if (issue.format === "email") return "must be an e-mail address such as name@example.com";
      if (issue.format === "regex") return `must match ${issue.pattern ?? "the expected pattern"}`;
      return `must be a valid ${issue.format}`;
    }
    case "invalid_union": {
      // Each branch's rule, without what the value was: "must be None, or a Diffie-Hellman group label".
      const alternatives = (issue.errors ?? [])
        .map((branch) => branch[0]?.message?.replace(/, not (?:a|an|null)\b.*$/, ""))
        .filter((m): m is string => typeof m === "string" && m.length > 0);
      if (alternatives.length > 0 && alternatives.every((m) => m.startsWith("must be "))) {
        return `must be ${alternatives.map((m) => m.slice("must be ".length)).join(", or ")}`;
      }
      return alternatives.length > 0 ? alternatives.join("; or ") : "is not one of the allowed forms";
    }
    case "unrecognized_keys":
      return `holds ${issue.keys.length === 1 ? "an unknown key" : "unknown keys"}: ${issue.keys.join(", ")}`;
    case "invalid_key":
      return "holds an invalid key";
    case "invalid_element":
      return "holds an invalid value";
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    default:
      return "is not valid";
  }
}
