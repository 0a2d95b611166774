// What adopts the unheld records: `import.json` for `pulumi import --file` and the same resources as program code
// (TypeScript, Python), in dependency order, with readable names and the arguments the records show (secrets from config).
import { z } from "zod";
import type { RestCloudClient } from "../client";
import type { ResourceDeclaration } from "../engine/declaration";
import { catalogKindOf, type CatalogKind } from "../engine/validators";
import { pythonName } from "../spellings";
import { nativeTypeToken } from "../type-tokens";
import { indexById, type Unheld } from "./discover";
import type { AccountRecord } from "./inventory";

type Values = Record<string, unknown>;

/** An unheld record, placed: its declaration, names, and the records it refers to. */
export interface Planned {
  unheld: Unheld;
  declaration: ResourceDeclaration;
  /** The resource's logical name (import.json's `name`, the code's first argument). */
  logicalName: string;
  /** Its variable in TypeScript (camelCase) and Python (snake_case). */
  tsName: string;
  pyName: string;
  /** The planned records it refers to (by index into the plan). */
  dependsOn: number[];
  /** Required arguments no record shows: written as TODO. */
  todo: string[];
  /** Optional arguments no record shows (the declaration's unreadable ones), absent from the code. */
  notShown: string[];
  /** Secret arguments: read from config, under these config keys. */
  secrets: { argument: string; configKey: string }[];
}

/** Short words for nameless kinds, in logical names. */
const kebab = (kind: string) =>
  kind
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase();

/** A logical name from free text: letters, digits, `-`, `_` and `.`; the rest become `-`. */
export function sanitizeName(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
}

/** A public address's logical name: `ip-203-0-113-5`. */
/** A name from the alias and the detail alone: an address's "ip-203-0-113-2". */
const detailName = (alias: string, detail: string) => `${alias}-${sanitizeName(detail.replace(/\./g, "-"))}`;

const TS_RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await async of any as " +
    "pulumi restcloud config undefined NaN Infinity arguments eval"
  ).split(" "),
);
const PY_RESERVED = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " +
    "global if import in is lambda nonlocal not or pass raise return try while with yield " +
    "pulumi restcloud config print id type list dict str int len"
  ).split(" "),
);

const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());

function uniqueIn(taken: Set<string>, base: string): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

