// The package as the generated artifacts see it: each resource and function with arguments and outputs (types,
// descriptions, defaults, what a change does), from the declarations alone. schema.json, docs and README tables view
// it.
import type { z } from "zod";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import { argumentDefault, type ArgumentDefault, type DefaultValue } from "../engine/defaults";
import type { AnyFunctionDeclaration } from "../functions/define";
import { PROVIDER_SETTINGS, settingDescription, type SettingType } from "../settings";
import {
  constraintsOf,
  jsonSchemaOf,
  pascal,
  token,
  TypeRegistry,
  type ComplexTypeSpec,
  type JsonSchema,
  type PropertySpec,
} from "./types";
import {
  defaultSentence,
  defaultText,
  howUpdated,
  nounOf,
  replaceSentence,
  updateSentence,
  withFacts,
  changeSummary,
} from "./sentences";

/** What changing an argument does. */
export type Change =
  | { kind: "replace" }
  | { kind: "update"; via: string }
  /** In neither replaceOn nor an update step: a declaration error (the engine would update nothing). */
  | { kind: "undeclared" };

export interface PropertyModel {
  name: string;
  /** The Pulumi property: type, description, and the secret, default and replaceOnChanges flags. */
  spec: PropertySpec;
  /** The argument's own words, then (for arguments) its default and what a change does. */
  description: string;
  /** Bounds and patterns, for the docs ("1 to 65535"). */
  constraints: string[];
  required: boolean;
  secret: boolean;
  /** What applies when the argument is not given (the declared default, the auto-name...). */
  defaultFact?: ArgumentDefault;
  /** The same, for the docs' Default column. */
  defaultText?: string;
  /** For resource arguments: what a change does. */
  change?: Change;
  /** A value that validates, for the examples. */
  example: unknown;
}

export interface ResourceModel {
  type: string;
  token: string;
  description: string;
  inputs: PropertyModel[];
  /** The outputs beyond the arguments. */
  outputs: PropertyModel[];
  /** The properties always present in state: required arguments, defaulted ones, required outputs. */
  alwaysPresent: string[];
  updates: { fields: string[]; via: string }[];
  replaceOn: string[];
  deleteBeforeReplace: boolean;
  /** How long each operation may wait, in milliseconds, unless the resource's customTimeouts say otherwise. */
  defaultTimeouts: { create: number; update: number; delete: number };
  /** The arguments of the example: the required ones, and those the cross-field rules ask for. */
  exampleArguments: Record<string, unknown>;
}

export interface FunctionModel {
  name: string;
  token: string;
  description: string;
  inputs: PropertyModel[];
  outputs: PropertyModel[];
  exampleArguments: Record<string, unknown>;
}

export interface ConfigModel {
  name: string;
  /** An object is a map of strings (tags). */
  type: "string" | "integer" | "boolean" | "object";
  description: string;
  secret: boolean;
  required: boolean;
  environment: string;
  default?: number | boolean | string;
}

export interface PackageModel {
  name: string;
  version: string;
  description: string;
  license: string;
  npmPackage: string;
  /** The version of the Pulumi SDK the package is built against (`@pulumi/pulumi`'s), which the other languages' SDKs require too. */
  pulumiSdkVersion: string;
  config: ConfigModel[];
  resources: ResourceModel[];
  functions: FunctionModel[];
  types: Map<string, ComplexTypeSpec>;
}

/** A setting's type in schema.json: a duration is a string ("30s"), tags a map of strings. */
const SCHEMA_TYPES: Record<SettingType, ConfigModel["type"]> = {
  string: "string",
  integer: "integer",
  boolean: "boolean",
  duration: "string",
  tags: "object",
};

/**
 * The provider's settings (`restcloud:<name>` in the stack config, else the environment variable),
 * as schema.json and the docs show them: a view of the one table, provider/settings.ts.
 */
export const PROVIDER_CONFIG: readonly ConfigModel[] = PROVIDER_SETTINGS.map((s) => ({
  name: s.key,
  type: SCHEMA_TYPES[s.type],
  description: settingDescription(s),
  secret: s.secret,
  required: s.required,
  environment: s.env,
  ...(s.default === undefined ? {} : { default: s.default }),
}));

export interface PackageInfo {
  version: string;
  description: string;
  license: string;
  npmPackage: string;
  pulumiSdkVersion: string;
}

/** The model of the whole package, from the resource and function registries. */
export function packageModel(
  declarations: readonly ResourceDeclaration[],
  functions: readonly AnyFunctionDeclaration[],
  info: PackageInfo,
): PackageModel {
  const registry = new TypeRegistry();
  return {
    name: "restcloud",
    ...info,
    config: [...PROVIDER_CONFIG],
    resources: declarations.map((d) => resourceModel(d, registry)),
    functions: functions.map((f) => functionModel(f, registry)),
    types: registry.types,
  };
}

