import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import {
  allocatedVolume,
  createVolume,
  errorOf,
  UNKNOWN,
  until,
  useEmulator,
  useSlowEmulator,
  ZONE,
  type Json,
} from "./helpers";

const emulator = useEmulator();
const slow = useSlowEmulator();
const { call } = emulator;

const listSnapshots = async (query = "") =>
  (await call("GET", `/restapi/snapshot/snapshotList?zoneUuid=${ZONE}${query}`)).body as {
    count: number;
    listSnapShotResponse: Json[];
  };

let volume: Json;

beforeEach(async () => {
  await emulator.reset();
  volume = await allocatedVolume(emulator);
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
    const volumeUuid = (await createVolume(slow, { name: "d" })).uuid;
    slow.scope("demo").collection("volume")[volumeUuid].status = "Allocated";
    const reply = await slow.call("POST", "/restapi/snapshot/createSnapshot", {
      name: "s",
      zoneUuid: ZONE,
      volumeUuid,
    });
    const snapshotUuid = reply.body.listSnapShotResponse[0].uuid;
    const volumeDelete = await slow.call("DELETE", `/restapi/volume/deleteVolume/${volumeUuid}`);
    expect(volumeDelete.status).toBe(409);
    expect(errorOf(volumeDelete).errorMsg).toMatch(/snapshot in progress/);
    const snapshotDelete = await slow.call("DELETE", `/restapi/snapshot/deleteSnapshot/${snapshotUuid}`);
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
