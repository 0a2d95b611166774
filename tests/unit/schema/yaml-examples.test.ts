/**
 * The YAML examples of the reference docs, checked against the package schema as Pulumi YAML would
 * read them: every resource type and invoked function a token of the schema, every property and
 * argument an input of it with a value of its type, the required inputs present, and every `${...}`
 * naming a declared config value, a resource's output or a function's output.
 */
import { currentModel, repoRoot } from "../../../provider/schema/generate";
import { referenceDocs } from "../../../provider/schema/markdown";
import { packageSchema } from "../../../provider/schema/package-schema";

// js-yaml comes with @pulumi/pulumi (a dependency of it), without its types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { load } = require("js-yaml") as { load: (text: string) => unknown };

interface Spec {
  type?: string;
  $ref?: string;
  items?: Spec;
  additionalProperties?: Spec;
  oneOf?: Spec[];
}
interface PackageSchema {
  types: Record<string, { type: string; enum?: { value: unknown }[]; properties?: Record<string, Spec> }>;
  resources: Record<
    string,
    { inputProperties: Record<string, Spec>; requiredInputs?: string[]; properties: Record<string, Spec> }
  >;
  functions: Record<
    string,
    {
      inputs?: { properties: Record<string, Spec>; required?: string[] };
      outputs: { properties: Record<string, Spec> };
    }
  >;
}

const root = repoRoot(__dirname);
const model = currentModel(root);
const schema = packageSchema(model) as unknown as PackageSchema;

const examples = [...referenceDocs(model)].flatMap(([page, text]) =>
  [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => ({ page, code: m[1] })),
);

const CONFIG_TYPES: Record<string, string> = {
  String: "string",
  Integer: "integer",
  Number: "number",
  Boolean: "boolean",
};
const pascalFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const INTERPOLATION = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}$/;

/** The problems of a value against a schema type; `config` gives the declared config values' types. */
function typeProblems(value: unknown, spec: Spec, where: string, config: Record<string, string>): string[] {
  if (typeof value === "string") {
    const ref = INTERPOLATION.exec(value);
    if (ref && !ref[2]) {
      const declared = config[ref[1]];
      if (declared === undefined) return [`${where}: \${${ref[1]}} is no declared config value`];
      return typeProblems(declared === "string" ? "x" : declared === "boolean" ? true : 1, spec, where, {});
    }
  }
  if (spec.oneOf) {
    return spec.oneOf.some((s) => typeProblems(value, s, where, config).length === 0)
      ? []
      : [`${where}: ${JSON.stringify(value)} is none of its types`];
  }
  if (spec.$ref === "pulumi.json#/Any") return [];
  if (spec.$ref) {
    const named = schema.types[spec.$ref.replace("#/types/", "")];
    if (!named) return [`${where}: unknown type ${spec.$ref}`];
    if (named.enum) {
      return named.enum.some((e) => e.value === value)
        ? []
        : [`${where}: ${JSON.stringify(value)} is no value of ${spec.$ref}`];
    }
    return objectProblems(value, named.properties ?? {}, [], where, config);
  }
  const ok: Record<string, (v: unknown) => boolean> = {
    string: (v) => typeof v === "string",
    integer: (v) => Number.isInteger(v),
    number: (v) => typeof v === "number",
    boolean: (v) => typeof v === "boolean",
    array: (v) => Array.isArray(v),
    object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  };
  if (!spec.type || !ok[spec.type]) return [`${where}: no type in ${JSON.stringify(spec)}`];
  if (!ok[spec.type](value)) return [`${where}: ${JSON.stringify(value)} is no ${spec.type}`];
  if (spec.type === "array" && spec.items) {
    return (value as unknown[]).flatMap((v, i) => typeProblems(v, spec.items!, `${where}[${i}]`, config));
  }
  if (spec.type === "object" && spec.additionalProperties) {
    return Object.entries(value as object).flatMap(([k, v]) =>
      typeProblems(v, spec.additionalProperties!, `${where}.${k}`, config),
    );
  }
  return [];
}

