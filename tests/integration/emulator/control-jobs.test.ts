/**
 * Job control: `asyncMode: "manual"` (`--async-mode manual`) holds every piece of asynchronous work
 * until `POST /_emulator/advance` completes it (all, or one); `GET /_emulator/jobs` lists what is pending.
 */
import { parseCli } from "../../../emulator/cli";
import { startEmulator } from "../../../emulator/index";
import {
  ADMIN,
  asyncDelays,
  createNetwork,
  createVolume,
  emulatorsOnDemand,
  instanceInput,
  networkInput,
  RawBody,
  readInstance,
  request,
  until,
  useEmulator,
  volumeInput,
  ZONE,
  type Json,
} from "./helpers";

const emulator = useEmulator({ asyncMode: "manual", asyncDelayMs: 10 });
const { call } = emulator;

const jobs = async () => (await call("GET", "/_emulator/jobs")).body.pending as Json[];
const advance = (body?: Json | RawBody) => call("POST", "/_emulator/advance", body);
const jobStatus = async (jobId: string) =>
  (await call("GET", `/restapi/asyncjob/resourceStatus?jobId=${jobId}`)).body.status as string;
const volumeStatus = async (uuid: string) =>
  (await call("GET", "/restapi/volume/volumeList", { zoneUuid: ZONE, uuid })).body.listVolumeResponse[0]
    ?.status as string;

let networkUuid: string;
beforeEach(async () => {
  await emulator.reset();
  networkUuid = (await createNetwork(emulator)).uuid as string;
  await advance({});
});

