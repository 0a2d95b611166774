// `restcloud recover`: puts the records of an interrupted `pulumi up`'s pending creates into the state, so the
// next `pulumi up` neither duplicates nor orphans them (stack export edited and imported; see RECOVER_USAGE).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { OperationContext, ResourceDeclaration } from "../engine/declaration";
import { BY_TYPE } from "../resources/registry";
import { commandClient, resolveProviderConfig } from "../settings";
import {
  DeploymentFormatError,
  parseExport,
  resolvedDeployment,
  stackStateOf,
  type PendingCreate,
  type Resolution,
  type StackState,
} from "./deployment";
import { claimFound, findRecords, type Finding } from "./match";
import { pulumiFailure, runPulumi as runPulumiCli, type PulumiRun } from "../pulumi-cli";
import { pulumiProjectFile, pulumiProjectName } from "../pulumi-project";

export const RECOVER_USAGE = `Usage: restcloud recover [options]

After a \`pulumi up\` that did not finish (killed by a CI runner's timeout, say), finds the record
each of its pending creates made and puts it into the stack's state; clears the creates that never
reached the service. Then \`pulumi up\` goes on without duplicates or orphans.

Run it in the Pulumi project's directory, with the pulumi CLI on PATH (or named in PULUMI_CLI).
A record is found by its owner tag (pulumi-owner = the resource's URN), else by its name, else by
its arguments; never one another resource of the stack holds or another URN's tag claims.

Options:
  --stack NAME   the stack; default: the selected one
  --cwd DIR      the Pulumi project's directory; default: the current one
  --dry-run      say what would be done; change nothing
  --json         print the outcome as JSON
  --release-lock HOST:PID
                 the lock of that run may go: its process is gone (repeatable)
  -h, --help     this text

Settings: restcloud:apiUrl, apiKey, secretKey (and zoneUuid) from the stack's config, else
RESTCLOUD_API_URL, RESTCLOUD_API_KEY, RESTCLOUD_SECRET_KEY, RESTCLOUD_ZONE_UUID.
A stack left locked by the killed \`pulumi up\`: its lock is removed (pulumi cancel) when it names a
process of this machine that is gone, or one named by --release-lock HOST:PID (a dead runner
elsewhere). A file backend's locks are read from its directory; another backend's (PostgreSQL, S3) are
named by the CLI's refusal of a refresh of the stack resource alone (no change; not in a dry run). A
local backend's checkpoint the kill left unreadable ("failed to load checkpoint: EOF": its .attrs
file empty) is repaired (the empty file removed).
Exit codes: 0 every pending create adopted or cleared (or none); 1 something is left (ambiguous
records, the API or the CLI failed, the stack locked); 2 bad usage.
`;

/** What the command writes and reads: the process's own streams, or a test's. */
export interface RecoverIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

class UsageError extends Error {}
/** A failure that leaves something to do (exit code 1). */
class RecoverError extends Error {}

/** The outcome, as `--json` prints it. */
export interface RecoverReport {
  stack?: string;
  dryRun: boolean;
  pendingCreates: {
    urn: string;
    kind: string;
    name: string;
    status: "adopted" | "cleared" | "ambiguous" | "failed";
    id?: string;
    foundBy?: string;
    candidates?: string[];
    reason?: string;
  }[];
  /** Pending creates of other providers' resources (left as they are). */
  otherPendingCreates: string[];
  /** What was done to the state: `pulumi stack import`, `pulumi refresh --target ...`, a lock removed. */
  actions: string[];
  exitCode: number;
}

/** `restcloud recover ARGS`; resolves to the exit code. */
export async function runRecover(argv: readonly string[], io: RecoverIo): Promise<number> {
  let json = false;
  try {
    const parsed = parseOptions(argv);
    if (parsed === "help") {
      io.stdout(RECOVER_USAGE);
      return 0;
    }
    json = parsed.json;
    const report = await recover(parsed, io);
    if (json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return report.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`restcloud recover: ${error.message}\n\n${RECOVER_USAGE}`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`restcloud recover: ${message}\n`);
    if (json) io.stdout(`${JSON.stringify({ error: message, exitCode: 1 }, null, 2)}\n`);
    return 1;
  }
}

