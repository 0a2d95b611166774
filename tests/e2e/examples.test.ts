/**
 * The examples, as users run them: each Pulumi project under examples/ goes up against the emulator,
 * previews with no change, takes one in-place update, refreshes without drift, and is destroyed,
 * leaving nothing behind. Quietly: no warning in the output of any of these operations (the
 * dynamic-provider plugin sits beside the `pulumi` binary, scripts/install-pulumi-cli.sh).
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { providerConfig } from "./catalog-ids";
import { REPO_ROOT, TestStack, type OperationResult } from "./harness";

/** The lines of an operation's output that warn (Pulumi prints them as `warning: ...`). */
function warnings(...results: readonly Pick<OperationResult, "stdout" | "stderr">[]): string[] {
  return results.flatMap((r) => `${r.stdout}\n${r.stderr}`.split("\n")).filter((line) => /\bwarning\b/i.test(line));
}

jest.setTimeout(600_000);

const EXAMPLES: ReadonlyArray<{
  name: string;
  config: Record<string, string | { value: string; secret: boolean }>;
  update: [string, string];
  updated: string;
}> = [
  { name: "vpc-web", config: {}, update: ["dataSizeGb", "60"], updated: "app-data" },
  {
    name: "kubernetes",
    config: { registryPassword: "example-registry-secret" },
    update: ["workers", "4"],
    updated: "apps",
  },
  {
    name: "networking",
    config: { vpnPresharedKey: { value: "example-psk-secret", secret: true } },
    update: ["officeGateway", "198.51.100.8"],
    updated: "office",
  },
  { name: "storage", config: {}, update: ["restorePoint", "2026-11-01"], updated: "db-restore-point" },
];

/** Runs `body` on a stack of the program in its own emulator, then removes both. */
async function onStack(
  programDir: string,
  config: (apiUrl: string) => Parameters<typeof TestStack.create>[0]["config"],
  body: (emulator: Awaited<ReturnType<typeof startEmulator>>, stack: TestStack) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
  let stack: TestStack | undefined;
  try {
    stack = await TestStack.create({ programDir, config: config(emulator.url) });
    await body(emulator, stack);
  } finally {
    await stack?.dispose();
    await emulator.stop();
  }
}

// Each case has its own emulator, stack and project directory: they run side by side.
describe("the examples and the demo", () => {
  test.concurrent.each(EXAMPLES)(
    "examples/$name: up, a no-change preview, an in-place update, a refresh, destroy leaving nothing; no warning",
    ({ name, config, update, updated }) =>
      onStack(
        path.join(REPO_ROOT, "examples", name),
        (apiUrl) => ({ ...providerConfig(apiUrl), ...config }), // the examples look their zone up by name
        async (emulator, stack) => {
          const created = await stack.up();
          expect(Object.values(created.operations).every((op) => op === "create")).toBe(true);
          expect(Object.keys(created.operations).length).toBeGreaterThan(1);
          const unchanged = await stack.preview({ expectNoChanges: true });

          await stack.setConfig(update[0], update[1]);
          const changed = await stack.up();
          expect(changed.operations[updated]).toBe("update");
          expect(Object.entries(changed.operations).filter(([, op]) => op !== "same" && op !== "update")).toEqual([]);
          const refreshed = await stack.refresh();
          expect(refreshed.changes.update ?? 0).toBe(0);

          const destroyed = await stack.destroy();
          expect(warnings(created, unchanged, changed, refreshed, destroyed)).toEqual([]);
          const leftovers = (await (await fetch(`${emulator.url}/_emulator/resources?account=demo`)).json()) as Record<
            string,
            Record<string, { name?: string }>
          >;
          const kinds = ["vpc", "network", "instance", "volume", "ipaddress", "firewallrule", "egressrule", "cluster"];
          expect(kinds.filter((k) => Object.keys(leftovers[k] ?? {}).length > 0)).toEqual([]);
        },
      ),
  );

  test.concurrent(
    "examples/catalog: looks up a zone, plan and template by name and prices them, creating nothing",
    () =>
      onStack(path.join(REPO_ROOT, "examples", "catalog"), providerConfig, async (emulator, stack) => {
        const result = await stack.up();
        expect(result.operations).toEqual({});
        expect(warnings(result)).toEqual([]);
        const outputs = result.outputs as {
          plan: { name: string; cores: number };
          template: { name: string };
          monthlyTotal: number;
        };
        expect(outputs.plan.cores).toBeGreaterThanOrEqual(2);
        expect(outputs.template.name).toMatch(/ubuntu/i);
        expect(outputs.monthlyTotal).toBeGreaterThan(0);
        const stats = (await (await fetch(`${emulator.url}/_emulator/stats`)).json()) as { mutating: number };
        expect(stats.mutating).toBe(0);
        await stack.destroy();
      }),
  );

  test.concurrent(
    "the demo (scripts/demo.sh) runs to the end: up, outputs, drift shown by preview --refresh, destroy; no warning",
    async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, DEMO_ASYNC_DELAY_MS: "200" };
      for (const key of Object.keys(env)) if (key.startsWith("PULUMI_")) delete env[key];
      const started = Date.now();
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn("bash", [path.join(REPO_ROOT, "scripts", "demo.sh")], { cwd: REPO_ROOT, env });
        let output = "";
        child.stdout.on("data", (d: Buffer) => (output += d.toString()));
        child.stderr.on("data", (d: Buffer) => (output += d.toString()));
        child.on("close", (code) => resolve({ code, output }));
      });
      console.log(`the demo ran in ${Date.now() - started} ms`);
      if (code !== 0) throw new Error(`the demo exited with ${code}:\n${output.slice(-4000)}`);
      expect(output).toMatch(/Done: the stack is gone/);
      expect(output).toMatch(/~ name\s*: "web-\w+" => "renamed-by-hand"/); // the drift, as refresh reads it
      expect(output).toMatch(/~ 2 to update/);
      expect(warnings({ stdout: output, stderr: "" })).toEqual([]);
    },
  );
});
