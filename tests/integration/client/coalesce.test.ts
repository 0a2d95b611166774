/**
 * Shared reads (provider/client/coalesce.ts) against the emulator: concurrent identical reads and
 * list calls that differ only by their uuid filter (or a filter applied here, `where`) are served by one request, each caller gets
 * exactly what its own request would have answered, a request already sent is never joined (one
 * waiting for a free slot of the concurrency limit still is), polls
 * of different records meet on a common tick (shorter for a quick re-read), reads of the recorded
 * state are answered by a recent list of their kind until the client changes something, and
 * mutations are never shared. Request counts come from GET /_emulator/stats.
 */
import type { RunningEmulator } from "../../../emulator/index";
import { ApiError, waitFor } from "../../../provider/client";
import { asPoll } from "../../../provider/client/coalesce";
import { runInScope, type CallScope } from "../../../provider/client/scope";
import { clientFor, discoverCatalog, resetStats, setFaults, start, stats, type CatalogIds } from "./helpers";

let emulator: RunningEmulator;
let ids: CatalogIds;

beforeAll(async () => {
  emulator = await start({ seed: 11 });
  ids = await discoverCatalog(clientFor(emulator).client);
});
afterAll(() => emulator.stop());
beforeEach(async () => {
  await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
  await setFaults(emulator, { latencyMs: 0 });
});

const shared = () => clientFor(emulator, { shareReads: true });

async function createVolumes(count: number): Promise<string[]> {
  const { client } = clientFor(emulator);
  const volumes = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      client.volume.create({
        name: `shared-${i}`,
        zoneUuid: ids.zoneUuid,
        storageOfferingUuid: ids.storageOfferingUuid,
        diskSize: ids.diskSize,
      }),
    ),
  );
  return volumes.map((v) => v.uuid);
}

test("off by default: concurrent identical reads each send their own request", async () => {
  const { client } = clientFor(emulator);
  await resetStats(emulator);
  await Promise.all(Array.from({ length: 5 }, () => client.vpc.list({ zoneUuid: ids.zoneUuid })));
  expect((await stats(emulator)).byOperation.vpcList).toBe(5);
});

test("concurrent identical reads share one request; each caller gets its own copy", async () => {
  const { client } = shared();
  await client.vpc.create({
    name: "one",
    zoneUuid: ids.zoneUuid,
    vpcOfferingUuid: ids.vpcOfferingUuid,
    getcIDR: "10.1.0.0/16",
  });
  await resetStats(emulator);
  const answers = await Promise.all(Array.from({ length: 5 }, () => client.vpc.list({ zoneUuid: ids.zoneUuid })));
  expect((await stats(emulator)).byOperation.vpcList).toBe(1);
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(answers[0]).toHaveLength(1);
  answers[0]![0]!.name = "changed by one caller";
  expect(answers[1]![0]!.name).toBe("one");
});

test("list calls that differ only by uuid are served by one zone-wide list, filtered per caller", async () => {
  const uuids = await createVolumes(3);
  const { client, events } = shared();
  await resetStats(emulator);
  const calls = [...uuids, ...uuids, "99999999-0000-4000-8000-000000000000"];
  const answers = await Promise.all(calls.map((uuid) => client.volume.list({ zoneUuid: ids.zoneUuid, uuid })));
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);
  expect(events[0]!.url).not.toContain("uuid=");
  calls.forEach((uuid, i) => {
    if (i < 6) expect(answers[i]!.map((v) => v.uuid)).toEqual([uuid]);
    else expect(answers[i]).toEqual([]);
  });
});

test("a list narrowed here (`where`: a name the service cannot filter on) joins the uuid reads' request", async () => {
  const uuids = await createVolumes(3);
  const { client, events } = shared();
  await resetStats(emulator);
  const [named, first, none] = await Promise.all([
    client.volume.list({ zoneUuid: ids.zoneUuid }, { where: { field: "name", value: "shared-1" } }),
    client.volume.list({ zoneUuid: ids.zoneUuid, uuid: uuids[0]! }),
    client.volume.list({ zoneUuid: ids.zoneUuid }, { where: { field: "name", value: "no-such-name" } }),
  ]);
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);
  expect(events[0]!.url).not.toContain("uuid=");
  expect(named.map((v) => v.uuid)).toEqual([uuids[1]]);
  expect(first.map((v) => v.uuid)).toEqual([uuids[0]]);
  expect(none).toEqual([]);
  // Alone, and without shared reads, the same narrowing: the service is asked the whole list, never a name.
  const alone = clientFor(emulator);
  expect(
    (await alone.client.volume.list({ zoneUuid: ids.zoneUuid }, { where: { field: "name", value: "shared-2" } })).map(
      (v) => v.uuid,
    ),
  ).toEqual([uuids[2]]);
  expect(alone.events[alone.events.length - 1]!.url).not.toContain("name=");
});

