// `npm run bench`: wall and CPU time of up, no-change preview, refresh and destroy of fleets against the emulator (no
// delay), each divided by the same operation on do-nothing resources (the floor), plus API requests and the provider's
// peak memory. Writes bench/results/latest.json; a measurement, never a test. Settings (BENCH_SIZES, BENCH_MODES,
// BENCH_UNSHARED, BENCH_MATCHED_FLOOR, BENCH_PROFILE): README "Benchmarks" and the constants below.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { AREAS } from "../provider/client/operations";
import { discoverCatalog, providerConfig, type CatalogIds } from "../tests/e2e/catalog-ids";
import { pulumiCliRoot, type StackConfig } from "../tests/e2e/offline-stack";
import { REPO_ROOT, createStack } from "./workspace";
import { formatTable } from "./table";
import { growthTable, projectionTable, type GrowthPoint } from "./growth";
import { writeReplay } from "./replay";
import { buildReleasePlugins, floorProgramWith, type ReleasePlugins } from "./release-plugins";

type Mode = "dynamic" | "native";
type Operation = "up" | "preview" | "refresh" | "destroy";
const OPERATIONS: readonly Operation[] = ["up", "preview", "refresh", "destroy"];

// Environment: fleet sizes (1,000 takes about half an hour) and modes; BENCH_UNSHARED=1 adds runs with
// `restcloud:shareReads false`; BENCH_MATCHED_FLOOR=1 a floor carrying as many state bytes as the fleet;
// BENCH_REPLAY_FLOOR=1 a floor carrying the fleet's own state (replay.ts); BENCH_PROFILE=1 CPU profiles under
// bench/results/profiles/ (bench/profile.ts summarises them).
const SIZES = (process.env.BENCH_SIZES ?? "10,100,1000").split(",").map(Number);
const MODES = (process.env.BENCH_MODES ?? "dynamic,native").split(",").map((m) => m.trim()) as Mode[];
const UNSHARED = process.env.BENCH_UNSHARED === "1";
const PROFILE = process.env.BENCH_PROFILE === "1";
const MATCHED_FLOOR = process.env.BENCH_MATCHED_FLOOR === "1";
/** BENCH_REPLAY_FLOOR=1: a floor of each mode carrying the fleet's own recorded inputs and outputs (replay.ts). */
const REPLAY_FLOOR = process.env.BENCH_REPLAY_FLOOR === "1";
/** The size the growth's projection is for (BENCH_PROJECT_TO). */
const PROJECT_TO = Number(process.env.BENCH_PROJECT_TO ?? 10_000);
/**
 * The native mode's plugin in the form users get, the release's single executable, and its floor's no-op plugin
 * built the same way (release-plugins.ts); BENCH_PLUGIN=dist runs both by Node.js on dist/ instead.
 */
const RELEASE_PLUGIN = process.env.BENCH_PLUGIN !== "dist";
const RELEASE_WORK = path.join(REPO_ROOT, "bench", "results", "release-plugins");
let releasePlugins: ReleasePlugins | undefined;
/**
 * Results files of earlier runs (BENCH_ADD_RESULTS=a.json,b.json; each run also keeps its own as
 * bench/results/run-<sizes>-<time>.json): their rows of sizes this run did not run join the growth
 * and projection tables, so that a run at 1,000 grows from one at 100 made before.
 */
const ADD_RESULTS = (process.env.BENCH_ADD_RESULTS ?? "").split(",").filter((f) => f.trim() !== "");

const FLEET_PROGRAM = path.join(REPO_ROOT, "tests", "e2e", "reliability", "programs", "fleet");
const FLOOR_PROGRAM: Record<Mode, string> = {
  dynamic: path.join(REPO_ROOT, "bench", "programs", "noop"),
  native: path.join(REPO_ROOT, "bench", "programs", "noop-native"),
};
const RESULTS = path.join(REPO_ROOT, "bench", "results", "latest.json");
/**
 * The Node.js on PATH, which runs the programs and the provider processes: before 22.1 they start without Node's
 * compile cache, which slows every operation's start (`npm run bench` puts the pinned Node 22 first).
 */
