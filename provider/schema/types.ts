// Zod schemas to Pulumi schema types, through `z.toJSONSchema`: primitives, arrays, maps, and the named types (enums
// and nested objects) collected in a registry that becomes schema.json's `types`.
import { z } from "zod";
import { REPOSITORY } from "../plugin-release";

/** A Pulumi type reference (primitive, array, map, named type or union). */
export interface TypeSpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}

/** A Pulumi property: a type with its description and flags. */
export interface PropertySpec extends TypeSpec {
  description?: string;
  default?: string | number | boolean;
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface EnumTypeSpec {
  type: "string" | "integer" | "number" | "boolean";
  description?: string;
  enum: { value: string | number | boolean }[];
}

export type ComplexTypeSpec = ObjectTypeSpec | EnumTypeSpec;

/** The subset of JSON Schema that `z.toJSONSchema` produces and this module reads. */
export interface JsonSchema {
  /** One type, or several (`["string", "null"]` for a nullable string, `["string", "number"]` for a union). */
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  enum?: (string | number | boolean | null)[];
  const?: string | number | boolean | null;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

export const PACKAGE_NAME = "restcloud";
/** The Python distribution and import package (`pip install pulumi_restcloud`, `import pulumi_restcloud`). */
export const PYTHON_PACKAGE = "pulumi_restcloud";
/** The Go module of sdk/go (a subfolder of the repository: its releases are tagged `sdk/go/v<version>`). */
export const GO_MODULE = `${REPOSITORY}/sdk/go`;
/** The Go package programs import (`restcloud.NewVpc`). */
export const GO_IMPORT_PATH = `${GO_MODULE}/restcloud`;
export const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };

/** The schema token of a name in the package's only module: `restcloud:index:<name>`. */
export const token = (name: string): string => `${PACKAGE_NAME}:index:${name}`;

/** `"publicIpAddress"` to `"PublicIpAddress"`. */
export const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** An array property's item name: `zones` to `Zone`, `addresses` to `Address`, `data` to `DataItem`. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return name.slice(0, -3) + "y";
  if (/(ss|x|ch|sh)es$/.test(name)) return name.slice(0, -2);
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return name + "Item";
}

/** The JSON Schema of a zod schema: what users give (`input`) or what they get back (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", reused: "inline" }) as JsonSchema;
}

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** The bounds and patterns of a schema, as short phrases for the docs ("1 to 65535", "at most 63 characters"). */
export function constraintsOf(schema: JsonSchema): string[] {
  const s = unwrapNullable(schema);
  const phrases: string[] = [];
  const min = s.minimum ?? s.exclusiveMinimum;
  const max = s.maximum ?? s.exclusiveMaximum;
  const low = min !== undefined && min > -SAFE_INTEGER ? min : undefined;
  const high = max !== undefined && max < SAFE_INTEGER ? max : undefined;
  if (low !== undefined && high !== undefined) phrases.push(`${low} to ${high}`);
  else if (low !== undefined) phrases.push(`at least ${low}`);
  else if (high !== undefined) phrases.push(`at most ${high}`);
  if (s.minLength !== undefined && s.minLength > 1) phrases.push(`at least ${s.minLength} characters`);
  if (s.minLength === 1 && s.maxLength === undefined) phrases.push("non-empty");
  if (s.maxLength !== undefined) phrases.push(`${s.minLength ?? 0} to ${s.maxLength} characters`);
  if (s.pattern !== undefined) phrases.push(`matches \`${s.pattern}\``);
  if (s.format !== undefined) phrases.push(s.format);
  return phrases;
}

function unwrapNullable(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return schema;
  const kept = options.filter((o) => o.type !== "null");
  return kept.length === 1 ? { ...kept[0], description: schema.description ?? kept[0].description } : schema;
}

function enumValues(schema: JsonSchema): (string | number | boolean)[] | undefined {
  if (schema.enum) return schema.enum.filter((v): v is string | number | boolean => v !== null);
  if (schema.const !== undefined && schema.const !== null) return [schema.const];
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return undefined;
  const values = options.map(enumValues);
  return values.every((v) => v !== undefined) ? values.flat() : undefined;
}