interface Options {
  stack?: string;
  cwd?: string;
  dryRun: boolean;
  json: boolean;
  /** Locks the user says are of runs that are gone (`host:pid`), on another machine too. */
  releaseLocks: string[];
}

function parseOptions(argv: readonly string[]): Options | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      options: {
        stack: { type: "string", short: "s" },
        cwd: { type: "string", short: "C" },
        "dry-run": { type: "boolean" },
        json: { type: "boolean" },
        "release-lock": { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) return "help";
  if (values.stack === "") throw new UsageError("--stack needs a name");
  const releaseLocks = values["release-lock"] ?? [];
  for (const lock of releaseLocks)
    if (!/^[^:\s]+:\d+$/.test(lock))
      throw new UsageError(`--release-lock takes HOST:PID, as the lock names them: ${lock}`);
  return {
    stack: values.stack,
    cwd: values.cwd,
    dryRun: values["dry-run"] === true,
    json: values.json === true,
    releaseLocks,
  };
}

// ---- the pulumi CLI ----------------------------------------------------------------------------

type CliRun = PulumiRun;

const runPulumi = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): CliRun =>
  runPulumiCli(args, cwd, env, (message) => new RecoverError(message));

const failure = pulumiFailure;

function pulumiOk(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const run = runPulumi(args, cwd, env);
  if (run.status !== 0) throw new RecoverError(failure(args, run));
  return run.stdout;
}

/** A lock on the stack, as the file backend keeps it (and as the CLI names it when it refuses). */
interface StackLock {
  user: string;
  host: string;
  pid: number;
}

