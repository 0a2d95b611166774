// The reference docs (docs/README.md, one page per resource and per function) and the README's update/replace tables
// and settings table, from the package model.
import {
  EXAMPLE_LANGUAGES,
  exampleCode,
  functionProgram,
  LANGUAGE_TITLES,
  resourceProgram,
  type ExampleLanguage,
} from "./examples";
import { goName, pythonName } from "../spellings";
import type { Change, ConfigModel, FunctionModel, PackageModel, PropertyModel, ResourceModel } from "./model";
import type { ComplexTypeSpec, ObjectTypeSpec, TypeSpec } from "./types";

export const GENERATED_NOTE =
  "<!-- Generated from the declarations by provider/schema/generate.ts (npm run generate): do not edit. -->";
export const README_BEGIN = "<!-- resources:begin -->";
export const README_END = "<!-- resources:end -->";
export const SETTINGS_BEGIN = "<!-- settings:begin -->";
export const SETTINGS_END = "<!-- settings:end -->";

/** `PublicIpAddress` and `getZones` to `public-ip-address` and `get-zones`. */
export const kebab = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();

export const resourcePage = (r: ResourceModel): string => `resources/${kebab(r.type)}.md`;
export const functionPage = (f: FunctionModel): string => `functions/${kebab(f.name)}.md`;

/** A table cell: one line, pipes escaped. */
const cell = (text: string): string => text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

const code = (text: string): string => `\`${text}\``;
/** A timeout as customTimeouts spells it: `90s`, `15m`, `1h30m`. */
const duration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  const parts = [
    [Math.floor(s / 3600), "h"],
    [Math.floor((s % 3600) / 60), "m"],
    [s % 60, "s"],
  ] as const;
  return parts.map(([n, unit]) => (n ? `${n}${unit}` : "")).join("") || `${ms}ms`;
};
const timeoutsCell = (r: ResourceModel): string =>
  [r.defaultTimeouts.create, r.defaultTimeouts.update, r.defaultTimeouts.delete].map(duration).join(" / ");
const yesNo = (flag: boolean): string => (flag ? "yes" : "no");
const shortName = (tok: string): string => tok.split(":").pop()!;
const anchor = (name: string): string => name.toLowerCase().replace(/[^a-z0-9-]/g, "");

/** A type in words: `string`, `list of integer`, `"Running" or "Stopped"`, a link to an object type. */
function typeText(spec: TypeSpec, types: ReadonlyMap<string, ComplexTypeSpec>): string {
  if (spec.$ref === "pulumi.json#/Any") return "any";
  if (spec.$ref) {
    const tok = spec.$ref.replace("#/types/", "");
    const named = types.get(tok);
    if (named && "enum" in named) return named.enum.map((e) => JSON.stringify(e.value)).join(" or ");
    return `[${shortName(tok)}](#${anchor(shortName(tok))})`;
  }
  if (spec.oneOf) return spec.oneOf.map((s) => typeText(s, types)).join(" or ");
  if (spec.type === "array") return `list of ${typeText(spec.items!, types)}`;
  if (spec.type === "object") return `map of ${typeText(spec.additionalProperties ?? { type: "string" }, types)}`;
  return spec.type ?? "any";
}

function typeCell(p: PropertyModel, types: ReadonlyMap<string, ComplexTypeSpec>): string {
  const base = typeText(p.spec, types);
  return p.constraints.length > 0 ? `${base} (${p.constraints.join(", ")})` : base;
}

function changeText(change: Change | undefined): string {
  if (!change) return "";
  if (change.kind === "replace") return "replaces";
  if (change.kind === "update") return `updates in place: ${change.via}`;
  return "no update step declares it";
}

