// `restcloud discover`: lists the account's records no stack of the project holds, writes what adopts them
// (or, with --delete, deletes them). Only REST calls: it is for real accounts (see DISCOVER_USAGE).
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { RestCloudClient } from "../client";
import { ApiError, RestCloudError } from "../client/errors";
import type { ResourceDeclaration } from "../engine/declaration";
import { DECLARATIONS } from "../resources/registry";
import { commandClient, resolveProviderConfig, type ProviderConfig } from "../settings";
import { modeOf, type FrontEnd } from "../program/mode";
import { pulumiProjectRuntime } from "../pulumi-project";
import { importFile, planAdoption, pythonProgram, todoHints, typescriptProgram, type Planned } from "./codegen";
import { deleteRecords, type DeleteOutcome } from "./delete";
import { discover, type Discovery } from "./discover";
import {
  Holdings,
  ProjectError,
  listStacks,
  projectName,
  readHoldings,
  shortStackName,
  stackConfig,
  type StackHoldings,
  type StackSummary,
} from "./stacks";

export const DISCOVER_USAGE = `Usage: restcloud discover [options]

Lists the account's records that no stack of this Pulumi project holds (every kind, every zone),
and writes what adopts them: the resources as program code (index.ts, __main__.py) with the
arguments each record shows and each one's \`import\` option (one \`pulumi up\` adopts them all), and
import.json for \`pulumi import --file\`. A TypeScript stack must be in the native mode
(restcloud:mode native) for that: in the dynamic mode it lists, writes nothing and exits 1.

A record is listed when no stack's state holds its id and it carries no owner tag, or its owner
tag (pulumi-owner) names a stack of this project: an interrupted \`pulumi up\` made it (then
\`restcloud recover\` adopts it into that stack). Records another project's tag names are counted,
not listed; records the service makes along with others (an instance's ROOT volume, cluster
nodes, source-NAT addresses) never. Kinds the API cannot tag (security groups, egress rules, VPN
gateways and connections, clusters...) carry no owner: read the list before --delete.

Options:
  --stack NAME     a stack whose state counts (repeatable); default: every stack of the project
                   (pulumi stack ls). The API settings come from the first one's config
                   (default: the selected stack's).
  --out DIR        where to write import.json, index.ts and __main__.py; default: ./restcloud-discovered
  --delete         delete the listed records (after asking), what refers to others first
  --yes            with --delete: do not ask (required without a terminal)
  --json           print JSON instead of the listing
  --cwd DIR        the Pulumi project's directory; default: the current one
  -h, --help       this text

Settings: restcloud:apiUrl, apiKey, secretKey and zoneUuid from the stack's config, else
RESTCLOUD_API_URL, RESTCLOUD_API_KEY, RESTCLOUD_SECRET_KEY, RESTCLOUD_ZONE_UUID; the code leaves
out of each record's tags those restcloud:defaultTags (or RESTCLOUD_DEFAULT_TAGS) gives. The pulumi
CLI: PULUMI_CLI, else pulumi on PATH.
Exit codes: 0 done (whether or not anything was found); 1 failure, or records found that the stack's
mode cannot adopt (no files written); 2 bad usage.
`;

/** What the command writes and reads: the process's own streams, or a test's. */
export interface DiscoverIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether a person can answer a question (standard input and output are a terminal). */
  isTTY: boolean;
  /** Asks a question on the terminal; the answer's line. */
  prompt(question: string): Promise<string>;
}

class UsageError extends Error {}

/** `restcloud discover ARGS`; resolves to the exit code. */
export async function runDiscover(argv: readonly string[], io: DiscoverIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`restcloud discover: ${error.message}\n\n${DISCOVER_USAGE}`);
      return 2;
    }
    io.stderr(`restcloud discover: ${describe(error)}\n`);
    return 1;
  }
}

let apiUrlForErrors = "";

