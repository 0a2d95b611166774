/**
 * The user's path after a `pulumi up` killed with SIGKILL (a CI runner's timeout), at moments spread
 * over the up, in one mode (killed-up-dynamic.test.ts, killed-up-native.test.ts: one file per mode,
 * so that the two run side by side):
 *
 *   pulumi up            killed with SIGKILL: only the CLI, as a runner's timeout kills it
 *   (wait)               until the run's provider processes are gone (they may finish a request)
 *   restcloud recover    in the program's directory, with the stack's environment
 *   pulumi up            finishes the stack
 *   audit                no record outside the state, no duplicate, no id held twice
 *   pulumi destroy       and the account is empty
 *
 * The kill points: after the k-th create request was answered (the emulator counts requests per
 * operation), and at fractions of a normal up's span from its first create to its end (measured
 * once per file), five per mode (KILL_POINTS). Four of them run without owner tags (`restcloud:ownerTags` false: records found
 * by name and by arguments alone, two addresses of one VPC handed out as equivalents). Each run has an emulator of its own (started in this process: cheap), so runs
 * share nothing but the stack, which every run leaves destroyed.
 *
 * The processes of a run are told apart by the PULUMI_HOME of its stack, as killed-cli.test.ts does.
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { OWNER_TAG_KEY } from "../../../provider/engine/ownership";
import type { RecoverReport } from "../../../provider/recover/cli";
import { discoverCatalog, type CatalogIds } from "../catalog-ids";
import { REPO_ROOT, TestStack, pulumiCliRoot } from "../harness";
import { NATIVE_MODE, until } from "../native/native-helpers";
import {
  CREATE_OPERATIONS,
  EMPTY_ACCOUNT,
  PROGRAMS,
  accountResources,
  auditAccount,
  catalogConfig,
  emulatorStats,
  isProvider,
  managedRecords,
  processesOf,
  RESOURCE_COLLECTIONS,
  stateOf,
  stateResourceOf,
  type AccountAudit,
  type Deployment,
} from "./helpers";

/** A VPC, a tier, two instances, a volume, two public IPs with a firewall rule each, an egress rule, a port-forwarding rule. */
export const KILLED_UP_PROGRAM = path.join(PROGRAMS, "killed-up");
/** The program's resources (the stack and the provider left out). */
export const KILLED_UP_SIZE = 11;

/** The service's asynchronous work (VPC, tier, instance starts, the volume's attach): long enough to kill during. */
export const ASYNC_DELAY_MS = 1500;
/** The provider processes exit once their health checks of the engine fail (pulumi-engine-watch.ts): seconds. */
const PROVIDERS_GONE_WITHIN_MS = 60_000;

/**
 * When to kill: once `creates` creates were answered, or `fraction` of the normal up's span after its
 * first create. `untagged`: the stack runs with `restcloud:ownerTags` false, as a stack whose creates
 * were killed before their tags: recover then finds records by name and by arguments alone.
 */
export type KillPoint = { label: string; untagged?: true } & ({ creates: number } | { fraction: number });

/**
 * Ten moments from the first create to nearly the end of the up, four of them without owner tags,
 * dealt between the modes: recovery runs the same engine in both, so each mode takes five, early and
 * late, tagged and untagged, by count and by fraction, rather than both taking all ten.
 */
export const KILL_POINTS: readonly (KillPoint & { mode: "dynamic" | "native" })[] = [
  { label: "create 1 answered", mode: "dynamic", creates: 1 },
  { label: "create 2 answered", mode: "native", creates: 2, untagged: true },
  { label: "create 4 answered", mode: "dynamic", creates: 4, untagged: true },
  { label: "create 6 answered", mode: "native", creates: 6 },
  { label: "create 8 answered", mode: "native", creates: 8, untagged: true },
  { label: "create 10 answered", mode: "dynamic", creates: 10 },
  { label: "create 11 answered", mode: "native", creates: 11 },
  // Of the calibration's span: a loaded machine stretches or shrinks a run's, so not too near the end.
  { label: "20% of the span", mode: "dynamic", fraction: 0.2 },
  { label: "50% of the span", mode: "dynamic", fraction: 0.5, untagged: true },
  { label: "75% of the span", mode: "native", fraction: 0.75 },
];

/** The operations of the program's creates (owner tags, the provider's own `createTags`, not counted). */
const CREATES = new Set(
  ["Vpc", "VpcTier", "Instance", "Volume", "PublicIpAddress", "FirewallRule", "EgressRule", "PortForwardingRule"].map(
    (kind) => CREATE_OPERATIONS[kind],
  ),
);

