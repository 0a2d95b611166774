/**
 * A `pulumi up` killed with SIGKILL (a CI runner's timeout) leaves no provider process behind, in
 * either mode: the native plugin and the dynamic-provider process find the engine gone through its
 * health service and exit (provider/pulumi-engine-watch.ts), within a minute.
 *
 * The up is killed while the provider waits for an instance the service takes a minute to start, so
 * the provider is busy, not idle. Only the CLI is killed, not its process group: its children are
 * left to find out by themselves, which is the case that left them running before. The processes of
 * the run are told apart from every other by the PULUMI_HOME of the test's own stack, which they
 * all inherit. What each process did and when is printed; the language host and the program are
 * reported too, but only the providers are this package's to stop. The two modes run side by side,
 * each on its own emulator and stack.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog } from "../catalog-ids";
import { TestStack, pulumiCliRoot } from "../harness";
import { CANCEL_PROGRAM, NATIVE_MODE, until } from "../native/native-helpers";
import { catalogConfig, emulatorStats, isProvider, processesOf, type RunProcess } from "./helpers";

jest.setTimeout(240_000);

/** The instance's start: far longer than the provider may take to notice the engine is gone. */
const SLOW_START_MS = 120_000;
const PROVIDERS_GONE_WITHIN_MS = 60_000;

const short = (p: RunProcess): string => `${p.pid} ${p.command.slice(0, 120)}`;

test.concurrent.each([
  ["dynamic", {}],
  ["native", NATIVE_MODE],
] as const)(
  "%s mode: a pulumi up killed with SIGKILL: its provider processes exit within a minute",
  async (mode, modeConfig) => {
    const emulator: RunningEmulator = await startEmulator({ port: 0, asyncDelayMs: SLOW_START_MS });
    let stack: TestStack | undefined;
    let pulumiHome = "/nonexistent";
    try {
      const catalog = await discoverCatalog(emulator.url);
      stack = await TestStack.create({
        programDir: CANCEL_PROGRAM,
        config: { ...catalogConfig(emulator.url, catalog), ...modeConfig, withInstance: "true" },
      });
      pulumiHome = path.join(stack.tempDir, "home");

      const workspace = stack.stack.workspace as LocalWorkspace;
      const cli = spawn(
        path.join(pulumiCliRoot(), "bin", "pulumi"),
        ["up", "--yes", "--skip-preview", "--non-interactive", "--color", "never", "--stack", stack.stack.name],
        { cwd: CANCEL_PROGRAM, env: { ...process.env, ...workspace.envVars }, stdio: "ignore" },
      );
      const exited = new Promise((resolve) => cli.once("exit", resolve));
      await until("the instance's create to be answered", 90_000, async () =>
        ((await emulatorStats(emulator.url)).byOperation.createInstance ?? 0) > 0 ? true : undefined,
      );
      const before = processesOf(pulumiHome);
      expect(before.filter(isProvider).length).toBeGreaterThan(0);

      const killedAt = Date.now();
      cli.kill("SIGKILL");
      await exited;
      const goneAt = new Map<number, number>();
      let left = before;
      while (left.some(isProvider) && Date.now() - killedAt < PROVIDERS_GONE_WITHIN_MS + 30_000) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const now = processesOf(pulumiHome);
        for (const p of left) if (!now.some((q) => q.pid === p.pid)) goneAt.set(p.pid, Date.now() - killedAt);
        left = now;
      }
      console.log(
        `${mode} mode, after SIGKILL of the CLI (pid ${cli.pid}):\n` +
          before
            .filter((p) => p.pid !== cli.pid)
            .map(
              (p) => `  ${goneAt.has(p.pid) ? `exited after ${goneAt.get(p.pid)} ms` : "still running"}: ${short(p)}`,
            )
            .join("\n"),
      );
      expect(left.filter(isProvider).map(short)).toEqual([]);
      for (const p of before.filter(isProvider)) expect(goneAt.get(p.pid)).toBeLessThan(PROVIDERS_GONE_WITHIN_MS);
    } finally {
      // Whatever a failed test left: nothing of this run may outlive it.
      for (const p of processesOf(pulumiHome)) {
        try {
          process.kill(p.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      await stack?.dispose();
      await emulator.stop();
    }
  },
);
