import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import {
  createNetwork,
  errorOf,
  runningInstance as startInstance,
  UNKNOWN,
  until,
  useEmulator,
  useSlowEmulator,
  volumeInput,
  ZONE,
  type Json,
} from "./helpers";

const SINGAPORE = CATALOG_IDS.zones.singapore;
const { ssd20: SSD20, ssd50: SSD50, ssdCustom: SSD_CUSTOM } = CATALOG_IDS.storageOfferings;

const emulator = useEmulator();
const slow = useSlowEmulator();
const { call } = emulator;

const volumeOf = (reply: { body: Json }): Json => reply.body.listVolumeResponse[0];
const listVolumes = async (query = "") =>
  (await call("GET", `/restapi/volume/volumeList?zoneUuid=${ZONE}${query}`)).body as {
    count: number;
    listVolumeResponse: Json[];
  };
const get = async (uuid: string): Promise<Json | undefined> =>
  (await listVolumes(`&uuid=${uuid}`)).listVolumeResponse[0];
const job = async (jobId: string) => (await call("GET", `/restapi/asyncjob/resourceStatus?jobId=${jobId}`)).body;
/** Waits for the volume's job to succeed; answers the volume then. */
async function settled(reply: { status: number; body: Json }): Promise<Json> {
  expect(reply.status).toBe(200);
  const { uuid, jobId } = volumeOf(reply);
  const done = await until(
    () => job(jobId),
    (j) => j.status !== "IN_PROGRESS",
  );
  expect(done).toMatchObject({ jobId, resourceId: uuid, resourceType: "Volume", status: "SUCCEEDED" });
  return (await get(uuid)) as Json;
}

const createVolume = (overrides: Json = {}) => call("POST", "/restapi/volume/createVolume", volumeInput(overrides));
const volumeAction = (operation: string, query: string) => call("GET", `/restapi/volume/${operation}?${query}`);

/** A running instance on a network of its own. */
async function runningInstance(zoneUuid = ZONE, name = "web-1"): Promise<Json> {
  const network = await createNetwork(emulator, { name: `net-${name}`, zoneUuid });
  return startInstance(emulator, { name, zoneUuid, networkUuid: network.uuid });
}

beforeEach(async () => {
  await emulator.reset();
});

describe("createVolume", () => {
  it("answers the record with its job (Creating); the job makes it Allocated", async () => {
    const before = Date.now();
    const reply = await createVolume();
    expect(reply.body.count).toBe(1);
    const created = volumeOf(reply);
    expect(created).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "data",
      volumeType: "DATADISK",
      zoneUuid: ZONE,
      storageOfferingUuid: SSD20,
      storageOfferingName: "ssd.20gb",
      storageDiskSize: "20",
      vmUuid: "",
      vmInstanceName: "",
      isShrink: false,
      jobId: expect.any(String),
      errorMessage: "",
      createdTimeStamp: expect.any(Number),
      domainName: "demo",
      status: "Creating",
      isActive: true,
    });
    expect(created.createdTimeStamp).toBeGreaterThanOrEqual(before);
    const byJob = await listVolumes(`&jobId=${created.jobId}`);
    expect(byJob.listVolumeResponse.map((v) => v.uuid)).toEqual([created.uuid]);
    expect(await settled(reply)).toEqual({ ...created, status: "Allocated" });
  });

  it("takes any size from 1 to 1024 GB with a custom-size offering", async () => {
    expect(await settled(await createVolume({ storageOfferingUuid: SSD_CUSTOM, diskSize: 33 }))).toMatchObject({
      storageDiskSize: "33",
      storageOfferingName: "ssd.custom",
    });
    const tooBig = await createVolume({ storageOfferingUuid: SSD_CUSTOM, diskSize: 5000 });
    expect(errorOf(tooBig).errorMsg).toMatch(/^diskSize:/);
  });

  it.each([
    ["name", { name: undefined }, 400, /^name: is required/],
    ["zoneUuid", { zoneUuid: undefined }, 400, /^zoneUuid: is required/],
    ["storageOfferingUuid", { storageOfferingUuid: undefined }, 400, /^storageOfferingUuid: is required/],
    ["diskSize", { diskSize: undefined }, 400, /^diskSize: is required/],
    ["a size that is no integer", { diskSize: "big" }, 400, /^diskSize:/],
    ["a size other than the fixed offering's", { diskSize: 30 }, 400, /^diskSize: must be 20 GB/],
    ["an unknown offering", { storageOfferingUuid: UNKNOWN }, 404, /storage offering/],
    ["an unknown zone", { zoneUuid: UNKNOWN }, 404, /zone/],
  ])("refuses %s, and a rejected call changes nothing", async (_what, overrides, status, message) => {
    const reply = await createVolume(overrides);
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toMatch(message);
    expect(await listVolumes()).toEqual({ count: 0, listVolumeResponse: [] });
  });

  it("needs the zone to list", async () => {
    expect((await call("GET", "/restapi/volume/volumeList")).status).toBe(400);
  });
});

