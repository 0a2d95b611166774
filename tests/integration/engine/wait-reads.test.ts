/**
 * What the engine's waits read (provider/engine/waits.ts), from the emulator's request log, with the
 * emulator in manual mode (asynchronous work completes when the test advances it):
 * - a job's status is one request per job, while its record is read through its kind's list, which
 *   waiters share: the engine watches the record at the waits' pace and reads the job as soon as
 *   the record changes, rather than on the job's slower backoff;
 * - the read that follows a wait (the create's outputs) is answered by the wait's last poll, not
 *   asked again: nothing but the dependants' own requests follows a resource becoming ready.
 */
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import type { ResourceDeclaration } from "../../../provider/engine/declaration";
import { Engine } from "../../../provider/engine/engine";
import { IdentityRegistry } from "../../../provider/engine/identity";
import { instanceDeclaration } from "../../../provider/resources/instance";
import { networkDeclaration } from "../../../provider/resources/network";
import { volumeDeclaration } from "../../../provider/resources/volume";
import { discoverCatalog, type CatalogIds } from "../../e2e/catalog-ids";

jest.setTimeout(60_000);

let emulator: RunningEmulator;
let catalog: CatalogIds;
let client: RestCloudClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncMode: "manual" });
  catalog = await discoverCatalog(emulator.url);
  client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_CREDENTIALS, shareReads: true });
});
afterAll(async () => emulator?.stop());

interface Logged {
  seq: number;
  operation: string | null;
}
async function requestsSince(since: number): Promise<Logged[]> {
  const answer = (await (await fetch(`${emulator.url}/_emulator/requests?since=${since}&limit=5000`)).json()) as {
    entries: Logged[];
  };
  return answer.entries;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const engineOf = (declaration: unknown) =>
  new Engine(declaration as ResourceDeclaration, {
    client: () => client,
    settings: () => ({ zoneUuid: catalog.zoneUuid }),
    identities: new IdentityRegistry(),
  });
const advance = () =>
  fetch(`${emulator.url}/_emulator/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
const lastSeq = async () => (await requestsSince(0)).at(-1)?.seq ?? 0;

test("an instance's create returns its outputs from the poll that saw it Running: one list after the work is done", async () => {
  const net = engineOf(networkDeclaration);
  const netArgs = net.check({}, { networkOfferingUuid: catalog.isolatedOfferingUuid }, { logicalName: "n" });
  const network = await net.create(netArgs.inputs, {});
  await advance();
  const vm = engineOf(instanceDeclaration);
  const { inputs, failures } = vm.check(
    {},
    { templateUuid: catalog.ubuntuTemplateUuid, computeOfferingUuid: catalog.smallPlanUuid, networkUuid: network.id },
    { logicalName: "vm" },
  );
  expect(failures).toEqual([]);
  const creating = vm.create(inputs, {});
  for (let tries = 0; tries < 100; tries++) {
    if ((await requestsSince(0)).some((r) => r.operation === "createInstance")) break;
    await sleep(50);
  }
  await sleep(300); // polling while it starts
  const before = await lastSeq();
  expect((await advance()).status).toBe(200);
  const created = await creating;
  expect(created.state.state).toBe("Running");
  const after = (await requestsSince(before)).map((r) => r.operation);
  // The poll that saw Running, and nothing more of the instance's own list.
  expect(after.filter((op) => op === "instanceList")).toHaveLength(1);
});

test("a volume's create job is read as soon as the volume's record shows the job done, not on the job's backoff", async () => {
  const engine = new Engine(volumeDeclaration as unknown as ResourceDeclaration, {
    client: () => client,
    settings: () => ({ zoneUuid: catalog.zoneUuid }),
    identities: new IdentityRegistry(),
  });
  const { inputs, failures } = engine.check(
    {},
    { storageOfferingUuid: catalog.customStoragePlanUuid, size: 10 },
    { logicalName: "watched" },
  );
  expect(failures).toEqual([]);
  const start = (await requestsSince(0)).at(-1)?.seq ?? 0;
  const creating = engine.create(inputs, {});

  // The job runs until advanced: the wait reads the job at once and after 0.5 s, its record meanwhile.
  let before: Logged[] = [];
  for (let tries = 0; tries < 100; tries++) {
    before = await requestsSince(start);
    if (before.filter((r) => r.operation === "resourceStatus").length >= 2) break;
    await sleep(100);
  }
  const jobReads = before.filter((r) => r.operation === "resourceStatus").length;
  expect(jobReads).toBe(2);
  // Between the two job reads, the record was read at the waits' pace (100 ms): several times.
  expect(before.filter((r) => r.operation === "volumeList").length).toBeGreaterThanOrEqual(3);

  await sleep(300); // well inside the job's next backoff (1 s)
  const advancedAt = (await requestsSince(start)).at(-1)!.seq;
  const advanced = await fetch(`${emulator.url}/_emulator/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(advanced.status).toBe(200);
  const { id } = await creating;
  expect(id).toBeTruthy();

  const after = (await requestsSince(advancedAt)).map((r) => r.operation);
  const firstJobRead = after.indexOf("resourceStatus");
  expect(firstJobRead).toBeGreaterThanOrEqual(0);
  // The job was read right after a record read saw the change: within a tick or two of record reads,
  // not after the rest of the backoff (about seven more at the pace).
  expect(after.slice(0, firstJobRead).filter((op) => op === "volumeList").length).toBeLessThanOrEqual(4);
  expect(after.filter((op) => op === "resourceStatus")).toHaveLength(1);
});
