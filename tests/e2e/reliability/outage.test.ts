/**
 * An outage of the API in the middle of `pulumi up`: the service is killed (SIGKILL) once both
 * instances of the program have been created and are starting, and comes back from its state file
 * on the same port later.
 *
 * - For 60 s: within seconds the user hears of it, from the engine's own event stream (what the
 *   CLI displays): the instance resources' rows say what they wait for, since when the API has not
 *   answered and its last error; a warning names the waiting operations; a line says when the API
 *   answers again. The up then converges by itself, and the account holds exactly the stack's records.
 * - Longer than the instances' `customTimeouts` (create: 40s): that up fails, naming the resource,
 *   the timeout, what it waited for and the outage; the instances' ids stay in the stack (nothing is
 *   orphaned), and the next up, with the API back, converges.
 *
 * The two run side by side (each with its own emulator process and stack).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { discoverCatalog } from "../catalog-ids";
import { TestStack } from "../harness";
import {
  EmulatorProcess,
  PROGRAMS,
  accountResources,
  auditAccount,
  catalogConfig,
  freePort,
  EMPTY_ACCOUNT,
} from "./helpers";

jest.setTimeout(240_000);

const OUTAGE_PROGRAM = path.join(PROGRAMS, "outage");
/** Instances stay Starting this long: the outage finds both creates waiting for Running. */
const ASYNC_DELAY_MS = 8000;

interface Heard {
  /** Milliseconds after the kill. */
  at: number;
  urn: string;
  message: string;
  severity: string;
  ephemeral: boolean;
}

/** A stack of the outage program against its own emulator process, which the test kills and restarts. */
async function setUp(name: string, config: Record<string, string> = {}) {
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), `restcloud-${name}-`));
  const emulator = new EmulatorProcess(await freePort(), [
    "--state-file",
    path.join(tempDir, "emulator-state.json"),
    "--async-delay-ms",
    String(ASYNC_DELAY_MS),
  ]);
  await emulator.start();
  const catalog = await discoverCatalog(emulator.url);
  const stack = await TestStack.create({
    programDir: OUTAGE_PROGRAM,
    stackName: name,
    config: { ...catalogConfig(emulator.url, catalog), ...config },
  });
  const dispose = async () => {
    await stack.dispose();
    await emulator.kill("SIGTERM");
    fs.rmSync(tempDir, { recursive: true, force: true });
  };
  return { emulator, stack, dispose };
}