function variable(
  taken: Set<string>,
  reserved: Set<string>,
  parts: string[],
  join: (parts: string[]) => string,
  separator: string,
): string {
  let base = join(parts.length > 0 ? parts : ["resource"]);
  if (/^[0-9]/.test(base) || reserved.has(base)) base = join(["r", ...parts]);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${separator}${n}`;
  taken.add(name);
  return name;
}

/** camelCase; digits next to digits keep a `_` between them (`ip203_0_113_5`). */
const camel = (parts: string[]) =>
  parts
    .map((p, i) => {
      if (i === 0) return p;
      const joint = /[0-9]$/.test(parts[i - 1]!) && /^[0-9]/.test(p) ? "_" : "";
      return joint + p.charAt(0).toUpperCase() + p.slice(1);
    })
    .join("");
const snake = (parts: string[]) => parts.filter((p) => p !== "").join("_");

/** The fields whose values may name other records (uuid references), the zone aside. */
const isReferenceField = (field: string) => /Uuids?$/.test(field) && field !== "zoneUuid";

const isRequired = (schema: z.ZodType) => !schema.safeParse(undefined).success;

/** Whether an argument is a map of values (`tags`), whose keys are data rather than field names. */
function isMap(schema: z.ZodType): boolean {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodRecord;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The order of kinds among records that do not refer to each other: parents' kinds first, as the
 * records found hang on each other (a VPC before its tiers, an address before its rules), then by name.
 */
function kindRank(index: ReadonlyMap<string, AccountRecord>): (kind: string) => string {
  const parents = new Map<string, Set<string>>();
  for (const record of index.values()) {
    const parent = record.parentId === undefined ? undefined : index.get(record.parentId);
    if (!parent || parent.kind === record.kind) continue;
    if (!parents.has(record.kind)) parents.set(record.kind, new Set());
    parents.get(record.kind)!.add(parent.kind);
  }
  const depths = new Map<string, number>();
  const depth = (kind: string, path: ReadonlySet<string> = new Set()): number => {
    if (depths.has(kind)) return depths.get(kind)!;
    const above = [...(parents.get(kind) ?? [])].filter((p) => !path.has(p));
    const d = Math.max(0, ...above.map((p) => depth(p, new Set([...path, kind])) + 1));
    if (path.size === 0) depths.set(kind, d);
    return d;
  };
  return (kind) => `${String(depth(kind)).padStart(3, "0")} ${kind}`;
}

/**
 * Orders the unheld records by dependency, and gives each its names, references and the arguments
 * to fill in. `index` holds every record found (for the names of parents that are not discovered).
 */
export function planAdoption(
  unheld: readonly Unheld[],
  declarations: readonly ResourceDeclaration[],
  index: ReadonlyMap<string, AccountRecord>,
): Planned[] {
  const byType = new Map(declarations.map((d) => [d.type, d]));
  const entries = unheld.filter((u) => byType.has(u.record.kind));
  const discoveredIds = indexById(
    entries.map((u) => u.record),
    byType,
  );
  const position = new Map(entries.map((u, i) => [u.record, i]));
  const refs = references(entries, discoveredIds, position);
  const order = dependencyOrder(entries, refs, kindRank(index));

  const taken = new Set<string>();
  const tsTaken = new Set<string>();
  const pyTaken = new Set<string>();
  const planned = new Map<number, Planned>();
  const nameOf = (id: string | undefined): string | undefined => {
    if (id === undefined) return undefined;
    const target = discoveredIds.get(id);
    const mine = target && planned.get(position.get(target)!);
    if (mine) return mine.logicalName;
    const record = index.get(id);
    if (record?.name) return sanitizeName(record.name) || undefined;
    const naming = record && byType.get(record.kind)?.inventory?.naming;
    if (naming?.byDetail && record?.detail) return detailName(naming.alias ?? kebab(record.kind), record.detail);
    return id.slice(0, 8);
  };
  for (const i of order) {
    const u = entries[i]!;
    const declaration = byType.get(u.record.kind)!;
    const logicalName = uniqueIn(taken, baseName(u, declaration, nameOf));
    const tsName = variable(tsTaken, TS_RESERVED, words(logicalName), camel, "");
    const pyName = variable(pyTaken, PY_RESERVED, words(logicalName), snake, "_");
    const gaps = argumentGaps(u, declaration, tsName);
    planned.set(i, { unheld: u, declaration, logicalName, tsName, pyName, dependsOn: [], ...gaps });
  }
  // Indices into the plan's own order.
  const planIndex = new Map(order.map((i, at) => [i, at]));
  return order.map((i) => ({ ...planned.get(i)!, dependsOn: refs[i]!.map((t) => planIndex.get(t)!) }));
}

/** Each entry's references: argument values naming another discovered record (by position). */
function references(
  entries: readonly Unheld[],
  discoveredIds: ReadonlyMap<string, AccountRecord>,
  position: ReadonlyMap<AccountRecord, number>,
): number[][] {
  return entries.map((u) => {
    const targets = new Set<number>();
    for (const [field, value] of Object.entries(u.inputs)) {
      if (!isReferenceField(field)) continue;
      for (const v of Array.isArray(value) ? value : [value]) {
        const target = typeof v === "string" ? discoveredIds.get(v) : undefined;
        if (target && target !== u.record) targets.add(position.get(target)!);
      }
    }
    return [...targets];
  });
}

/** Dependency order (Kahn), ties by kind (kindRank), then name and id. */
function dependencyOrder(
  entries: readonly Unheld[],
  refs: readonly number[][],
  rank: (kind: string) => string,
): number[] {
  const key = (i: number) => {
    const r = entries[i]!.record;
    return [rank(r.kind), r.name ?? r.detail ?? "", r.id] as const;
  };
  const compare = (a: number, b: number) => {
    const [ka, kb] = [key(a), key(b)];
    return ka[0].localeCompare(kb[0]) || ka[1].localeCompare(kb[1]) || ka[2].localeCompare(kb[2]);
  };
  const pending = new Set(entries.map((_, i) => i));
  const order: number[] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter((i) => refs[i]!.every((t) => !pending.has(t))).sort(compare);
    // A cycle (none is known between kinds): take the first of what is left, in kind order.
    const next = ready[0] ?? [...pending].sort(compare)[0]!;
    pending.delete(next);
    order.push(next);
  }
  return order;
}

/** The logical name before it is made unique: the owner tag's, the record's, else parent, kind and detail. */
function baseName(
  u: Unheld,
  declaration: ResourceDeclaration,
  nameOf: (id: string | undefined) => string | undefined,
): string {
  const { record } = u;
  const naming = declaration.inventory?.naming;
  const alias = naming?.alias ?? kebab(record.kind);
  const detail = record.detail ? sanitizeName(record.detail.toLowerCase().replace(/->/g, "to")) : "";
  const tagged = u.owner?.name;
  if (tagged && u.owner!.type.endsWith(`:${record.kind}`)) return tagged;
  if (record.name) return sanitizeName(record.name) || alias;
  if (naming?.byDetail) return record.detail ? detailName(alias, record.detail) : alias;
  const parent = nameOf(record.parentId);
  const tail = naming?.withoutDetail ? "" : detail;
  return [parent, alias, tail].filter((p) => p).join("-");
}

/** The arguments the record does not show: required ones (to do), unreadable ones, and secrets (config keys). */
function argumentGaps(
  u: Unheld,
  declaration: ResourceDeclaration,
  tsName: string,
): Pick<Planned, "todo" | "notShown" | "secrets"> {
  const shape = declaration.inputs.shape as Record<string, z.ZodType>;
  const unreadable = new Set<string>(declaration.unreadable ?? []);
  const secret = new Set<string>(declaration.secretInputs ?? []);
  const todo = Object.keys(shape).filter((f) => u.inputs[f] === undefined && isRequired(shape[f]!));
  const notShown = Object.keys(shape).filter(
    (f) => u.inputs[f] === undefined && unreadable.has(f) && !todo.includes(f),
  );
  const secrets = Object.keys(shape)
    .filter((f) => secret.has(f) && u.inputs[f] !== undefined)
    .map((argument) => ({ argument, configKey: `${tsName}${argument.charAt(0).toUpperCase()}${argument.slice(1)}` }));
  return { todo, notShown, secrets };
}

/** `pulumi import --file`'s document: native type tokens, logical names, ids. */
export function importFile(plan: readonly Planned[]): { resources: { type: string; name: string; id: string }[] } {
  return {
    resources: plan.map((p) => ({
      type: nativeTypeToken(p.unheld.record.kind),
      name: p.logicalName,
      id: p.unheld.record.id,
    })),
  };
}

// ---- program code --------------------------------------------------------------------------------

/** Hints for TODO arguments: `${kind}/${field}/${zone}` -> the catalog's choices, in words. */
export type TodoHints = ReadonlyMap<string, string>;

const hintKey = (kind: string, field: string, zone: string | undefined) => `${kind}/${field}/${zone ?? ""}`;

/** The catalog's choices for each TODO argument that is a catalog reference (offerings, versions). */
export async function todoHints(client: RestCloudClient, plan: readonly Planned[]): Promise<TodoHints> {
  const hints = new Map<string, string>();
  const lists: Partial<
    Record<CatalogKind, (zoneUuid: string) => Promise<readonly { uuid?: string; name?: string }[]>>
  > = {
    vpcOffering: (zoneUuid) => client.costEstimate.vpcOfferings({ zoneUuid }),
    networkOffering: (zoneUuid) => client.costEstimate.networkOfferings({ zoneUuid }),
    storageOffering: (zoneUuid) => client.costEstimate.storagePlans({ zoneUuid }),
    kubernetesVersion: (zoneUuid) => client.costEstimate.kubernetesVersions({ zoneUuid }),
  };
  for (const p of plan) {
    const zone = (p.unheld.inputs.zoneUuid as string | undefined) ?? p.unheld.record.zoneUuid;
    for (const field of p.todo) {
      const kind = catalogKindOf((p.declaration.inputs.shape as Record<string, z.ZodType>)[field]!);
      const list = kind && lists[kind];
      const key = hintKey(p.unheld.record.kind, field, zone);
      if (!list || zone === undefined || hints.has(key)) continue;
      try {
        const choices = (await list(zone)).filter((c) => c.uuid).map((c) => `${c.name ?? "?"} (${c.uuid})`);
        if (choices.length > 0) hints.set(key, `the zone's choices: ${choices.join(", ")}`);
      } catch {
        // No hint then: the TODO stands on its own.
      }
    }
  }
  return hints;
}

