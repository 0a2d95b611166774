/**
 * The provider's benchmark (`npm run bench`): for fleets of 10, 50 and 100 resources, the wall time
 * of `pulumi up`, a no-change `pulumi preview`, `pulumi refresh` and `pulumi destroy` against the
 * emulator with no asynchronous delay, divided by the same operation on as many no-op dynamic
 * resources (the floor the Pulumi engine itself costs), and the API requests per resource of each
 * operation (from the emulator's stats). The fleet is deployed twice: with shared reads (the
 * provider's default) and without (`restcloud:shareReads false`, up and refresh only), to show what
 * sharing list calls saves.
 *
 * Prints a table and writes the figures to bench/results/latest.json. A measurement, never a
 * pass/fail test. BENCH_SIZES=10,50 picks other fleet sizes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { discoverCatalog, providerConfig, type CatalogIds } from "../tests/e2e/catalog";
import { REPO_ROOT, createStack } from "./workspace";

const SIZES = (process.env.BENCH_SIZES ?? "10,50,100").split(",").map(Number);
const FLEET_PROGRAM = path.join(REPO_ROOT, "tests", "e2e", "reliability", "programs", "fleet");
const NOOP_PROGRAM = path.join(REPO_ROOT, "bench", "programs", "noop");
const RESULTS = path.join(REPO_ROOT, "bench", "results", "latest.json");

type Operation = "up" | "preview" | "refresh" | "destroy";
const OPERATIONS: readonly Operation[] = ["up", "preview", "refresh", "destroy"];

interface Measure {
  ms: number;
  /** API requests the operation sent (undefined for the no-op fleet). */
  requests?: number;
  mutating?: number;
  byOperation?: Record<string, number>;
}

interface Row {
  size: number;
  operation: Operation;
  /** The restcloud fleet, reads shared (the default). */
  shared: Measure;
  /** The restcloud fleet, reads not shared (up and refresh only). */
  unshared?: Measure;
  noop: Measure;
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

/** Runs one operation, timed; with an emulator, counts the requests it sent. */
async function measure(stack: Stack, operation: Operation, emulator?: RunningEmulator): Promise<Measure> {
  if (emulator) await stats(emulator, true);
  const started = performance.now();
  const options = { color: "never" } as const;
  if (operation === "up") await stack.up(options);
  else if (operation === "preview") await stack.preview({ ...options, expectNoChanges: true });
  else if (operation === "refresh") await stack.refresh(options);
  else await stack.destroy(options);
  const ms = Math.round(performance.now() - started);
  if (!emulator) return { ms };
  const counted = await stats(emulator, false);
  return { ms, requests: counted.total, mutating: counted.mutating, byOperation: counted.byOperation };
}

async function runFleet(
  emulator: RunningEmulator,
  catalog: CatalogIds,
  size: number,
  shareReads: boolean,
  operations: readonly Operation[],
): Promise<Partial<Record<Operation, Measure>>> {
  await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
  const { zoneUuid, ...ids } = catalog;
  const name = `fleet-${size}-${shareReads ? "shared" : "unshared"}`;
  const bench = await createStack(FLEET_PROGRAM, name, {
    ...providerConfig(emulator.url, zoneUuid),
    ...ids,
    count: String(size),
    layout: "groups",
    "restcloud:shareReads": String(shareReads),
  });
  const measures: Partial<Record<Operation, Measure>> = {};
  try {
    for (const operation of operations) measures[operation] = await measure(bench.stack, operation, emulator);
  } finally {
    bench.dispose();
  }
  return measures;
}

async function runNoop(size: number): Promise<Record<Operation, Measure>> {
  const bench = await createStack(NOOP_PROGRAM, `noop-${size}`, { count: String(size) });
  const measures = {} as Record<Operation, Measure>;
  try {
    for (const operation of OPERATIONS) measures[operation] = await measure(bench.stack, operation);
  } finally {
    bench.dispose();
  }
  return measures;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const perResource = (measure: Measure | undefined, size: number) =>
  measure?.requests === undefined ? "" : (measure.requests / size).toFixed(2);

function table(rows: Row[]): string {
  const header = [
    "resources",
    "operation",
    "restcloud s",
    "no-op s",
    "ratio",
    "requests",
    "req/resource",
    "mutating",
    "unshared requests",
    "unshared req/resource",
  ];
  const lines = rows.map((r) => [
    String(r.size),
    r.operation,
    seconds(r.shared.ms),
    seconds(r.noop.ms),
    (r.shared.ms / r.noop.ms).toFixed(2),
    String(r.shared.requests),
    perResource(r.shared, r.size),
    String(r.shared.mutating),
    r.unshared ? String(r.unshared.requests) : "",
    perResource(r.unshared, r.size),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
  return [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format)].join("\n");
}

async function main(): Promise<void> {
  const started = Date.now();
  const emulator = await startEmulator({ port: 0, asyncDelayMs: 0 });
  const rows: Row[] = [];
  try {
    const catalog = await discoverCatalog(emulator.url);
    for (const size of SIZES) {
      process.stderr.write(`bench: ${size} resources...\n`);
      const noop = await runNoop(size);
      const shared = await runFleet(emulator, catalog, size, true, OPERATIONS);
      const unshared = await runFleet(emulator, catalog, size, false, ["up", "refresh"]);
      for (const operation of OPERATIONS) {
        rows.push({
          size,
          operation,
          shared: shared[operation]!,
          ...(unshared[operation] ? { unshared: unshared[operation] } : {}),
          noop: noop[operation],
        });
      }
    }
  } finally {
    await emulator.stop();
  }
  const results = {
    generatedAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, loadAverage: os.loadavg(), node: process.version },
    emulator: { asyncDelayMs: 0 },
    durationMs: Date.now() - started,
    rows,
  };
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `${table(rows)}\n\nratio: restcloud time / no-op time; requests per resource from the emulator's stats; ` +
      `"unshared": restcloud:shareReads false.\n` +
      `${Math.round(results.durationMs / 1000)} s in all; figures in ${path.relative(REPO_ROOT, RESULTS)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