/** Resolves once both instances exist and their creates have been answered: they are now awaited. */
async function bothInstancesCreated(apiUrl: string): Promise<void> {
  for (;;) {
    const instances = Object.values((await accountResources(apiUrl)).instance ?? {}).filter(
      (record) => record._clusterUuid === undefined,
    );
    if (instances.length >= 2) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // The answers to the creates leave with the records: give them a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** `pulumi up`, recording every diagnostic the engine emits (ephemeral ones included), timed from `killedAt()`. */
function upHearing(stack: TestStack, killedAt: () => number | undefined) {
  const heard: Heard[] = [];
  const onEvent = (event: EngineEvent) => {
    const diagnostic = event.diagnosticEvent;
    if (!diagnostic) return;
    const kill = killedAt();
    heard.push({
      at: kill === undefined ? -1 : Date.now() - kill,
      urn: diagnostic.urn ?? "",
      message: diagnostic.message.trim(),
      severity: diagnostic.severity,
      ephemeral: diagnostic.ephemeral ?? false,
    });
  };
  const result = stack.stack.up({ color: "never", onEvent });
  return { heard, result };
}

/** Starts `pulumi up` and kills the service once both instances are awaited; the up hears from then on. */
async function upKilledMidway(emulator: Awaited<ReturnType<typeof setUp>>["emulator"], stack: TestStack) {
  const kill: { at?: number } = {};
  const up = upHearing(stack, () => kill.at);
  await bothInstancesCreated(emulator.url);
  await emulator.kill("SIGKILL");
  const killedAt = Date.now();
  kill.at = killedAt;
  return { up, killedAt };
}

describe("an API outage in the middle of two instance creates", () => {
  test.concurrent(
    "60 s: the user hears within seconds which resources wait, on what, since when and why; the up converges",
    async () => {
      const { emulator, stack, dispose } = await setUp("outage-60s");
      try {
        const { up, killedAt } = await upKilledMidway(emulator, stack);
        await new Promise((resolve) => setTimeout(resolve, 60_000));
        await emulator.start(); // from its state file, on the same port
        const restartedAt = Date.now() - killedAt;
        const result = await up.result;

        /** What the engine showed on the instance's own row (its URN names it) after the kill. */
        const about = (name: string) =>
          up.heard.filter((h) => h.urn.endsWith(`::pulumi-nodejs:dynamic/restcloud:Instance::${name}`) && h.at >= 0);
        for (const name of ["vm-a", "vm-b"]) {
          const first = about(name).find((h) => h.message.includes("API not answering"));
          expect(first).toBeDefined();
          // Within seconds, as a passing status (the live display's Info column; a line in CI logs).
          expect(first!.at).toBeLessThan(10_000);
          expect(first!.ephemeral).toBe(true);
          expect(first!.message).toMatch(
            new RegExp(
              `^API not answering for \\d+s \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${emulator.port}; since \\d\\d:\\d\\d:\\d\\d\\); ` +
                `waiting for instance [0-9a-f-]{36} to be Running; ` +
                `retrying until the create timeout \\(15m\\) runs out in \\d+m\\d*s?$`,
            ),
          );
          // Renewed every few seconds while the API stays away.
          const renewals = about(name).filter((h) => h.message.includes("API not answering") && h.at < restartedAt);
          expect(renewals.length).toBeGreaterThanOrEqual(8);
          // And the row's last word is that the API came back, not the outage.
          expect(about(name).pop()!.message).toMatch(/^the API (answers again|answered again at)/);
        }
        // A lasting warning (for logs without the live display) when the outage began, and a line when it ended.
        const warning = up.heard.find((h) => h.severity === "warning" && h.message.includes("API not answering"));
        expect(warning).toMatchObject({ ephemeral: false });
        expect(warning!.at).toBeLessThan(10_000);
        expect(warning!.message).toMatch(/restcloud:Instance vm-a \(create\)/);
        expect(warning!.message).toMatch(/restcloud:Instance vm-b \(create\)/);
        expect(warning!.message).toContain("connect ECONNREFUSED");
        const back = up.heard.find((h) => !h.ephemeral && h.message.startsWith("restcloud: the API at"));
        expect(back).toMatchObject({ severity: "info", urn: "" });
        expect(back!.at).toBeGreaterThanOrEqual(restartedAt);
        expect(back!.message).toMatch(/answered again at \d\d:\d\d:\d\d, after 1m\d*s? without an answer/);

        // The up converged by itself: everything created, nothing twice, nothing left over.
        expect(result.summary.result).toBe("succeeded");
        expect(result.summary.resourceChanges).toMatchObject({ create: 4 });
        expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 3 });
        // The names and URNs in the hidden meta input show no change.
        await stack.preview({ expectNoChanges: true });
      } finally {
        await dispose();
      }
    },
  );

  test.concurrent(
    "longer than customTimeouts: that up fails naming the resource, the timeout and the outage; the next converges",
    async () => {
      const { emulator, stack, dispose } = await setUp("outage-timeout", { createTimeout: "40s" });
      try {
        const { up, killedAt } = await upKilledMidway(emulator, stack);
        const failure = await up.result.then(
          () => undefined,
          (error: unknown) => String(error),
        );
        const failedAfter = Date.now() - killedAt;
        expect(failure).toBeDefined();
        // The creates' 40 s ran out while the API was still away (it stays away for the whole up).
        expect(failedAfter).toBeLessThan(45_000);
        for (const name of ["vm-a", "vm-b"]) {
          expect(failure).toMatch(
            new RegExp(
              `restcloud:Instance ${name}: the create timeout \\(40s\\) ran out while waiting for instance [0-9a-f-]{36} to be Running ` +
                `\\(last state seen: state=Starting[^)]*\\); the API has not answered for \\d+s \\(since \\d\\d:\\d\\d:\\d\\d: connect ECONNREFUSED 127\\.0\\.0\\.1:${emulator.port}\\)\\. ` +
                `customTimeouts on the resource lengthens the wait`,
            ),
          );
        }

        await emulator.start();
        // The instances' ids stayed in the stack: the next up finishes them rather than creating others.
        const converged = await stack.up();
        expect(converged.changes).toMatchObject({ update: 2 });
        expect(converged.changes.create).toBeUndefined();
        expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 3 });
        await stack.preview({ expectNoChanges: true });
      } finally {
        await dispose();
      }
    },
  );
});