interface Syntax {
  string(value: string): string;
  bool(value: boolean): string;
  nil: string;
  argument(name: string): string;
  object(entries: [string, string][]): string;
  /** A map (tags): its keys are data, spelled as they are in every language. */
  map(entries: [string, string][]): string;
  ref(variable: string): string;
  secret(configKey: string): string;
  comment: string;
}

const TS: Syntax = {
  string: (v) => JSON.stringify(v),
  bool: (v) => String(v),
  nil: "undefined",
  argument: (name) => name,
  object: (entries) =>
    `{ ${entries.map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${v}`).join(", ")} }`,
  map: (entries) => TS.object(entries),
  ref: (v) => `${v}.id`,
  secret: (key) => `config.requireSecret(${JSON.stringify(key)})`,
  comment: "//",
};

const PY: Syntax = {
  string: (v) => JSON.stringify(v),
  bool: (v) => (v ? "True" : "False"),
  nil: "None",
  argument: pythonName,
  object: (entries) => `{${entries.map(([k, v]) => `${JSON.stringify(pythonName(k))}: ${v}`).join(", ")}}`,
  map: (entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ")}}`,
  ref: (v) => `${v}.id`,
  secret: (key) => `config.require_secret(${JSON.stringify(key)})`,
  comment: "#",
};

