/**
 * Gone is gone. Records deleted outside Pulumi (through the REST API, as a user or a script would):
 *
 * - every record of a stack of all 25 kinds deleted out of band, then `pulumi destroy` without a
 *   refresh completes, and leaves the state empty;
 * - an update of a record deleted out of band fails with a message that says so and suggests
 *   `pulumi refresh`; after the refresh, `pulumi up` creates it anew.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog, type CatalogIds } from "../catalog-ids";
import { TestStack } from "../harness";
import {
  EVERY_KIND_PROGRAM,
  EVERY_KIND_SIZE,
  GONE_PROGRAM,
  RESOURCE_COLLECTIONS,
  accountResources,
  auditAccount,
  callApi,
  catalogConfig,
  deleteEverythingOutOfBand,
  managedRecords,
  stateResources,
} from "./helpers";

jest.setTimeout(600_000);

const CLEAN = { duplicates: [], orphans: [], lost: [], sharedIds: [] };

let emulator: RunningEmulator;
let catalog: CatalogIds;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
  catalog = await discoverCatalog(emulator.url);
});

afterAll(async () => {
  await emulator?.stop();
});

/** The number of managed records of the account. */
async function recordCount(): Promise<number> {
  return [...(await managedRecords(emulator.url)).values()].reduce((n, records) => n + Object.keys(records).length, 0);
}

describe("every record of a stack of all 25 kinds deleted out of band", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.create({
      programDir: EVERY_KIND_PROGRAM,
      stackName: "out-of-band-all",
      config: catalogConfig(emulator.url, catalog),
    });
  });

  afterAll(async () => {
    await stack?.dispose();
  });

  test("the stack deploys, every kind in state", async () => {
    const created = await stack.up();
    expect(created.changes).toEqual({ create: EVERY_KIND_SIZE + 1 });
    const kinds = new Set((await stateResources(stack)).map((r) => r.kind));
    expect([...kinds].sort()).toEqual(Object.keys(RESOURCE_COLLECTIONS).sort());
    expect(await auditAccount(emulator.url, stack)).toEqual({ records: EVERY_KIND_SIZE, ...CLEAN });
  });

  test("pulumi destroy without refresh completes after every record was deleted through the API", async () => {
    const deleted = await deleteEverythingOutOfBand(emulator.url);
    expect(deleted).toHaveLength(EVERY_KIND_SIZE);
    expect(await recordCount()).toBe(0);
    // Nothing is left behind of what the records brought along (cluster nodes, ROOT volumes).
    const collections = await accountResources(emulator.url);
    expect(Object.keys(collections.instance ?? {})).toEqual([]);
    expect(Object.keys(collections.volume ?? {})).toEqual([]);

    const destroyed = await stack.destroy();
    expect(destroyed.changes).toEqual({ delete: EVERY_KIND_SIZE + 1 });
    expect(await stateResources(stack)).toEqual([]);
    expect(await auditAccount(emulator.url, stack)).toEqual({ records: 0, ...CLEAN });
  });
});

describe("an update of a record deleted out of band", () => {
  let stack: TestStack;
  let vpcId: string;

  beforeAll(async () => {
    stack = await TestStack.create({
      programDir: GONE_PROGRAM,
      stackName: "out-of-band-update",
      config: { ...catalogConfig(emulator.url, catalog), label: "first" },
    });
    const created = await stack.up();
    expect(created.changes).toEqual({ create: 3 });
    vpcId = created.outputs.vpcId as string;
  });

  afterAll(async () => {
    try {
      await stack?.destroy();
    } finally {
      await stack?.dispose();
    }
  });

  test("fails, saying the record is gone and suggesting pulumi refresh", async () => {
    const { status, body } = await callApi(emulator.url, "DELETE", `/restapi/vpc/deleteVpc/${vpcId}`);
    if (status >= 300) throw new Error(`deleteVpc: HTTP ${status}: ${body}`);
    await stack.setConfig("label", "second");
    const failure = await stack.up().then(
      () => "the up succeeded",
      (error: unknown) => String(error),
    );
    const errors = [
      ...new Set(
        failure
          .split("\n")
          .filter((line) => /^\s*error: /.test(line))
          .map((line) => line.trim()),
      ),
    ].join("\n");
    console.log(`pulumi up after the VPC was deleted out of band:\n${errors}`);
    expect(failure).not.toBe("the up succeeded");
    expect(errors).toContain("refresh");
    expect(errors).toMatch(/gone|no longer exists|does not exist|deleted|not found/i);
  });

  test("after pulumi refresh, pulumi up creates it anew", async () => {
    const refreshed = await stack.refresh();
    expect(refreshed.changes).toMatchObject({ delete: 1 }); // the VPC leaves the state
    const recreated = await stack.up();
    expect(recreated.operations.vpc).toBe("create");
    expect(recreated.outputs.vpcId).not.toBe(vpcId);
    const vpcs = Object.values((await accountResources(emulator.url)).vpc ?? {});
    expect(vpcs.map((v) => [v.uuid, v.description])).toEqual([[recreated.outputs.vpcId, "second"]]);
    expect(await auditAccount(emulator.url, stack)).toEqual({ records: 2, ...CLEAN });
  });
});
