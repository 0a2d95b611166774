/**
 * The API's actions and in-place state from a program (issue 25), with the real Pulumi CLI against
 * the emulator, in both modes (the dynamic adapter, and the native plugin by `restcloud:mode`), one
 * stack of programs/api-actions per mode, side by side, each on an emulator of its own:
 * - triggers (`restartTriggers` on Vpc and Network, `rebootTriggers` on Instance): their value at
 *   creation performs nothing; a preview of a changed list shows an update and sends nothing; the up
 *   sends each action exactly once and awaits it; a removed list and a no-change up send none;
 * - the instance's ISO attached by the create's follow-up, changed (detach, attach) and removed in
 *   place, and its SSH key reset in place (stopped, reset, started): the same instance throughout;
 * - a volume uploaded from a URL: created, its upload job awaited, attached in place, destroyed.
 * Audited through the emulator's records (`/_emulator/resources`) and its request log.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { discoverCatalog, type CatalogIds } from "./catalog-ids";
import { TestStack } from "./harness";
import { EMPTY_ACCOUNT, accountResources, auditAccount, catalogConfig } from "./reliability/helpers";
import { NATIVE_MODE, withEvents } from "./native/native-helpers";

jest.setTimeout(300_000);

const PROGRAM = path.join(__dirname, "programs", "api-actions");
const ISOS = ["3a1f0c1e-0000-4000-8000-000000000001", "3a1f0c1e-0000-4000-8000-000000000002"];

/** The operations the audit counts: every action these resources may send. */
const ACTIONS = [
  "restartVpc",
  "restartNetwork",
  "resetSSHkey",
  "attachIso",
  "detachIso",
  "stopInstance",
  "startInstance",
  "uploadVolume",
  "attachVolume",
  "detachVolume",
  "createInstance",
  "destroyInstance",
] as const;

/** How many requests of each action the log holds since it was last emptied (absent: none). */
async function actionsSent(emulator: RunningEmulator): Promise<Record<string, number>> {
  const response = await fetch(`${emulator.url}/_emulator/requests?limit=5000`);
  const { entries } = (await response.json()) as { entries: { operation: string | null; status: number | null }[] };
  const counts: Record<string, number> = {};
  for (const entry of entries) {
    if (entry.operation !== null && (ACTIONS as readonly string[]).includes(entry.operation))
      counts[entry.operation] = (counts[entry.operation] ?? 0) + 1;
  }
  return counts;
}

