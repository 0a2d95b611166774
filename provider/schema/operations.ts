// docs/operations.md: which resource, function or tool reaches each client operation, and why the rest stay client
// methods (a unit test fails on one neither reached nor excluded). The code is read, not run: calls found in provider/
// are credited to the nearest declaration; what the search cannot see, declarations state (`reaches`), plus REACHED_BY
// and CLIENT_ONLY.
import * as fs from "node:fs";
import * as path from "node:path";
import { AREAS } from "../client/operations";
import type { AnyOperation } from "../client/operations/define";
import type { ResourceDeclaration } from "../engine/declaration";
import { DECLARATIONS } from "../resources/registry";

/** `area.operation`, as the client spells it: `client.invoice.generate(...)` is `invoice.generate`. */
export type OperationKey = string;

export interface DeclaredReach {
  /** What reaches it, in the names users see: `FirewallRule`, `Instance.isoUuid`, `Vpc.restartTriggers`. */
  via: string;
  /** How, when the search cannot see the call. */
  note?: string;
}

/** Declared reach that is no kind's: the job status the client polls for whichever operation answers a job. */
export const REACHED_BY: Readonly<Record<OperationKey, DeclaredReach>> = {
  "asyncJob.status": { via: "every resource whose operation answers a job" },
};

/** The cost tool, as the table names it: the calls of provider/cost and provider/pricing are its own. */
const COST_TOOL = "restcloud cost";

/**
 * The reach the declarations state: their own `reaches` (calls the search cannot see), their update
 * steps' (credited to the step's fields), and the unit prices of their `price` (calls of the cost tool).
 */
export function declaredReach(declarations: readonly ResourceDeclaration[]): {
  declared: Map<OperationKey, DeclaredReach>;
  found: Map<OperationKey, Set<string>>;
} {
  const declared = new Map<OperationKey, DeclaredReach>(Object.entries(REACHED_BY));
  const found = new Map<OperationKey, Set<string>>();
  // Two kinds may state the same operation: both are named.
  const add = (key: OperationKey, reach: DeclaredReach) => {
    const before = declared.get(key);
    const text = (r: DeclaredReach) => (r.note ? `${r.via} (${r.note})` : r.via);
    declared.set(key, before ? { via: `${text(before)}; ${text(reach)}` } : reach);
  };
  for (const d of declarations) {
    for (const key of d.reaches?.operations ?? []) add(key, { via: d.type, note: d.reaches!.how });
    for (const step of d.updates)
      for (const key of step.reaches ?? []) add(key, { via: step.fields.map((f) => `${d.type}.${f}`).join(", ") });
    for (const { call } of d.price?.unitPrices ?? []) {
      const key = `costEstimate.${call}`;
      found.set(key, new Set([...(found.get(key) ?? []), COST_TOOL]));
    }
  }
  return { declared, found };
}

/** The client's call, for the docs: `client.invoice.generate({ invoiceNumber: 1001 })`. */
const BILLING_REASON =
  "an administrator's billing operation on an invoice, not infrastructure: a program declares what should " +
  "exist, and an invoice's payment, tax or amount is a one-off act of accounting with no state a stack could " +
  "hold, compare or destroy";

/** The operations no program reaches on purpose, with the reason and the client call that does it. */
export const CLIENT_ONLY: Readonly<Record<OperationKey, { reason: string; call: string }>> = {
  "invoice.generate": {
    reason: BILLING_REASON,
    call: "await client.invoice.generate({ invoiceNumber: 1001 })",
  },
  "invoice.changeCost": {
    reason: BILLING_REASON,
    call: "await client.invoice.changeCost({ invoiceNumber: 1001, payAmount: 99.5 })",
  },
  "invoice.updateStatus": {
    reason: BILLING_REASON,
    call: 'await client.invoice.updateStatus({ id: "100001", payment: true })',
  },
  "invoice.updateTax": {
    reason: BILLING_REASON,
    call: 'await client.invoice.updateTax({ id: "100001", taxes: 19 })',
  },
  "instance.recover": {
    reason:
      "it brings back a Destroyed (not yet expunged) instance, which a program already counts as gone: " +
      "refresh drops it, and the next up creates the instance anew",
    call: 'await client.instance.recover({ uuid: "<instance uuid>" })',
  },
};

export interface OperationRow {
  key: OperationKey;
  operation: AnyOperation;
  /** Where the search found calls, credited (`Vpc`, `getZones`, `restcloud cost`). */
  found: string[];
  declared?: DeclaredReach;
  clientOnly?: { reason: string; call: string };
}

/**
 * The code alone: comments and the text of string literals blanked (a description naming
 * `client.invoice.updateTax(...)` is no call), positions kept. A template literal is blanked whole.
 */