test("the tags of several records (resourceUuid) are served by one list of the account's tags", async () => {
  const uuids = await createVolumes(3);
  const { client, events } = shared();
  for (const [i, resourceUuid] of uuids.entries())
    await client.resourceTag.create({
      resourceType: "Volume",
      zoneUuid: ids.zoneUuid,
      resourceUuid,
      key: "n",
      value: `${i}`,
    });
  await resetStats(emulator);
  const before = events.length;
  const answers = await Promise.all(uuids.map((resourceUuid) => client.resourceTag.list({ resourceUuid })));
  expect((await stats(emulator)).byOperation.resourceTagsList).toBe(1);
  expect(events[before]!.url).not.toContain("resourceUuid=");
  expect(answers.map((tags) => tags.map((t) => `${t.resourceUuid} ${t.value}`))).toEqual(
    uuids.map((uuid, i) => [`${uuid} ${i}`]),
  );
  // Alone, a call keeps its filter.
  expect(await client.resourceTag.list({ resourceUuid: uuids[0]! })).toHaveLength(1);
  expect(events[events.length - 1]!.url).toContain(`resourceUuid=${uuids[0]}`);
});

test("a lone call, or calls all asking the same uuid, keep the uuid filter", async () => {
  const [uuid] = await createVolumes(1);
  const { client, events } = shared();
  const [a, b] = await Promise.all([
    client.volume.list({ zoneUuid: ids.zoneUuid, uuid }),
    client.volume.list({ zoneUuid: ids.zoneUuid, uuid }),
  ]);
  expect(a).toEqual(b);
  expect(events).toHaveLength(1);
  expect(events[0]!.url).toContain(`uuid=${uuid}`);
});

test("a request already sent is never joined: a later read sees what happened since", async () => {
  const { client } = shared();
  await setFaults(emulator, { latencyMs: 300 });
  await resetStats(emulator);
  const early = client.vpc.list({ zoneUuid: ids.zoneUuid });
  await new Promise((resolve) => setTimeout(resolve, 100)); // the first request has left, and waits
  const late = client.vpc.list({ zoneUuid: ids.zoneUuid });
  await Promise.all([early, late]);
  expect((await stats(emulator)).byOperation.vpcList).toBe(2);
});

/** Waits until just after a multiple of `tick` ms of the clock. */
async function justAfterTick(tick: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, tick - (Date.now() % tick) + 20));
}

test("a batch due while every request slot is busy stays open: reads made meanwhile join it", async () => {
  const uuids = await createVolumes(6);
  const { client } = clientFor(emulator, { shareReads: true, maxConcurrentRequests: 1 });
  await setFaults(emulator, { latencyMs: 200 });
  await resetStats(emulator);
  // Holds the only slot for 200 ms. A call with its own options is not shared: it takes the slot at
  // once, not after a window of its own that could end with the first volume read's.
  const busy = client.vpc.list({ zoneUuid: ids.zoneUuid }, { timeoutMs: 10_000 });
  const reads: Promise<{ uuid: string }[]>[] = [];
  for (const uuid of uuids) {
    reads.push(client.volume.list({ zoneUuid: ids.zoneUuid, uuid }));
    await new Promise((resolve) => setTimeout(resolve, 25)); // each after the last one's window closed
  }
  const answers = await Promise.all(reads);
  await busy;
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);
  answers.forEach((answer, i) => expect(answer.map((v) => v.uuid)).toEqual([uuids[i]]));
});