/** Whether a lock's process is gone: one of this machine that no longer runs, or one the user named. */
function isStale(lock: StackLock, released: readonly string[]): boolean {
  if (released.includes(`${lock.host}:${lock.pid}`)) return true;
  if (lock.host !== os.hostname()) return false;
  try {
    process.kill(lock.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "EPERM";
  }
}

const describeLock = (lock: StackLock) => `${lock.user}@${lock.host} (pid ${lock.pid})`;

/** What to do about locks whose process may still run: wait for one of this machine, name another's. */
function liveLocksAdvice(live: readonly StackLock[]): string {
  return live
    .map((lock) =>
      lock.host === os.hostname()
        ? `${describeLock(lock)}, a process of this machine that still runs: let it end, then run \`restcloud recover\` again`
        : `${describeLock(lock)}, a run on another machine: once it is gone (no update runs on the stack), run ` +
          `\`restcloud recover --release-lock ${lock.host}:${lock.pid}\``,
    )
    .join("; and by ");
}

/** Where a file backend (file://, the local backend) keeps the stack: its root, project and stack name. */
interface FileBackend {
  root: string;
  project?: string;
  stack: string;
}

/** The stack's file backend; undefined for other backends (Pulumi Cloud, object stores). */
function fileBackendOf(cwd: string, env: NodeJS.ProcessEnv, stackArgs: readonly string[]): FileBackend | undefined {
  let url: string | undefined;
  try {
    url = (JSON.parse(pulumiOk(["whoami", "--json"], cwd, env)) as { url?: string }).url;
  } catch {
    return undefined;
  }
  if (!url?.startsWith("file://")) return undefined;
  const stack = (stackArgs[1] ?? pulumiOk(["stack", "--show-name"], cwd, env).trim()).split("/").pop()!;
  return { root: fileURLToPath(url.split("?")[0]), project: pulumiProjectName(cwd), stack };
}

/** A file backend's directories of the stack under `.pulumi/<area>` (project-scoped, then the older layout). */
const stackPaths = (backend: FileBackend, area: string): string[] => [
  ...(backend.project
    ? [
        path.join(
          backend.root,
          ".pulumi",
          area,
          ...(area === "locks" ? ["organization"] : []),
          backend.project,
          backend.stack,
        ),
      ]
    : []),
  path.join(backend.root, ".pulumi", area, backend.stack),
];

/** Each lock a refusal names: "created by user@host (pid N)". */
function locksNamedIn(output: string): StackLock[] {
  return [...output.matchAll(/created by ([^@\s]+)@(\S+) \(pid (\d+)\)/g)].map((m) => ({
    user: m[1],
    host: m[2],
    pid: Number(m[3]),
  }));
}

/**
 * The locks of a backend other than files, where no command reads them: refreshing the stack resource
 * alone takes the lock and changes nothing (pending operations stay), so a refusal names each lock.
 */
function probedLocks(recovery: Recovery, stackUrn: string | undefined): StackLock[] {
  const args = [
    "refresh",
    "--yes",
    "--skip-preview",
    ...(stackUrn ? ["--target", stackUrn] : []),
    ...recovery.stackArgs,
  ];
  const run = runPulumi(args, recovery.cwd, recovery.env);
  if (run.status === 0) return [];
  const output = `${run.stderr}\n${run.stdout}`;
  const locks = locksNamedIn(output);
  if (locks.length > 0) return locks;
  // Pulumi Cloud refuses without naming a process: only the user can tell the update is gone.
  if (LOCK_REFUSAL.test(output))
    throw new RecoverError(`the stack has an update in progress, and the backend names no process: ${LOCKED_ADVICE}`);
  throw new RecoverError(failure(args, run));
}

/**
 * The locks on the stack: a `pulumi up` killed with SIGKILL leaves its lock file in the backend.
 * Other backends' locks the CLI reports when it refuses (see lockedRun).
 */
function fileBackendLocks(backend: FileBackend): StackLock[] {
  const locks: StackLock[] = [];
  for (const dir of stackPaths(backend, "locks")) {
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      try {
        const lock = JSON.parse(fs.readFileSync(path.join(dir, entry), "utf8")) as Record<string, unknown>;
        locks.push({ user: String(lock.username ?? "?"), host: String(lock.hostname ?? "?"), pid: Number(lock.pid) });
      } catch {
        locks.push({ user: "?", host: "?", pid: NaN });
      }
    }
  }
  return locks;
}

/**
 * The checkpoint's attributes file, left empty by a CLI killed while it saved the checkpoint: the
 * file backend writes `<stack>.json.attrs` in place (truncated, then written), then renames the new
 * checkpoint over `<stack>.json`. Killed in between, `<stack>.json` is still the last complete
 * checkpoint (the new one, in a `.tmp` beside it, never took effect, and the engine had not acted on
 * it: it saves before it acts), but every command fails with "failed to load checkpoint: EOF".
 * A missing attributes file is read as none, so removing the empty one is the repair.
 */
function emptyCheckpointAttributes(backend: FileBackend): string[] {
  const dirs = stackPaths(backend, "stacks").map(path.dirname);
  return [...new Set(dirs)].flatMap((dir) =>
    [".json.attrs", ".json.gz.attrs"]
      .map((ext) => path.join(dir, `${backend.stack}${ext}`))
      .filter((file) => fs.existsSync(file) && fs.statSync(file).size === 0),
  );
}

/** How the CLI refuses a command while the stack is locked (self-managed backends) or being updated (Pulumi Cloud). */
const LOCK_REFUSAL = /currently locked|update is currently in progress|conflict/i;

const LOCKED_ADVICE =
  "once no update runs on it (the killed `pulumi up` is gone), run `restcloud recover --release-lock HOST:PID` " +
  "naming that lock, or `pulumi cancel` and `restcloud recover` again";

/**
 * Removes the lock a killed `pulumi up` of this machine left (`pulumi cancel`); a lock of a process
 * that runs, or of another machine, is the user's to judge (RecoverError). Answers what it did.
 */