function codeOnly(text: string): string {
  let out = "";
  let i = 0;
  const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\n]/g, " ");
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    let end = i + 1;
    if (c === "/" && next === "/") {
      end = text.indexOf("\n", i);
      if (end < 0) end = text.length;
    } else if (c === "/" && next === "*") {
      end = text.indexOf("*/", i + 2);
      end = end < 0 ? text.length : end + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      end = i + 1;
      while (end < text.length && text[end] !== c) end += text[end] === "\\" ? 2 : 1;
      end = Math.min(end + 1, text.length);
      out += c + blank(i + 1, end - 1) + (end - 1 > i ? c : "");
      i = end;
      continue;
    } else {
      out += c;
      i = end;
      continue;
    }
    out += blank(i, end);
    i = end;
  }
  return out;
}

/** A file's top-level statements (each begins on an unindented line): where, and the declaration or helper it is. */
interface Statement {
  at: number;
  /** The resource type or function name it declares (`type: "Vpc"` or `name: "getZones"` at its first level). */
  declares?: string;
  /** The name of a helper it defines (`function templatesMatching`, `const toZone =`). */
  helper?: string;
  text: string;
}

function statementsOf(original: string): Statement[] {
  const starts = [...original.matchAll(/^(?![\s})\]]|$)/gm)].map((m) => m.index);
  return starts.map((at, i) => {
    const text = original.slice(at, starts[i + 1] ?? original.length);
    const declares = /^ {2}(?:type|name): "([A-Za-z]\w*)",/m.exec(text)?.[1];
    const helper = /^(?:export )?(?:async )?(?:function\*? (\w+)|(?:const|let) (\w+))/.exec(text);
    return { at, text, ...(declares ? { declares } : {}), ...(helper ? { helper: helper[1] ?? helper[2] } : {}) };
  });
}

/** The declarations a statement serves: its own, else those of the statements that use its helper. */
function declarationsServed(
  statements: readonly Statement[],
  statement: Statement,
  seen = new Set<Statement>(),
): string[] {
  if (statement.declares) return [statement.declares];
  if (!statement.helper || seen.has(statement)) return [];
  seen.add(statement);
  const uses = new RegExp(`\\b${statement.helper}\\b`);
  return statements
    .filter((other) => other !== statement && uses.test(other.text))
    .flatMap((other) => declarationsServed(statements, other, seen));
}

/**
 * Whether a call at `at` serves a declaration's `inventory` facet (what `restcloud discover` lists
 * with): it lies inside one, or in a helper an inventory names (directly or through other helpers).
 */
function servesInventory(statements: readonly Statement[], at: number): boolean {
  const regions = statements.flatMap((st) =>
    [...st.text.matchAll(/^( {2,4})inventory:(?:[^\n]*,$|[^\n]*$[\s\S]*?^\1\S[^\n]*,$)/gm)].map((m) => ({
      from: st.at + m.index,
      text: m[0],
    })),
  );
  const reached = (statement: Statement | undefined, seen = new Set<Statement>()): boolean => {
    if (!statement?.helper || seen.has(statement)) return false;
    seen.add(statement);
    const uses = new RegExp(`\\b${statement.helper}\\b`);
    if (regions.some((r) => uses.test(r.text))) return true;
    return statements.some((other) => other !== statement && uses.test(other.text) && reached(other, seen));
  };
  if (regions.some((r) => at >= r.from && at < r.from + r.text.length)) return true;
  return reached(statements.filter((st) => st.at <= at).pop());
}