/** The object types a set of properties refers to, transitively, in first-use order. */
function referencedObjectTypes(
  specs: readonly TypeSpec[],
  types: ReadonlyMap<string, ComplexTypeSpec>,
): [string, ObjectTypeSpec][] {
  const found = new Map<string, ObjectTypeSpec>();
  const visit = (spec: TypeSpec | undefined): void => {
    if (!spec) return;
    if (spec.$ref?.startsWith("#/types/")) {
      const tok = spec.$ref.slice("#/types/".length);
      const named = types.get(tok);
      if (named && named.type === "object" && !found.has(tok)) {
        found.set(tok, named);
        Object.values(named.properties).forEach(visit);
      }
    }
    visit(spec.items);
    visit(spec.additionalProperties);
    spec.oneOf?.forEach(visit);
  };
  specs.forEach(visit);
  return [...found.entries()];
}

function typesSection(specs: readonly TypeSpec[], types: ReadonlyMap<string, ComplexTypeSpec>): string[] {
  return referencedObjectTypes(specs, types).flatMap(([tok, spec]) => [
    `### ${shortName(tok)}`,
    "",
    ...(spec.description ? [spec.description, ""] : []),
    table(
      ["Field", "Type", "Always present", "Description"],
      Object.entries(spec.properties).map(([name, p]) => [
        code(name),
        typeText(p, types),
        yesNo(spec.required?.includes(name) ?? false),
        p.description ?? "",
      ]),
    ),
    "",
  ]);
}

/** The "## Example" section: the one example in each language, under a heading of its own. */
function exampleSection(code: Record<ExampleLanguage, string>): string[] {
  return [
    "## Example",
    "",
    ...EXAMPLE_LANGUAGES.flatMap((lang) => [
      `### ${LANGUAGE_TITLES[lang]}`,
      "",
      "```" + DOCS_FENCES[lang],
      code[lang],
      "```",
      "",
    ]),
  ];
}

/** The fence tags of the docs pages: `ts` for TypeScript (tests/unit/schema/examples.test.ts type-checks those). */
const DOCS_FENCES: Record<ExampleLanguage, string> = { typescript: "ts", python: "python", go: "go", yaml: "yaml" };

function argumentsTable(model: PackageModel, properties: readonly PropertyModel[], withChange: boolean): string {
  const headers = ["Argument", "Type", "Required", "Default", ...(withChange ? ["On change"] : []), "Secret"];
  return table(
    [...headers, "Description"],
    properties.map((p) => [
      code(p.name),
      typeCell(p, model.types),
      yesNo(p.required),
      p.defaultText ?? "",
      ...(withChange ? [changeText(p.change)] : []),
      yesNo(p.secret),
      p.description,
    ]),
  );
}

function outputsTable(
  model: PackageModel,
  properties: readonly PropertyModel[],
  present: (p: PropertyModel) => boolean,
) {
  return table(
    ["Output", "Type", "Always present", "Secret", "Description"],
    properties.map((p) => [code(p.name), typeCell(p, model.types), yesNo(present(p)), yesNo(p.secret), p.description]),
  );
}

function resourceDoc(model: PackageModel, r: ResourceModel): string {
  const present = new Set(r.alwaysPresent);
  const replacement =
    r.replaceOn.length === 0
      ? "No argument replaces the resource."
      : r.deleteBeforeReplace
        ? "A replacement deletes the old resource before creating the new one (deleteBeforeReplace)."
        : "A replacement creates the new resource before deleting the old one.";
  return [
    GENERATED_NOTE,
    "",
    `# ${r.type}`,
    "",
    r.description,
    "",
    `Class \`restcloud.${r.type}\` of the \`${model.npmPackage}\` package; schema token \`${r.token}\`.`,
    "",
    ...exampleSection(exampleCode(model, resourceProgram(r))),
    "## Arguments",
    "",
    argumentsTable(model, r.inputs, true),
    "",
    replacement,
    "",
    "## Outputs",
    "",
    "Every argument (as resolved, defaults applied), and:",
    "",
    outputsTable(model, r.outputs, (p) => present.has(p.name)),
    "",
    ...typesSection(
      [...r.inputs, ...r.outputs].map((p) => p.spec),
      model.types,
    ),
    "## Timeouts",
    "",
    table(
      ["Operation", "Default timeout"],
      (["create", "update", "delete"] as const).map((op) => [op, duration(r.defaultTimeouts[op])]),
    ),
    "",
    "A refresh (read) is bounded by the update timeout. Change them per resource with `customTimeouts`, " +
      `e.g. \`{ customTimeouts: { create: "${duration(2 * r.defaultTimeouts.create)}" } }\`; ` +
      "see [Timeouts and outages](../README.md#timeouts-and-outages).",
    "",
    "[All resources and functions](../README.md)",
    "",
  ].join("\n");
}