function releaseStaleLocks(recovery: Recovery, locks: readonly StackLock[], dryRun: boolean): string | undefined {
  if (locks.length === 0) return undefined;
  const live = locks.filter((lock) => !isStale(lock, recovery.options.releaseLocks));
  if (live.length > 0) throw new RecoverError(`the stack is locked by ${liveLocksAdvice(live)}`);
  const released = recovery.options.releaseLocks;
  const which = locks
    .map(
      (lock) =>
        `${describeLock(lock)}, ${released.includes(`${lock.host}:${lock.pid}`) ? "named by --release-lock" : "gone"}`,
    )
    .join("; ");
  const lock = locks.length === 1 ? "lock" : "locks";
  if (dryRun) return `The stack is locked by ${which}: the ${lock} would be removed (pulumi cancel).`;
  // A self-managed backend's cancel removes every lock of the stack, one a new run took since they were read
  // too: they are read again just before, which narrows that window to the cancel's start (docs/recover.md).
  const key = (lock: StackLock) => `${lock.user}@${lock.host}:${lock.pid}`;
  const now = recovery.lookAtLocks?.() ?? locks;
  const taken = now.filter((current) => !locks.some((lock) => key(lock) === key(current)));
  if (taken.length > 0) throw new RecoverError(`the stack was locked meanwhile by ${liveLocksAdvice(taken)}`);
  if (now.length === 0) return `The ${lock} of ${which} was removed meanwhile (by another \`pulumi cancel\`).`;
  pulumiOk(["cancel", "--yes", ...recovery.stackArgs], recovery.cwd, recovery.env);
  return `Removed the ${lock} the killed \`pulumi up\` left (${which}): pulumi cancel.`;
}

/** Runs a pulumi command that takes the stack's lock; a refusal for a lock says what to do. */
function lockedRun(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const run = runPulumi(args, cwd, env);
  if (run.status === 0) return run.stdout;
  const output = `${run.stderr}\n${run.stdout}`;
  if (LOCK_REFUSAL.test(output)) {
    const match = /created by ([^@\s]+)@(\S+) \(pid (\d+)\)/.exec(output);
    throw new RecoverError(
      `the stack is locked${match ? ` by ${match[1]}@${match[2]} (pid ${match[3]})` : ""}: ${LOCKED_ADVICE}`,
    );
  }
  throw new RecoverError(failure(args, run));
}

/** The stack's `restcloud:*` config, secrets in clear. */
function stackConfig(cwd: string, env: NodeJS.ProcessEnv, stackArgs: readonly string[]): Record<string, string> {
  const text = pulumiOk(["config", "--json", "--show-secrets", ...stackArgs], cwd, env);
  try {
    const config = JSON.parse(text) as Record<string, { value?: unknown }>;
    return Object.fromEntries(
      Object.entries(config)
        .filter(([key, v]) => key.startsWith("restcloud:") && v?.value !== undefined)
        .map(([key, v]) => [key, String(v.value)]),
    );
  } catch {
    throw new RecoverError("`pulumi config --json` answered no JSON");
  }
}

// ---- the command ---------------------------------------------------------------------------------

function line(finding: Finding, dryRun: boolean): string {
  const { pending, outcome } = finding;
  const what = `${pending.kind} ${pending.name}`;
  switch (outcome.status) {
    case "adopted":
      return `${what}: ${dryRun ? "would adopt" : "adopted"} ${outcome.id}, found by ${outcome.detail}`;
    case "cleared":
      return `${what}: ${dryRun ? "would clear" : "cleared"}: ${outcome.reason}`;
    case "ambiguous":
      return (
        `${what}: ambiguous: ${outcome.candidates.length} candidates (${outcome.candidates.join(", ")}), none adopted ` +
        `(${outcome.reason}); the create is ${dryRun ? "to be " : ""}dropped from the state: see \`restcloud discover\` ` +
        "to adopt or delete the right record"
      );
    case "failed":
      return `${what}: not decided: ${outcome.reason}`;
  }
}