function primitiveOf(values: readonly (string | number | boolean)[]): EnumTypeSpec["type"] {
  if (values.every((v) => typeof v === "string")) return "string";
  if (values.every((v) => typeof v === "boolean")) return "boolean";
  if (values.every((v) => Number.isInteger(v))) return "integer";
  if (values.every((v) => typeof v === "number")) return "number";
  throw new Error(`an enum mixes value types: ${JSON.stringify(values)}`);
}

/**
 * The named types of a package (enums and objects), by token. A name is its owner's and the
 * property path's (`InstanceState`, `GetZonesZone`), or a zod `.meta({ id })` where one is set.
 */
export class TypeRegistry {
  readonly types = new Map<string, ComplexTypeSpec>();

  /** The Pulumi type of a JSON Schema; `name` names the enum or object type it may need. */
  typeOf(schema: JsonSchema, name: string, root: JsonSchema): TypeSpec {
    if (schema.$ref) return this.typeOf(resolveRef(schema.$ref, root), refName(schema.$ref) ?? name, root);
    const s = unwrapNullable(schema);
    const values = enumValues(s);
    if (values && values.length > 1) {
      return this.define(name, { type: primitiveOf(values), enum: values.map((value) => ({ value })) });
    }
    if (values && values.length === 1) return { type: primitiveOf(values) };
    const options = s.anyOf ?? s.oneOf;
    if (options) return union(options.map((o, i) => this.typeOf(o, `${name}${i + 1}`, root)));
    if (s.allOf?.length === 1) return this.typeOf(s.allOf[0], name, root);
    const kinds = (Array.isArray(s.type) ? s.type : [s.type]).filter((t) => t !== "null");
    if (kinds.length > 1) return union(kinds.map((type) => this.typeOf({ ...s, type }, name, root)));
    switch (kinds[0]) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type: kinds[0] };
      case "array":
        return { type: "array", items: s.items ? this.typeOf(s.items, singular(name), root) : ANY };
      case "object":
        return this.objectType(s, name, root);
      default:
        return ANY;
    }
  }

  /** The Pulumi properties of an object schema (in declared order), each with its description. */
  propertiesOf(schema: JsonSchema, owner: string, root: JsonSchema): Record<string, PropertySpec> {
    const properties: Record<string, PropertySpec> = {};
    for (const [key, value] of Object.entries(schema.properties ?? {})) {
      const description = value.description ?? unwrapNullable(value).description;
      properties[key] = { ...this.typeOf(value, owner + pascal(key), root), ...(description ? { description } : {}) };
    }
    return properties;
  }

  private objectType(schema: JsonSchema, name: string, root: JsonSchema): TypeSpec {
    if (schema.properties && Object.keys(schema.properties).length > 0) {
      const required = (schema.required ?? []).filter((k) => k in schema.properties!);
      return this.define(name, {
        type: "object",
        ...(schema.description ? { description: schema.description } : {}),
        properties: this.propertiesOf(schema, name, root),
        ...(required.length > 0 ? { required } : {}),
      });
    }
    const values = schema.additionalProperties;
    if (values === undefined || values === false) return { type: "object", additionalProperties: ANY };
    return { type: "object", additionalProperties: values === true ? ANY : this.typeOf(values, `${name}Value`, root) };
  }

  /** Registers a named type; the same name for two different types is an error in the declarations. */
  private define(name: string, spec: ComplexTypeSpec): TypeSpec {
    const tok = token(pascal(name));
    const existing = this.types.get(tok);
    if (existing && JSON.stringify(existing) !== JSON.stringify(spec)) {
      throw new Error(`two different types are both named ${tok}: give one a zod .meta({ id })`);
    }
    this.types.set(tok, spec);
    return { $ref: `#/types/${tok}` };
  }
}

/** A union of types; one type when its members are all the same (`"None"` or a pattern: a string). */
function union(members: TypeSpec[]): TypeSpec {
  const distinct = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()];
  return distinct.length === 1 ? distinct[0] : { oneOf: distinct };
}

function refName(ref: string): string | undefined {
  const match = /^#\/\$defs\/(.+)$/.exec(ref);
  return match ? match[1] : undefined;
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema {
  const name = refName(ref);
  const target = name === undefined ? (ref === "#" ? root : undefined) : root.$defs?.[name];
  if (!target) throw new Error(`unresolvable reference ${ref} in a zod schema`);
  if (target === root) throw new Error("recursive zod schemas have no Pulumi type");
  return target;
}
