// Records parsed once per provider process: a list answers every record of its kind in the zone, and the operations of
// a stack list each kind again and again (a create looks for its record among them; a wait reads until ready), so the
// same record text is parsed many times, more as the stack grows. A record seen before, with the same text, is answered
// from its parsed form, as JSON text: each caller gets its own objects, as from a parse. Bounded: the oldest go first.
import type { z } from "zod";

/** How many parsed records are kept (all schemas together): a few MB at most. */
export const PARSED_RECORDS_KEPT = 2_000;

/** Whether a value survives JSON text unchanged: plain objects and arrays of strings, finite numbers, booleans, null. */
function jsonPlain(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(jsonPlain);
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as Record<string, unknown>).every(jsonPlain);
}

export class ParsedRecords {
  /** Per schema, the record's text to its parsed form's text (undefined: parses to something JSON cannot carry). */
  private readonly bySchema = new WeakMap<z.ZodType, Map<string, string | undefined>>();
  /** Every entry's schema and key, oldest first, to drop the oldest past the bound. */
  private readonly order: [Map<string, string | undefined>, string][] = [];
  private first = 0;

  constructor(private readonly kept = PARSED_RECORDS_KEPT) {}

  /**
   * The record parsed by `parse` (the schema's safeParse and its failure), or, for a record of the same
   * text seen before, a fresh copy of what that gave. A failure is never kept: it throws each time.
   */
  parse(schema: z.ZodType, value: unknown, parse: (value: unknown) => unknown): unknown {
    if (value === null || typeof value !== "object") return parse(value);
    let known = this.bySchema.get(schema);
    if (!known) this.bySchema.set(schema, (known = new Map()));
    const key = JSON.stringify(value);
    const text = known.get(key);
    if (text !== undefined) return JSON.parse(text);
    const parsed = parse(value);
    if (!known.has(key)) {
      known.set(key, jsonPlain(parsed) ? JSON.stringify(parsed) : undefined);
      this.order.push([known, key]);
      this.evict();
    }
    return parsed;
  }

  get size(): number {
    return this.order.length - this.first;
  }

  private evict(): void {
    while (this.order.length - this.first > this.kept) {
      const [map, key] = this.order[this.first]!;
      this.order[this.first++] = undefined as never;
      map.delete(key);
    }
    // Compact now and then: the array's head is dropped entries.
    if (this.first > this.kept) {
      this.order.splice(0, this.first);
      this.first = 0;
    }
  }
}