/** Every `.ts` file below dir, by absolute path, sorted. */
function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Whom a call outside resources/ and functions/ is credited to, by the directory or file of provider/. */
const LAYERS: readonly [RegExp, string][] = [
  [/^(cost|pricing)\//, COST_TOOL],
  [/^discover\//, "restcloud discover"],
  [/^recover\//, "restcloud recover"],
  [/^client\//, "the client (for every resource)"],
  [/^engine\//, "the engine (for every resource)"],
];

/** Where the search finds each operation called, credited to declarations or tools. */
export function operationCalls(root: string): Map<OperationKey, Set<string>> {
  const providerDir = path.join(root, "provider");
  const areas = AREAS as unknown as Record<string, Record<string, AnyOperation>>;
  const found = new Map<OperationKey, Set<string>>();
  for (const file of sourceFiles(providerDir)) {
    const relative = path.relative(providerDir, file).split(path.sep).join("/");
    if (relative.startsWith("client/operations/") || relative.startsWith("schema/")) continue;
    const original = fs.readFileSync(file, "utf8");
    const text = codeOnly(original);
    const statements = statementsOf(original);
    const creditedTo = (at: number): string[] => {
      if (/^(resources|functions)\//.test(relative)) {
        const statement = statements.filter((st) => st.at <= at).pop();
        const served = statement ? declarationsServed(statements, statement) : [];
        const discover = relative.startsWith("resources/") && servesInventory(statements, at);
        // The inventory facets also name what still uses a record whose delete is refused (dependents.ts).
        if (served.length > 0)
          return discover ? [...served, "restcloud discover", "the engine (a refused delete)"] : served;
      }
      return [LAYERS.find(([pattern]) => pattern.test(relative))?.[1] ?? `provider/${relative}`];
    };
    const credit = (area: string, op: string, at: number) => {
      if (!areas[area] || !Object.hasOwn(areas[area], op)) return;
      const key = `${area}.${op}`;
      if (!found.has(key)) found.set(key, new Set());
      for (const name of creditedTo(at)) found.get(key)!.add(name);
    };
    for (const m of text.matchAll(/\.(\w+)\.(\w+)\s*\(/g)) credit(m[1], m[2], m.index);
    // A table row handed to the generic caller: `AREAS.asyncJob.status`.
    for (const m of text.matchAll(/\bAREAS\.(\w+)\.(\w+)\b/g)) credit(m[1], m[2], m.index);
    for (const m of text.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*[\w.]*\.(\w+)\s*;/g)) {
      if (!areas[m[2]]) continue;
      for (const call of text.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)\\s*\\(`, "g")))
        credit(m[2], call[1], call.index);
    }
  }
  return found;
}

/** Every operation of the client with what reaches it, in the tables' order. */
export function operationRows(
  root: string,
  declarations: readonly ResourceDeclaration[] = DECLARATIONS,
): OperationRow[] {
  const calls = operationCalls(root);
  const stated = declaredReach(declarations);
  return Object.entries(AREAS).flatMap(([area, operations]) =>
    Object.entries(operations as Record<string, AnyOperation>).map(([op, operation]) => {
      const key = `${area}.${op}`;
      const declared = stated.declared.get(key);
      return {
        key,
        operation,
        found: [...new Set([...(calls.get(key) ?? []), ...(stated.found.get(key) ?? [])])].sort(),
        ...(declared ? { declared } : {}),
        ...(CLIENT_ONLY[key] ? { clientOnly: CLIENT_ONLY[key] } : {}),
      };
    }),
  );
}

/** Problems of the table: an operation nothing reaches and nothing excuses, an excuse for a reached one, unknown keys. */
export function reachProblems(rows: readonly OperationRow[]): string[] {
  const keys = new Set(rows.map((r) => r.key));
  return [
    ...rows
      .filter((r) => r.found.length === 0 && !r.declared && !r.clientOnly)
      .map((r) => `${r.key}: no resource, function or tool reaches it, and CLIENT_ONLY gives no reason`),
    ...rows
      .filter((r) => r.clientOnly && (r.found.length > 0 || r.declared))
      .map((r) => `${r.key}: listed in CLIENT_ONLY, but reached by ${[...r.found, r.declared?.via].join(", ")}`),
    ...[...Object.keys(REACHED_BY), ...Object.keys(CLIENT_ONLY)]
      .filter((key) => !keys.has(key))
      .map((key) => `${key}: no such operation of the client`),
  ];
}

/** What the table's "Reached by" cell says. */
function reachText(row: OperationRow): string {
  const code = (s: string) => `\`${s}\``;
  if (row.clientOnly) return `client only: ${code(row.clientOnly.call)}`;
  const parts: string[] = [];
  if (row.declared) parts.push(row.declared.note ? `${row.declared.via} (${row.declared.note})` : row.declared.via);
  const others = row.found.filter((name) => name !== row.declared?.via.split(".")[0]);
  parts.push(...others);
  return parts.join("; ");
}

/** docs/operations.md. */
export function operationsDoc(rows: readonly OperationRow[]): string {
  const clientOnly = rows.filter((r) => r.clientOnly);
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  return [
    "<!-- Generated by provider/schema/generate.ts from provider/schema/operations.ts (npm run generate): do not edit. -->",
    "",
    "# Every operation of the API, and what reaches it",
    "",
    `The client (\`RestCloudClient\`, exported by the package) speaks all ${rows.length} operations of the API ` +
      "(the asynchronous job status included). This table says, for each, which resource or function of a " +
      "Pulumi program reaches it (or which tool of the package: `restcloud cost`, `discover`, `recover`), found " +
      "in the code by provider/schema/operations.ts; a unit test fails when an operation is neither reached nor " +
      "listed below with its reason.",
    "",
    "## What stays in the client, and why",
    "",
    `${clientOnly.length} operations are left out of programs on purpose: the billing actions. Each is ${BILLING_REASON}. ` +
      "Reading is declarative and is offered (`getInvoices`, `getTaxPendingInvoices`, `getInvoicePaymentStatus`); " +
      "acting on an invoice is not: a resource would have to pretend that paying or regenerating an invoice can be " +
      "created, diffed and destroyed, and a `pulumi destroy` could not undo it. They are the billing " +
      "administrator's work (the spec marks no operation admin-only; the emulator lets the demo account call " +
      "them, so that the client is tested). Call them with the client, from a script or an automation program:",
    "",
    "```ts",
    'import { RestCloudClient } from "pulumi-restcloud";',
    "",
    "const client = new RestCloudClient({ apiUrl, apiKey, secretKey }); // an administrator's keys",
    ...clientOnly.map((r) => r.clientOnly!.call + ";"),
    "```",
    "",
    "## The table",
    "",
    "| Operation | Method and path | Mutates | Reached by |",
    "| --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| \`${r.key}\` | ${r.operation.method} \`${r.operation.path}\` | ${r.operation.mutating ? "yes" : "no"} | ${cell(reachText(r))} |`,
    ),
    "",
  ].join("\n");
}