function literal(value: unknown, syntax: Syntax, refer: (uuid: string) => string | undefined, field: string): string {
  if (value === null || value === undefined) return syntax.nil;
  if (typeof value === "string") {
    const ref = isReferenceField(field) ? refer(value) : undefined;
    return ref ?? syntax.string(value);
  }
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : syntax.nil;
  if (typeof value === "boolean") return syntax.bool(value);
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, syntax, refer, field)).join(", ")}]`;
  if (typeof value === "object")
    return syntax.object(
      Object.entries(value as Values)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, literal(v, syntax, refer, k)]),
    );
  return syntax.string(String(value));
}

/** The values an enum argument allows, in words: "one of aes128, aes192, aes256, 3des". */
function choicesOf(declaration: ResourceDeclaration, field: string): string | undefined {
  let schema: unknown = (declaration.inputs.shape as Record<string, z.ZodType>)[field];
  for (let depth = 0; schema && depth < 8; depth++) {
    const options = (schema as { options?: unknown }).options;
    if (Array.isArray(options) && options.every((o) => typeof o === "string")) return `one of ${options.join(", ")}`;
    schema = (schema as { _zod?: { def?: { innerType?: unknown } } })._zod?.def?.innerType;
  }
  return undefined;
}

/** A record in one line: "VpcTier web-tier (uuid)". */
const describeRecord = (p: Planned) => `${p.unheld.record.kind} ${p.logicalName} (${p.unheld.record.id})`;

/** The arguments of one resource, rendered: [argument name, value, comment lines above it]. */
function argumentsOf(
  p: Planned,
  syntax: Syntax,
  variables: (p: Planned) => string,
  plan: readonly Planned[],
  hints: TodoHints,
): [string, string, string[]][] {
  const ids = indexById(
    plan.map((q) => q.unheld.record),
    new Map(plan.map((q) => [q.declaration.type, q.declaration])),
  );
  const byRecord = new Map(plan.map((q) => [q.unheld.record, q]));
  const refer = (uuid: string) => {
    const record = ids.get(uuid);
    const target = record && byRecord.get(record);
    return target && target !== p ? syntax.ref(variables(target)) : undefined;
  };
  const defaults = (p.declaration.defaults ?? {}) as Values;
  const zone = (p.unheld.inputs.zoneUuid as string | undefined) ?? p.unheld.record.zoneUuid;
  const out: [string, string, string[]][] = [];
  for (const field of Object.keys(p.declaration.inputs.shape)) {
    const secret = p.secrets.find((s) => s.argument === field);
    if (secret) {
      out.push([
        syntax.argument(field),
        syntax.secret(secret.configKey),
        [`the record's ${field} is a secret: pulumi config set --secret ${secret.configKey} <value>`],
      ]);
      continue;
    }
    if (p.todo.includes(field)) {
      const hint = hints.get(hintKey(p.unheld.record.kind, field, zone)) ?? choicesOf(p.declaration, field);
      out.push([
        syntax.argument(field),
        syntax.string(""),
        [`TODO: the record does not show ${field}; set the value it was created with${hint ? ` (${hint})` : ""}.`],
      ]);
      continue;
    }
    const value = p.unheld.inputs[field];
    if (value === undefined || (field in defaults && sameValue(value, defaults[field]))) continue;
    const shape = p.declaration.inputs.shape as Record<string, z.ZodType>;
    const text = isMap(shape[field]!)
      ? syntax.map(Object.entries(value as Values).map(([k, v]) => [k, syntax.string(String(v))]))
      : literal(value, syntax, refer, field);
    out.push([syntax.argument(field), text, []]);
  }
  return out;
}

