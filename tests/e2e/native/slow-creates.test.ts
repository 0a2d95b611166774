/**
 * Slow creates, with the real Pulumi CLI against an emulator whose instances take long to start
 * (programs/instance: a network and an instance). Three independent stacks, run side by side:
 *
 * - customTimeouts in the native mode: an instance with `customTimeouts: { create: "2s" }`, on a
 *   service that takes 20 s to start it, fails its create naming the create timeout; its id stays
 *   in state (nothing orphaned), and once the service has started it, the next up finishes it
 *   with an update (no second create).
 * - Progress, in the native and in the dynamic mode: while an instance takes 16 s to start, the
 *   instance's row of the live display says what the create waits for, the state last seen and the
 *   time spent (ephemeral status lines, as the engine's event stream carries them); once it has
 *   started, a last status says how the wait ended (`created after 16s`), so that the row's last
 *   word is not a wait that is over.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog, type CatalogIds } from "../catalog-ids";
import type { TestStack } from "../harness";
import { EMPTY_ACCOUNT, accountResources, auditAccount, catalogConfig, stateOf } from "../reliability/helpers";
import { INSTANCE_PROGRAM, NATIVE_MODE, onOwnEmulator, until, withEvents } from "./native-helpers";

jest.setTimeout(150_000);

let catalog: CatalogIds;

beforeAll(async () => {
  const scout = await startEmulator({ port: 0 });
  catalog = await discoverCatalog(scout.url);
  await scout.stop();
});

/** Runs `run` on a stack of the instance program against its own emulator, whose asynchronous work takes `asyncDelayMs`. */
const withSlowService = (
  stackName: string,
  asyncDelayMs: number,
  config: Record<string, string>,
  run: (emulator: RunningEmulator, stack: TestStack) => Promise<void>,
) =>
  onOwnEmulator(
    { asyncDelayMs },
    (apiUrl) => ({ programDir: INSTANCE_PROGRAM, stackName, config: { ...catalogConfig(apiUrl, catalog), ...config } }),
    run,
  );

/** How long the slow service takes to start an instance in the progress tests. */
const PROGRESS_DELAY_MS = 16_000;

/** The status lines of a create's wait for Running (engine/operation.ts: after 10 s of waiting, every 5 s). */
const WAIT_STATUS =
  /^waiting for instance [0-9a-f-]{36} to be Running \(last seen: [^)]*Starting[^)]*\) for \d+s; the create timeout \(15m\) runs out in 14m\d+s$/;
/** The status that ends a wait that was shown: how it ended, and when (the start took 16 s at least). */
const DONE_STATUS = /^created after (1[6-9]|[2-9]\d)s$/;

describe("slow creates", () => {
  test.concurrent(
    "customTimeouts.create 2s against a 20 s start: the create fails naming its timeout, the id stays in state, the next up finishes it",
    () =>
      withSlowService(
        "native-create-timeout",
        20_000,
        { ...NATIVE_MODE, createTimeout: "2s" },
        async (emulator, stack) => {
          const failure = await stack.up().then(
            () => undefined,
            (error: unknown) => String(error),
          );
          expect(failure).toBeDefined();
          expect(failure).toMatch(
            new RegExp(
              "restcloud:Instance vm: the create timeout \\(2s\\) ran out while waiting for instance [0-9a-f-]{36} to be Running " +
                "\\(last state seen: state=Starting[^)]*\\)\\. customTimeouts on the resource lengthens the wait",
            ),
          );

          // The instance is in state with its id (no pending create left to guess about), and the
          // account holds nothing the state does not.
          const { resources, pending } = await stateOf(stack);
          const vm = resources.find((r) => r.name === "vm");
          expect(vm?.id).toMatch(/^[0-9a-f-]{36}$/);
          expect(pending).toEqual([]);
          expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 2 });
          // The create gave up long before the service had started the instance.
          expect((await accountResources(emulator.url)).instance![vm!.id!]).toMatchObject({ state: "Starting" });

          await until("the service to start the instance", 40_000, async () =>
            (await accountResources(emulator.url)).instance![vm!.id!]!.state === "Running" ? true : undefined,
          );
          const finished = await stack.up();
          expect(finished.changes).toEqual({ same: 2, update: 1 });
          expect(finished.operations).toEqual({ net: "same", vm: "update" });
          const after = await stateOf(stack);
          expect(after.resources.find((r) => r.name === "vm")!.id).toBe(vm!.id);
          expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 2 });
          const unchanged = await stack.preview({ expectNoChanges: true });
          expect(unchanged.changes).toEqual({ same: 3 });
        },
      ),
  );

  test.concurrent.each([
    ["native", "restcloud:index:Instance", NATIVE_MODE],
    ["dynamic", "pulumi-nodejs:dynamic/restcloud:Instance", {}],
  ] as const)(
    "progress in the %s mode: the instance's row says what the create waits for, the state seen, the time spent, then how it ended",
    (mode, type, config) =>
      withSlowService(`${mode}-progress`, PROGRESS_DELAY_MS, config, async (_emulator, stack) => {
        const { events, ...result } = await withEvents((onEvent) => stack.up({ onEvent }));
        expect(result.changes).toEqual({ create: 3 });
        const lines = events.about(type, "vm");
        for (const line of lines) expect(line).toMatchObject({ severity: "info", ephemeral: true });
        // The wait's statuses: the first once the wait has lasted 10 s, then renewed every 5 s while
        // the service is still starting the instance.
        const waits = lines.slice(0, -1);
        expect(waits.length).toBeGreaterThanOrEqual(1);
        for (const line of waits) {
          expect(line.message).toMatch(WAIT_STATUS);
          expect(line.at).toBeGreaterThanOrEqual(10_000);
        }
        // Then, last, how the wait ended: what the row shows at the end.
        expect(lines.at(-1)?.message).toMatch(DONE_STATUS);
        // As a log without the live display (CI) prints it: on the instance's row, after its time,
        // while it is creating and once it is created.
        const row = new RegExp(`^ \\+  ${type} vm (?:creating|created) \\([\\d.]+s\\) (.*)$`, "gm");
        const printed = [...result.stdout.matchAll(row)].map((m) => m[1]!.trim()).filter((text) => text !== "");
        const printedWaits = printed.filter((text) => !DONE_STATUS.test(text));
        expect(printedWaits.length).toBeGreaterThanOrEqual(1);
        for (const text of printedWaits) expect(text).toMatch(WAIT_STATUS);
        // The row's last word is how the wait ended, never a wait that is over.
        expect(printed.at(-1)).toMatch(DONE_STATUS);
        expect(printed.findIndex((text) => DONE_STATUS.test(text))).toBeGreaterThan(
          printed.findLastIndex((text) => WAIT_STATUS.test(text)),
        );
        console.log(
          `the instance's row in the ${mode} mode, as printed without the live display:\n${printed.join("\n")}`,
        );
        // Nothing lasting: a wait that ends well leaves no warning behind.
        expect(events.diagnostics.filter((d) => !d.ephemeral && d.severity !== "info")).toEqual([]);
      }),
  );
});
