// `npm run bench:critical-path`: times `pulumi up` and `destroy` of the fleet and examples/vpc-web, in both modes and
// at three job settings, against the longest chain of jobs each had to wait for (bench/chain.ts), with polls per job
// and slack. Writes bench/results/critical-path.json; a measurement, never a test. README "Benchmarks" lists the
// settings (BENCH_PROGRAMS, BENCH_MODES, BENCH_SETTINGS, BENCH_FLEET_COUNT).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../emulator";
import { AREAS } from "../provider/client/operations";
import { discoverCatalog, providerConfig } from "../tests/e2e/catalog-ids";
import { pulumiCliRoot, type StackConfig } from "../tests/e2e/offline-stack";
import {
  analyseOperation,
  formatChain,
  stackGraph,
  typeName,
  type Direction,
  type LoggedRequest,
  type OperationAnalysis,
  type StateResource,
  type TimelineWork,
} from "./chain";
import { REPO_ROOT, createStack } from "./workspace";
import { formatTable } from "./table";

type Program = "fleet" | "vpc-web";
type Mode = "dynamic" | "native";
type Setting = "zero" | "uniform" | "realistic";

/** What each setting starts the emulator with. */
const SETTINGS: Record<Setting, EmulatorOptions> = {
  zero: { asyncDelayMs: 0 },
  uniform: { asyncDelayMs: 3000 },
  // Figures of CloudStack-family clouds (emulator/README.md, "Job durations"): an instance 30 s.
  realistic: { jobProfile: "realistic" },
};
const PROGRAM_DIRS: Record<Program, string> = {
  fleet: path.join(REPO_ROOT, "tests", "e2e", "reliability", "programs", "fleet"),
  "vpc-web": path.join(REPO_ROOT, "examples", "vpc-web"),
};

function listed<T extends string>(variable: string, all: readonly T[]): T[] {
  const picked = (process.env[variable] ?? all.join(",")).split(",").map((s) => s.trim()) as T[];
  const unknown = picked.filter((p) => !all.includes(p));
  if (unknown.length)
    throw new Error(`${variable}: unknown ${unknown.join(", ")} (expected some of ${all.join(", ")})`);
  return picked;
}

const PROGRAMS = listed<Program>("BENCH_PROGRAMS", ["fleet", "vpc-web"]);
const MODES = listed<Mode>("BENCH_MODES", ["dynamic", "native"]);
const ALL_SETTINGS: readonly Setting[] = ["zero", "uniform", "realistic"];
// In this order whatever the variable's: the zero-delay run first, the others' ratios are net of it.
const PICKED_SETTINGS = listed<Setting>("BENCH_SETTINGS", ALL_SETTINGS);
const RUN_SETTINGS = ALL_SETTINGS.filter((s) => PICKED_SETTINGS.includes(s));
const FLEET_COUNT = Number(process.env.BENCH_FLEET_COUNT ?? "20");
const RESULTS = path.join(REPO_ROOT, "bench", "results", "critical-path.json");
/** Each operation's request log, timeline and state, as the emulator and the CLI gave them. */
const RECORDS = path.join(REPO_ROOT, "bench", "results", "critical-path");

/** Each API operation's area and whether it changes anything (some of the API's changes are GETs). */
const OPERATIONS = new Map<string, { area: string; mutating: boolean }>(
  Object.entries(AREAS).flatMap(([area, operations]) =>
    Object.values(operations).map((op) => {
      const { name, mutating } = op as { name: string; mutating: boolean };
      return [name, { area, mutating }] as const;
    }),
  ),
);

/** The area whose lists show a resource type's records, where the type's name does not say it. */
const TYPE_AREAS: Record<string, string> = { VpcTier: "network", PublicIpAddress: "ipAddress" };
const areaOfType = (type: string): string | null => {
  const name = typeName(type);
  const area = TYPE_AREAS[name] ?? name.charAt(0).toLowerCase() + name.slice(1);
  return area in AREAS ? area : null;
};

interface RequestLogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  operation: string | null;
}