test("deletes given their zone confirm through shared zone lists, not a get per record", async () => {
  const { client } = shared();
  const vpcs = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      client.vpc.create({
        name: `gone-${i}`,
        zoneUuid: ids.zoneUuid,
        vpcOfferingUuid: ids.vpcOfferingUuid,
        getcIDR: `10.${20 + i}.0.0/16`,
      }),
    ),
  );
  await resetStats(emulator);
  await Promise.all(vpcs.map((vpc) => client.vpc.delete({ uuid: vpc.uuid, zoneUuid: ids.zoneUuid })));
  const counted = await stats(emulator);
  expect(counted.byOperation.deleteVpc).toBe(6);
  expect(counted.byOperation.vpcId).toBeUndefined();
  expect(counted.byOperation.vpcList).toBeLessThan(6); // one, unless the deletes' answers straddle a window
  expect(await client.vpc.list({ zoneUuid: ids.zoneUuid })).toEqual([]);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("slow polls of different records, each on its own schedule, meet on the next tick", async () => {
  const [first, second] = await createVolumes(2);
  const { client } = clientFor(emulator, { shareReads: { pollTickMs: 400 } });
  const read = (uuid: string) => client.volume.list({ zoneUuid: ids.zoneUuid, uuid });
  await read(first!);
  await read(second!);
  await resetStats(emulator);
  await sleep(1700); // a slow poll: four times the tick since the last read, so the whole tick
  await justAfterTick(400);
  const started = Date.now();
  const polls = [asPoll(() => read(first!))];
  await sleep(120); // another waiter, out of step
  polls.push(asPoll(() => read(second!)));
  const [a, b] = await Promise.all(polls);
  expect(a!.map((v) => v.uuid)).toEqual([first]);
  expect(b!.map((v) => v.uuid)).toEqual([second]);
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);
  expect(Date.now() - started).toBeGreaterThanOrEqual(350); // both waited for the tick
});

test("waits of many records of a kind, each at the waits' pace, make one request per tick between them", async () => {
  const volumes = await createVolumes(6);
  const { client } = shared();
  await resetStats(emulator);
  const started = Date.now();
  // Six waiters, started out of step, each reading its own volume every 100 ms (the default pace) for a second.
  await Promise.all(
    volumes.map(async (uuid, i) => {
      await sleep(i * 17);
      return waitFor({
        awaited: `volume ${uuid}`,
        poll: async () => (await client.volume.list({ zoneUuid: ids.zoneUuid, uuid }))[0],
        until: () => Date.now() - started >= 1000,
      });
    }),
  );
  const elapsed = Date.now() - started;
  const lists = (await stats(emulator)).byOperation.volumeList!;
  // About one per 100 ms tick, plus each waiter's first read (which does not wait for one): not six per tick.
  expect(lists).toBeGreaterThanOrEqual(5);
  expect(lists).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + volumes.length);
});

test("a record polled soon after its last read waits a short tick, not the whole one", async () => {
  const [first] = await createVolumes(1);
  const { client } = clientFor(emulator, { shareReads: { pollTickMs: 1000 } });
  const read = (uuid: string) => client.volume.list({ zoneUuid: ids.zoneUuid, uuid });
  await read(first!);
  await sleep(40); // a job that finished at once, then the record polled again
  const started = Date.now();
  expect((await asPoll(() => read(first!))).map((v) => v.uuid)).toEqual([first]);
  expect(Date.now() - started).toBeLessThan(300); // the tick is at most 1.5 times 40 ms (at least the window)
});

test("a read that is no poll leaves after the window, however soon it repeats the last", async () => {
  const [first, second] = await createVolumes(2);
  const { client } = clientFor(emulator, { shareReads: { pollTickMs: 60_000 } });
  const read = (uuid: string) => client.volume.list({ zoneUuid: ids.zoneUuid, uuid });
  await read(first!);
  await resetStats(emulator);
  const started = Date.now();
  // A step's read after a wait (or a job's read because its record changed) must not wait for a tick.
  await Promise.all([read(first!), read(second!)]);
  expect(Date.now() - started).toBeLessThan(30_000);
  expect((await stats(emulator)).byOperation.volumeList).toBe(1); // still shared, by the window
});