function describe(error: unknown): string {
  if (error instanceof ApiError && error.status === 401)
    return `the API at ${apiUrlForErrors} refused the credentials (HTTP 401): check restcloud:apiKey and restcloud:secretKey`;
  if (error instanceof ApiError && error.status === 550)
    return `the API at ${apiUrlForErrors} denied ${error.operation} to these credentials (HTTP 550): discover lists every kind, and needs an account that may`;
  if (error instanceof ApiError && (error.status === undefined || error.status >= 500))
    return `the API at ${apiUrlForErrors} did not answer (${error.serverMessage})`;
  if (error instanceof RestCloudError || error instanceof ProjectError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

interface Options {
  stacks: string[];
  out: string;
  delete: boolean;
  yes: boolean;
  json: boolean;
  cwd: string;
}

function parse(argv: readonly string[], io: DiscoverIo): Options | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      options: {
        stack: { type: "string", multiple: true },
        out: { type: "string" },
        delete: { type: "boolean" },
        yes: { type: "boolean", short: "y" },
        json: { type: "boolean" },
        cwd: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) return "help";
  if (values.yes && !values.delete) throw new UsageError("--yes goes with --delete");
  if (values.delete && !values.yes && !io.isTTY)
    throw new UsageError("--delete asks before it deletes, and there is no terminal to ask: add --yes");
  const cwd = path.resolve(io.cwd, values.cwd ?? ".");
  return {
    stacks: values.stack ?? [],
    out: path.resolve(cwd, values.out ?? "restcloud-discovered"),
    delete: values.delete ?? false,
    yes: values.yes ?? false,
    json: values.json ?? false,
    cwd,
  };
}

async function run(argv: readonly string[], io: DiscoverIo): Promise<number> {
  const opts = parse(argv, io);
  if (opts === "help") {
    io.stdout(DISCOVER_USAGE);
    return 0;
  }
  const env = io.env;
  const project = readProject(opts, env);
  const { config, client, stack, mode } = apiClient(opts, project.stacks, env);
  const refusal = dynamicModeRefusal(opts.cwd, stack, mode);

  const declarations = DECLARATIONS as readonly ResourceDeclaration[];
  const discovery = await discover({
    client,
    zoneUuid: config.zoneUuid,
    defaultTags: config.defaultTags,
    declarations,
    project: project.name,
    projectStacks: project.stacks.map((s) => shortStackName(s.name)),
    stacksRead: project.read,
    holdings: new Holdings(project.holdings, declarations),
    pendingCreates: new Map(project.holdings.map((h) => [shortStackName(h.stack), h.pendingCreates])),
  });
  const plan = planAdoption(discovery.unheld, declarations, discovery.index);
  let files: WrittenFiles | undefined;
  const refused = plan.length > 0 && refusal !== undefined ? refusal : undefined;
  if (plan.length > 0 && refused === undefined) {
    const hints = await todoHints(client, plan);
    files = writeFiles(opts.out, project.name, plan, discovery, hints);
  }
  const found: Found = { discovery, plan, apiUrl: config.apiUrl, files, refused };

  if (opts.json) {
    if (!opts.delete) io.stdout(`${JSON.stringify(jsonReport(found), null, 2)}\n`);
  } else {
    io.stdout(listing(found, opts.cwd));
    const earlier = path.join(opts.out, "import.json");
    if (!files && !refused && fs.existsSync(earlier))
      io.stdout(`${path.relative(opts.cwd, earlier) || earlier} is an earlier run's: nothing is left to adopt now.\n`);
  }
  // Listed, but nothing written that would adopt: a failure, so that `discover && pulumi import ...` stops.
  if (refused !== undefined && !opts.delete) {
    io.stderr(`restcloud discover: ${refused}\n`);
    return 1;
  }
  if (!opts.delete) return 0;
  return deleteFound(opts, io, found, { client, zoneUuid: config.zoneUuid, declarations });
}

/** The project's stacks, and the holdings of those whose state counts. */
interface Project {
  name: string;
  stacks: StackSummary[];
  /** The stacks read: the --stack ones, else every one. */
  read: string[];
  holdings: StackHoldings[];
}

// --delete must see every stack's state: a record another stack holds would otherwise look unheld.
function readProject(opts: Options, env: NodeJS.ProcessEnv): Project {
  const name = projectName(opts.cwd);
  const stacks = listStacks(opts.cwd, env);
  const known = new Set(stacks.map((s) => s.name));
  const read = opts.stacks.length > 0 ? opts.stacks : stacks.map((s) => s.name);
  const unread = stacks.filter((s) => !read.some((r) => r === s.name || shortStackName(r) === shortStackName(s.name)));
  if (opts.delete && unread.length > 0)
    throw new UsageError(
      `--delete needs every stack's state (records stack ${unread.map((s) => s.name).join(", ")} holds would look unheld): leave out --stack, or name them all`,
    );
  const holdings: StackHoldings[] = read.map((stack) => {
    if (!known.has(stack) && opts.stacks.length > 0 && ![...known].some((k) => shortStackName(k) === stack))
      throw new ProjectError(`no stack ${stack} in project ${name} (pulumi stack ls: ${[...known].join(", ")})`);
    return readHoldings(stack, opts.cwd, env);
  });
  return { name, stacks, read, holdings };
}

// The API: the first --stack's config, else the selected stack's, else the environment.
function apiClient(
  opts: Options,
  projectStacks: Project["stacks"],
  env: NodeJS.ProcessEnv,
): { config: ProviderConfig; client: RestCloudClient; stack: string | undefined; mode: FrontEnd } {
  const configStack = opts.stacks[0] ?? projectStacks.find((s) => s.current)?.name;
  const fromStack = projectStacks.length > 0 ? stackConfig(opts.cwd, configStack, env) : {};
  const config = resolveProviderConfig({ get: (key) => fromStack[key] }, env);
  const missing = config.missing();
  if (missing.length > 0) throw new ProjectError(`no API settings: ${missing.join("; ")}`);
  apiUrlForErrors = config.apiUrl;
  const client = commandClient(config, { env });
  let mode: FrontEnd;
  try {
    mode = modeOf(fromStack["restcloud:mode"], env); // as the program reads it
  } catch (error) {
    throw new ProjectError((error as Error).message);
  }
  return { config, client, stack: configStack, mode };
}

/**
 * Why no adoption files are written for this stack, if so: a TypeScript stack in the dynamic mode cannot
 * import (its Read gets no state), and its program would create new records beside the ones found.
 * Other runtimes' SDKs are always served by the native plugin.
 */
function dynamicModeRefusal(cwd: string, stack: string | undefined, mode: FrontEnd): string | undefined {
  if (mode === "native" || (pulumiProjectRuntime(cwd) ?? "nodejs") !== "nodejs") return undefined;
  return (
    `wrote no files: ${stack ? `stack ${shortStackName(stack)}` : "the stack"} runs in the ${mode} mode, where an import cannot adopt ` +
    "a record (its program would create new ones beside those found); run " +
    "`pulumi config set restcloud:mode native`, then `restcloud discover` again"
  );
}

/** What a run found and wrote, as the listing and the JSON report show it. */
interface Found {
  discovery: Discovery;
  plan: Planned[];
  apiUrl: string;
  files: WrittenFiles | undefined;
  /** Why the files were not written (the stack's mode), when there was something to write. */
  refused: string | undefined;
}

/** `--delete`: asks (unless --yes), deletes what was listed, dependents first; 1 when any is left. */
async function deleteFound(
  opts: Options,
  io: DiscoverIo,
  found: Found,
  api: { client: RestCloudClient; zoneUuid: string | undefined; declarations: readonly ResourceDeclaration[] },
): Promise<number> {
  const { plan, apiUrl } = found;
  const report = () => jsonReport(found);
  const say = opts.json ? io.stderr : io.stdout;
  if (plan.length === 0) {
    if (opts.json) io.stdout(`${JSON.stringify({ ...report(), deleted: [] }, null, 2)}\n`);
    else say("Nothing to delete.\n");
    return 0;
  }
  if (!opts.yes) {
    const answer = await io.prompt(
      `Delete these ${plan.length} record${plan.length === 1 ? "" : "s"} from ${apiUrl}? This cannot be undone. [y/N] `,
    );
    if (!/^\s*y(es)?\s*$/i.test(answer)) {
      say("Nothing deleted.\n");
      if (opts.json) io.stdout(`${JSON.stringify({ ...report(), deleted: [] }, null, 2)}\n`);
      return 0;
    }
  }
  say(`\nDeleting ${plan.length} record${plan.length === 1 ? "" : "s"}, what refers to others first:\n`);
  const outcomes = await deleteRecords(plan, {
    client: api.client,
    zoneUuid: api.zoneUuid,
    declarations: new Map(api.declarations.map((d) => [d.type, d])),
    onOutcome: (o) => say(`${outcomeLine(o)}\n`),
  });
  const deleted = outcomes.filter((o) => o.outcome === "deleted").length;
  const failed = outcomes.length - deleted;
  say(`${deleted} deleted${failed > 0 ? `, ${failed} not (see above)` : ""}.\n`);
  if (opts.json)
    io.stdout(
      `${JSON.stringify(
        {
          ...report(),
          deleted: outcomes.map((o) => ({
            kind: (o.companion ?? o.planned.unheld.record).kind,
            id: (o.companion ?? o.planned.unheld.record).id,
            ...(o.companion ? { with: o.planned.logicalName } : { logicalName: o.planned.logicalName }),
            outcome: o.outcome,
            ...(o.reason ? { reason: o.reason } : {}),
          })),
        },
        null,
        2,
      )}\n`,
    );
  return failed > 0 ? 1 : 0;
}

// ---- files -------------------------------------------------------------------------------------------

interface WrittenFiles {
  dir: string;
  importFile: string;
  typescript: string;
  python: string;
  todo: string[];
  secrets: string[];
}

function writeFiles(
  dir: string,
  project: string,
  plan: readonly Planned[],
  discovery: Discovery,
  hints: Awaited<ReturnType<typeof todoHints>>,
): WrittenFiles {
  fs.mkdirSync(dir, { recursive: true });
  const files = {
    importFile: path.join(dir, "import.json"),
    typescript: path.join(dir, "index.ts"),
    python: path.join(dir, "__main__.py"),
  };
  fs.writeFileSync(files.importFile, `${JSON.stringify(importFile(plan), null, 2)}\n`);
  fs.writeFileSync(files.typescript, typescriptProgram(project, plan, discovery.index, hints));
  fs.writeFileSync(files.python, pythonProgram(project, plan, discovery.index, hints));
  return {
    dir,
    ...files,
    todo: plan.flatMap((p) => p.todo.map((field) => `${p.unheld.record.kind} ${p.logicalName}: ${field}`)),
    secrets: plan.flatMap((p) => p.secrets.map((s) => s.configKey)),
  };
}

// ---- the listing -------------------------------------------------------------------------------------

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function parentText(discovery: Discovery, plan: readonly Planned[], parentId: string | undefined): string {
  if (parentId === undefined) return "";
  const parent = discovery.index.get(parentId);
  if (!parent) return `on ${parentId}`;
  const planned = plan.find((p) => p.unheld.record === parent);
  const label = planned ? planned.logicalName : (parent.name ?? parent.detail ?? parent.id);
  return `on ${parent.kind} ${label}${planned ? "" : ` (${parent.id})`}`;
}

function ownerNote(p: Planned): string | undefined {
  const owner = p.unheld.owner;
  if (!owner) return undefined;
  const who = `resource ${owner.name ?? "?"} of stack ${owner.stack}`;
  if (p.unheld.pendingCreate)
    return `tagged as ${who}, whose state has its create pending: an interrupted \`pulumi up\` made it; \`restcloud recover --stack ${owner.stack}\` puts it into that state`;
  return p.unheld.ownerStackExists
    ? `tagged as ${who}, which does not hold it: an interrupted \`pulumi up\` made it, and the pending create was cleared since; import it into stack ${owner.stack} (import.json), or delete it`
    : `tagged as ${who}, a stack this project no longer has: adopt it with the import below, or delete it`;
}

function listing(found: Found, cwd: string): string {
  const { discovery, plan, apiUrl, files } = found;
  const lines: string[] = [];
  lines.push(
    `Project ${discovery.project}, ${discovery.stacks.length === 0 ? "no stacks" : `stacks ${discovery.stacks.join(", ")}`}; API ${apiUrl}, ${plural(discovery.zoneUuids.length, "zone")}.`,
    "",
  );
  if (plan.length === 0) lines.push("Every record of the account is held by a stack (or by another project).");
  else {
    lines.push(`Records no stack holds:`);
    const kinds = [...new Set(plan.map((p) => p.unheld.record.kind))];
    for (const kind of kinds) {
      const rows = plan.filter((p) => p.unheld.record.kind === kind);
      lines.push("", `${kind} (${rows.length})`);
      const label = (p: Planned) => {
        const r = p.unheld.record;
        return r.name ?? r.detail ?? p.logicalName;
      };
      const width = Math.max(...rows.map((p) => label(p).length));
      const idWidth = Math.max(...rows.map((p) => p.unheld.record.id.length));
      for (const p of rows) {
        const parent = parentText(discovery, plan, p.unheld.record.parentId);
        lines.push(`  ${label(p).padEnd(width)}  ${p.unheld.record.id.padEnd(idWidth)}  ${parent}`.trimEnd());
        const note = ownerNote(p);
        if (note) lines.push(`    ! ${note}`);
        for (const c of p.unheld.companions)
          lines.push(
            `    with its data disk ${c.name ?? c.id} (${c.id}): its diskSize argument; the service keeps it when the instance goes`,
          );
      }
    }
  }
  if (discovery.unread.length > 0) {
    lines.push("", "Records no stack holds that could not be read (left out of the files and of --delete):");
    for (const { record, error } of discovery.unread)
      lines.push(
        `  ${[record.kind, record.name ?? record.detail, record.id].filter((part) => part).join(" ")}: ${error}`,
      );
  }
  lines.push("", summaryLine(discovery, plan));
  if (found.refused) lines.push("", `No files written: ${found.refused.replace(/^wrote no files: /, "")}.`);
  if (files) {
    const rel = (file: string) => path.relative(cwd, file) || file;
    lines.push(
      "",
      `Wrote ${rel(files.importFile)}, ${rel(files.typescript)} and ${rel(files.python)}.`,
      `To adopt the records: make ${path.basename(files.typescript)}'s (or ${path.basename(files.python)}'s) declarations the stack's program,`,
      "fill in its TODOs, and run `pulumi up`: each resource's `import` option adopts its record as it is",
      "(nothing is created or replaced), with the dependencies; `pulumi preview` then shows no change.",
      `(Or: pulumi import --file ${rel(files.importFile)} --generate-code=false --yes, then one \`pulumi up\`.)`,
    );
    if (files.todo.length > 0)
      lines.push(
        `${plural(files.todo.length, "argument")} no record shows, marked TODO in the code: ${files.todo.join("; ")}.`,
      );
    if (files.secrets.length > 0)
      lines.push(`Secrets the code reads from config: pulumi config set --secret ${files.secrets.join(", ")}.`);
  }
  return `${lines.join("\n")}\n`;
}

function summaryLine(discovery: Discovery, plan: readonly Planned[]): string {
  const interrupted = plan.filter((p) => p.unheld.owner).length;
  const others = Object.entries(discovery.otherProjects).sort(([a], [b]) => a.localeCompare(b));
  const otherCount = others.reduce((n, [, c]) => n + c, 0);
  const parts = [
    `${plural(plan.length, "record")} no stack holds${interrupted > 0 ? ` (${interrupted} from an interrupted \`pulumi up\`)` : ""}`,
    `${discovery.held} held by the stacks`,
    `${plural(otherCount, "record")} of other projects${others.length > 0 ? ` (${others.map(([p, c]) => `${p}: ${c}`).join(", ")})` : ""}`,
    `${discovery.derived} made by the service along with others`,
  ];
  if (discovery.destroyedInstances > 0) parts.push(`${plural(discovery.destroyedInstances, "destroyed instance")}`);
  if (discovery.vanished > 0) parts.push(`${discovery.vanished} gone while read`);
  if (discovery.unread.length > 0) parts.push(`${discovery.unread.length} not readable (above)`);
  return `Summary: ${parts.join("; ")}.`;
}

function outcomeLine(o: DeleteOutcome): string {
  const what = o.companion
    ? `${o.companion.kind} ${o.companion.name ?? o.companion.id} (${o.companion.id}), the data disk ${o.planned.unheld.record.kind} ${o.planned.logicalName} was created with`
    : `${o.planned.unheld.record.kind} ${o.planned.logicalName} (${o.planned.unheld.record.id})`;
  if (o.outcome === "deleted") return `  deleted        ${what} (${(o.ms / 1000).toFixed(1)} s)`;
  if (o.outcome === "failed") return `  FAILED         ${what}: ${o.reason}`;
  return `  not attempted  ${what}: ${o.reason}`;
}

// ---- JSON ----------------------------------------------------------------------------------------------

function jsonReport({ discovery, plan, apiUrl, files, refused }: Found) {
  return {
    project: discovery.project,
    apiUrl,
    stacks: discovery.stacks,
    zones: discovery.zoneUuids,
    records: plan.map((p) => {
      const r = p.unheld.record;
      const parent = r.parentId === undefined ? undefined : discovery.index.get(r.parentId);
      const secret = new Set<string>(p.declaration.secretInputs ?? []);
      return {
        kind: r.kind,
        id: r.id,
        ...(r.name !== undefined ? { name: r.name } : {}),
        ...(r.detail !== undefined ? { detail: r.detail } : {}),
        logicalName: p.logicalName,
        ...(r.zoneUuid !== undefined ? { zoneUuid: r.zoneUuid } : {}),
        parent:
          r.parentId === undefined
            ? null
            : { id: r.parentId, ...(parent ? { kind: parent.kind, name: parent.name ?? parent.detail } : {}) },
        owner: p.unheld.owner
          ? {
              tag: p.unheld.owner.value,
              stack: p.unheld.owner.stack,
              name: p.unheld.owner.name ?? null,
              stackExists: p.unheld.ownerStackExists === true,
              pendingCreate: p.unheld.pendingCreate === true,
            }
          : null,
        hint: ownerNote(p) ?? null,
        dependsOn: p.dependsOn.map((d) => plan[d]!.logicalName),
        arguments: Object.fromEntries(
          Object.entries(p.unheld.inputs).map(([k, v]) => [k, secret.has(k) ? "[secret]" : v]),
        ),
        todo: p.todo,
      };
    }),
    summary: {
      unheld: plan.length,
      interrupted: plan.filter((p) => p.unheld.owner).length,
      held: discovery.held,
      otherProjects: discovery.otherProjects,
      derived: discovery.derived,
      destroyedInstances: discovery.destroyedInstances,
      vanished: discovery.vanished,
    },
    unread: discovery.unread.map(({ record, error }) => ({ kind: record.kind, id: record.id, error })),
    files: files ? { importFile: files.importFile, typescript: files.typescript, python: files.python } : null,
    notWritten: refused ?? null,
  };
}