/** The request log's mutating entries (anything but GET; the GET actions are counted by `actionsSent`). */
async function nonGetRequests(emulator: RunningEmulator): Promise<string[]> {
  const response = await fetch(`${emulator.url}/_emulator/requests?limit=5000`);
  const { entries } = (await response.json()) as { entries: { method: string; operation: string | null }[] };
  return entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.operation}`);
}

async function clearRequests(emulator: RunningEmulator): Promise<void> {
  await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
}

/** Runs one step of a scenario; a failure names the step. */
async function step(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Error) error.message = `step "${name}":\n${error.message}`;
    throw error;
  }
}

let catalog: CatalogIds;

beforeAll(async () => {
  const scout = await startEmulator({ port: 0 });
  catalog = await discoverCatalog(scout.url);
  await scout.stop();
});

describe.each([
  ["dynamic", {}],
  ["native", NATIVE_MODE],
] as const)("in the %s mode", (mode, modeConfig) => {
  test.concurrent("triggers, the ISO and the SSH key in place, an uploaded volume", async () => {
    const started = Date.now();
    const emulator = await startEmulator({ port: 0, asyncDelayMs: 40 });
    let stack: TestStack | undefined;
    try {
      stack = await TestStack.create({
        programDir: PROGRAM,
        stackName: `api-actions-${mode}`,
        config: { ...catalogConfig(emulator.url, catalog), ...modeConfig, step: "0" },
      });
      const s = stack;
      const instanceRecord = async (id: string) => (await accountResources(emulator.url)).instance?.[id];
      let ids: Record<string, unknown> = {};

      await step("create: no action of a trigger, the ISO attached, the upload awaited", async () => {
        const created = await s.up();
        expect(created.changes).toEqual({ create: 5 });
        ids = created.outputs;
        expect(created.outputs.imageStatus).toBe("Uploaded"); // the upload job finished before the read
        expect(created.outputs.imageSize).toBe(10);
        const sent = await actionsSent(emulator);
        expect(sent).toEqual({ createInstance: 1, uploadVolume: 1, attachIso: 1 });
        expect(await instanceRecord(ids.vmId as string)).toMatchObject({
          state: "Running",
          _isoUuid: ISOS[0],
          _sshKeyName: "key-a",
        });
        expect(await auditAccount(emulator.url, s)).toEqual({ ...EMPTY_ACCOUNT, records: 4 });
      });

      await step("a preview of changed triggers shows updates and sends nothing", async () => {
        await s.setConfig("step", "1");
        await clearRequests(emulator);
        const preview = await withEvents((onEvent) => s.preview({ onEvent }));
        expect(preview.changes).toMatchObject({ update: 4 });
        // Per resource, the step and the keys it changes: in the diff the CLI prints (both modes), and
        // in the engine's `diffs` and the plugin's detailed diff (the native mode: a dynamic
        // provider's diff names no keys, the CLI compares the inputs itself).
        const changed = {
          vpc: ["restartTriggers"],
          network: ["restartTriggers"],
          vm: ["isoUuid", "rebootTriggers", "sshKeyName"],
          image: ["instanceUuid"],
        };
        const steps = preview.events.steps();
        for (const [name, keys] of Object.entries(changed)) {
          expect([name, steps[name]?.ops]).toEqual([name, ["update"]]);
          for (const key of keys) expect(preview.stdout).toMatch(new RegExp(`[~+] ${key} *: `));
        }
        if (mode === "native") {
          const diffs: Record<string, string[]> = {};
          for (const event of preview.events.all) {
            const metadata = event.resourcePreEvent?.metadata;
            const name = metadata?.urn.split("::").pop();
            if (metadata && name && name in changed) diffs[name] = [...(metadata.diffs ?? [])].sort();
          }
          expect(diffs).toEqual(changed);
          expect(steps.vpc!.detailedDiff).toEqual({ restartTriggers: "update" });
          expect(steps.vm!.detailedDiff).toEqual({ sshKeyName: "update", isoUuid: "update", rebootTriggers: "update" });
        }
        expect(await actionsSent(emulator)).toEqual({});
        expect(await nonGetRequests(emulator)).toEqual([]);
      });

      await step("the up performs each action once, in place", async () => {
        const updated = await s.up();
        expect(updated.changes).toMatchObject({ update: 4 });
        expect(updated.outputs).toMatchObject({ vpcId: ids.vpcId, networkId: ids.networkId, vmId: ids.vmId });
        expect(await actionsSent(emulator)).toEqual({
          restartVpc: 1,
          restartNetwork: 1,
          resetSSHkey: 1,
          detachIso: 1,
          attachIso: 1,
          // the key's reset (stopped while it is reset), then the reboot
          stopInstance: 2,
          startInstance: 2,
          attachVolume: 1,
        });
        const account = await accountResources(emulator.url);
        // Each restart was awaited: the records are Active again.
        expect(account.vpc?.[ids.vpcId as string]).toMatchObject({ status: "Active" });
        expect(account.network?.[ids.networkId as string]).toMatchObject({ status: "Active" });
        expect(account.instance?.[ids.vmId as string]).toMatchObject({
          state: "Running",
          _isoUuid: ISOS[1],
          _sshKeyName: "key-b",
        });
        expect(account.volume?.[ids.imageId as string]).toMatchObject({ vmUuid: ids.vmId });
      });

      await step("a removed trigger list restarts nothing; a removed ISO is detached", async () => {
        await s.setConfig("step", "2");
        await clearRequests(emulator);
        const updated = await s.up();
        expect(updated.operations).toMatchObject({ vpc: "same", network: "update", vm: "update", image: "same" });
        expect(await actionsSent(emulator)).toEqual({ detachIso: 1 });
        expect((await instanceRecord(ids.vmId as string))?._isoUuid).toBeUndefined();
      });

      await step("no change: a preview and an up send no action", async () => {
        await clearRequests(emulator);
        await s.preview({ expectNoChanges: true });
        const again = await s.up();
        expect(again.changes).toEqual({ same: 5 });
        expect(await actionsSent(emulator)).toEqual({});
        expect(await nonGetRequests(emulator)).toEqual([]);
      });

      await step("destroy: the uploaded volume detached and deleted, the account empty", async () => {
        await clearRequests(emulator);
        await s.destroy();
        expect(await actionsSent(emulator)).toMatchObject({ detachVolume: 1, destroyInstance: 1 });
        expect(await auditAccount(emulator.url, s)).toEqual(EMPTY_ACCOUNT);
        expect(Object.keys((await accountResources(emulator.url)).volume ?? {})).toEqual([]);
      });
      console.log(`api-actions (${mode}): ${Math.round((Date.now() - started) / 1000)} s`);
    } finally {
      await stack?.dispose();
      await emulator.stop();
    }
  });
});
