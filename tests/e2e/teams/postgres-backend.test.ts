// A stack whose state lives in a PostgreSQL server (Pulumi's self-managed `postgres://` backend), as a
// team's shared backend: up, a no-change preview, destroy, with the state read back from the database.
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { RestCloudClient } from "../../../provider/client";
import { DEMO_KEYS, discoverCatalog, providerConfig } from "../catalog-ids";
import { TestStack } from "../harness";
import { startPostgres, type PostgresServer } from "../postgres-server";

jest.setTimeout(300_000);

let pg: PostgresServer;
let emulator: RunningEmulator;
let stack: TestStack;
let zoneUuid: string;

beforeAll(async () => {
  pg = await startPostgres();
  emulator = await startEmulator({ port: 0, asyncDelayMs: 40 });
  const catalog = await discoverCatalog(emulator.url);
  const { vpcOfferingUuid } = catalog;
  zoneUuid = catalog.zoneUuid;
  stack = await TestStack.create({
    programDir: path.join(__dirname, "..", "programs", "one-resource"),
    config: {
      ...providerConfig(emulator.url, zoneUuid),
      case: JSON.stringify({ type: "Vpc", args: { cidr: "10.20.0.0/16", vpcOfferingUuid } }),
    },
    env: { PULUMI_BACKEND_URL: pg.loginUrl },
  });
});

afterAll(async () => {
  await stack?.dispose();
  await emulator?.stop();
  await pg?.stop();
});

test("up, no-change preview and destroy, the checkpoint kept in the database", async () => {
  const client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS });
  expect((await stack.up()).changes).toEqual({ create: 2 });
  const keys = pg.sql("select key from pulumi_state").trim().split("\n");
  const checkpoint = keys.find((k) => k.includes("/stacks/") && k.endsWith(`/${stack.stack.name}.json`));
  expect(checkpoint).toBeDefined();
  // The backend keeps each blob as JSON: {"data": "<base64 of the file>"}.
  const row = JSON.parse(pg.sql(`select data::text from pulumi_state where key = '${checkpoint}'`)) as { data: string };
  expect(Buffer.from(row.data, "base64").toString("utf8")).toContain("pulumi-nodejs:dynamic/restcloud:Vpc");
  expect((await client.vpc.list({ zoneUuid })).length).toBe(1);
  expect((await stack.preview({ expectNoChanges: true })).changes).toEqual({ same: 2 });
  expect((await stack.destroy()).changes).toEqual({ delete: 2 });
  expect(await client.vpc.list({ zoneUuid })).toEqual([]);
});