describe("attach and detach", () => {
  it("attaches through a job (Attaching, then Ready with vmUuid and vmInstanceName) and detaches", async () => {
    const instance = await runningInstance();
    const volume = await settled(await createVolume());

    const attaching = await volumeAction("attachVolume", `uuid=${volume.uuid}&instanceUuid=${instance.uuid}`);
    expect(volumeOf(attaching)).toMatchObject({ status: "Attaching", vmUuid: "" });
    expect(volumeOf(attaching).jobId).not.toBe(volume.jobId);
    const attached = await settled(attaching);
    expect(attached).toMatchObject({ status: "Ready", vmUuid: instance.uuid, vmInstanceName: "web-1" });
    const onInstance = await listVolumes(`&vmUuid=${instance.uuid}`);
    expect(onInstance.listVolumeResponse.map((v) => v.volumeType).sort()).toEqual(["DATADISK", "ROOT"]);

    const other = await runningInstance(ZONE, "web-2");
    expect((await volumeAction("attachVolume", `uuid=${volume.uuid}&instanceUuid=${other.uuid}`)).status).toBe(409);
    expect((await call("DELETE", `/restapi/volume/deleteVolume/${volume.uuid}`)).status).toBe(409);

    const detaching = await volumeAction("detachVolume", `uuid=${volume.uuid}`);
    expect(volumeOf(detaching).status).toBe("Detaching");
    expect(await settled(detaching)).toMatchObject({ status: "Ready", vmUuid: "", vmInstanceName: "" });
    expect((await volumeAction("detachVolume", `uuid=${volume.uuid}`)).status).toBe(409);
  });

  it("refuses an unknown instance, one of another zone, a destroyed one, and ROOT volumes", async () => {
    const volume = await settled(await createVolume());
    const unknown = await volumeAction("attachVolume", `uuid=${volume.uuid}&instanceUuid=${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect((await volumeAction("attachVolume", `uuid=${volume.uuid}`)).status).toBe(400);
    expect((await volumeAction("attachVolume", `uuid=${UNKNOWN}&instanceUuid=${UNKNOWN}`)).status).toBe(404);

    const far = await runningInstance(SINGAPORE, "far");
    const otherZone = await volumeAction("attachVolume", `uuid=${volume.uuid}&instanceUuid=${far.uuid}`);
    expect(otherZone.status).toBe(400);
    expect(errorOf(otherZone).errorMsg).toMatch(/^instanceUuid:/);

    const instance = await runningInstance();
    await call("GET", `/restapi/instance/destroyInstance?uuid=${instance.uuid}&expunge=false`);
    const destroyed = await volumeAction("attachVolume", `uuid=${volume.uuid}&instanceUuid=${instance.uuid}`);
    expect(destroyed.status).toBe(409);

    const root = (await listVolumes(`&vmUuid=${far.uuid}`)).listVolumeResponse[0];
    expect(root).toBeUndefined(); // listed in its own zone only
    const farRoot = (await call("GET", `/restapi/volume/volumeList?zoneUuid=${SINGAPORE}&vmUuid=${far.uuid}`)).body
      .listVolumeResponse[0];
    expect(farRoot.volumeType).toBe("ROOT");
    expect((await volumeAction("detachVolume", `uuid=${farRoot.uuid}`)).status).toBe(409);
    expect((await call("DELETE", `/restapi/volume/deleteVolume/${farRoot.uuid}`)).status).toBe(409);
    expect((await get(volume.uuid))?.status).toBe("Allocated");
  });
});

describe("resizeVolume", () => {
  it("needs all four inputs, refuses to shrink without isShrink, and shows the new size after the job", async () => {
    const volume = await settled(await createVolume({ storageOfferingUuid: SSD_CUSTOM, diskSize: 40 }));
    const base = `uuid=${volume.uuid}&storageOfferingUuid=${SSD_CUSTOM}&diskSize=60&isShrink=false`;
    for (const field of ["uuid", "storageOfferingUuid", "diskSize", "isShrink"]) {
      const without = base
        .split("&")
        .filter((p) => !p.startsWith(`${field}=`))
        .join("&");
      const reply = await volumeAction("resizeVolume", without);
      expect(reply.status).toBe(400);
      expect(errorOf(reply).errorMsg).toMatch(new RegExp(`^${field}:`));
    }
    const shrink = await volumeAction("resizeVolume", base.replace("diskSize=60", "diskSize=10"));
    expect(shrink.status).toBe(400);
    expect(errorOf(shrink).errorMsg).toMatch(/^diskSize:.*isShrink/);
    expect((await get(volume.uuid))?.storageDiskSize).toBe("40");

    const growing = await volumeAction("resizeVolume", base);
    expect(volumeOf(growing)).toMatchObject({ status: "Resizing", storageDiskSize: "40" });
    expect(await settled(growing)).toMatchObject({ status: "Allocated", storageDiskSize: "60", isShrink: false });

    const allowed = await volumeAction(
      "resizeVolume",
      `uuid=${volume.uuid}&storageOfferingUuid=${SSD_CUSTOM}&diskSize=10&isShrink=true`,
    );
    expect(await settled(allowed)).toMatchObject({ storageDiskSize: "10", isShrink: true });

    const toFixed = await volumeAction(
      "resizeVolume",
      `uuid=${volume.uuid}&storageOfferingUuid=${SSD50}&diskSize=50&isShrink=false`,
    );
    expect(await settled(toFixed)).toMatchObject({ storageDiskSize: "50", storageOfferingUuid: SSD50 });
  });
});

describe("uploadVolume", () => {
  it("uploads from an http(s) URL in a known format (UploadOp, then Uploaded)", async () => {
    const input = { name: "image", zoneUuid: ZONE, format: "QCOW2", url: "https://images.example/disk.qcow2" };
    const reply = await call("POST", "/restapi/volume/uploadVolume", input);
    expect(volumeOf(reply)).toMatchObject({ status: "UploadOp", storageOfferingUuid: "", volumeType: "DATADISK" });
    expect(await settled(reply)).toMatchObject({ status: "Uploaded", storageDiskSize: "10" });

    const badFormat = await call("POST", "/restapi/volume/uploadVolume", { ...input, format: "ISO" });
    expect(errorOf(badFormat).errorMsg).toMatch(/^format:/);
    const noFormat = await call("POST", "/restapi/volume/uploadVolume", { ...input, format: undefined });
    expect(errorOf(noFormat).errorMsg).toMatch(/^format: is required/);
    const ftp = await call("POST", "/restapi/volume/uploadVolume", { ...input, url: "ftp://images.example/d" });
    expect(errorOf(ftp).errorMsg).toMatch(/^url:/);
    expect((await listVolumes()).count).toBe(1);
  });
});

describe("deleteVolume", () => {
  it("answers {uuid, status}; the volume, its snapshot policies and tags are gone; unknown is a 404", async () => {
    const volume = await settled(await createVolume());
    await call("POST", "/restapi/snapshotPolicy/createSnapshotPolicy", {
      volumeUuid: volume.uuid,
      intervalType: "DAILY",
      timer: "02:30",
      timeZone: "Etc/GMT+12",
    });
    await call("POST", `/restapi/resourcetags/createTags?resourceType=Volume&zoneUuid=${ZONE}`, {
      resourceUuid: volume.uuid,
      key: "env",
      value: "test",
    });
    const reply = await call("DELETE", `/restapi/volume/deleteVolume/${volume.uuid}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ uuid: volume.uuid, status: "Deleted" });
    expect(await listVolumes()).toEqual({ count: 0, listVolumeResponse: [] });
    const policies = await call("GET", `/restapi/snapshotPolicy/snapshotPolicyList?volumeUuid=${volume.uuid}`);
    expect(policies.body.count).toBe(0);
    const tags = await call("GET", `/restapi/resourcetags/resourceTagsList?resourceUuid=${volume.uuid}`);
    expect(tags.body.count).toBe(0);
    expect((await call("DELETE", `/restapi/volume/deleteVolume/${volume.uuid}`)).status).toBe(404);
  });

  it("refuses to delete, attach, resize or snapshot a volume whose job is in progress", async () => {
    const created = volumeOf(await slow.call("POST", "/restapi/volume/createVolume", volumeInput()));
    const refusals = [
      slow.call("DELETE", `/restapi/volume/deleteVolume/${created.uuid}`),
      slow.call("GET", `/restapi/volume/attachVolume?uuid=${created.uuid}&instanceUuid=${UNKNOWN}`),
      slow.call(
        "GET",
        `/restapi/volume/resizeVolume?uuid=${created.uuid}&storageOfferingUuid=${SSD20}&diskSize=20&isShrink=false`,
      ),
      slow.call("POST", "/restapi/snapshot/createSnapshot", { name: "s", zoneUuid: ZONE, volumeUuid: created.uuid }),
    ];
    for (const reply of await Promise.all(refusals)) {
      expect(reply.status).toBe(409);
      expect(errorOf(reply).errorMsg).toMatch(/is Creating/);
    }
  });
});
