/**
 * The reliability issue's realistic stack (17 resources of 14 kinds, two public IPs of one VPC)
 * under the random fault mix: 10% 503s before processing, 10% 429s, 10% 503s after processing (the
 * change applied, the answer lost), 20 ms of latency; ten seeds, each on a fresh emulator.
 *
 * Per seed: one `pulumi up` converges, or, when it fails, a second one does (faults still on; more
 * than two is a failure); the account then holds exactly the stack's records (no orphan, none
 * lost, no duplicate, no record held by two resources); one `pulumi destroy`, faults still on,
 * empties the account and the state. The file prints, per seed, the requests each up sent, the
 * number of ups, the faults fired, and the first up's error where there was one. Seeds run five at
 * a time (each on its own emulator and stack): a stack mostly waits, and the file must stay short.
 * In the native mode: retries and identity are the engine's and the client's, the same in both modes
 * (the killed-up and shared-parent files run both), and the plugin starts sooner.
 */
import { startEmulator } from "../../../emulator";
import { discoverCatalog } from "../catalog-ids";
import { TestStack } from "../harness";
import { NATIVE_MODE } from "../native/native-helpers";
import {
  REALISTIC_PROGRAM,
  REALISTIC_SIZE,
  auditAccount,
  catalogConfig,
  clearFaultLog,
  emulatorStats,
  faultLog,
  resetStats,
  stateResources,
  type FaultLogEntry,
} from "./helpers";

jest.setTimeout(600_000);

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const FAULTS = { failRate: 0.1, throttleRate: 0.1, failAfterRate: 0.1, latencyMs: 20 };
const CLEAN = { duplicates: [], orphans: [], lost: [], sharedIds: [] };

interface SeedReport {
  seed: number;
  /** Requests the service received, per up. */
  upRequests: number[];
  destroyRequests?: number;
  /** Faults fired during the ups, by kind. */
  faults: string;
  seconds: number;
  /** The first up's errors, when it failed. */
  firstError?: string;
  /** The destroy's errors, when it failed. */
  destroyError?: string;
}
const reports: SeedReport[] = [];
const fileStarted = Date.now();

afterAll(() => {
  const lines = [...reports]
    .sort((a, b) => a.seed - b.seed)
    .map(
      (r) =>
        `seed ${String(r.seed).padStart(2)}: ${r.upRequests.length} up(s), requests per up ${r.upRequests.join(" + ")}` +
        `, destroy ${r.destroyRequests ?? "-"}; faults during the ups: ${r.faults}; ${r.seconds.toFixed(0)} s` +
        (r.firstError ? `\n  the first up failed: ${r.firstError}` : "") +
        (r.destroyError ? `\n  the destroy failed: ${r.destroyError}` : ""),
    );
  const twice = reports.filter((r) => r.upRequests.length > 1).map((r) => r.seed);
  console.log(
    `realistic stack under ${JSON.stringify(FAULTS)}:\n${lines.join("\n")}\n` +
      `seeds that needed two ups: ${twice.length ? twice.join(", ") : "none"}; ` +
      `the file took ${((Date.now() - fileStarted) / 1000).toFixed(0)} s`,
  );
});

/** The faults of the log by kind, e.g. "429 before: 12, 503 before: 9, 503 after: 11". */
function faultSummary(entries: readonly FaultLogEntry[]): string {
  const counts = new Map<string, number>();
  for (const e of entries) {
    const key = `${e.effect === "status" ? e.status : e.effect} ${e.when}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return (
    [...counts]
      .sort()
      .map(([k, n]) => `${k}: ${n}`)
      .join(", ") || "none"
  );
}

/** The distinct error lines of a failed Pulumi operation, ids masked. */
function errorLines(error: unknown): string {
  const lines = String(error)
    .split("\n")
    .filter((line) => /^\s*error: /.test(line) && !line.includes("update failed"))
    .map((line) => line.trim().replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "<id>"));
  return [...new Set(lines)].join(" | ") || String(error).split("\n")[0];
}

/** Seeds run side by side, a few at a time: a stack mostly waits (latency, backoff, Retry-After). */
const PARALLEL_SEEDS = 5;
let running = 0;
const queue: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PARALLEL_SEEDS) await new Promise<void>((resolve) => queue.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    queue.shift()?.();
  }
}

test.concurrent.each(SEEDS)(
  "seed %i: one up converges (two at most), the audit clean; one destroy empties the account",
  (seed) =>
    slot(async () => {
      const report: SeedReport = { seed, upRequests: [], faults: "", seconds: 0 };
      reports.push(report);
      const started = Date.now();
      const emulator = await startEmulator({ port: 0, seed, asyncDelayMs: 50, ...FAULTS });
      let stack: TestStack | undefined;
      try {
        stack = await TestStack.create({
          programDir: REALISTIC_PROGRAM,
          stackName: `realistic-seed-${seed}`,
          config: { ...catalogConfig(emulator.url, await discoverCatalog(emulator.url)), ...NATIVE_MODE },
        });
        const deployed = stack;

        /** One up, counting the requests it sent; the error when it failed. */
        const up = async (): Promise<unknown> => {
          await resetStats(emulator.url);
          try {
            await deployed.up();
            return undefined;
          } catch (error) {
            return error;
          } finally {
            report.upRequests.push((await emulatorStats(emulator.url)).total);
          }
        };

        await clearFaultLog(emulator.url);
        const first = await up();
        const second = first === undefined ? undefined : await up();
        report.faults = faultSummary(await faultLog(emulator.url));
        if (first !== undefined) report.firstError = errorLines(first);
        if (second !== undefined) throw new Error(`two ups failed; the second: ${errorLines(second)}`);
        expect(await auditAccount(emulator.url, stack)).toEqual({ records: REALISTIC_SIZE, ...CLEAN });

        await resetStats(emulator.url);
        await stack.destroy().catch((error: unknown) => {
          report.destroyError = errorLines(error);
          throw error;
        });
        report.destroyRequests = (await emulatorStats(emulator.url)).total;
        expect(await stateResources(stack)).toEqual([]);
        expect(await auditAccount(emulator.url, stack)).toEqual({ records: 0, ...CLEAN });
      } finally {
        report.seconds = (Date.now() - started) / 1000;
        await stack?.dispose();
        await emulator.stop();
      }
    }),
);