/** An operation's scope, as the engine opens one; `recentListsMs` as it sets it for reads of the recorded state. */
function operationScope(recentListsMs?: number): CallScope {
  const now = Date.now();
  return {
    subject: "restcloud:Volume test",
    timeoutName: "update",
    timeoutMs: 60_000,
    started: now,
    deadline: now + 60_000,
    activities: [],
    now: Date.now,
    ...(recentListsMs !== undefined ? { recentListsMs } : {}),
  };
}

/** A volume's read inside an operation's scope. */
const readInScope =
  (client: ReturnType<typeof shared>["client"]) =>
  (scope: CallScope, uuid: string): Promise<{ uuid: string }[]> =>
    runInScope(scope, () => client.volume.list({ zoneUuid: ids.zoneUuid, uuid }));

test("reads of the recorded state are answered by a recent list of their kind, until the client changes something", async () => {
  const uuids = await createVolumes(4);
  const { client } = shared();
  const readIn = readInScope(client);
  await resetStats(emulator);
  // A refresh: each resource's read in its own operation, handed out over time.
  expect((await readIn(operationScope(10_000), uuids[0]!)).map((v) => v.uuid)).toEqual([uuids[0]]);
  await sleep(60); // past the sharing window: without the recent list, this would be a request of its own
  const second = operationScope(10_000);
  expect((await readIn(second, uuids[1]!)).map((v) => v.uuid)).toEqual([uuids[1]]);
  expect((await readIn(operationScope(10_000), uuids[2]!)).map((v) => v.uuid)).toEqual([uuids[2]]);
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);

  // The same operation reading again is a poll: it leaves, to see the record as it is now.
  await resetStats(emulator);
  expect((await readIn(second, uuids[1]!)).map((v) => v.uuid)).toEqual([uuids[1]]);
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);

  // After a change by this client, no earlier list answers: the next read of the state leaves too.
  await client.volume.delete({ uuid: uuids[3]! });
  await resetStats(emulator);
  expect(await readIn(operationScope(10_000), uuids[3]!)).toEqual([]);
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);

  // Reads outside such an operation (a create's waits, a poll) never take a recent list.
  await resetStats(emulator);
  await runInScope(operationScope(), () => client.volume.list({ zoneUuid: ids.zoneUuid, uuid: uuids[0]! }));
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);
});

test("a recent list answers only within its age", async () => {
  const uuids = await createVolumes(2);
  const { client } = shared();
  const readIn = readInScope(client);
  await resetStats(emulator);
  await readIn(operationScope(200), uuids[0]!);
  await sleep(300);
  await readIn(operationScope(200), uuids[1]!);
  expect((await stats(emulator)).byOperation.volumeList).toBe(2);
});

test("a first read joining waiting polls takes them along at once", async () => {
  const [first, second] = await createVolumes(2);
  const { client } = clientFor(emulator, { shareReads: { pollTickMs: 1000 } });
  const read = (uuid: string) => client.volume.list({ zoneUuid: ids.zoneUuid, uuid });
  await read(first!);
  await resetStats(emulator);
  await justAfterTick(1000);
  const started = Date.now();
  await Promise.all([asPoll(() => read(first!)), read(second!)]); // a poll, then a first read
  expect(Date.now() - started).toBeLessThan(500);
  expect((await stats(emulator)).byOperation.volumeList).toBe(1);
});

test("a failure reaches every caller of the shared request", async () => {
  const { client } = shared();
  await resetStats(emulator);
  const unknownZone = "99999999-0000-4000-8000-000000000001";
  const outcomes = await Promise.allSettled(
    Array.from({ length: 3 }, () => client.vpc.list({ zoneUuid: unknownZone })),
  );
  expect((await stats(emulator)).byOperation.vpcList).toBe(1);
  for (const outcome of outcomes) {
    expect(outcome.status).toBe("rejected");
    expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ApiError);
    expect((outcome as PromiseRejectedResult).reason).toMatchObject({ status: 404 });
  }
});

test("mutations are never shared", async () => {
  const { client } = shared();
  await resetStats(emulator);
  await Promise.all(
    Array.from({ length: 3 }, (_, i) => client.securityGroup.create({ name: `group-${i}`, description: "same" })),
  );
  expect((await stats(emulator)).byOperation.createSecurityGroup).toBe(3);
});
