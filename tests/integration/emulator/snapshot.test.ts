import { CATALOG_IDS } from "../../../emulator/catalog";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const ASYNC_MS = 30;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let emulator: RunningEmulator;
/** An emulator whose asynchronous work never completes during a test: refusals while work is in progress. */
let slow: RunningEmulator;

async function call(
  method: string,
  path: string,
  body?: unknown,
  on: RunningEmulator = emulator,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${on.url}${path}`, {
    method,
    headers: body === undefined ? DEMO : { ...DEMO, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

/** Polls `read` until `done` holds (or fails the test after 3 s). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, ASYNC_MS / 2));
  }
}

const errorOf = (reply: { body: Json }) => reply.body.listErrorResponse as { errorCode: string; errorMsg: string };
const listSnapshots = async (query = "") =>
  (await call("GET", `/restapi/snapshot/snapshotList?zoneUuid=${ZONE}${query}`)).body as {
    count: number;
    listSnapShotResponse: Json[];
  };

let volume: Json;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: ASYNC_MS });
  slow = await startEmulator({ port: 0, asyncDelayMs: 60_000 });
});
afterAll(async () => {
  await emulator.stop();
  await slow.stop();
});
beforeEach(async () => {
  await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
  const created = await call("POST", "/restapi/volume/createVolume", {
    name: "data",
    zoneUuid: ZONE,
    storageOfferingUuid: CATALOG_IDS.storageOfferings.ssd20,
    diskSize: 20,
  });
  const { uuid } = created.body.listVolumeResponse[0];
  volume = await until(
    async () =>
      (await call("GET", `/restapi/volume/volumeList?zoneUuid=${ZONE}&uuid=${uuid}`)).body.listVolumeResponse[0],
    (v) => v.status === "Allocated",
  );
});

describe("snapshots", () => {
  it("are BackingUp, then BackedUp, with every field of the spec; outlive their volume; delete answers true", async () => {
    const reply = await call("POST", "/restapi/snapshot/createSnapshot", {
      name: "nightly",
      zoneUuid: ZONE,
      volumeUuid: volume.uuid,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.count).toBe(1);
    const snapshot = reply.body.listSnapShotResponse[0];
    expect(snapshot).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "nightly",
      volumeUuid: volume.uuid,
      zoneUuid: ZONE,
      snapshotType: "MANUAL",
      snapshotTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      domainName: "demo",
      status: "BackingUp",
      isActive: true,
    });
    await until(
      () => listSnapshots(`&uuid=${snapshot.uuid}`),
      (l) => l.listSnapShotResponse[0]?.status === "BackedUp",
    );

    expect((await call("DELETE", `/restapi/volume/deleteVolume/${volume.uuid}`)).status).toBe(200);
    expect((await listSnapshots()).count).toBe(1);
    const deleted = await call("DELETE", `/restapi/snapshot/deleteSnapshot/${snapshot.uuid}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toBe(true);
    expect(await listSnapshots()).toEqual({ count: 0, listSnapShotResponse: [] });
    expect((await call("DELETE", `/restapi/snapshot/deleteSnapshot/${snapshot.uuid}`)).status).toBe(404);
  });

  it("in progress hold their volume and cannot be deleted yet", async () => {
    // On an emulator whose work never completes: the volume is made Allocated by hand.
    const created = await call(
      "POST",
      "/restapi/volume/createVolume",
      { name: "d", zoneUuid: ZONE, storageOfferingUuid: CATALOG_IDS.storageOfferings.ssd20, diskSize: 20 },
      slow,
    );
    const volumeUuid = created.body.listVolumeResponse[0].uuid;
    slow.scope("demo").collection("volume")[volumeUuid].status = "Allocated";
    const reply = await call(
      "POST",
      "/restapi/snapshot/createSnapshot",
      { name: "s", zoneUuid: ZONE, volumeUuid },
      slow,
    );
    const snapshotUuid = reply.body.listSnapShotResponse[0].uuid;
    const volumeDelete = await call("DELETE", `/restapi/volume/deleteVolume/${volumeUuid}`, undefined, slow);
    expect(volumeDelete.status).toBe(409);
    expect(errorOf(volumeDelete).errorMsg).toMatch(/snapshot in progress/);
    const snapshotDelete = await call("DELETE", `/restapi/snapshot/deleteSnapshot/${snapshotUuid}`, undefined, slow);
    expect(snapshotDelete.status).toBe(409);
  });

  it.each([
    ["name", { name: undefined }, 400, /^name: is required/],
    ["zoneUuid", { zoneUuid: undefined }, 400, /^zoneUuid: is required/],
    ["volumeUuid", { volumeUuid: undefined }, 400, /^volumeUuid: is required/],
    ["an unknown volume", { volumeUuid: UNKNOWN }, 404, /volume/],
    ["a zone other than the volume's", { zoneUuid: CATALOG_IDS.zones.singapore }, 400, /^volumeUuid:/],
  ])("refuses %s, and a rejected call changes nothing", async (_what, overrides, status, message) => {
    const input = { name: "s", zoneUuid: ZONE, volumeUuid: volume.uuid, ...overrides };
    const reply = await call("POST", "/restapi/snapshot/createSnapshot", input);
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toMatch(message);
    expect((await listSnapshots()).count).toBe(0);
  });

  it("are listed per zone (required) and by uuid", async () => {
    expect((await call("GET", "/restapi/snapshot/snapshotList")).status).toBe(400);
    const a = await call("POST", "/restapi/snapshot/createSnapshot", {
      name: "a",
      zoneUuid: ZONE,
      volumeUuid: volume.uuid,
    });
    await call("POST", "/restapi/snapshot/createSnapshot", { name: "b", zoneUuid: ZONE, volumeUuid: volume.uuid });
    expect((await listSnapshots()).count).toBe(2);
    const one = await listSnapshots(`&uuid=${a.body.listSnapShotResponse[0].uuid}`);
    expect(one.listSnapShotResponse.map((s) => s.name)).toEqual(["a"]);
    const elsewhere = await call("GET", `/restapi/snapshot/snapshotList?zoneUuid=${CATALOG_IDS.zones.singapore}`);
    expect(elsewhere.body.count).toBe(0);
  });
});