/** For a function whose answer holds secrets: how a program keeps them secret, in each language. */
function secretAnswerNote(f: FunctionModel): string[] {
  const secret = f.outputs.filter((p) => p.secret).map((p) => code(p.name));
  if (secret.length === 0) return [];
  return [
    `Its answer is secret (${secret.join(", ")}). The Output forms hand it out as a secret Output, encrypted in ` +
      "the state and hidden in the CLI's output wherever the program puts it: " +
      `\`restcloud.${f.name}Output(...)\` (or \`restcloud.${f.name}.output(...)\`) in TypeScript, ` +
      `\`restcloud.${pythonName(f.name)}_output(...)\` in Python, \`restcloud.${goName(f.name)}Output(...)\` in Go; ` +
      "their arguments may be outputs of the program's resources (an Instance's `id`). The plain form answers " +
      "plain values: wrap what you export with `pulumi.secret` (as the example does).",
    "",
  ];
}

function functionDoc(model: PackageModel, f: FunctionModel): string {
  return [
    GENERATED_NOTE,
    "",
    `# ${f.name}`,
    "",
    f.description,
    "",
    `Function \`restcloud.${f.name}\` of the \`${model.npmPackage}\` package; schema token \`${f.token}\`.`,
    "",
    ...secretAnswerNote(f),
    ...exampleSection(exampleCode(model, functionProgram(f))),
    "## Arguments",
    "",
    f.inputs.length > 0 ? argumentsTable(model, f.inputs, false) : "None.",
    "",
    "## Outputs",
    "",
    outputsTable(model, f.outputs, (p) => p.required),
    "",
    ...typesSection(
      [...f.inputs, ...f.outputs].map((p) => p.spec),
      model.types,
    ),
    "[All resources and functions](../README.md)",
    "",
  ].join("\n");
}

function indexDoc(model: PackageModel): string {
  return [
    GENERATED_NOTE,
    "",
    `# ${model.npmPackage} reference`,
    "",
    `${model.description}`,
    "",
    "To install the package in a project of your own (from a packed tarball; it is on no registry) and start one from the `pulumi new` template, see [Use it in your own project](../README.md#use-it-in-your-own-project).",
    "",
    "Each page's example is given in TypeScript, Python (the `pulumi_restcloud` package of sdk/python), " +
      "Go (`github.com/restcloud/pulumi-restcloud/sdk/go/restcloud`, sdk/go) and Pulumi YAML; the Python and Go " +
      'SDKs\' doc comments carry the same example in their language. Values like `"<vpc uuid>"` stand for ' +
      "the id of a record of yours (another resource's output, or a function's answer), and secrets come from " +
      "the stack's config (`pulumi config set --secret <name> <value>`).",
    "",
    "## Provider configuration",
    "",
    "Set with `pulumi config set restcloud:<setting> <value>` (`--secret` for secrets), else the environment variable. " +
      "`pulumi refresh` and `pulumi destroy` use the configuration stored in the stack's state by the last `pulumi up`: " +
      "after a change (new keys), run `pulumi up` first ([Credentials](../README.md#using-the-provider)).",
    "",
    table(
      ["Setting", "Environment variable", "Required", "Secret", "Description"],
      model.config.map((c) => [
        code(`restcloud:${c.name}`),
        code(c.environment),
        yesNo(c.required),
        yesNo(c.secret),
        c.description,
      ]),
    ),
    "",
    "## Resources",
    "",
    table(
      ["Resource", "Description", "Default timeouts (create / update / delete)"],
      model.resources.map((r) => [`[${r.type}](${resourcePage(r)})`, r.description, timeoutsCell(r)]),
    ),
    "",
    "## Timeouts and outages",
    "",
    "Each create, update and delete waits, by polling the API, until its change is visible (a record " +
      "Running, a job finished, a delete gone), at most for its timeout: the defaults above, or the " +
      'resource\'s `customTimeouts` option (`{ customTimeouts: { create: "30m" } }`). A refresh (read) ' +
      "is bounded by the update timeout.",
    "",
    "While the API does not answer (a connection refused, reset or timed out, or a 502, 503 or 504), " +
      "each operation keeps retrying until its timeout runs out, and says so within seconds: the " +
      "resource's row of `pulumi up` shows what it waits on, since when the API has not answered and " +
      "its last error, and a warning (kept in the log, for runs without the live display) names the " +
      "operations that wait; another line says when the API answers again. An operation whose " +
      "timeout runs out fails with a message naming the resource, the timeout, what it waited for " +
      "and the outage. A create that has its id keeps it in the stack even then, so the next " +
      "`pulumi up` finishes it rather than creating another record.",
    "",
    "## Functions",
    "",
    model.functions.length > 0
      ? table(
          ["Function", "Description"],
          model.functions.map((f) => [`[${f.name}](${functionPage(f)})`, f.description]),
        )
      : "None yet.",
    "",
  ].join("\n");
}