function propertyModels(
  schema: z.ZodType,
  io: "input" | "output",
  owner: string,
  registry: TypeRegistry,
): PropertyModel[] {
  const json = jsonSchemaOf(schema, io);
  const fields = (schema as AnyObjectSchema).shape as Record<string, z.ZodType>;
  const specs = registry.propertiesOf(json, owner, json);
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const description = specs[name].description ?? "";
    const zodDefault = property.default;
    const isPrimitive = ["string", "number", "boolean"].includes(typeof zodDefault);
    return {
      name,
      spec: isPrimitive ? { ...specs[name], default: zodDefault as string | number | boolean } : specs[name],
      description,
      constraints: constraintsOf(property),
      required: required.has(name),
      secret: false,
      defaultFact: isPrimitive ? { value: zodDefault as DefaultValue } : undefined,
      example: exampleValue(name, property, description, fields[name]),
    };
  });
}

/** A property with the derived sentences added to its description, in the model and in its spec. */
function describedWith(p: PropertyModel, ...sentences: (string | undefined)[]): PropertyModel {
  const description = withFacts(p.description, ...sentences);
  return { ...p, description, spec: { ...p.spec, ...(description ? { description } : {}) } };
}

/** Words for the defaults the engine applies: the auto-name and the provider's default zone. */
const AUTO_NAME_DEFAULT =
  "the resource's logical name plus a random suffix, kept across updates, or as the stack's `pulumi:autonaming` says (native mode)";
const RESOURCE_ZONE_DEFAULT = "the provider's `restcloud:zoneUuid`";
const FUNCTION_ZONE_DEFAULT = "the provider's `restcloud:zoneUuid` (or RESTCLOUD_ZONE_UUID)";

function resourceModel(d: ResourceDeclaration, registry: TypeRegistry): ResourceModel {
  const replaceOn = d.replaceOn as readonly string[];
  const secretInputs = new Set<string>(d.secretInputs ?? []);
  const secretOutputs = new Set<string>([...secretInputs, ...(d.secretOutputs ?? [])]);
  const defaults = (d.defaults ?? {}) as Record<string, unknown>;
  const fields = d.inputs.shape as Record<string, z.ZodType>;
  const stepOf = (name: string) => d.updates.find((u) => (u.fields as readonly string[]).includes(name));
  const changeOf = (name: string): Change => {
    if (replaceOn.includes(name)) return { kind: "replace" };
    const step = stepOf(name);
    return step ? { kind: "update", via: howUpdated(step) } : { kind: "undeclared" };
  };
  const changeSentence = (name: string): string | undefined => {
    if (replaceOn.includes(name)) return replaceSentence(nounOf(d));
    const step = stepOf(name);
    return step ? updateSentence(step) : undefined;
  };
  const inputs = propertyModels(d.inputs, "input", d.type, registry).map((p): PropertyModel => {
    const secret = secretInputs.has(p.name);
    const declared = defaults[p.name];
    const change = changeOf(p.name);
    const schemaDefault =
      typeof declared === "string" || typeof declared === "number" || typeof declared === "boolean"
        ? { default: declared }
        : {};
    const defaultFact = resourceDefault(d, p, fields[p.name], declared);
    const described = describedWith(p, defaultFact && defaultSentence(defaultFact), changeSentence(p.name));
    return {
      ...described,
      spec: {
        ...described.spec,
        ...schemaDefault,
        ...(secret ? { secret: true } : {}),
        ...(change.kind === "replace" ? { replaceOnChanges: true } : {}),
      },
      secret,
      change,
      defaultFact,
      defaultText: defaultFact && defaultText(defaultFact),
    };
  });
  const inputNames = new Set(inputs.map((p) => p.name));
  const outputs = propertyModels(d.outputs, "output", d.type, registry)
    .filter((p) => !inputNames.has(p.name))
    .map((p) => (secretOutputs.has(p.name) ? { ...p, secret: true, spec: { ...p.spec, secret: true } } : p));
  const presentByDefault = new Set<string>([
    ...Object.keys(defaults),
    ...(d.autoName ? [d.autoName] : []),
    ...(d.zoneDefault ? [d.zoneDefault] : []),
  ]);
  return {
    type: d.type,
    token: token(d.type),
    description: withFacts(d.description, changeSummary(d)),
    inputs,
    outputs,
    alwaysPresent: [
      ...inputs.filter((p) => p.required || presentByDefault.has(p.name)).map((p) => p.name),
      ...outputs.filter((p) => p.required).map((p) => p.name),
    ],
    updates: d.updates.map((u) => ({ fields: [...u.fields], via: howUpdated(u) })),
    replaceOn: [...replaceOn],
    deleteBeforeReplace: Boolean(d.deleteBeforeReplace),
    defaultTimeouts: { ...d.defaultTimeouts },
    exampleArguments: exampleArguments(d.inputs, inputs),
  };
}

/**
 * What applies when a resource argument is not given: its withDefault, else the value the
 * declaration's `defaults` fill in, the auto-name, or the default zone.
 */