const PATH_NODE = execFileSync("node", ["--version"], { encoding: "utf8" }).trim();
const [PATH_NODE_MAJOR = 0, PATH_NODE_MINOR = 0] = PATH_NODE.slice(1).split(".").map(Number);
const PATH_NODE_CACHES = PATH_NODE_MAJOR > 22 || (PATH_NODE_MAJOR === 22 && PATH_NODE_MINOR >= 1);
const PROFILES = path.join(REPO_ROOT, "bench", "results", "profiles");
const STATES = path.join(REPO_ROOT, "bench", "results", "state");
/** How each provider process shows in /proc/PID/cmdline. */
const PROVIDER_PROCESS = /cmd\/dynamic-provider|native-plugin\.js|noop-plugin\.js|pulumi-resource-(restcloud|noop)\0/;

interface Measure {
  ms: number;
  /** API requests the operation sent (undefined for a floor). */
  requests?: number;
  mutating?: number;
  byOperation?: Record<string, number>;
  /** The provider process's peak resident memory (VmHWM), in KiB; the largest if there were several. */
  providerPeakKiB?: number;
  /** CPU time of the processes the operation ran (ProcessSampler), in ms: in all, and by what each was. */
  cpuMs: number;
  cpuMsByRole: Partial<Record<ProcessRole, number>>;
  /** After an up: the stack's state (`pulumi stack export`), in bytes per resource of the program. */
  stateBytesPerResource?: number;
  /**
   * CPU time of this process meanwhile (the emulator answering, and the Automation API), in ms: on a
   * 2-core machine, what the emulator's work takes from the CLI, the program and the provider.
   */
  benchCpuMs?: number;
}

interface Row {
  size: number;
  mode: Mode;
  operation: Operation;
  /** The restcloud fleet, reads shared (the default). */
  restcloud: Measure;
  /** The restcloud fleet, reads not shared (BENCH_UNSHARED=1; up and refresh only). */
  unshared?: Measure;
  /** The same number of no-op resources of this mode. */
  floor: Measure;
  /** The native mode's fleet against the no-op dynamic resources too. */
  dynamicFloor?: Measure;
  /** BENCH_MATCHED_FLOOR: no-op resources of this mode with as much state per resource as the fleet's. */
  matchedFloor?: Measure;
  /** BENCH_REPLAY_FLOOR: no-op resources of the mode carrying the fleet's recorded inputs and outputs. */
  replayFloor?: Measure;
}

interface Stats {
  total: number;
  mutating: number;
  byOperation: Record<string, number>;
}

async function stats(emulator: RunningEmulator, reset: boolean): Promise<Stats> {
  const response = await fetch(`${emulator.url}/_emulator/stats`, { method: reset ? "DELETE" : "GET" });
  return (await response.json()) as Stats;
}

/** What each process of an operation is, from its command line. */
type ProcessRole = "cli" | "program" | "provider" | "other";
const PROCESS_ROLES: [RegExp, ProcessRole][] = [
  [PROVIDER_PROCESS, "provider"],
  [/cmd\/run\/index\.js/, "program"],
  [/^[^\0]*\/pulumi\0/, "cli"],
];

interface SampledProcess {
  role: ProcessRole;
  /** CPU time (user and system) at the last sample, in clock ticks. */
  cpuTicks: number;
  /** Peak resident memory (VmHWM) at the last sample, in KiB; providers only. */
  peakKiB?: number;
}

/** The kernel's clock ticks per second (USER_HZ), in which /proc/PID/stat counts CPU time. */
const CLOCK_TICKS = 100;

/**
 * The processes this one starts while an operation runs (the CLI and, through it, the language host,
 * the program and the provider processes), sampled from /proc every 100 ms: the CPU time each used
 * (lasting processes: a process's last 100 ms, and one that lives less, are missed, alike for a
 * fleet and its floor) and the provider processes' peak memory. CPU time, unlike wall time, hardly
 * depends on what else the machine runs.
 */