describe("manual asynchronous mode", () => {
  it("keeps an instance Starting until advanced, then it is Running", async () => {
    const { uuid } = await emulator.one("POST", "/restapi/instance/createInstance", instanceInput({ networkUuid }));
    expect(await jobs()).toEqual([
      {
        jobId: expect.any(String),
        account: "demo",
        kind: "instance",
        description: `instance ${uuid}: state=Running`,
        dueAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    // Many times the async delay later, still Starting: nothing completes by itself.
    await asyncDelays(10);
    expect((await readInstance(emulator, uuid))?.state).toBe("Starting");
    expect(await jobs()).toHaveLength(1);

    expect(await advance({})).toEqual({ status: 200, body: { completed: 1, pending: 0 } });
    expect((await readInstance(emulator, uuid))?.state).toBe("Running");
    expect(await jobs()).toEqual([]);
  });

  it("advances one job by its jobId and leaves the others pending", async () => {
    const first = await createVolume(emulator, { name: "one" });
    const second = await createVolume(emulator, { name: "two" });
    const vm = await emulator.one("POST", "/restapi/instance/createInstance", instanceInput({ networkUuid }));
    const pending = await jobs();
    expect(pending.map((j) => j.jobId)).toEqual([first.jobId, second.jobId, expect.any(String)]);
    expect(pending.map((j) => j.kind)).toEqual(["Volume", "Volume", "instance"]);

    expect(await advance({ jobId: first.jobId })).toEqual({ status: 200, body: { completed: 1, pending: 2 } });
    expect(await volumeStatus(first.uuid)).toBe("Allocated");
    expect(await jobStatus(first.jobId)).toBe("SUCCEEDED");
    expect(await volumeStatus(second.uuid)).toBe("Creating");
    expect(await jobStatus(second.jobId)).toBe("IN_PROGRESS");
    expect((await readInstance(emulator, vm.uuid))?.state).toBe("Starting");
    expect((await jobs()).map((j) => j.jobId)).toEqual([second.jobId, pending[2].jobId]);

    // Work without an API job is advanced by the id GET /_emulator/jobs gives it.
    expect(await advance({ jobId: pending[2].jobId })).toEqual({ status: 200, body: { completed: 1, pending: 1 } });
    expect((await readInstance(emulator, vm.uuid))?.state).toBe("Running");
    expect(await volumeStatus(second.uuid)).toBe("Creating");
    expect(await advance()).toEqual({ status: 200, body: { completed: 1, pending: 0 } });
    expect(await jobStatus(second.jobId)).toBe("SUCCEEDED");
  });

  it("lists each account's work under its name", async () => {
    const network = await emulator.one("POST", "/restapi/network/createNetwork", networkInput(), ADMIN);
    await advance({});
    await call("PUT", "/restapi/network/updateNetwork", { uuid: network.uuid, name: "renamed" }, ADMIN);
    expect(await jobs()).toEqual([
      expect.objectContaining({
        account: "admin",
        kind: "network",
        description: expect.stringContaining("name=renamed"),
      }),
    ]);
  });

  it.each<[string, Json | RawBody, RegExp]>([
    ["an unknown jobId", { jobId: "no-such-job" }, /^jobId: no pending job no-such-job/],
    ["a jobId that is not a string", { jobId: 42 }, /^jobId: must be a non-empty string/],
    ["an empty jobId", { jobId: "" }, /^jobId: must be a non-empty string/],
    ["an unknown field", { job: "x" }, /^job: unknown field/],
    ["a list", new RawBody("[]", "application/json"), /^body: must be \{\}/],
    ["invalid JSON", new RawBody('{"jobId": ', "application/json"), /not valid JSON/],
  ])("answers 400 for %s, and completes nothing", async (_label, body, message) => {
    const volume = await createVolume(emulator);
    const before = await jobs();
    const reply = await advance(body);
    expect(reply).toEqual({ status: 400, body: { error: expect.stringMatching(message) } });
    expect(await jobs()).toEqual(before);
    expect(await volumeStatus(volume.uuid)).toBe("Creating");
  });

  it("answers 400 for a job that is no longer pending", async () => {
    const volume = await createVolume(emulator);
    await advance({ jobId: volume.jobId });
    expect(await advance({ jobId: volume.jobId })).toEqual({
      status: 400,
      body: { error: `jobId: job ${volume.jobId} is not pending (it is SUCCEEDED)` },
    });
  });
});

describe("automatic mode", () => {
  const emulators = emulatorsOnDemand();

  it("completes work when due, and advance completes it at once", async () => {
    const auto = await emulators.start({ asyncDelayMs: 60_000 });
    const reply = await request(auto, "POST", "/restapi/volume/createVolume", volumeInput());
    const volume = reply.body.listVolumeResponse[0] as Json;
    expect(((await request(auto, "GET", "/_emulator/jobs")).body.pending as Json[]).map((j) => j.jobId)).toEqual([
      volume.jobId,
    ]);
    expect((await request(auto, "POST", "/_emulator/advance", {})).body).toEqual({ completed: 1, pending: 0 });
    const job = await request(auto, "GET", `/restapi/asyncjob/resourceStatus?jobId=${String(volume.jobId)}`);
    expect(job.body.status).toBe("SUCCEEDED");

    const quick = await emulators.start({ asyncDelayMs: 10 });
    const quickVolume = (await request(quick, "POST", "/restapi/volume/createVolume", volumeInput())).body
      .listVolumeResponse[0] as Json;
    await until(
      async () =>
        (await request(quick, "GET", `/restapi/asyncjob/resourceStatus?jobId=${String(quickVolume.jobId)}`)).body,
      (j) => j.status === "SUCCEEDED",
    );
    await emulators.stopAll();
  });
});

describe("the async-mode option", () => {
  it("is read from --async-mode", () => {
    expect(parseCli(["--async-mode", "manual"])).toMatchObject({ asyncMode: "manual" });
    expect(parseCli(["--async-mode", "auto"])).toMatchObject({ asyncMode: "auto" });
    expect(parseCli([])).toMatchObject({ asyncMode: undefined });
    expect(() => parseCli(["--async-mode", "later"])).toThrow("--async-mode later: must be one of auto, manual");
  });

  it("refuses an unknown mode at start", async () => {
    await expect(startEmulator({ port: 0, asyncMode: "later" as "auto" })).rejects.toThrow(
      'asyncMode: must be one of auto, manual (got "later")',
    );
  });
});
