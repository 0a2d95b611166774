// What the look-up functions share: described output fields, the common inputs (zone, name filter) and the
// conversions from the API's tolerant records to plain typed data.
import { z } from "zod";
import { withDefaultText } from "../engine/defaults";

/** Output fields: every one described; optional where the API may leave it out. */
export const out = {
  uuid: (what: string) => z.string().describe(`The ${what}'s identifier (uuid).`),
  name: (what: string) => z.string().describe(`The ${what}'s name.`),
  text: (description: string) => z.string().optional().describe(description),
  number: (description: string) => z.number().optional().describe(description),
  flag: (description: string) => z.boolean().optional().describe(description),
  /** A list output: the function's whole answer is `{ <key>: [...] }`. */
  list: <T extends z.ZodType>(item: T, description: string) => z.array(item).describe(description),
};

/** Inputs shared by many functions. */
export const inputs = {
  zoneUuid: (what: string) =>
    z
      .string()
      .trim()
      .min(1, "must not be empty")
      .optional()
      // Its default (the provider's zone) is added from the function's zoneDefault.
      .describe(`The zone whose ${what} to list.`),
  /** `example`: a pattern that picks some of them by name, for the docs (e.g. "frankfurt" for zones). */
  nameRegex: (what: string, example: string) =>
    withDefaultText(
      z
        .string({ error: "must be a regular expression (a string)" })
        .refine(isRegex, "must be a valid regular expression")
        .optional()
        .describe(
          `Keep only the ${what} whose name matches this regular expression, case-insensitively (e.g. "${example}").`,
        ),
      "no name filter",
    ),
};

function isRegex(source: string): boolean {
  try {
    new RegExp(source, "i");
    return true;
  } catch {
    return false;
  }
}

/** A name filter from an optional `nameRegex` (case-insensitive; absent keeps everything). */
export function nameMatches(nameRegex: string | undefined): (record: { name?: string }) => boolean {
  if (nameRegex === undefined) return () => true;
  const pattern = new RegExp(nameRegex, "i");
  return (record) => pattern.test(record.name ?? "");
}

/** Records that carry an identifier and a name (a record without a uuid cannot be referenced). */
export function identified<T extends { uuid?: string; name?: string }>(
  records: readonly T[],
): (T & { uuid: string; name: string })[] {
  return records
    .filter((r): r is T & { uuid: string } => typeof r.uuid === "string" && r.uuid !== "")
    .map((r) => ({ ...r, name: r.name ?? "" }));
}

/** Lists may repeat a record (api-notes.md): keep the first of each uuid. */
export function distinct<T extends { uuid: string }>(records: readonly T[]): T[] {
  const seen = new Set<string>();
  return records.filter((r) => !seen.has(r.uuid) && seen.add(r.uuid));
}

/** A number the API writes as text, possibly with a unit ("38%", "540672"): undefined when not numeric. */
export function numeric(value: string | number | undefined): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (value === undefined) return undefined;
  const match = /^\s*(-?\d+(?:\.\d+)?)/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** "true"/"false" as text (isDefaultCurrency) or a boolean. */
export function truthy(value: string | boolean | undefined): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === undefined) return undefined;
  return value.trim().toLowerCase() === "true";
}

/** Exactly one match, or an error that lists what was searched and what was found. */
export function exactlyOne<T extends { name: string; uuid: string }>(
  fn: string,
  what: string,
  matches: readonly T[],
  criteria: string,
): T {
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new Error(`restcloud.${fn}: no ${what} matches ${criteria}`);
  const names = matches.map((m) => `"${m.name}" (${m.uuid})`).join(", ");
  throw new Error(`restcloud.${fn}: ${matches.length} ${what}s match ${criteria}: ${names}; narrow the filter`);
}

/** The criteria of a call, for error messages: `{nameRegex: "ubuntu"}`. */
export function describeCriteria(args: Record<string, unknown>): string {
  const given = Object.entries(args).filter(([, v]) => v !== undefined);
  return given.length === 0 ? "(no filter)" : JSON.stringify(Object.fromEntries(given));
}