export async function createsAnswered(apiUrl: string): Promise<number> {
  const { byOperation } = await emulatorStats(apiUrl);
  return Object.entries(byOperation)
    .filter(([op]) => CREATES.has(op))
    .reduce((sum, [, n]) => sum + n, 0);
}

// ---- the processes of a run (as killed-cli.test.ts tells them apart) ------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- one run --------------------------------------------------------------------------------------

/** What one run saw: a row of the table. */
export interface KilledUpRow {
  mode: string;
  point: string;
  /** Creates answered when the CLI was killed, and when recover ran. */
  createsAtKill: number;
  createsAtRecover: number;
  killedAtMs: number;
  providersGoneMs: number;
  pendingBefore: number;
  adopted: string[];
  cleared: number;
  ambiguous: number;
  recoverExit: number;
  recoverMs: number;
  /** What recover did beside the pending creates: the killed up's lock removed, its half-written checkpoint repaired. */
  repairs: string[];
  outsideBefore: number;
  outsideAfterRecover: number;
  outsideAfterUp: number;
  upCreated: number;
  /** Owner tags left after the destroy on records that are gone (the emulator keeps some kinds' tags). */
  staleOwnerTags: number;
  totalMs: number;
}

export interface Timeline {
  /** From the CLI's start to the first create answered, and to the up's end. */
  firstCreateMs: number;
  endMs: number;
  creates: number;
}

/** Spawns `pulumi up` on the stack, the CLI alone (the way a CI runner starts it). */
export function spawnUp(stack: TestStack) {
  const workspace = stack.stack.workspace as LocalWorkspace;
  const cli = spawn(
    path.join(pulumiCliRoot(), "bin", "pulumi"),
    ["up", "--yes", "--skip-preview", "--non-interactive", "--color", "never", "--stack", stack.stack.name],
    { cwd: workspace.workDir, env: { ...process.env, ...workspace.envVars }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  cli.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  cli.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => cli.once("exit", (code) => resolve(code)));
  return { cli, exited, output: () => output };
}

/** `restcloud recover --json` as a user runs it: the built CLI, in the program's directory, the stack's environment. */
export function runRecover(
  stack: TestStack,
  extraArgs: readonly string[] = [],
): Promise<{ code: number; report: RecoverReport; stdout: string; stderr: string }> {
  const workspace = stack.stack.workspace as LocalWorkspace;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        path.join(REPO_ROOT, "dist", "provider", "cli.js"),
        "recover",
        "--json",
        "--stack",
        stack.stack.name,
        ...extraArgs,
      ],
      { cwd: workspace.workDir, env: { ...process.env, ...workspace.envVars }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        let report: RecoverReport;
        try {
          report = JSON.parse(stdout) as RecoverReport;
        } catch {
          report = { dryRun: false, pendingCreates: [], otherPendingCreates: [], actions: [], exitCode: code };
        }
        resolve({ code, report, stdout, stderr });
      },
    );
  });
}

const outside = (audit: AccountAudit) => audit.orphans.length;

/** A state's resources and its pending operations' resources. */
export interface KilledState {
  resources: ReturnType<typeof stateResourceOf>[];
  pending: ReturnType<typeof stateResourceOf>[];
}

/**
 * The state the killed up left. On a file backend, read from its checkpoint file: readable even when
 * the CLI cannot read it (a checkpoint whose attributes the kill left empty, which recover repairs).
 * On any other backend (a team's PostgreSQL), `pulumi stack export`, which takes no lock.
 */
export async function killedState(stack: TestStack): Promise<KilledState> {
  const dir = path.join(stack.tempDir, "backend", ".pulumi", "stacks");
  const file = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, encoding: "utf8" })
        .find((f) => path.basename(f) === `${stack.stack.name}.json`)
    : undefined;
  if (file === undefined) return stateOf(stack);
  const { checkpoint } = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as {
    checkpoint: { latest?: Deployment };
  };
  return {
    resources: (checkpoint.latest?.resources ?? []).map(stateResourceOf),
    pending: (checkpoint.latest?.pending_operations ?? []).map((p) => stateResourceOf(p.resource)),
  };
}

