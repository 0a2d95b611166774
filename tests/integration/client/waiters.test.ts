/**
 * Waiters against the emulator, with operations that take 2 s (asyncDelayMs: 2000): they end
 * once the state is there, reading no more often than their pace (counted by GET /_emulator/stats),
 * and time out with a clear error.
 */
import type { RunningEmulator } from "../../../emulator/index";
import {
  WaitTimeoutError,
  waitFor,
  waitForGone,
  waitForVisible,
  type Instance,
  type WaitProgress,
} from "../../../provider/client";
import { clientFor, discoverCatalog, resetStats, start, stats, type CatalogIds, type Recorded } from "./helpers";

const OPERATION_MS = 2000;

let emulator: RunningEmulator;
let recorded: Recorded;
let ids: CatalogIds;

beforeAll(async () => {
  emulator = await start({ asyncDelayMs: OPERATION_MS, quirks: ["lingering-deletes"] });
  recorded = clientFor(emulator);
  ids = await discoverCatalog(recorded.client);
});
afterAll(() => emulator.stop());

test("waiting for a 2 s operation: a job, a state and an update, each read at the pace of 100 ms", async () => {
  const { client } = recorded;
  const network = await client.network.create({
    name: "w",
    zoneUuid: ids.zoneUuid,
    networkOfferingUuid: ids.networkOfferingUuid,
  });
  const vpc = await client.vpc.create({
    name: "w",
    zoneUuid: ids.zoneUuid,
    vpcOfferingUuid: ids.vpcOfferingUuid,
    getcIDR: "10.50.0.0/16",
  });
  const volume = await client.volume.create({
    name: "w",
    zoneUuid: ids.zoneUuid,
    storageOfferingUuid: ids.storageOfferingUuid,
    diskSize: ids.diskSize,
  });
  const instance = await client.instance.create({
    name: "w",
    zoneUuid: ids.zoneUuid,
    templateUuid: ids.templateUuid,
    computeOfferingUuid: ids.computeOfferingUuid,
    networkUuid: network.uuid,
  });
  await client.vpc.update({ uuid: vpc.uuid, description: "after 2 s" });
  await resetStats(emulator);

  const progress: Array<WaitProgress<Instance>> = [];
  const started = Date.now();
  const [job, running, updated] = await Promise.all([
    client.waitForJob(volume.jobId!),
    waitFor(
      {
        awaited: `instance ${instance.uuid} Running`,
        poll: async () => (await client.instance.list({ zoneUuid: ids.zoneUuid, vmUuid: instance.uuid }))[0],
        until: (vm) => vm.state === "Running",
      },
      { onProgress: (p) => progress.push(p) },
    ),
    waitForVisible({
      awaited: `VPC ${vpc.uuid} description`,
      poll: () => client.vpc.get({ uuid: vpc.uuid }),
      expected: { description: "after 2 s" },
    }),
  ]);
  const elapsed = Date.now() - started;
  expect(job.status).toBe("SUCCEEDED");
  expect(running.state).toBe("Running");
  expect(updated.description).toBe("after 2 s");

  const counted = (await stats(emulator)).byOperation;
  // A poll at once, then one every 100 ms from the start of the last: never more often than that.
  for (const operation of ["resourceStatus", "instanceList", "vpcId"]) {
    expect(counted[operation]).toBeGreaterThanOrEqual(2);
    expect(counted[operation]).toBeLessThanOrEqual(Math.floor(elapsed / 100) + 2);
  }
  expect(progress[0]).toMatchObject({ polls: 1, state: "state=Starting status=Active isActive=true" });
  expect(progress[progress.length - 1]).toMatchObject({
    polls: counted.instanceList,
    state: expect.stringContaining("state=Running"),
  });
  console.log(
    `waiting for a ${OPERATION_MS} ms operation took ${elapsed} ms and ${counted.resourceStatus} job polls, ` +
      `${counted.instanceList} instance polls, ${counted.vpcId} VPC polls`,
  );
});

test("a waiter that runs out of time says what it awaited and the last state it saw", async () => {
  const { client } = recorded;
  const [vpc] = await client.vpc.list({ zoneUuid: ids.zoneUuid });
  const waiting = waitFor(
    {
      awaited: `VPC ${vpc!.uuid} to be Deleted`,
      poll: () => client.vpc.get({ uuid: vpc!.uuid }),
      until: (v) => v.status === "Deleted",
    },
    { timeoutMs: 300 },
  );
  await expect(waiting).rejects.toThrow(WaitTimeoutError);
  await expect(waiting).rejects.toThrow(
    new RegExp(`timed out after \\d+ ms waiting for VPC ${vpc!.uuid} to be Deleted; last state seen: status=Active`),
  );
});

test("waitForGone through a lingering delete (confirmation off, then by hand)", async () => {
  const { client } = recorded;
  const group = await client.securityGroup.create({ name: "lingering" });
  await client.securityGroup.delete({ uuid: group.uuid }, { confirmGone: false });
  expect(await client.securityGroup.list({ uuid: group.uuid })).toHaveLength(1);
  const started = Date.now();
  await waitForGone({
    awaited: `security group ${group.uuid} gone`,
    poll: async () => (await client.securityGroup.list({ uuid: group.uuid }))[0],
  });
  expect(Date.now() - started).toBeGreaterThanOrEqual(OPERATION_MS - 200);
  expect(await client.securityGroup.list({ uuid: group.uuid })).toEqual([]);
});