function headerLines(project: string, p: Planned, index: ReadonlyMap<string, AccountRecord>): string[] {
  const lines = [describeRecord(p)];
  const parent = p.unheld.record.parentId === undefined ? undefined : index.get(p.unheld.record.parentId);
  if (parent) lines[0] += `, on ${parent.kind} ${parent.name ?? parent.detail ?? parent.id}`;
  if (p.unheld.owner)
    lines.push(
      `Tagged as resource ${p.unheld.owner.name ?? "?"} of stack ${p.unheld.owner.stack} (project ${project}): an interrupted \`pulumi up\` made it.`,
    );
  if (p.notShown.length > 0)
    lines.push(
      `The record does not show ${p.notShown.join(", ")}: declare ${p.notShown.length > 1 ? "them" : "it"} if it was created with ${p.notShown.length > 1 ? "them" : "it"}.`,
    );
  return lines;
}

/** How the files adopt the records, atop both programs; `mode` says what serves them natively. */
const adopt = (mode: string) => [
  "Each resource carries the `import` option with its record's id: one `pulumi up` of this program",
  "adopts every record as it is, and the references between them become the stack's dependencies",
  "(so that `pulumi destroy` deletes in order).",
  mode,
  "Fill in the TODOs first. The `import` options may be removed after that first up.",
  "Or: `pulumi import --file import.json --generate-code=false --yes`, then one `pulumi up` of this",
  "program (it changes nothing, and records the dependencies).",
];

/** The TypeScript program (`index.ts`): the native mode's classes of the package. */
export function typescriptProgram(
  project: string,
  plan: readonly Planned[],
  index: ReadonlyMap<string, AccountRecord>,
  hints: TodoHints = new Map(),
): string {
  const needsConfig = plan.some((p) => p.secrets.length > 0);
  const lines = [
    "/**",
    ` * The records \`restcloud discover\` found that no stack of project ${project} holds, declared with`,
    " * the arguments each record shows.",
    ...adopt("The stack runs in the native mode: pulumi config set restcloud:mode native.").map((l) => ` * ${l}`),
    " */",
    ...(needsConfig ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as restcloud from "pulumi-restcloud";',
    "",
    ...(needsConfig ? ["const config = new pulumi.Config();", ""] : []),
  ];
  for (const p of plan) {
    for (const line of headerLines(project, p, index)) lines.push(`// ${line}`);
    const args = argumentsOf(p, TS, (q) => q.tsName, plan, hints);
    lines.push(`const ${p.tsName} = new restcloud.${p.unheld.record.kind}(${JSON.stringify(p.logicalName)}, {`);
    for (const [name, value, comments] of args) {
      for (const c of comments) lines.push(`  // ${c}`);
      lines.push(`  ${name}: ${value},`);
    }
    lines.push(`}, { import: ${JSON.stringify(p.unheld.record.id)} });`, "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The Python program (`__main__.py`): the SDK `pulumi_restcloud`, snake_case arguments. */
export function pythonProgram(
  project: string,
  plan: readonly Planned[],
  index: ReadonlyMap<string, AccountRecord>,
  hints: TodoHints = new Map(),
): string {
  const needsConfig = plan.some((p) => p.secrets.length > 0);
  const lines = [
    '"""',
    `The records \`restcloud discover\` found that no stack of project ${project} holds, declared with`,
    "the arguments each record shows.",
    ...adopt("Python is always served by the native plugin."),
    '"""',
    "",
    "import pulumi",
    "import pulumi_restcloud as restcloud",
    "",
    ...(needsConfig ? ["config = pulumi.Config()", ""] : []),
  ];
  for (const p of plan) {
    for (const line of headerLines(project, p, index)) lines.push(`# ${line}`);
    const args = argumentsOf(p, PY, (q) => q.pyName, plan, hints);
    lines.push(`${p.pyName} = restcloud.${p.unheld.record.kind}(`, `    ${JSON.stringify(p.logicalName)},`);
    for (const [name, value, comments] of args) {
      for (const c of comments) lines.push(`    # ${c}`);
      lines.push(`    ${name}=${value},`);
    }
    lines.push(`    opts=pulumi.ResourceOptions(import_=${JSON.stringify(p.unheld.record.id)}),`, ")", "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
