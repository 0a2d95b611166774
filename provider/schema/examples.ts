// The example program of each resource and function in TypeScript, Python, Go and YAML, from one description
// (`resourceProgram`, `functionProgram`) and one renderer per language (`exampleCode`), for the docs and schema.json's
// `{{% examples %}}`. Names follow each generated SDK's spelling (spellings.ts).
import type { FunctionModel, PackageModel, PropertyModel, ResourceModel } from "./model";
import { GO_IMPORT_PATH, PYTHON_PACKAGE, type TypeSpec } from "./types";
import { goName, pythonName } from "../spellings";

export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** A language's name in headings. Its key is its fence tag in schema.json (the docs pages use `ts` for TypeScript). */
export const LANGUAGE_TITLES: Record<ExampleLanguage, string> = {
  typescript: "TypeScript",
  python: "Python",
  go: "Go",
  yaml: "YAML",
};

/** An argument of the example: its name, its value, and its Pulumi type (for Go's wrappers). */
interface ExampleArgument {
  name: string;
  value: unknown;
  spec: TypeSpec;
  required: boolean;
  /** Read from the stack's secret config (under the argument's own name), never written in the program. */
  secret: boolean;
}

/** What an example does, whatever the language. */
export type ExampleProgram =
  | {
      kind: "resource";
      /** The class name (`Vpc`), its schema token and the logical name (`vpc`). */
      type: string;
      token: string;
      logicalName: string;
      arguments: ExampleArgument[];
      /** The exported output: `<variable>Id`, the resource's `uuid` output, else its `id`. */
      exportName: string;
      exportOutput: "uuid" | "id";
    }
  | {
      kind: "function";
      name: string;
      token: string;
      /** Whether the function takes any input at all (Go's signature has no args parameter when not). */
      hasInputs: boolean;
      arguments: ExampleArgument[];
      /** The exported result field, or none when the function has no output. */
      exported?: PropertyModel;
    };

const lowerFirst = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);

/** `PublicIpAddress` to `public-ip-address`. */
const kebab = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();

export { goName, pythonName };

function argumentsOf(
  values: Record<string, unknown>,
  properties: readonly PropertyModel[],
  owner: string,
): ExampleArgument[] {
  return Object.entries(values).map(([name, value]) => {
    const p = properties.find((x) => x.name === name);
    if (!p) throw new Error(`${owner}: the example's argument ${name} is no input`);
    return { name, value, spec: p.spec, required: p.required, secret: p.secret };
  });
}

export function resourceProgram(r: ResourceModel): ExampleProgram {
  const variable = lowerFirst(r.type);
  return {
    kind: "resource",
    type: r.type,
    token: r.token,
    logicalName: kebab(r.type),
    arguments: argumentsOf(r.exampleArguments, r.inputs, r.type),
    exportName: `${variable}Id`,
    exportOutput: r.outputs.some((o) => o.name === "uuid") ? "uuid" : "id",
  };
}

export function functionProgram(f: FunctionModel): ExampleProgram {
  return {
    kind: "function",
    name: f.name,
    token: f.token,
    hasInputs: f.inputs.length > 0,
    arguments: argumentsOf(f.exampleArguments, f.inputs, f.name),
    exported: f.outputs[0],
  };
}

// TypeScript