/** The request log after `since`, page by page; warns when its ring dropped entries meanwhile. */
async function requestsSince(emulator: RunningEmulator, since: number): Promise<LoggedRequest[]> {
  const entries: RequestLogEntry[] = [];
  for (let after = since; ;) {
    const page = (await (await fetch(`${emulator.url}/_emulator/requests?since=${after}&limit=5000`)).json()) as {
      entries: RequestLogEntry[];
      next: number;
    };
    entries.push(...page.entries);
    if (page.entries.length < 5000) break;
    after = page.next;
  }
  if (entries.length && entries[0]!.seq > since + 1) {
    process.stderr.write(`bench: the request log dropped ${entries[0]!.seq - since - 1} entries\n`);
  }
  return entries.map((e) => {
    const known = e.operation ? OPERATIONS.get(e.operation) : undefined;
    const mutating = known?.mutating ?? e.method !== "GET";
    return {
      at: Date.parse(e.time),
      path: e.path,
      read: e.method === "GET" && !mutating,
      mutating,
      area: known?.area ?? null,
    };
  });
}

async function clearLogs(emulator: RunningEmulator): Promise<number> {
  await fetch(`${emulator.url}/_emulator/timeline`, { method: "DELETE" });
  const cleared = (await (await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" })).json()) as {
    next: number;
  };
  return cleared.next;
}

async function timeline(emulator: RunningEmulator): Promise<TimelineWork[]> {
  const response = await fetch(`${emulator.url}/_emulator/timeline`);
  if (!response.ok)
    throw new Error(`GET /_emulator/timeline answered ${response.status}: this emulator keeps no timeline`);
  return ((await response.json()) as { work: TimelineWork[] }).work;
}

interface Measured {
  ms: number;
  analysis: OperationAnalysis;
  requests: number;
  /** From the operation's start to its first API request: the CLI, the program and the provider starting. */
  headMs: number | undefined;
  /** From the operation's last API request to its end. */
  tailMs: number | undefined;
  /** From the first API request to the last. */
  spanMs: number | undefined;
}

interface Run {
  program: Program;
  mode: Mode;
  setting: Setting;
  up: Measured;
  destroy: Measured;
}

/**
 * Runs `operation` with the logs cleared, and analyses what the emulator recorded meanwhile; the
 * records themselves go to bench/results/critical-path/`name`.json, to look into.
 */
async function measure(
  emulator: RunningEmulator,
  name: string,
  resources: () => Promise<StateResource[]>,
  direction: Direction,
  operation: () => Promise<unknown>,
): Promise<Measured> {
  const since = await clearLogs(emulator);
  const startedAt = Date.now();
  const started = performance.now();
  await operation();
  const ms = Math.round(performance.now() - started);
  const endedAt = Date.now();
  const requests = await requestsSince(emulator, since);
  const work = (await timeline(emulator)).filter((w) => w.startedAt >= startedAt && w.startedAt <= endedAt);
  const state = await resources();
  fs.mkdirSync(RECORDS, { recursive: true });
  const records = { startedAt, endedAt, requests, work, resources: state };
  fs.writeFileSync(path.join(RECORDS, `${name}.json`), `${JSON.stringify(records, null, 1)}\n`);
  const times = requests.map((r) => r.at);
  return {
    ms,
    analysis: analyseOperation(stackGraph(state, areaOfType), work, requests, direction, endedAt),
    requests: requests.length,
    headMs: times.length ? Math.min(...times) - startedAt : undefined,
    tailMs: times.length ? endedAt - Math.max(...times) : undefined,
    spanMs: times.length ? Math.max(...times) - Math.min(...times) : undefined,
  };
}

async function runOne(
  emulator: RunningEmulator,
  config: StackConfig,
  program: Program,
  mode: Mode,
  setting: Setting,
): Promise<Run> {
  await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
  // The native plugin is found on PATH (plugin/), as a downloaded one is in the plugin cache.
  const env = { PATH: [path.join(REPO_ROOT, "plugin"), process.env.PATH ?? ""].join(path.delimiter) };
  const bench = await createStack(
    PROGRAM_DIRS[program],
    `critical-${program}-${mode}-${setting}`,
    { ...config, "restcloud:mode": mode },
    env,
  );
  try {
    const exported = async () =>
      ((await bench.stack.exportStack()).deployment as { resources?: StateResource[] }).resources ?? [];
    const options = { color: "never" } as const;
    const name = `${program}-${mode}-${setting}`;
    const up = await measure(emulator, `${name}-up`, exported, "up", () => bench.stack.up(options));
    // A destroy's dependencies are those of the state it starts from.
    const before = await exported();
    const destroy = await measure(
      emulator,
      `${name}-destroy`,
      async () => before,
      "destroy",
      () => bench.stack.destroy(options),
    );
    return { program, mode, setting, up, destroy };
  } finally {
    bench.dispose();
  }
}

// ---- output -----------------------------------------------------------------------------------------

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const fixed = (value: number | undefined, digits: number) => (value === undefined ? "" : value.toFixed(digits));

/**
 * (wall - the zero-delay run's wall) / chain: the operation's time beyond the engine's own, per
 * second of its chain. `span`: the same from the first API request to the last, which leaves out the
 * CLI's and the program's start and the CLI's end: they owe nothing to the jobs, and on a busy
 * machine they vary by seconds from run to run.
 */
function ratio(run: Run, zero: Run | undefined, direction: Direction, span = false): number | undefined {
  const chain = run[direction].analysis.chain.ms;
  if (!zero || run.setting === "zero" || chain === 0) return undefined;
  const time = (m: Measured) => (span ? m.spanMs : m.ms);
  const [own, floor] = [time(run[direction]), time(zero[direction])];
  return own === undefined || floor === undefined ? undefined : (own - floor) / chain;
}

/** Both operations' figures pooled: polls per job over all their work, delays over all their samples. */
function pooled(run: Run) {
  const { up, destroy } = run;
  const work = up.analysis.work + destroy.analysis.work;
  const polls = (m: Measured) => (m.analysis.pollsPerJob ?? 0) * m.analysis.work;
  const mean = (pick: (a: OperationAnalysis) => { samples: { ms: number }[] }) => {
    const samples = [...pick(up.analysis).samples, ...pick(destroy.analysis).samples];
    return samples.length ? samples.reduce((sum, s) => sum + s.ms, 0) / samples.length : undefined;
  };
  return {
    pollsPerJob: work ? (polls(up) + polls(destroy)) / work : undefined,
    slackMs: mean((a) => a.slack),
    seenMs: mean((a) => a.seen),
    gapMs: mean((a) => a.gaps),
  };
}

function table(runs: Run[]): string {
  const header = [
    "mode",
    "setting",
    "up s",
    "destroy s",
    "chain up s",
    "chain destroy s",
    "rounds destroy s",
    "ratio up",
    "ratio destroy",
    "span ratio up",
    "span ratio destroy",
    "jobs",
    "polls/job",
    "mean slack ms",
    "mean seen ms",
    "chain gap ms",
  ];
  const zeroOf = (run: Run) => runs.find((r) => r.mode === run.mode && r.setting === "zero");
  const lines = runs.map((run) => {
    const p = pooled(run);
    return [
      run.mode,
      run.setting,
      seconds(run.up.ms),
      seconds(run.destroy.ms),
      seconds(run.up.analysis.chain.ms),
      seconds(run.destroy.analysis.chain.ms),
      seconds(run.destroy.analysis.rounds?.ms ?? 0),
      fixed(ratio(run, zeroOf(run), "up"), 2),
      fixed(ratio(run, zeroOf(run), "destroy"), 2),
      fixed(ratio(run, zeroOf(run), "up", true), 2),
      fixed(ratio(run, zeroOf(run), "destroy", true), 2),
      String(run.up.analysis.work + run.destroy.analysis.work),
      fixed(p.pollsPerJob, 2),
      fixed(p.slackMs, 0),
      fixed(p.seenMs, 0),
      fixed(p.gapMs, 0),
    ];
  });
  return formatTable(header, lines);
}

function details(run: Run): string {
  return (["up", "destroy"] as const)
    .map((direction) => {
      const a = run[direction].analysis;
      const unattributed = a.unattributed ? `, ${a.unattributed} naming no resource of the stack` : "";
      const m = run[direction];
      const head = m.headMs === undefined ? "-" : seconds(m.headMs);
      const tail = m.tailMs === undefined ? "-" : seconds(m.tailMs);
      return (
        `  ${direction}: ${formatChain(a.chain)}\n` +
        (a.structuralChain.ms > a.chain.ms
          ? `    by the dependencies alone, awaited or not: ${formatChain(a.structuralChain)}\n`
          : "") +
        (a.rounds ? `    by the engine's rounds of deletions: ${formatChain(a.rounds)}\n` : "") +
        `    ${seconds(m.ms)} s: ${head} s to the first of ${m.requests} requests, ${tail} s after the last\n` +
        `    ${a.work} jobs${unattributed}; polls/job ${fixed(a.pollsPerJob, 2) || "-"}; ` +
        `slack ${fixed(a.slack.meanMs, 0) || "-"} ms over ${a.slack.samples.length} jobs ` +
        `(max ${a.slack.samples.length ? Math.max(...a.slack.samples.map((s) => s.ms)) : "-"}); ` +
        `seen ${fixed(a.seen.meanMs, 0) || "-"} ms over ${a.seen.samples.length}; ` +
        `chain gaps ${a.gaps.samples.map((g) => g.ms).join(", ") || "-"} ms`
      );
    })
    .join("\n");
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = os.loadavg();
  process.stdout.write(
    `load average at start: ${loadAtStart.map((l) => l.toFixed(2)).join(" ")} (${os.cpus().length} cores)\n`,
  );
  const runs: Run[] = [];
  for (const setting of RUN_SETTINGS) {
    const emulator = await startEmulator({ port: 0, ...SETTINGS[setting] });
    try {
      const { zoneUuid, ...ids } = await discoverCatalog(emulator.url);
      const configs: Record<Program, StackConfig> = {
        fleet: { ...providerConfig(emulator.url, zoneUuid), ...ids, count: String(FLEET_COUNT), layout: "groups" },
        "vpc-web": providerConfig(emulator.url), // the example looks its zone up by name
      };
      for (const program of PROGRAMS) {
        for (const mode of MODES) {
          process.stderr.write(`bench: ${program}, ${mode} mode, ${setting}...\n`);
          runs.push(await runOne(emulator, configs[program], program, mode, setting));
        }
      }
    } finally {
      await emulator.stop();
    }
  }
  const loadAtEnd = os.loadavg();
  const results = {
    generatedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadAtEnd,
      node: process.version,
    },
    settings: Object.fromEntries(RUN_SETTINGS.map((s) => [s, SETTINGS[s]])),
    fleetCount: FLEET_COUNT,
    durationMs: Date.now() - started,
    runs,
  };
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  const sections = PROGRAMS.map((program) => {
    const own = runs
      .filter((r) => r.program === program)
      .sort(
        (a, b) =>
          MODES.indexOf(a.mode) - MODES.indexOf(b.mode) ||
          RUN_SETTINGS.indexOf(a.setting) - RUN_SETTINGS.indexOf(b.setting),
      );
    const title = program === "fleet" ? `fleet (groups, ${FLEET_COUNT} resources)` : "examples/vpc-web";
    return `${title}\n${table(own)}\n\n${own.map((r) => `${r.mode}, ${r.setting}:\n${details(r)}`).join("\n")}`;
  });
  process.stdout.write(
    `${sections.join("\n\n")}\n\n` +
      `chain: the heaviest path of dependent jobs that were waited for (their durations from the emulator's timeline, summed per resource); ` +
      `ratio: (wall - the same mode's zero-delay wall) / chain; span ratio: the same from the first API request to the last; polls/job: reads sent while a job was pending, per job; ` +
      `slack: from a job's completion to the start of the step it held back; seen: to the first read that could see it; ` +
      `chain gap: along the chain, from a job's end to the next job's start; ` +
      `rounds: the engine deletes in rounds by height in the dependency graph, each after the whole previous one: the sum of each round's heaviest jobs. ` +
      `Jobs, polls, slack, seen and gaps pool up and destroy.\n` +
      `load average at end: ${loadAtEnd.map((l) => l.toFixed(2)).join(" ")}; ` +
      `${Math.round(results.durationMs / 1000)} s in all; figures in ${path.relative(REPO_ROOT, RESULTS)}\n`,
  );
}

// The benchmark spawns the CLI, which needs the CLI installed: fail early, with its message, if not.
pulumiCliRoot(REPO_ROOT);
main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