class ProcessSampler {
  private readonly seen = new Map<string, SampledProcess>();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.sample(), 100);
  }

  private sample(): void {
    const parents = new Map<number, number>();
    const stats = new Map<number, string[]>();
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        // After the command's closing parenthesis: state, ppid, ... utime (11), stime (12), starttime (19).
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        parents.set(Number(entry), Number(fields[1]));
        stats.set(Number(entry), fields);
      } catch {
        // the process ended between the listing and the read
      }
    }
    const isDescendant = (pid: number): boolean => {
      for (let up = parents.get(pid); up !== undefined && up > 1; up = parents.get(up))
        if (up === process.pid) return true;
      return false;
    };
    for (const [pid, fields] of stats) {
      if (!isDescendant(pid)) continue;
      const key = `${pid}@${fields[19]}`;
      try {
        let known = this.seen.get(key);
        // Until it is known: a plugin's script becomes the plugin (`exec node ...`), with the same pid.
        if (!known || known.role === "other") {
          const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
          const role = PROCESS_ROLES.find(([pattern]) => pattern.test(cmdline))?.[1] ?? "other";
          known = { ...known, role, cpuTicks: 0 };
          this.seen.set(key, known);
        }
        known.cpuTicks = Number(fields[11]) + Number(fields[12]);
        if (known.role === "provider") {
          const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
          if (hwm) known.peakKiB = Math.max(known.peakKiB ?? 0, Number(hwm[1]));
        }
      } catch {
        // the process ended meanwhile: its last sample stands
      }
    }
  }

  stop(): { cpuMs: number; cpuMsByRole: Partial<Record<ProcessRole, number>>; providerPeakKiB?: number } {
    clearInterval(this.timer);
    this.sample();
    const cpuMsByRole: Partial<Record<ProcessRole, number>> = {};
    let peakKiB = 0;
    for (const { role, cpuTicks, peakKiB: kib } of this.seen.values()) {
      cpuMsByRole[role] = (cpuMsByRole[role] ?? 0) + (cpuTicks * 1000) / CLOCK_TICKS;
      peakKiB = Math.max(peakKiB, kib ?? 0);
    }
    const cpuMs = Object.values(cpuMsByRole).reduce((sum, ms) => sum + ms, 0);
    return { cpuMs, cpuMsByRole, ...(peakKiB ? { providerPeakKiB: peakKiB } : {}) };
  }
}

/** Runs one operation, timed; with an emulator, counts the requests it sent. */
async function measure(stack: Stack, operation: Operation, emulator?: RunningEmulator): Promise<Measure> {
  if (emulator) await stats(emulator, true);
  const processes = new ProcessSampler();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const options = { color: "never" } as const;
  let sampled: ReturnType<ProcessSampler["stop"]> | undefined;
  try {
    if (operation === "up") await stack.up(options);
    else if (operation === "preview") await stack.preview({ ...options, expectNoChanges: true });
    else if (operation === "refresh") await stack.refresh(options);
    else await stack.destroy(options);
  } finally {
    sampled = processes.stop();
  }
  const ms = Math.round(performance.now() - started);
  const used = process.cpuUsage(cpu);
  const benchCpuMs = Math.round((used.user + used.system) / 1000);
  const measured: Measure = { ms, benchCpuMs, ...sampled! };
  if (operation === "up") measured.stateBytesPerResource = await stateBytesPerResource(stack);
  if (!emulator) return measured;
  const counted = await stats(emulator, false);
  return { ...measured, requests: counted.total, mutating: counted.mutating, byOperation: counted.byOperation };
}

/**
 * What the engine writes to the checkpoint after every step, per resource of the program. The state
 * itself lands in bench/results/state/<stack>.json, to see what each resource carries.
 */
async function stateBytesPerResource(stack: Stack): Promise<number> {
  const exported = await stack.exportStack();
  fs.mkdirSync(STATES, { recursive: true });
  fs.writeFileSync(path.join(STATES, `${stack.name}.json`), `${JSON.stringify(exported.deployment, null, 1)}\n`);
  const resources = (exported.deployment as { resources?: { type: string }[] }).resources ?? [];
  const own = resources.filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"));
  return Math.round(JSON.stringify(exported.deployment).length / Math.max(1, own.length));
}