/** One run of the command: where it works, on which stack, and what it reports. */
interface Recovery {
  options: Options;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stackArgs: string[];
  stackName: string;
  report: RecoverReport;
  /** Text for the reader (kept out of `--json`'s output). */
  say(text: string): void;
  /** What was done to the stack or its backend: reported, and said at once. */
  act(text: string): void;
  /** The stack's locks as they are now (read again before a stale one is removed). */
  lookAtLocks?: () => StackLock[];
}

async function recover(options: Options, io: RecoverIo): Promise<RecoverReport> {
  const recovery = startRecovery(options, io);
  const backend = fileBackendOf(recovery.cwd, recovery.env, recovery.stackArgs);
  if (backend) repairCheckpoint(recovery, backend);
  const state = exportedState(recovery);
  recovery.report.otherPendingCreates = state.otherPendingCreates;
  // Elsewhere a lock shows only to a command that takes one: a dry run takes none.
  recovery.lookAtLocks = () => (backend ? fileBackendLocks(backend) : probedLocks(recovery, state.stackUrn));
  const locks = backend || !options.dryRun ? recovery.lookAtLocks() : [];
  if (state.pendingCreates.length === 0) return nothingPending(recovery, state, locks);

  const ctx = operationContext(recovery);
  const declarations = BY_TYPE;
  const { findings, undecided } = await decide(recovery, state, locks, ctx, declarations);
  if (stopsBeforeChanges(recovery, state, undecided, locks)) return recovery.report;
  writeFindings(recovery, findings);
  return recovery.report;
}

function startRecovery(options: Options, io: RecoverIo): Recovery {
  const cwd = path.resolve(io.cwd, options.cwd ?? ".");
  if (pulumiProjectFile(cwd) === undefined)
    throw new UsageError(
      `not a Pulumi project: no Pulumi.yaml in ${cwd} (run it in the project's directory, or --cwd)`,
    );
  const report: RecoverReport = {
    ...(options.stack ? { stack: options.stack } : {}),
    dryRun: options.dryRun,
    pendingCreates: [],
    otherPendingCreates: [],
    actions: [],
    exitCode: 0,
  };
  const say = (text: string) => {
    if (!options.json) io.stdout(text);
  };
  return {
    options,
    cwd,
    env: io.env,
    stackArgs: options.stack ? ["--stack", options.stack] : [],
    stackName: options.stack ?? "the selected stack",
    report,
    say,
    act: (text) => {
      report.actions.push(text);
      say(`${text}\n`);
    },
  };
}

// Every CLI command fails on a checkpoint whose attributes file a kill left empty, so this goes first.
function repairCheckpoint(recovery: Recovery, backend: FileBackend): void {
  const halfWritten = emptyCheckpointAttributes(backend);
  if (halfWritten.length === 0) return;
  const what = `the killed \`pulumi up\` left the checkpoint's attributes empty (${halfWritten.join(", ")}), so the CLI cannot read the stack ("failed to load checkpoint: EOF")`;
  if (recovery.options.dryRun)
    throw new RecoverError(`${what}: run recover without --dry-run to repair it (it removes that file)`);
  for (const file of halfWritten) fs.rmSync(file);
  recovery.act(`Repaired the checkpoint: ${what}; removed the empty file (the checkpoint itself is complete).`);
}

function exportedState(recovery: Recovery): StackState {
  let exported;
  try {
    exported = parseExport(
      pulumiOk(["stack", "export", "--show-secrets", ...recovery.stackArgs], recovery.cwd, recovery.env),
    );
  } catch (error) {
    if (error instanceof DeploymentFormatError) throw new RecoverError(error.message);
    throw error;
  }
  return stackStateOf(exported);
}