function objectProblems(
  value: unknown,
  properties: Record<string, Spec>,
  required: readonly string[],
  where: string,
  config: Record<string, string>,
): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${where}: not a mapping`];
  const given = value as Record<string, unknown>;
  return [
    ...required.filter((k) => !(k in given)).map((k) => `${where}: the required input ${k} is missing`),
    ...Object.entries(given).flatMap(([k, v]) =>
      properties[k] ? typeProblems(v, properties[k], `${where}.${k}`, config) : [`${where}: ${k} is no input`],
    ),
  ];
}

/** Everything wrong with one YAML program. */
function problemsOf(code: string): string[] {
  const program = load(code) as Record<string, Record<string, Record<string, unknown>>>;
  const problems: string[] = [];
  const known = ["configuration", "config", "resources", "variables", "outputs"];
  problems.push(
    ...Object.keys(program)
      .filter((k) => !known.includes(k))
      .map((k) => `unknown section ${k}`),
  );
  const config: Record<string, string> = {};
  for (const [name, declaration] of Object.entries({ ...program.configuration, ...program.config })) {
    const type = CONFIG_TYPES[String(declaration.type)] ?? CONFIG_TYPES[pascalFirst(String(declaration.type))];
    if (!type) problems.push(`config ${name}: unknown type ${String(declaration.type)}`);
    else config[name] = type;
  }
  /** The outputs of each resource and variable, for the `${name.output}` references. */
  const outputs: Record<string, Record<string, Spec>> = {};
  for (const [name, resource] of Object.entries(program.resources ?? {})) {
    const r = schema.resources[String(resource.type)];
    if (!r) {
      problems.push(`resources.${name}: ${String(resource.type)} is no resource of the schema`);
      continue;
    }
    problems.push(
      ...objectProblems(
        resource.properties ?? {},
        r.inputProperties,
        r.requiredInputs ?? [],
        `resources.${name}.properties`,
        config,
      ),
    );
    outputs[name] = { ...r.properties, id: { type: "string" }, urn: { type: "string" } };
  }
  for (const [name, variable] of Object.entries(program.variables ?? {})) {
    const invoke = variable["fn::invoke"] as { function?: string; arguments?: unknown; return?: string } | undefined;
    if (!invoke) {
      problems.push(`variables.${name}: only fn::invoke is expected`);
      continue;
    }
    const f = schema.functions[String(invoke.function)];
    if (!f) {
      problems.push(`variables.${name}: ${String(invoke.function)} is no function of the schema`);
      continue;
    }
    problems.push(
      ...objectProblems(
        invoke.arguments ?? {},
        f.inputs?.properties ?? {},
        f.inputs?.required ?? [],
        `variables.${name}.arguments`,
        config,
      ),
    );
    outputs[name] = f.outputs.properties;
  }
  for (const [name, output] of Object.entries(program.outputs ?? {})) {
    // A secret answer is exported as `fn::secret: ${result.field}`.
    const secret =
      output !== null && typeof output === "object" ? (output as Record<string, unknown>)["fn::secret"] : undefined;
    const value = secret ?? output;
    const ref = INTERPOLATION.exec(String(value));
    if (!ref || !ref[2]) problems.push(`outputs.${name}: expected \${resource.output}, got ${String(value)}`);
    else if (!outputs[ref[1]]) problems.push(`outputs.${name}: ${ref[1]} is no resource or variable`);
    else if (!outputs[ref[1]][ref[2]]) problems.push(`outputs.${name}: ${ref[1]} has no output ${ref[2]}`);
  }
  return problems;
}

test("one YAML example per resource and per function", () => {
  expect(examples).toHaveLength(model.resources.length + model.functions.length);
});

test("every YAML example of docs/ uses the schema's tokens and inputs, typed, the required ones present", () => {
  const problems = examples.flatMap(({ page, code }) => problemsOf(code).map((p) => `${page}: ${p}`));
  expect(problems).toEqual([]);
});

test("the check finds a wrong token, an unknown or mistyped input, a missing required one, a bad reference", () => {
  const bad = [
    "resources:",
    "  a:",
    "    type: restcloud:index:Nope",
    "  vpc:",
    "    type: restcloud:index:Vpc",
    "    properties:",
    "      cidr: 10",
    '      offering: "x"',
    "variables:",
    "  zones:",
    "    fn::invoke:",
    "      function: restcloud:index:getZones",
    "      arguments:",
    "        nameRegex: ${missing}",
    "outputs:",
    "  x: ${vpc.nothing}",
  ].join("\n");
  expect(problemsOf(bad)).toEqual([
    "resources.a: restcloud:index:Nope is no resource of the schema",
    "resources.vpc.properties: the required input vpcOfferingUuid is missing",
    "resources.vpc.properties.cidr: 10 is no string",
    "resources.vpc.properties: offering is no input",
    "variables.zones.arguments.nameRegex: ${missing} is no declared config value",
    "outputs.x: vpc has no output nothing",
  ]);
});
