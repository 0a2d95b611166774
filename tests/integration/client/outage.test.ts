/**
 * The client against a service that stops answering (killed) and comes back on the same port from
 * its state file. Inside an operation (engine/operation.ts), calls and waits outlast the outage and
 * finish when the service is back, the user hears of it within seconds, and an outage longer than
 * the operation's timeout fails it then, naming the resource, the timeout and the outage. Outside
 * an operation, the attempt count still ends a call.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ApiError, OperationTimeoutError, RestCloudClient, waitFor } from "../../../provider/client";
import { OperationMonitor, type Notice } from "../../../provider/engine/operation";
import { discoverCatalog, type CatalogIds } from "../../e2e/catalog-ids";
import { EmulatorProcess, accountResources, freePort } from "../../e2e/reliability/helpers";
import { DEMO_KEYS } from "./helpers";

jest.setTimeout(60_000);

let tempDir: string;
let emulator: EmulatorProcess;
let catalog: CatalogIds;
/** Backoff capped at 1 s, so that the client notices the service back within a second. */
const RETRY = { baseDelayMs: 200, maxDelayMs: 1000 };

beforeAll(async () => {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-outage-"));
  emulator = new EmulatorProcess(await freePort(), [
    "--state-file",
    path.join(tempDir, "state.json"),
    "--async-delay-ms",
    "1000",
  ]);
  await emulator.start();
  catalog = await discoverCatalog(emulator.url);
});

afterAll(async () => {
  await emulator?.kill("SIGTERM");
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("inside an operation, a create and a wait outlast an outage; the user hears of it, then of the API back", async () => {
  const client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS, retry: RETRY, shareReads: true });
  const monitor = new OperationMonitor({ tickMs: 250 });
  const notices: Notice[] = [];
  const name = `outage-net-${Date.now()}`;

  await emulator.kill("SIGKILL");
  const killedAt = Date.now();
  const restart = sleep(6000).then(() => emulator.start());
  const network = await monitor.run(
    {
      type: "Network",
      name: "net",
      urn: "urn:test::net",
      action: "create",
      timeoutName: "create",
      timeoutMs: 60_000,
      health: client.health,
      notify: (n) => notices.push(n),
    },
    async () => {
      // Sent while nothing listens: it never left, so it is sent again until the service takes it.
      const created = await client.network.create({
        name,
        zoneUuid: catalog.zoneUuid,
        networkOfferingUuid: catalog.isolatedOfferingUuid,
      });
      return waitFor({
        awaited: `network ${created.uuid} to be listed`,
        poll: async () =>
          (await client.network.list({ zoneUuid: catalog.zoneUuid, uuid: created.uuid })).find(
            (n) => n.uuid === created.uuid,
          ),
        until: () => true,
      });
    },
  );
  await restart;
  expect(Date.now() - killedAt).toBeGreaterThanOrEqual(6000);

  // Exactly one record, although the create was attempted many times.
  const networks = Object.values((await accountResources(emulator.url)).network ?? {}).filter((n) => n.name === name);
  expect(networks).toHaveLength(1);
  expect(networks[0]!.uuid ?? network.uuid).toBe(network.uuid);

  const statuses = notices.filter((n) => n.kind === "status").map((n) => n.message);
  // On the resource's row (its URN): since when and why the API has not answered, what the operation does.
  expect(statuses[0]).toMatch(
    new RegExp(
      "^API not answering for [345]s " +
        `\\(connect ECONNREFUSED 127\\.0\\.0\\.1:${emulator.port}; since \\d\\d:\\d\\d:\\d\\d\\); ` +
        "calling createNetwork; retrying until the create timeout \\(1m\\) runs out in \\d+s$",
    ),
  );
  expect(notices.filter((n) => n.kind === "status").every((n) => n.urn === "urn:test::net")).toBe(true);
  expect(notices.filter((n) => n.kind === "warning")).toEqual([
    {
      kind: "warning",
      message: expect.stringMatching(
        new RegExp(
          `^restcloud: API not answering since \\d\\d:\\d\\d:\\d\\d \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${emulator.port}\\), ` +
            `at ${emulator.url.replace(/\./g, "\\.")}; waiting on it: restcloud:Network net \\(create\\)\\.`,
        ),
      ),
    },
  ]);
  expect(notices.filter((n) => n.kind === "info")).toEqual([
    {
      kind: "info",
      message: expect.stringMatching(/the API at .* answered again at \d\d:\d\d:\d\d, after [67]s without an answer$/),
    },
  ]);
  expect(client.health.snapshot()).toMatchObject({
    lastOutage: { lastError: `connect ECONNREFUSED 127.0.0.1:${emulator.port}` },
  });
  expect(client.health.snapshot().outage).toBeUndefined();
});

test("an outage longer than the operation's timeout fails it at the deadline; outside an operation, attempts end a call", async () => {
  const client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS, retry: RETRY, shareReads: true });
  await emulator.kill("SIGKILL");
  try {
    const started = Date.now();
    const reading = new OperationMonitor().run(
      {
        type: "Network",
        name: "net",
        action: "delete",
        timeoutName: "delete",
        timeoutMs: 4000,
        health: client.health,
      },
      () => client.network.list({ zoneUuid: catalog.zoneUuid }),
    );
    await expect(reading).rejects.toThrow(OperationTimeoutError);
    await expect(reading).rejects.toThrow(
      new RegExp(
        "^restcloud:Network net: the delete timeout \\(4s\\) ran out while calling networkList; " +
          `the API has not answered for [34]s \\(since \\d\\d:\\d\\d:\\d\\d: connect ECONNREFUSED 127\\.0\\.0\\.1:${emulator.port}\\)\\.`,
      ),
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(3900);
    expect(elapsed).toBeLessThan(6000);

    // No operation: the policy's attempts (3 here) end the call.
    const plain = new RestCloudClient({
      apiUrl: emulator.url,
      ...DEMO_KEYS,
      retry: { maxAttempts: 3, baseDelayMs: 50, maxDelayMs: 100 },
    });
    const listing = plain.network.list({ zoneUuid: catalog.zoneUuid });
    await expect(listing).rejects.toThrow(ApiError);
    await expect(listing).rejects.toMatchObject({ errorCode: "ECONNREFUSED", attempts: 3 });
  } finally {
    await emulator.start();
  }
});