/** Every page of docs/, by path relative to docs/. */
export function referenceDocs(model: PackageModel): Map<string, string> {
  return new Map([
    ["README.md", indexDoc(model)],
    ...model.resources.map((r): [string, string] => [resourcePage(r), resourceDoc(model, r)]),
    ...model.functions.map((f): [string, string] => [functionPage(f), functionDoc(model, f)]),
  ]);
}

/** Per resource: what updates in place, through which call, and what replaces it. */
export function updateReplaceTables(model: PackageModel): string {
  const list = (fields: readonly string[]) => fields.map(code).join(", ");
  const sections = model.resources.map((r) => {
    const undeclared = r.inputs.filter((p) => p.change?.kind === "undeclared").map((p) => p.name);
    const rows = [
      ...r.updates.map((u) => [list(u.fields), "updates in place", u.via]),
      ...(r.replaceOn.length > 0
        ? [[list(r.replaceOn), "replaces", r.deleteBeforeReplace ? "delete, then create" : "create, then delete"]]
        : []),
      ...(undeclared.length > 0 ? [[list(undeclared), "no update step declares it", ""]] : []),
    ];
    return [`### [${r.type}](docs/${resourcePage(r)})`, "", table(["Arguments", "On change", "How"], rows)].join("\n");
  });
  return [
    GENERATED_NOTE,
    "<!-- prettier-ignore-start -->",
    ...sections.flatMap((s) => [s, ""]),
    "<!-- prettier-ignore-end -->",
  ].join("\n");
}

/** "(secret, required)", "(required)" or nothing. */
function settingFlags(c: ConfigModel): string {
  const flags = [c.secret ? "secret" : "", c.required ? "required" : ""].filter(Boolean);
  return flags.length > 0 ? `(${flags.join(", ")})` : "";
}

/** The README's table of the provider's settings (between the settings markers). */
export function settingsTable(model: PackageModel): string {
  return [
    GENERATED_NOTE,
    "<!-- prettier-ignore-start -->",
    table(
      ["Setting", "Environment variable", "Description"],
      model.config.map((c) => [
        [code(`restcloud:${c.name}`), settingFlags(c)].filter(Boolean).join(" "),
        code(c.environment),
        c.description,
      ]),
    ),
    "<!-- prettier-ignore-end -->",
  ].join("\n");
}

/** The README with the text between two markers (by default the resource markers) replaced by `section`. */
export function spliceReadme(
  readme: string,
  section: string,
  markers: readonly [begin: string, end: string] = [README_BEGIN, README_END],
): string {
  const [beginMarker, endMarker] = markers;
  const begin = readme.indexOf(beginMarker);
  const end = readme.indexOf(endMarker);
  if (begin < 0 || end < begin) throw new Error(`README.md lacks the markers ${beginMarker} ... ${endMarker}`);
  return `${readme.slice(0, begin + beginMarker.length)}\n${section}\n${readme.slice(end)}`;
}