function resourceDefault(
  d: ResourceDeclaration,
  p: PropertyModel,
  field: z.ZodType,
  declared: unknown,
): ArgumentDefault | undefined {
  const fact = argumentDefault(field);
  if (fact !== undefined) return fact;
  if (typeof declared === "string" || typeof declared === "number" || typeof declared === "boolean")
    return { value: declared, keptInState: true };
  if (p.defaultFact !== undefined) return p.defaultFact;
  if (d.autoName === p.name) return { text: AUTO_NAME_DEFAULT };
  if (d.zoneDefault === p.name) return { text: RESOURCE_ZONE_DEFAULT };
  return undefined;
}

function functionModel(f: AnyFunctionDeclaration, registry: TypeRegistry): FunctionModel {
  const owner = pascal(f.name);
  const outputsJson = jsonSchemaOf(f.outputs, "output");
  if (outputsJson.type !== "object") throw new Error(`${f.name}: a function's outputs must be a zod object`);
  const fields = f.inputs.shape as Record<string, z.ZodType>;
  const inputs = propertyModels(f.inputs, "input", owner, registry).map((p): PropertyModel => {
    const defaultFact =
      argumentDefault(fields[p.name]) ??
      p.defaultFact ??
      (f.zoneDefault === p.name ? { text: FUNCTION_ZONE_DEFAULT } : undefined);
    return {
      ...describedWith(p, defaultFact && defaultSentence(defaultFact)),
      defaultFact,
      defaultText: defaultFact && defaultText(defaultFact),
    };
  });
  return {
    name: f.name,
    token: token(f.name),
    description: f.description,
    inputs,
    outputs: propertyModels(f.outputs, "output", owner, registry).map((p) =>
      (f.secretOutputs ?? []).includes(p.name) ? { ...p, secret: true, spec: { ...p.spec, secret: true } } : p,
    ),
    exampleArguments: f.example ? checkedExample(f.name, f.inputs, f.example) : exampleArguments(f.inputs, inputs),
  };
}

/** A declared example, which must pass the inputs schema as it is. */
function checkedExample(owner: string, schema: z.ZodType, example: Record<string, unknown>): Record<string, unknown> {
  const result = schema.safeParse(example);
  if (!result.success) throw new Error(`${owner}: the declared example is invalid: ${result.error.message}`);
  return { ...example };
}

/**
 * Example arguments that pass the inputs schema: the required arguments, then whatever the
 * cross-field rules still ask for (e.g. one of networkUuid and vpcUuid), a few rounds at most.
 */
function exampleArguments(schema: z.ZodType, inputs: readonly PropertyModel[]): Record<string, unknown> {
  const byName = new Map(inputs.map((p) => [p.name, p]));
  const chosen: Record<string, unknown> = {};
  for (const p of inputs) if (p.required) chosen[p.name] = p.example;
  for (let round = 0; round < 5; round++) {
    const result = schema.safeParse(chosen);
    if (result.success) break;
    const missing = result.error.issues.map((i) => String(i.path[0])).filter((k) => byName.has(k) && !(k in chosen));
    if (missing.length === 0) break;
    for (const name of missing) chosen[name] = byName.get(name)!.example;
  }
  return chosen;
}

/** Common value shapes, tried when nothing in an argument's schema or description gives a valid value. */
const SAMPLE_VALUES: readonly unknown[] = ["203.0.113.10", "192.168.10.0/24", "10.0.0.0/16", "example", 1, 80];

/**
 * A valid value for examples, the first that the argument's own schema accepts: the schema's
 * examples (zod `.meta({ examples })`), an "e.g."/"such as" in the description or in the
 * validator's message, a placeholder (`"<template uuid>"`), a common value shape.
 */
function exampleValue(name: string, schema: JsonSchema, description: string, field: z.ZodType): unknown {
  const s = schema.anyOf?.find((o) => o.type !== "null") ?? schema;
  const placeholder = placeholderOf(name, s);
  const message = field.safeParse(placeholder).error?.issues[0]?.message ?? "";
  const candidates = [
    ...(schema.examples ?? []),
    ...(s.enum ?? []),
    ...(s.const === undefined ? [] : [s.const]),
    ...[description, message].flatMap(samplesIn).map((text) => (s.type === "string" ? text : Number(text))),
    placeholder,
    ...SAMPLE_VALUES,
  ];
  return candidates.find((c) => field.safeParse(c).success) ?? placeholder;
}

/** The values a text gives as samples: `e.g. 10.1.0.0/16`, `such as "Group 14(modp2048)"`. */
function samplesIn(text: string): string[] {
  const pattern = /\b(?:e\.g\.|such as) (?:"([^"]+)"|([^\s",;()]+?))[.,;)]*(?=\s|$)/g;
  return [...text.matchAll(pattern)].map((m) => m[1] ?? m[2]);
}

function placeholderOf(name: string, s: JsonSchema): unknown {
  switch ([s.type].flat().find((t) => t !== "null")) {
    case "string":
      return `<${name
        .replace(/Uuid$/, " uuid")
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .toLowerCase()}>`;
    case "integer":
    case "number":
      return Math.max(s.minimum ?? s.exclusiveMinimum ?? 1, 1);
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      return {};
  }
}