/** The environment of a stack: the plugin on PATH; with BENCH_PROFILE, each Node.js process writes a CPU profile. */
function stackEnv(name: string, extra: Record<string, string> = {}): Record<string, string> {
  // The native plugin is found on PATH (plugin/), as a downloaded one is in the plugin cache; the
  // fleet's program is the same in both modes.
  const env = {
    PATH: [
      ...(releasePlugins ? [releasePlugins.restcloudDir] : []),
      path.join(REPO_ROOT, "plugin"),
      path.join(REPO_ROOT, "node_modules", ".bin"),
      path.join(pulumiCliRoot(REPO_ROOT), "bin"),
      process.env.PATH ?? "",
    ].join(path.delimiter),
    ...extra,
  };
  if (!PROFILE) return env;
  const dir = path.join(PROFILES, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` };
}

/** Runs the operations on one stack, in turn; with profiles, notes when each ran (profile.ts reads it). */
async function runOperations(
  name: string,
  program: string,
  config: StackConfig,
  operations: readonly Operation[],
  emulator?: RunningEmulator,
  extraEnv: Record<string, string> = {},
): Promise<Partial<Record<Operation, Measure>>> {
  const env = stackEnv(name, extraEnv);
  const bench = await createStack(program, name, config, env);
  const measures: Partial<Record<Operation, Measure>> = {};
  const timeline: { operation: Operation; started: number; ended: number }[] = [];
  try {
    for (const operation of operations) {
      const started = Date.now();
      measures[operation] = await measure(bench.stack, operation, emulator);
      timeline.push({ operation, started, ended: Date.now() });
    }
  } finally {
    bench.dispose();
  }
  if (PROFILE) fs.writeFileSync(path.join(PROFILES, name, "timeline.json"), JSON.stringify(timeline, null, 2));
  return measures;
}

async function runFleet(
  emulator: RunningEmulator,
  catalog: CatalogIds,
  size: number,
  mode: Mode,
  shareReads: boolean,
  operations: readonly Operation[],
): Promise<Partial<Record<Operation, Measure>>> {
  await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
  const { zoneUuid, ...ids } = catalog;
  const config: StackConfig = {
    ...providerConfig(emulator.url, zoneUuid),
    ...ids,
    count: String(size),
    layout: "groups",
    "restcloud:mode": mode,
    "restcloud:shareReads": String(shareReads),
  };
  return runOperations(fleetStackName(size, mode, shareReads), FLEET_PROGRAM, config, operations, emulator);
}

const fleetStackName = (size: number, mode: Mode, shareReads: boolean) =>
  `fleet-${size}-${mode}${shareReads ? "" : "-unshared"}${mode === "native" && releasePlugins ? "-release" : ""}`;

/**
 * The floor: `size` no-op resources; with `padding`, that many characters of filler each; with `replay`, a file of
 * the fleet's resources whose inputs and outputs they carry.
 */
const runFloor = (size: number, mode: Mode, { padding = 0, replay }: { padding?: number; replay?: string } = {}) =>
  runOperations(
    `noop-${size}-${mode}${padding ? "-matched" : ""}${replay ? "-replay" : ""}${mode === "native" && releasePlugins ? "-release" : ""}`,
    mode === "native" && releasePlugins
      ? floorProgramWith(FLOOR_PROGRAM.native, path.join(RELEASE_WORK, "noop-native"), releasePlugins.noopDir)
      : FLOOR_PROGRAM[mode],
    { count: String(size), ...(padding ? { padding: String(padding) } : {}), ...(replay ? { replay } : {}) },
    OPERATIONS,
    undefined,
    replay ? { NOOP_REPLAY: replay } : {},
  ) as Promise<Record<Operation, Measure>>;

/** The floor carrying the fleet's recorded state (replay.ts), from the fleet's export after its up. */
async function runReplayFloor(size: number, mode: Mode, fleetStack: string): Promise<Record<Operation, Measure>> {
  const replay = path.join(STATES, `${fleetStack}.replay.json`);
  writeReplay(path.join(STATES, `${fleetStack}.json`), size, replay);
  return runFloor(size, mode, { replay });
}

// ---- output -----------------------------------------------------------------------------------------

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const loads = (averages: number[]) => averages.map((l) => l.toFixed(2)).join(" ");
const perResource = (measure: Measure | undefined, size: number) =>
  measure?.requests === undefined ? "" : (measure.requests / size).toFixed(2);
const mib = (kib: number | undefined) => (kib === undefined ? "" : (kib / 1024).toFixed(0));

function table(rows: Row[]): string {
  const header = [
    "resources",
    "mode",
    "operation",
    "restcloud s",
    "floor s",
    "ratio",
    "CPU s",
    "floor CPU s",
    "CPU ratio",
    "dyn. floor s",
    "ratio to dyn.",
    "requests",
    "req/resource",
    "mutating",
    "provider MiB",
    "floor MiB",
    "state B/res.",
    "floor B/res.",
    "emulator CPU s",
  ];
  if (MATCHED_FLOOR) header.push("matched floor s", "ratio to matched");
  if (REPLAY_FLOOR) header.push("replay floor s", "ratio to replay", "replay CPU s", "CPU ratio to replay");
  if (UNSHARED) header.push("unshared req/resource");
  const lines = rows.map((r) => {
    const line = [
      String(r.size),
      r.mode,
      r.operation,
      seconds(r.restcloud.ms),
      seconds(r.floor.ms),
      (r.restcloud.ms / r.floor.ms).toFixed(2),
      seconds(r.restcloud.cpuMs),
      seconds(r.floor.cpuMs),
      (r.restcloud.cpuMs / r.floor.cpuMs).toFixed(2),
      r.dynamicFloor ? seconds(r.dynamicFloor.ms) : "",
      r.dynamicFloor ? (r.restcloud.ms / r.dynamicFloor.ms).toFixed(2) : "",
      String(r.restcloud.requests),
      perResource(r.restcloud, r.size),
      String(r.restcloud.mutating),
      mib(r.restcloud.providerPeakKiB),
      mib(r.floor.providerPeakKiB),
      String(r.restcloud.stateBytesPerResource ?? ""),
      String(r.floor.stateBytesPerResource ?? ""),
      r.restcloud.benchCpuMs === undefined ? "" : seconds(r.restcloud.benchCpuMs),
    ];
    if (MATCHED_FLOOR)
      line.push(
        r.matchedFloor ? seconds(r.matchedFloor.ms) : "",
        r.matchedFloor ? (r.restcloud.ms / r.matchedFloor.ms).toFixed(2) : "",
      );
    if (REPLAY_FLOOR) {
      const replay = r.replayFloor;
      line.push(
        replay ? seconds(replay.ms) : "",
        replay ? (r.restcloud.ms / replay.ms).toFixed(2) : "",
        replay ? seconds(replay.cpuMs) : "",
        replay ? (r.restcloud.cpuMs / replay.cpuMs).toFixed(2) : "",
      );
    }
    if (UNSHARED) line.push(perResource(r.unshared, r.size));
    return line;
  });
  return formatTable(header, lines);
}

/** Per row, the CPU time by process (the CLI, the program, the provider processes, the rest), the fleet's and its floor's. */
function cpuByProcess(rows: Row[]): string {
  const roles: ProcessRole[] = ["cli", "program", "provider", "other"];
  const header = ["resources", "mode", "operation", ...roles.flatMap((role) => [`${role} s`, "floor"])];
  const lines = rows.map((r) => [
    String(r.size),
    r.mode,
    r.operation,
    ...roles.flatMap((role) => [r.restcloud, r.floor].map((m) => seconds(m.cpuMsByRole[role] ?? 0))),
  ]);
  return formatTable(header, lines);
}

/** Each API operation's area (`vpc`, `instance`, `ipAddress`...): the kind of record it acts on. */
const AREA_OF = new Map<string, string>(
  Object.entries(AREAS).flatMap(([area, operations]) =>
    Object.values(operations).map((operation) => [(operation as { name: string }).name, area] as const),
  ),
);

/** Per row, the requests per area of the API, with the operations behind them. */
function requestsByArea(rows: Row[]): string {
  return rows
    .map((r) => {
      const areas = new Map<string, string[]>();
      for (const [operation, count] of Object.entries(r.restcloud.byOperation ?? {}).sort()) {
        const area = AREA_OF.get(operation) ?? "other";
        areas.set(area, [...(areas.get(area) ?? []), `${operation} ${count}`]);
      }
      const parts = [...areas].map(([area, operations]) => `${area}: ${operations.join(", ")}`);
      return `${r.size} ${r.mode} ${r.operation}: ${parts.join("; ") || "none"}`;
    })
    .join("\n");
}

/** Each row's fleet figures, for the growth table (bench/growth.ts), with the rows of BENCH_ADD_RESULTS. */
function growthPoints(run: Row[]): GrowthPoint[] {
  const sizes = new Set(run.map((r) => `${r.size} ${r.mode}`));
  const added = ADD_RESULTS.flatMap((file) => (JSON.parse(fs.readFileSync(file, "utf8")) as { rows: Row[] }).rows);
  const rows = [...run, ...added.filter((r) => !sizes.has(`${r.size} ${r.mode}`))];
  return rows.map((r) => ({
    size: r.size,
    mode: r.mode,
    operation: r.operation,
    ...(r.restcloud.stateBytesPerResource === undefined
      ? {}
      : { stateBytesPerResource: r.restcloud.stateBytesPerResource }),
    ...(r.restcloud.requests === undefined ? {} : { requests: r.restcloud.requests }),
    cliCpuMs: r.restcloud.cpuMsByRole.cli ?? 0,
    programCpuMs: r.restcloud.cpuMsByRole.program ?? 0,
    providerCpuMs: r.restcloud.cpuMsByRole.provider ?? 0,
    floorCliCpuMs: r.floor.cpuMsByRole.cli ?? 0,
  }));
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = os.loadavg();
  if (!PATH_NODE_CACHES)
    process.stderr.write(
      `bench: the node on PATH is ${PATH_NODE}: the providers start without the compile cache; run \`npm run bench\`\n`,
    );
  if (RELEASE_PLUGIN && MODES.includes("native")) {
    process.stderr.write("bench: building the release's plugin and the no-op floor's as single executables...\n");
    releasePlugins = await buildReleasePlugins(RELEASE_WORK);
    process.stderr.write(`bench: built in ${seconds(releasePlugins.buildMs)} s\n`);
  }
  const emulator = await startEmulator({ port: 0, asyncDelayMs: 0 });
  const rows: Row[] = [];
  try {
    const catalog = await discoverCatalog(emulator.url);
    for (const size of SIZES) {
      const floors = new Map<Mode, Record<Operation, Measure>>();
      const floorOf = async (mode: Mode) => {
        if (!floors.has(mode)) {
          process.stderr.write(`bench: ${size} no-op ${mode} resources...\n`);
          floors.set(mode, await runFloor(size, mode));
        }
        return floors.get(mode)!;
      };
      for (const mode of MODES) {
        const floor = await floorOf(mode);
        const dynamicFloor = mode === "native" ? await floorOf("dynamic") : undefined;
        process.stderr.write(`bench: ${size} restcloud resources, ${mode} mode...\n`);
        const restcloud = await runFleet(emulator, catalog, size, mode, true, OPERATIONS);
        const unshared = UNSHARED ? await runFleet(emulator, catalog, size, mode, false, ["up", "refresh"]) : {};
        // The filler makes up the difference of state: it is stored twice (an input and an output).
        const missingBytes = (restcloud.up?.stateBytesPerResource ?? 0) - (floor.up.stateBytesPerResource ?? 0);
        const matchedFloor =
          MATCHED_FLOOR && missingBytes > 0
            ? await runFloor(size, mode, { padding: Math.round(missingBytes / 2) })
            : undefined;
        const replayFloor = REPLAY_FLOOR
          ? await runReplayFloor(size, mode, fleetStackName(size, mode, true))
          : undefined;
        for (const operation of OPERATIONS) {
          rows.push({
            size,
            mode,
            operation,
            restcloud: restcloud[operation]!,
            ...(unshared[operation] ? { unshared: unshared[operation] } : {}),
            floor: floor[operation],
            ...(dynamicFloor ? { dynamicFloor: dynamicFloor[operation] } : {}),
            ...(matchedFloor ? { matchedFloor: matchedFloor[operation] } : {}),
            ...(replayFloor ? { replayFloor: replayFloor[operation] } : {}),
          });
        }
      }
    }
  } finally {
    await emulator.stop();
  }
  report(rows, started, loadAtStart);
}