// With no pending create, a stale lock is the one thing left that stops the next `pulumi up`.
function nothingPending(recovery: Recovery, state: StackState, locks: readonly StackLock[]): RecoverReport {
  const released = releaseStaleLocks(recovery, locks, recovery.options.dryRun);
  if (released) recovery.act(released);
  recovery.say(
    `No pending create of a restcloud resource in ${recovery.stackName}: nothing to recover; ` +
      "the next `pulumi up` can go on by itself.\n",
  );
  if (state.otherPendingCreates.length > 0)
    recovery.say(
      `${state.otherPendingCreates.length} pending creates of other providers' resources ` +
        "(`pulumi refresh` asks what to do with each):\n" +
        state.otherPendingCreates.map((urn) => `  ${urn}\n`).join(""),
    );
  return recovery.report;
}

// The API is reached with the stack's own settings, so recover sees what `pulumi up` saw.
function operationContext(recovery: Recovery): OperationContext {
  const config = stackConfig(recovery.cwd, recovery.env, recovery.stackArgs);
  const settings = resolveProviderConfig({ get: (key) => config[key] }, recovery.env);
  const missing = settings.missing();
  if (missing.length > 0) throw new RecoverError(`the API's settings: ${missing.join("; ")}`);
  const client = commandClient(settings, { shareReads: false });
  const ownerTags = config["restcloud:ownerTags"] ?? recovery.env.RESTCLOUD_OWNER_TAGS;
  return {
    client,
    settings: {
      ...(settings.zoneUuid ? { zoneUuid: settings.zoneUuid } : {}),
      ownerTags: String(ownerTags).trim().toLowerCase() !== "false",
    },
    timeoutMs: 60_000,
    progress: () => undefined,
    declarations: [...BY_TYPE.values()],
  };
}

/** Each pending create's record found (and claimed when the state is to change), said and reported. */
async function decide(
  recovery: Recovery,
  state: StackState,
  locks: readonly StackLock[],
  ctx: OperationContext,
  declarations: ReadonlyMap<string, ResourceDeclaration>,
): Promise<{ findings: Finding[]; undecided: Finding[] }> {
  let findings = await findRecords(ctx, state.pendingCreates, state.held, declarations);
  const undecided = findings.filter((f) => f.outcome.status === "failed");
  recovery.say(
    `${recovery.stackName === "the selected stack" ? "The selected stack" : `Stack ${recovery.stackName}`}: ` +
      `${state.pendingCreates.length} pending create${state.pendingCreates.length === 1 ? "" : "s"} ` +
      "of restcloud resources (a `pulumi up` that did not finish).\n",
  );

  // Nothing is changed while a pending create could not be checked: dropping it could orphan its record.
  const blocked = undecided.length > 0 || state.otherPendingCreates.length > 0;
  if (!recovery.options.dryRun && !blocked) {
    // The lock first (a live one stops everything here), then the claims, then the state.
    const released = releaseStaleLocks(recovery, locks, false);
    if (released) recovery.act(released);
    if (ctx.settings.ownerTags !== false) findings = await claimFound(ctx, findings, declarations);
  }
  for (const finding of findings) recovery.say(`  ${line(finding, recovery.options.dryRun || blocked)}\n`);
  recovery.report.pendingCreates = findings.map(({ pending, outcome }) => ({
    urn: pending.urn,
    kind: pending.kind,
    name: pending.name,
    status: outcome.status,
    ...(outcome.status === "adopted" ? { id: outcome.id, foundBy: outcome.by } : {}),
    ...(outcome.status === "ambiguous" ? { candidates: outcome.candidates } : {}),
    ...(outcome.status !== "adopted" ? { reason: outcome.reason } : {}),
  }));
  const left = findings.some((f) => f.outcome.status === "ambiguous" || f.outcome.status === "failed");
  recovery.report.exitCode = left ? 1 : 0;
  return { findings, undecided };
}