/** The account's records (owner tags left out) that no resource of the state holds. */
export async function outsideState(apiUrl: string, state: KilledState): Promise<number> {
  const held = new Set(
    [...state.resources, ...state.pending]
      .filter((r) => r.kind !== undefined && typeof r.id === "string" && r.id !== "")
      .map((r) => `${RESOURCE_COLLECTIONS[r.kind!]}/${r.id}`),
  );
  let count = 0;
  for (const [collection, records] of await managedRecords(apiUrl))
    for (const [key, record] of Object.entries(records))
      if (!(collection === "tag" && record.key === OWNER_TAG_KEY) && !held.has(`${collection}/${key}`)) count++;
  return count;
}

/** Owner tags whose record is gone (after a destroy: every owner tag is). */
async function staleOwnerTags(apiUrl: string): Promise<number> {
  const tags = (await accountResources(apiUrl)).tag ?? {};
  return Object.values(tags).filter((tag) => tag.key === OWNER_TAG_KEY).length;
}

/** The moment of the kill, and how long the run's providers outlived the CLI. */
export interface KilledUp {
  /** Creates answered when the CLI was killed. */
  createsAtKill: number;
  killedAtMs: number;
  providersGoneMs: number;
  /** What the CLI printed until its kill. */
  output: string;
}

/**
 * Runs `pulumi up` on the stack and kills the CLI with SIGKILL at `point` (`beforeKill` runs first,
 * the up still running), then waits until the run's providers are gone, and ends the rest of the
 * run's processes (told apart by `pulumiHome`), as a CI runner's end would.
 */
export async function killUp(
  stack: TestStack,
  apiUrl: string,
  pulumiHome: string,
  point: KillPoint,
  timeline?: Timeline,
  beforeKill?: (cliPid: number) => Promise<void>,
): Promise<KilledUp> {
  const started = Date.now();
  const up = spawnUp(stack);
  let finished = false;
  void up.exited.then(() => (finished = true));
  if ("creates" in point) {
    await until(`create ${point.creates} to be answered`, 120_000, async () =>
      finished || (await createsAnswered(apiUrl)) >= point.creates ? true : undefined,
    );
  } else {
    await until("the first create to be answered", 120_000, async () =>
      finished || (await createsAnswered(apiUrl)) > 0 ? true : undefined,
    );
    await sleep(point.fraction * (timeline!.endMs - timeline!.firstCreateMs));
  }
  if (!finished) await beforeKill?.(up.cli.pid!);
  if (finished) throw new Error(`the up ended before the kill point:\n${up.output()}`);
  const createsAtKill = await createsAnswered(apiUrl);
  const killedAtMs = Date.now() - started;
  up.cli.kill("SIGKILL");
  await up.exited;

  const killedAt = Date.now();
  await until("the provider processes to exit", PROVIDERS_GONE_WITHIN_MS, async () =>
    processesOf(pulumiHome).some(isProvider) ? undefined : true,
  );
  const providersGoneMs = Date.now() - killedAt;
  // The language host and the program have nothing to finish: a CI runner's end takes them too.
  for (const p of processesOf(pulumiHome)) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return { createsAtKill, killedAtMs, providersGoneMs, output: up.output() };
}

/** Runs tasks at most `limit` at a time, in the order they come. */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

/**
 * Runs at once per file: a run spends most of its time waiting (the service's delays, the providers'
 * exit), so two of them overlap well on two cores, beside the other mode's file.
 */
const RUNS_AT_ONCE = 2;