/** Writes the results (latest.json and this run's own file) and prints the tables. */
function report(rows: Row[], started: number, loadAtStart: number[]): void {
  const growth = growthPoints(rows);
  const results = {
    generatedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      loadAverageAtStart: loadAtStart,
      loadAverage: os.loadavg(),
      node: process.version,
      pathNode: PATH_NODE,
    },
    emulator: { asyncDelayMs: 0 },
    durationMs: Date.now() - started,
    ...(releasePlugins ? { nativePlugin: "release", releaseBuildMs: Math.round(releasePlugins.buildMs) } : {}),
    rows,
    growth,
  };
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  const kept = path.join(
    path.dirname(RESULTS),
    `run-${SIZES.join("_")}-${results.generatedAt.replace(/[:.]/g, "-")}.json`,
  );
  fs.writeFileSync(kept, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `${table(rows)}\n\n` +
      `ratio: restcloud time / the floor's (no-op resources of the same mode); "matched": no-op resources with as much state; ` +
      `"replay": no-op resources of the same mode carrying the fleet's own inputs and outputs; "ratio to dyn.": the native ` +
      `mode against the no-op dynamic resources. Requests from the emulator's stats; provider MiB: the ` +
      `provider process's peak resident memory; state B/res.: the checkpoint after up, in bytes per resource; emulator CPU s: the CPU time of the ` +
      `benchmark's own process (the emulator, in it) during the operation; CPU s: the CPU time of the processes the operation ran ` +
      `(the CLI, the language host, the program, the providers), sampled from /proc.\n\nCPU by process:\n${cpuByProcess(rows)}\n\nRequests by area of the API:\n${requestsByArea(rows)}\n\n` +
      `Growth per resource (growth: the figure per resource against the size before; x1.00 is linear growth in all). ` +
      `The CLI's CPU is the engine's share: it rewrites the whole checkpoint (state B/res. x resources) after every step, ` +
      `so it grows as a*n + b*n^2; the program's and the provider's are ours, c*n + d:\n${growthTable(growth)}\n\n` +
      `Projection to ${PROJECT_TO.toLocaleString("en")} resources (BENCH_PROJECT_TO), CPU seconds, from the sizes run (one size: all taken as linear, ` +
      `which understates the CLI):\n${projectionTable(growth, PROJECT_TO)}\n\n` +
      (releasePlugins
        ? `The native mode ran the release's single executable and a no-op floor built the same way (built in ${seconds(releasePlugins.buildMs)} s).\n`
        : "") +
      `${Math.round(results.durationMs / 1000)} s in all, on ${os.cpus().length} CPUs, Node.js ${PATH_NODE} on PATH; load average (1, 5, 15 min) ` +
      `${loads(loadAtStart)} at the start, ${loads(results.machine.loadAverage)} at the end; figures in ` +
      `${path.relative(REPO_ROOT, RESULTS)}\n`,
  );
}

// The benchmark spawns the CLI, which needs the CLI installed: fail early, with its message, if not.
pulumiCliRoot(REPO_ROOT);
main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