/** Whether the state is to stay as it is (others' pending creates, undecided ones, --dry-run), said why. */
function stopsBeforeChanges(
  recovery: Recovery,
  state: StackState,
  undecided: readonly Finding[],
  locks: readonly StackLock[],
): boolean {
  if (state.otherPendingCreates.length > 0) {
    recovery.say(
      `Nothing was changed: ${state.otherPendingCreates.length} pending creates of other providers' resources ` +
        "would be dropped by `pulumi stack import`, which recover uses. Resolve them first (`pulumi refresh` asks " +
        "about each; skip the restcloud ones), then run `restcloud recover` again:\n" +
        state.otherPendingCreates.map((urn) => `  ${urn}\n`).join(""),
    );
    recovery.report.exitCode = 1;
    return true;
  }
  if (undecided.length > 0) {
    recovery.say(
      "Nothing was changed: the pending creates above that were not decided stay as they are; run it again.\n",
    );
    return true;
  }
  if (recovery.options.dryRun) {
    try {
      const released = releaseStaleLocks(recovery, locks, true);
      if (released) recovery.say(`${released}\n`);
    } catch (error) {
      recovery.say(`${(error as Error).message}\n`);
      recovery.report.exitCode = 1;
    }
    recovery.say("Nothing was changed (--dry-run).\n");
    return true;
  }
  return false;
}

/** The findings put into the state (adopted or dropped), the adopted read back, and what comes next. */
function writeFindings(recovery: Recovery, findings: readonly Finding[]): void {
  const resolutions: Resolution[] = findings.map(({ pending, outcome }) =>
    outcome.status === "adopted"
      ? { urn: pending.urn, adopt: { id: outcome.id, outputs: outcome.outputs } }
      : { urn: pending.urn, drop: true },
  );
  recovery.act(applyResolutions(recovery.cwd, recovery.env, recovery.stackArgs, resolutions));
  const adopted = findings.filter((f) => f.outcome.status === "adopted").map((f) => f.pending);
  if (adopted.length > 0) {
    const read = refreshAdopted(recovery.cwd, recovery.env, recovery.stackArgs, adopted);
    recovery.act(read.text);
    if (!read.ok) recovery.report.exitCode = 1;
  }
  const cleared = findings.filter((f) => f.outcome.status === "cleared").length;
  recovery.say(
    recovery.report.exitCode === 0
      ? `Next: \`pulumi up\`${cleared > 0 ? " creates what was cleared and" : ""} goes on from here.\n`
      : "Next: settle the ambiguous records (`restcloud discover`), then `pulumi up`.\n",
  );
}

/** The export (secrets encrypted) edited and imported; answers what was done. */
function applyResolutions(
  cwd: string,
  env: NodeJS.ProcessEnv,
  stackArgs: readonly string[],
  resolutions: readonly Resolution[],
): string {
  const exported = parseExport(pulumiOk(["stack", "export", ...stackArgs], cwd, env));
  const edited = resolvedDeployment(exported, resolutions);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-recover-"));
  const file = path.join(dir, "deployment.json");
  try {
    fs.writeFileSync(file, JSON.stringify(edited), { mode: 0o600 });
    lockedRun(["stack", "import", "--file", file, ...stackArgs], cwd, env);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const adopted = resolutions.filter((r) => "adopt" in r).length;
  const dropped = resolutions.length - adopted;
  return (
    `The state now holds the ${adopted} adopted record${adopted === 1 ? "" : "s"}` +
    (dropped > 0 ? `; the ${dropped} other pending create${dropped === 1 ? " is" : "s are"} gone from it` : "") +
    " (pulumi stack import)."
  );
}

/** The adopted resources read by their provider (their outputs complete: `pulumi refresh --target`). */
function refreshAdopted(
  cwd: string,
  env: NodeJS.ProcessEnv,
  stackArgs: readonly string[],
  adopted: readonly PendingCreate[],
): { ok: boolean; text: string } {
  const args = ["refresh", "--yes", "--skip-preview", ...adopted.flatMap((p) => ["--target", p.urn]), ...stackArgs];
  const run = runPulumi(args, cwd, env);
  return run.status === 0
    ? { ok: true, text: `Read the adopted records back (pulumi refresh --target, ${adopted.length}).` }
    : {
        ok: false,
        text: `The read of the adopted records failed; the state holds them, and \`pulumi refresh\` completes their outputs: ${failure(args, run)}`,
      };
}
