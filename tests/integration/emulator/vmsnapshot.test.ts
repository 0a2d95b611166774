import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { createNetwork, errorOf, runningInstance, UNKNOWN, until, useEmulator, ZONE, type Json } from "./helpers";

const emulator = useEmulator();
const { call } = emulator;

const snapshotOf = (reply: { body: Json }): Json => reply.body.listVmSnapshotResponse[0];
const listSnapshots = async (query = "") =>
  (await call("GET", `/restapi/vmsnapshot/vmsnapshotList?zoneUuid=${ZONE}${query}`)).body as {
    count: number;
    listVmSnapshotResponse: Json[];
  };
const get = async (uuid: string) => (await listSnapshots(`&uuid=${uuid}`)).listVmSnapshotResponse[0];
const job = async (jobId: string) => (await call("GET", `/restapi/asyncjob/resourceStatus?jobId=${jobId}`)).body;
const instanceState = async (uuid: string) =>
  (await call("GET", `/restapi/instance/vmStatus?uuid=${uuid}`)).body.status as string;

let instance: Json;
const snapshotInput = (overrides: Json = {}): Json => ({
  name: "before-upgrade",
  zoneUuid: ZONE,
  virtualmachineUuid: instance.uuid,
  ...overrides,
});
const createSnapshot = (overrides: Json = {}) =>
  call("POST", "/restapi/vmsnapshot/createVmSnapshot", snapshotInput(overrides));
async function readySnapshot(overrides: Json = {}): Promise<Json> {
  const reply = await createSnapshot(overrides);
  expect(reply.status).toBe(200);
  const { uuid, jobId } = snapshotOf(reply);
  await until(
    () => job(jobId),
    (j) => j.status === "SUCCEEDED",
  );
  return (await get(uuid)) as Json;
}

beforeEach(async () => {
  await emulator.reset();
  const network = await createNetwork(emulator);
  instance = await runningInstance(emulator, {
    name: "db-1",
    templateUuid: CATALOG_IDS.templates.debian12,
    computeOfferingUuid: CATALOG_IDS.computeOfferings.gp2c4g,
    networkUuid: network.uuid,
  });
});

describe("VM snapshots", () => {
  it("are created by a job (Creating, then Ready) with every field of the spec", async () => {
    const before = Date.now();
    const reply = await createSnapshot({ description: "pre-upgrade", snapshotMemory: true });
    expect(reply.body.count).toBe(1);
    const created = snapshotOf(reply);
    expect(created).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "before-upgrade",
      description: "pre-upgrade",
      zoneUuid: ZONE,
      createdTimeStamp: expect.any(Number),
      domainName: "demo",
      isCurrent: true,
      jobId: expect.any(String),
      status: "Creating",
      isActive: true,
    });
    expect(created.createdTimeStamp).toBeGreaterThanOrEqual(before);
    expect((await listSnapshots(`&jobId=${created.jobId}`)).listVmSnapshotResponse.map((s) => s.uuid)).toEqual([
      created.uuid,
    ]);
    await until(
      () => job(created.jobId),
      (j) => j.status === "SUCCEEDED",
    );
    expect(await job(created.jobId)).toMatchObject({ resourceId: created.uuid, resourceType: "VMSnapshot" });
    expect(await get(created.uuid)).toEqual({ ...created, status: "Ready" });
  });

  it("mark the newest (or the one reverted to) current; revert keeps the instance's state", async () => {
    const first = await readySnapshot({ name: "one" });
    const second = await readySnapshot({ name: "two" });
    expect((await get(first.uuid))?.isCurrent).toBe(false);
    expect(second.isCurrent).toBe(true);

    const reverting = await call("GET", `/restapi/vmsnapshot/revertToVmSnapshot?uuid=${first.uuid}`);
    expect(reverting.status).toBe(200);
    const revert = snapshotOf(reverting);
    expect(revert).toMatchObject({ uuid: first.uuid, status: "Reverting", isCurrent: true });
    expect(revert.jobId).not.toBe(first.jobId);
    await until(
      () => job(revert.jobId),
      (j) => j.status === "SUCCEEDED",
    );
    expect(await get(first.uuid)).toMatchObject({ status: "Ready", isCurrent: true });
    expect((await get(second.uuid))?.isCurrent).toBe(false);
    expect(await instanceState(instance.uuid)).toBe("Running");
    expect((await call("GET", `/restapi/vmsnapshot/revertToVmSnapshot?uuid=${UNKNOWN}`)).status).toBe(404);
    expect((await call("GET", "/restapi/vmsnapshot/revertToVmSnapshot")).status).toBe(400);
  });

  it("delete answers {uuid, status}; unknown is a 404; they go when their instance is expunged", async () => {
    const kept = await readySnapshot({ name: "kept" });
    const dropped = await readySnapshot({ name: "dropped" });
    const reply = await call("DELETE", `/restapi/vmsnapshot/deleteVmSnapshot/${dropped.uuid}`);
    expect(reply.body).toEqual({ uuid: dropped.uuid, status: "Deleted" });
    expect((await call("DELETE", `/restapi/vmsnapshot/deleteVmSnapshot/${dropped.uuid}`)).status).toBe(404);
    expect((await listSnapshots()).count).toBe(1);

    await call("GET", `/restapi/instance/destroyInstance?uuid=${instance.uuid}&expunge=true`);
    await until(
      () => get(kept.uuid),
      (s) => s === undefined,
    );
  });

  it.each([
    ["name", { name: undefined }, 400, /^name: is required/],
    ["zoneUuid", { zoneUuid: undefined }, 400, /^zoneUuid: is required/],
    ["virtualmachineUuid", { virtualmachineUuid: undefined }, 400, /^virtualmachineUuid: is required/],
    ["an unknown instance", { virtualmachineUuid: UNKNOWN }, 404, /instance/],
    ["another zone", { zoneUuid: CATALOG_IDS.zones.singapore }, 400, /^virtualmachineUuid:/],
  ])("refuse %s, and a rejected call changes nothing", async (_what, overrides, status, message) => {
    const reply = await createSnapshot(overrides);
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toMatch(message);
    expect((await listSnapshots()).count).toBe(0);
  });

  it("refuse a memory snapshot of a stopped instance and any snapshot of a destroyed one", async () => {
    await call("GET", `/restapi/instance/stopInstance?uuid=${instance.uuid}&forceStop=true`);
    await until(
      () => instanceState(instance.uuid),
      (state) => state === "Stopped",
    );
    const memory = await createSnapshot({ snapshotMemory: true });
    expect(errorOf(memory).errorMsg).toMatch(/^snapshotMemory:/);
    expect((await createSnapshot()).status).toBe(200);
    await call("GET", `/restapi/instance/destroyInstance?uuid=${instance.uuid}&expunge=false`);
    expect((await createSnapshot({ name: "late" })).status).toBe(409);
    expect((await call("GET", "/restapi/vmsnapshot/vmsnapshotList")).status).toBe(400);
  });
});
