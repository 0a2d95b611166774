// An argument's default, stated once next to the field: the engine's check fills it in (`defaults: stateDefaults(...)`)
// and the docs say "Default: X." from it (schema/sentences.ts).
import { z } from "zod";
import type { AnyObjectSchema } from "./declaration";

export type DefaultValue = string | number | boolean;

/** What applies when an argument is not given: a value, or words where it is no single value. */
export type ArgumentDefault =
  | {
      readonly value: DefaultValue;
      /** A gloss on the value, for the docs: -1 (any). */
      readonly note?: string;
      /**
       * Check fills the value in and state keeps it, so that drift from it shows (an instance stopped
       * out of band while its state defaults to Running); schema.json carries it as `default`, so
       * that the generated SDKs send it too. Otherwise the API applies it, and it is documented only.
       */
      readonly keptInState?: boolean;
    }
  | {
      /** In words: "the template's", "every category". */
      readonly text: string;
    };

// A registry of its own, so that the facts stay out of the JSON Schema zod emits (z.toJSONSchema
// copies the global registry's metadata), and a schema's copies (.describe()) inherit them.
const argumentDefaults = z.registry<ArgumentDefault>();

/** The schema, with `value` as its default (documented; filled in by check when `keptInState`). */
export function withDefault<T extends z.ZodType>(
  schema: T,
  value: DefaultValue,
  options: { keptInState?: boolean; note?: string } = {},
): T {
  return registered(schema, { value, ...options });
}

/** The schema, with what applies when it is not given, in words. */
export function withDefaultText<T extends z.ZodType>(schema: T, text: string): T {
  return registered(schema, { text });
}

/** A copy of the schema with its default: the same validator (a shared `port`) may default differently elsewhere. */
function registered<T extends z.ZodType>(schema: T, fact: ArgumentDefault): T {
  const copy: z.ZodType = schema.clone();
  argumentDefaults.add(copy, fact);
  return copy as T;
}

/** The declared default of an argument's schema (looked for through `.optional()` too). */
export function argumentDefault(schema: z.ZodType): ArgumentDefault | undefined {
  const found = argumentDefaults.get(schema);
  if (found !== undefined) return found;
  return schema instanceof z.ZodOptional ? argumentDefault(schema.unwrap() as z.ZodType) : undefined;
}

/** The defaults check fills in and state keeps: a declaration's `defaults`, from its arguments' facts. */
export function stateDefaults<IS extends AnyObjectSchema>(inputs: IS): Partial<z.infer<IS>> {
  const kept: Record<string, DefaultValue> = {};
  for (const [name, field] of Object.entries(inputs.shape as Record<string, z.ZodType>)) {
    const fact = argumentDefault(field);
    if (fact !== undefined && "value" in fact && fact.keptInState) kept[name] = fact.value;
  }
  return kept as Partial<z.infer<IS>>;
}

/**
 * The declared default value of an argument, for code that must send it (the API would not apply
 * it, or applies another): read from the fact, never written a second time.
 */
export function defaultValue<S extends z.ZodType>(schema: S): NonNullable<z.output<S>> {
  const fact = argumentDefault(schema);
  if (fact === undefined || !("value" in fact)) throw new Error("the argument declares no default value");
  return fact.value as NonNullable<z.output<S>>;
}
