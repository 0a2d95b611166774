/**
 * Crash: the service dies (SIGKILL) in the middle of `pulumi up` and comes back from its state file
 * on the same port. Whatever that up then makes of it, the next `pulumi up` converges: the account
 * holds exactly the stack's records (no duplicate, no orphan, none lost), `pulumi refresh` finds no
 * drift, and destroy empties the account.
 *
 * The kill comes at the worst moment for a create: a VPC tier exists, and the call that follows its
 * creation (setting its description) is on its way. A proxy in front of the service sees that call
 * coming and kills the service before passing it on. The service then stays down for several of
 * the client's backoff steps: the calls in flight find it gone, and (inside an operation, the client
 * waits for an API that does not answer until the operation's deadline: provider/client/retry.ts)
 * resume against the restarted service. Longer outages, and one past the deadline: outage.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { discoverCatalog } from "../catalog-ids";
import { TestStack } from "../harness";
import {
  EmulatorProcess,
  FLEET_PROGRAM,
  auditAccount,
  countingProxy,
  fleetConfig,
  freePort,
  managedRecords,
  stateIds,
  type CountingProxy,
  EMPTY_ACCOUNT,
} from "./helpers";

jest.setTimeout(300_000);

const FLEET_SIZE = 30;
/** The call after a tier's creation: the service dies as it arrives. */
const KILL_ON = "/restapi/vpc/updateVpcNetwork";
/**
 * How long the service stays down: several of the client's backoff steps (1, 2, 4 s...). A longer one
 * changes nothing here: the calls in flight wait for the service until their operation's deadline.
 */
const OUTAGE_MS = 10_000;

describe("the service killed during pulumi up, and restarted from its state file", () => {
  let tempDir: string;
  let emulator: EmulatorProcess;
  let proxy: CountingProxy;
  let stack: TestStack;
  let crash: Promise<void> | undefined;

  beforeAll(async () => {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-crash-"));
    emulator = new EmulatorProcess(await freePort(), [
      "--state-file",
      path.join(tempDir, "emulator-state.json"),
      // Slow enough that the kill finds work in every phase: requests, jobs, instances starting.
      "--async-delay-ms",
      "400",
      "--latency-ms",
      "30",
    ]);
    await emulator.start();
    proxy = await countingProxy(emulator.url, async (_method, url) => {
      if (crash || !url.startsWith(KILL_ON)) return;
      crash = emulator.kill("SIGKILL");
      await crash;
    });
    const catalog = await discoverCatalog(emulator.url);
    stack = await TestStack.create({
      programDir: FLEET_PROGRAM,
      stackName: "crash",
      config: fleetConfig(proxy.url, catalog, FLEET_SIZE),
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await proxy?.close();
    await emulator?.kill("SIGTERM");
    if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  });

  /** The records made so far (the stack's state is locked while the up runs). */
  async function recordsMade(): Promise<number> {
    const kinds = await managedRecords(emulator.url);
    return [...kinds.values()].reduce((sum, records) => sum + Object.keys(records).length, 0);
  }

  test("an up interrupted by SIGKILL, then a second up, converge without duplicates or orphans", async () => {
    const interrupted = stack.up().then(
      (result) => `succeeded (${JSON.stringify(result.changes)})`,
      (error: unknown) => {
        const errors = new Set(
          String(error)
            .split("\n")
            .filter((line) => /^\s+error: /.test(line) && !line.includes("update failed"))
            .map((line) => line.trim().replace(/[0-9a-f-]{36}/g, "<id>")),
        );
        return `failed:\n  ${[...errors].join("\n  ")}`;
      },
    );
    while (!crash) await new Promise((resolve) => setTimeout(resolve, 20));
    await crash;
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await emulator.start(); // from the state file, on the same port
    const outcome = await interrupted;
    console.log(
      `killed on ${KILL_ON} with ${await recordsMade()} of ${FLEET_SIZE} records made, down ${OUTAGE_MS} ms; ` +
        `after the interrupted up, ${(await stateIds(stack)).size} ids are in state, and the up ${outcome}`,
    );

    const converged = await stack.up();
    expect(Object.keys(converged.outputs.resourceIds as object)).toHaveLength(FLEET_SIZE);
    expect(await auditAccount(emulator.url, stack)).toEqual({
      records: FLEET_SIZE,
      duplicates: [],
      orphans: [],
      lost: [],
      sharedIds: [],
    });
  });

  test("refresh then finds no drift, and a preview no change", async () => {
    const refreshed = await stack.refresh();
    expect(refreshed.changes).toEqual({ same: FLEET_SIZE + 1 });
    await stack.preview({ expectNoChanges: true });
  });

  test("destroy empties the account", async () => {
    await stack.destroy();
    expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  });
});