/** The test file of one mode: a calibration up, then one test per kill point (two at a time), and the table. */
export function killedUpSuite(mode: "dynamic" | "native"): void {
  const points = KILL_POINTS.filter((point) => point.mode === mode);
  const modeConfig = mode === "native" ? NATIVE_MODE : {};
  const rows = new Map<string, KilledUpRow>();
  const slots = new Slots(RUNS_AT_ONCE);
  const fileStarted = Date.now();
  let catalog: CatalogIds;
  let calibration: Promise<Timeline> | undefined;

  /** A stack of the run's own, on an emulator of its own. */
  async function freshStack(emulator: RunningEmulator, untagged = false): Promise<TestStack> {
    return TestStack.create({
      programDir: KILLED_UP_PROGRAM,
      config: {
        ...catalogConfig(emulator.url, catalog),
        ...modeConfig,
        ...(untagged ? { "restcloud:ownerTags": "false" } : {}),
      },
    });
  }

  /** Ends whatever of the stack's processes runs, and removes the stack. */
  async function disposeStack(stack: TestStack | undefined): Promise<void> {
    if (!stack) return;
    for (const p of processesOf(path.join(stack.tempDir, "home"))) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await stack.dispose();
  }

  /** A normal up, to spread the kill points over: from its first create to its end; then its destroy. */
  async function calibrate(): Promise<Timeline> {
    const emulator = await startEmulator({ port: 0, asyncDelayMs: ASYNC_DELAY_MS });
    let stack: TestStack | undefined;
    try {
      catalog = await discoverCatalog(emulator.url);
      stack = await freshStack(emulator);
      const started = Date.now();
      const up = spawnUp(stack);
      let firstCreateMs: number | undefined;
      const watching = (async () => {
        while (firstCreateMs === undefined) {
          if ((await createsAnswered(emulator.url)) > 0) firstCreateMs = Date.now() - started;
          else await sleep(25);
        }
      })();
      const code = await up.exited;
      const endMs = Date.now() - started;
      await Promise.race([watching, sleep(1000)]);
      if (code !== 0 || firstCreateMs === undefined)
        throw new Error(`the calibration up failed (${code}):\n${up.output()}`);
      const timeline = { firstCreateMs, endMs, creates: await createsAnswered(emulator.url) };
      expect(timeline.creates).toBe(KILLED_UP_SIZE);
      await stack.destroy();
      expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
      return timeline;
    } finally {
      await disposeStack(stack);
      await emulator.stop();
    }
  }

  /** One run: the up killed at `point`, the user's path after it, the audits. */
  async function runPoint(point: KillPoint, timeline: Timeline): Promise<KilledUpRow> {
    const runStarted = Date.now();
    const emulator = await startEmulator({ port: 0, asyncDelayMs: ASYNC_DELAY_MS });
    const stack = await freshStack(emulator, point.untagged === true);
    const pulumiHome = path.join(stack.tempDir, "home");
    try {
      const killed = await killUp(stack, emulator.url, pulumiHome, point, timeline);
      const { createsAtKill, killedAtMs, providersGoneMs } = killed;
      const stateLeft = await killedState(stack);
      const pendingBefore = stateLeft.pending.filter((r) => r.kind !== undefined).length;
      const outsideBefore = await outsideState(emulator.url, stateLeft);
      const createsAtRecover = await createsAnswered(emulator.url);

      // ---- restcloud recover ----
      const recoverStarted = Date.now();
      const recovered = await runRecover(stack);
      const recoverMs = Date.now() - recoverStarted;
      const afterRecover = await auditAccount(emulator.url, stack);
      const { pendingCreates } = recovered.report;
      const context = `recover (exit ${recovered.code}):\n${recovered.stdout}\n${recovered.stderr}`;
      expect({ exit: recovered.code, context }).toEqual({ exit: 0, context });
      expect((await stateOf(stack)).pending).toEqual([]);
      expect(pendingCreates).toHaveLength(pendingBefore);

      // ---- pulumi up, then the audit ----
      const upAgain = await stack.up();
      const afterUp = await auditAccount(emulator.url, stack);
      expect({ ...afterUp, records: KILLED_UP_SIZE }).toEqual({ ...EMPTY_ACCOUNT, records: KILLED_UP_SIZE });
      expect(afterUp.records).toBe(KILLED_UP_SIZE);
      const held = (await stateOf(stack)).resources.filter((r) => r.kind !== undefined && r.id);
      expect(held).toHaveLength(KILLED_UP_SIZE);
      // What recover adopted, the up leaves in place (same id, not replaced).
      for (const p of pendingCreates.filter((p) => p.status === "adopted"))
        expect({ [p.name]: held.find((r) => r.urn === p.urn)?.id }).toEqual({ [p.name]: p.id });

      // ---- pulumi destroy: the account is empty ----
      await stack.destroy();
      expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);

      return {
        mode,
        point: `${point.label}${point.untagged ? ", no tags" : ""}`,
        createsAtKill,
        createsAtRecover,
        killedAtMs,
        providersGoneMs,
        pendingBefore,
        adopted: pendingCreates
          .filter((p) => p.status === "adopted")
          .map(
            (p) => `${p.name} by ${p.foundBy === "owner tag" ? "tag" : p.foundBy === "arguments" ? "args" : p.foundBy}`,
          ),
        cleared: pendingCreates.filter((p) => p.status === "cleared").length,
        ambiguous: pendingCreates.filter((p) => p.status === "ambiguous").length,
        recoverExit: recovered.code,
        recoverMs,
        repairs: [
          ...(recovered.report.actions.some((a) => a.startsWith("Repaired the checkpoint"))
            ? ["checkpoint repaired"]
            : []),
          ...(recovered.report.actions.some((a) => a.startsWith("Removed the lock")) ? ["lock removed"] : []),
        ],
        outsideBefore,
        outsideAfterRecover: outside(afterRecover),
        outsideAfterUp: outside(afterUp),
        upCreated: upAgain.changes.create ?? 0,
        staleOwnerTags: await staleOwnerTags(emulator.url),
        totalMs: Date.now() - runStarted,
      };
    } catch (error) {
      // Kept for a look: the stack's backend (the checkpoint, its backup, the lock) and the emulator's records.
      const kept = path.join(
        os.tmpdir(),
        "restcloud-killed-up-failures",
        `${mode}-${point.label.replace(/\W+/g, "-")}`,
      );
      fs.rmSync(kept, { recursive: true, force: true });
      fs.mkdirSync(kept, { recursive: true });
      fs.cpSync(path.join(stack.tempDir, "backend"), path.join(kept, "backend"), { recursive: true });
      fs.writeFileSync(path.join(kept, "emulator.json"), JSON.stringify(await accountResources(emulator.url), null, 1));
      throw new Error(`${(error as Error).message}\n(kept in ${kept})`, { cause: error });
    } finally {
      await disposeStack(stack);
      await emulator.stop();
    }
  }

  afterAll(async () => {
    const timeline = await calibration?.catch(() => undefined);
    const cell = (value: unknown, width: number) => String(value).padEnd(width);
    const header =
      `${cell("mode", 8)}${cell("kill point", 34)}${cell("creates", 9)}${cell("pending", 9)}` +
      `${cell("recover did", 100)}${cell("exit", 6)}${cell("outside state: killed/recovered/up", 36)}` +
      `${cell("up created", 12)}${cell("gone s", 8)}${cell("recover s", 11)}run s`;
    const table = points
      .map((point) => rows.get(point.label))
      .filter((r): r is KilledUpRow => r !== undefined)
      .map(
        (r) =>
          `${cell(r.mode, 8)}${cell(r.point, 34)}${cell(`${r.createsAtKill}/${r.createsAtRecover}`, 9)}` +
          `${cell(r.pendingBefore, 9)}` +
          cell(
            `${r.adopted.length} adopted${r.adopted.length ? ` (${r.adopted.join(", ")})` : ""}, ` +
              `${r.cleared} cleared, ${r.ambiguous} ambiguous${r.repairs.map((x) => `; ${x}`).join("")}`,
            100,
          ) +
          `${cell(r.recoverExit, 6)}${cell(`${r.outsideBefore} / ${r.outsideAfterRecover} / ${r.outsideAfterUp}`, 36)}` +
          `${cell(r.upCreated, 12)}${cell((r.providersGoneMs / 1000).toFixed(0), 8)}` +
          `${cell((r.recoverMs / 1000).toFixed(1), 11)}${(r.totalMs / 1000).toFixed(0)}`,
      );
    console.log(
      `${mode} mode: a pulumi up killed with SIGKILL, then restcloud recover, pulumi up, pulumi destroy\n` +
        (timeline
          ? `normal up: first create after ${(timeline.firstCreateMs / 1000).toFixed(1)} s, done after ` +
            `${(timeline.endMs / 1000).toFixed(1)} s; the emulator's async delay ${ASYNC_DELAY_MS} ms; ${RUNS_AT_ONCE} runs at once\n`
          : "") +
        `creates: answered when the CLI was killed / when recover ran\n${header}\n${table.join("\n")}\n` +
        `stale owner tags after the destroys (records gone, tags kept): ${[...rows.values()].map((r) => r.staleOwnerTags).join(", ")}\n` +
        `the file took ${((Date.now() - fileStarted) / 1000).toFixed(0)} s`,
    );
  });

  test.concurrent.each(
    points.map((point) => [`${point.label}${point.untagged ? " (no owner tags)" : ""}`, point] as const),
  )(
    `${mode} mode, killed at %s: recover, up, destroy leave nothing behind`,
    async (_label, point) => {
      calibration ??= calibrate();
      const timeline = await calibration;
      rows.set(point.label, await slots.run(() => runPoint(point, timeline)));
    },
    // Queued behind the calibration and the runs before it: its clock starts with the file.
    1_500_000,
  );
}