function typescriptExample(model: PackageModel, program: ExampleProgram): string {
  const literal = (a: ExampleArgument) => (a.secret ? `config.requireSecret("${a.name}")` : JSON.stringify(a.value));
  const objectLiteral = (args: readonly ExampleArgument[]) =>
    args.length === 0 ? "{}" : `{\n${args.map((a) => `  ${a.name}: ${literal(a)},`).join("\n")}\n}`;
  const importPackage = `import * as restcloud from "${model.npmPackage}";`;
  if (program.kind === "resource") {
    const variable = lowerFirst(program.type);
    const secrets = program.arguments.some((a) => a.secret);
    return [
      ...(secrets ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
      importPackage,
      "",
      ...(secrets ? ["const config = new pulumi.Config();"] : []),
      `const ${variable} = new restcloud.${program.type}("${program.logicalName}", ${objectLiteral(program.arguments)});`,
      "",
      `export const ${program.exportName} = ${variable}.${program.exportOutput};`,
    ].join("\n");
  }
  const args = program.arguments.length > 0 ? objectLiteral(program.arguments) : "";
  const first = program.exported?.name;
  // A secret answer is exported as a secret: encrypted in the state, hidden in the CLI's output.
  const secret = program.exported?.secret ?? false;
  const value = secret ? `pulumi.secret(result.${first})` : `result.${first}`;
  return [
    ...(secret ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    importPackage,
    "",
    "export = async () => {",
    `  const result = await restcloud.${program.name}(${args.replace(/\n/g, "\n  ")});`,
    first ? `  return { ${first}: ${value} };` : "  return result;",
    "};",
  ].join("\n");
}

// Python

function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}

function pythonExample(program: ExampleProgram): string {
  const value = (a: ExampleArgument) => (a.secret ? `config.require_secret("${a.name}")` : pythonLiteral(a.value));
  const keywords = program.arguments.map((a) => `${pythonName(a.name)}=${value(a)}`);
  const header = ["import pulumi", `import ${PYTHON_PACKAGE} as restcloud`, ""];
  if (program.kind === "resource") {
    const variable = pythonName(program.type);
    const secrets = program.arguments.some((a) => a.secret);
    return [
      ...header,
      ...(secrets ? ["config = pulumi.Config()"] : []),
      `${variable} = restcloud.${program.type}(`,
      `    "${program.logicalName}",`,
      ...keywords.map((k) => `    ${k},`),
      ")",
      "",
      `pulumi.export("${program.exportName}", ${variable}.${program.exportOutput})`,
    ].join("\n");
  }
  const call = `restcloud.${pythonName(program.name)}`;
  const exported = program.exported;
  return [
    ...header,
    keywords.length <= 1
      ? `result = ${call}(${keywords.join("")})`
      : [`result = ${call}(`, ...keywords.map((k) => `    ${k},`), ")"].join("\n"),
    exported
      ? exported.secret
        ? `pulumi.export("${exported.name}", pulumi.Output.secret(result.${pythonName(exported.name)}))`
        : `pulumi.export("${exported.name}", result.${pythonName(exported.name)})`
      : 'pulumi.export("result", result)',
  ].join("\n");
}

// Go

const GO_WRAPPERS: Record<string, string> = { string: "String", integer: "Int", number: "Float64", boolean: "Bool" };

/** The name of a named type of the package in Go (`#/types/restcloud:index:FirewallRuleProtocol` to `FirewallRuleProtocol`). */
const goTypeName = (ref: string): string => ref.split(":").pop()!;

function isEnum(model: PackageModel, spec: TypeSpec): boolean {
  const named = spec.$ref?.startsWith("#/types/") ? model.types.get(spec.$ref.slice("#/types/".length)) : undefined;
  return named !== undefined && "enum" in named;
}

/**
 * A Go expression of a resource input: `pulumi.String("x")`, `restcloud.FirewallRuleProtocol("TCP")`,
 * `pulumi.IntArray{...}`, `pulumi.StringMap{...}`. Nested object types have no form yet: no example
 * needs one (an error says so if one does).
 */
function goInput(model: PackageModel, spec: TypeSpec, value: unknown, owner: string): string {
  if (spec.type && GO_WRAPPERS[spec.type]) return `pulumi.${GO_WRAPPERS[spec.type]}(${JSON.stringify(value)})`;
  if (spec.$ref && isEnum(model, spec)) return `restcloud.${goTypeName(spec.$ref)}(${JSON.stringify(value)})`;
  if (spec.type === "array" && spec.items && Array.isArray(value)) {
    const items = spec.items;
    const arrayType =
      items.type && GO_WRAPPERS[items.type]
        ? `pulumi.${GO_WRAPPERS[items.type]}Array`
        : items.$ref && isEnum(model, items)
          ? `restcloud.${goTypeName(items.$ref)}Array`
          : undefined;
    if (arrayType) return `${arrayType}{${value.map((v) => goInput(model, items, v, owner)).join(", ")}}`;
  }
  const values = spec.additionalProperties;
  if (spec.type === "object" && values?.type && GO_WRAPPERS[values.type] && typeof value === "object" && value) {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${goInput(model, values, v, owner)}`);
    return `pulumi.${GO_WRAPPERS[values.type]}Map{${entries.join(", ")}}`;
  }
  throw new Error(`${owner}: the Go example has no form for ${JSON.stringify(spec)}`);
}

/** A Go expression of a function argument: a plain value, through a pointer (`pulumi.StringRef`) when optional. */
function goPlain(spec: TypeSpec, value: unknown, required: boolean, owner: string): string {
  if (spec.type && GO_WRAPPERS[spec.type]) {
    return required ? JSON.stringify(value) : `pulumi.${GO_WRAPPERS[spec.type]}Ref(${JSON.stringify(value)})`;
  }
  if (spec.$ref && required) return `restcloud.${goTypeName(spec.$ref)}(${JSON.stringify(value)})`;
  throw new Error(`${owner}: the Go example has no form for the function argument ${JSON.stringify(spec)}`);
}

/** Keyed fields as gofmt aligns them: values in one column. */
function goFields(fields: readonly [string, string][], indent: string): string[] {
  const width = Math.max(...fields.map(([k]) => k.length)) + 1;
  return fields.map(([k, v]) => `${indent}${`${k}:`.padEnd(width)} ${v},`);
}

/** A Go composite literal `&<type>{...}` opened at the end of a line, its fields one tab in. */
function goStruct(type: string, fields: readonly [string, string][]): string {
  if (fields.length === 0) return `&${type}{}`;
  return [`&${type}{`, ...goFields(fields, "\t"), "}"].join("\n");
}

function goExample(model: PackageModel, program: ExampleProgram): string {
  const secrets = program.arguments.some((a) => a.secret);
  const body: string[] = [];
  if (secrets) body.push('cfg := config.New(ctx, "")');
  const owner = program.kind === "resource" ? program.type : program.name;
  if (program.kind === "resource") {
    const variable = lowerFirst(program.type);
    const fields = program.arguments.map((a): [string, string] => [
      goName(a.name),
      a.secret ? `cfg.RequireSecret("${a.name}")` : goInput(model, a.spec, a.value, owner),
    ]);
    body.push(
      `${variable}, err := restcloud.New${program.type}(ctx, "${program.logicalName}", ${goStruct(`restcloud.${program.type}Args`, fields)})`,
      "if err != nil {",
      "\treturn err",
      "}",
      `ctx.Export("${program.exportName}", ${variable}.${program.exportOutput === "uuid" ? "Uuid" : "ID()"})`,
    );
  } else {
    if (secrets) throw new Error(`${owner}: a function's example takes no secret`);
    const fields = program.arguments.map((a): [string, string] => [
      goName(a.name),
      goPlain(a.spec, a.value, a.required, owner),
    ]);
    const fn = goName(program.name);
    const args = program.hasInputs ? `, ${goStruct(`restcloud.${fn}Args`, fields)}` : "";
    const exported = program.exported;
    const wrapper = exported?.required && exported.spec.type ? GO_WRAPPERS[exported.spec.type] : undefined;
    const field = exported ? `result.${goName(exported.name)}` : "result";
    body.push(
      `result, err := restcloud.${fn}(ctx${args})`,
      "if err != nil {",
      "\treturn err",
      "}",
      `ctx.Export("${exported?.name ?? "result"}", ${
        exported?.secret
          ? `pulumi.ToSecret(${field})`
          : wrapper
            ? `pulumi.${wrapper}(${field})`
            : `pulumi.Any(${field})`
      })`,
    );
  }
  body.push("return nil");
  const imports = [
    '"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ...(secrets ? ['"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
    `"${GO_IMPORT_PATH}"`,
  ];
  return [
    "package main",
    "",
    "import (",
    ...imports.map((i) => `\t${i}`),
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...body.flatMap((line) => line.split("\n")).map((line) => `\t\t${line}`),
    "\t})",
    "}",
  ].join("\n");
}

// YAML

/** A YAML scalar: strings double-quoted (JSON's quoting is YAML's), numbers and booleans bare. */
function yamlValue(value: unknown): string {
  return JSON.stringify(value);
}

function yamlExample(program: ExampleProgram): string {
  const property = (a: ExampleArgument) => `${a.name}: ${a.secret ? `\${${a.name}}` : yamlValue(a.value)}`;
  const secrets = program.arguments.filter((a) => a.secret);
  // `configuration`, not `config`: pulumi-language-yaml reads `config` values from a field of the run
  // request that the Pulumi CLI this package is built with no longer sends.
  const configuration =
    secrets.length > 0
      ? ["configuration:", ...secrets.flatMap((a) => [`  ${a.name}:`, "    type: String", "    secret: true"])]
      : [];
  if (program.kind === "resource") {
    const variable = lowerFirst(program.type);
    return [
      ...configuration,
      "resources:",
      `  ${variable}:`,
      `    type: ${program.token}`,
      ...(program.arguments.length > 0
        ? ["    properties:", ...program.arguments.map((a) => `      ${property(a)}`)]
        : []),
      "outputs:",
      `  ${program.exportName}: \${${variable}.${program.exportOutput}}`,
    ].join("\n");
  }
  const exported = program.exported?.name;
  const secretExport = [`  ${exported}:`, `    fn::secret: \${result.${exported}}`].join("\n");
  return [
    ...configuration,
    "variables:",
    "  result:",
    "    fn::invoke:",
    `      function: ${program.token}`,
    ...(program.arguments.length > 0
      ? ["      arguments:", ...program.arguments.map((a) => `        ${property(a)}`)]
      : ["      arguments: {}"]),
    "outputs:",
    exported
      ? program.exported?.secret
        ? secretExport
        : `  ${exported}: \${result.${exported}}`
      : "  result: ${result}",
  ].join("\n");
}

/** The example's code in each language, without fences. */
export function exampleCode(model: PackageModel, program: ExampleProgram): Record<ExampleLanguage, string> {
  return {
    typescript: typescriptExample(model, program),
    python: pythonExample(program),
    go: goExample(model, program),
    yaml: yamlExample(program),
  };
}

/**
 * A description followed by Pulumi's examples shortcodes, which the SDK generators read: each
 * language's SDK keeps its own fenced block in its doc comments.
 */
export function withSchemaExamples(description: string, code: Record<ExampleLanguage, string>): string {
  return [
    description,
    "",
    "{{% examples %}}",
    "## Example Usage",
    "",
    "{{% example %}}",
    "### Basic usage",
    "",
    ...EXAMPLE_LANGUAGES.flatMap((lang) => ["```" + lang, code[lang], "```"]),
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}
