/**
 * The timeline of the asynchronous work (`GET /_emulator/timeline`, `emulator.timeline()`): every
 * piece of work with its kind, account, resources, start, due and completion times and outcome.
 */
import { WorkTimeline } from "../../../emulator/timeline";
import {
  ADMIN,
  createNetwork,
  createVolume,
  emulatorsOnDemand,
  instanceInput,
  one,
  request,
  sleep,
  until,
  useEmulator,
  type Json,
} from "./helpers";

// Long enough that the work is still pending when the test reads the timeline on a busy machine.
const DELAY_MS = 400;
const emulator = useEmulator({ asyncDelayMs: DELAY_MS });
const { call } = emulator;

const timeline = async () => {
  const reply = await call("GET", "/_emulator/timeline");
  expect(reply.status).toBe(200);
  return reply.body.work as Json[];
};
const settled = () => until(timeline, (work) => work.every((w) => w.outcome !== "pending"));

beforeEach(async () => {
  await emulator.reset();
  expect(await call("DELETE", "/_emulator/timeline")).toEqual({ status: 200, body: { work: [] } });
});

describe("the timeline of asynchronous work", () => {
  it("records the create of an instance and of a volume, when scheduled and when done", async () => {
    const networkUuid = (await createNetwork(emulator)).uuid as string;
    const before = Date.now();
    const instance = await emulator.one("POST", "/restapi/instance/createInstance", instanceInput({ networkUuid }));
    const volume = await createVolume(emulator);
    const after = Date.now();

    const pending = await timeline();
    expect(pending).toEqual([
      {
        id: expect.any(String),
        kind: "createInstance",
        account: "demo",
        resourceType: "instance",
        resourceIds: [instance.uuid],
        jobId: null,
        startedAt: expect.any(Number),
        dueAt: expect.any(Number),
        completedAt: null,
        outcome: "pending",
      },
      {
        id: expect.any(String),
        kind: "createVolume",
        account: "demo",
        resourceType: "Volume",
        resourceIds: [volume.uuid],
        jobId: volume.jobId,
        startedAt: expect.any(Number),
        dueAt: expect.any(Number),
        completedAt: null,
        outcome: "pending",
      },
    ]);
    for (const work of pending) {
      expect(work.startedAt).toBeGreaterThanOrEqual(before);
      expect(work.startedAt).toBeLessThanOrEqual(after);
      expect(work.dueAt - work.startedAt).toBe(DELAY_MS);
    }
    expect(pending[0].startedAt).toBeLessThanOrEqual(pending[1].startedAt);

    const done = await settled();
    expect(done.map((w) => [w.kind, w.outcome])).toEqual([
      ["createInstance", "applied"],
      ["createVolume", "succeeded"],
    ]);
    for (const [i, work] of done.entries()) {
      expect(work).toMatchObject({ id: pending[i].id, startedAt: pending[i].startedAt, dueAt: pending[i].dueAt });
      expect(work.completedAt).toBeGreaterThanOrEqual(work.dueAt);
    }
    // The same list, programmatically.
    expect(emulator.running.timeline()).toEqual(done);
  });

  it("names the account and the job's outcome: a job whose record vanished failed", async () => {
    const scope = emulator.scope("admin");
    scope.collection("volume")["v-gone"] = { uuid: "v-gone", status: "Ready", isActive: true };
    const jobId = emulator.context.startJob(scope, "resizeVolume", "Volume", "v-gone", [
      { collection: "volume", uuid: "v-gone", set: { status: "Resized" } },
    ]);
    delete scope.collection("volume")["v-gone"];
    const [work] = await settled();
    expect(work).toMatchObject({
      kind: "resizeVolume",
      account: "admin",
      resourceType: "Volume",
      resourceIds: ["v-gone"],
      jobId,
      outcome: "failed",
    });
    expect((await call("GET", `/restapi/asyncjob/resourceStatus?jobId=${jobId}`, undefined, ADMIN)).body.status).toBe(
      "FAILED",
    );
  });
});

describe("the timeline in manual asynchronous mode", () => {
  const emulators = emulatorsOnDemand();

  it("keeps work pending until advanced; a reset discards what is pending; DELETE empties it", async () => {
    const manual = await emulators.start({ asyncMode: "manual", asyncDelayMs: 5000 });
    const send = (method: string, path: string, input?: Json) => request(manual, method, path, input);
    const work = async () => (await send("GET", "/_emulator/timeline")).body.work as Json[];
    const networkUuid = (await createNetwork(manual)).uuid as string;
    const first = await createVolume(manual, { name: "one" });
    const second = await createVolume(manual, { name: "two" });
    const vm = await one(manual, "POST", "/restapi/instance/createInstance", instanceInput({ networkUuid }));

    await sleep(50);
    const pending = await work();
    expect(pending.map((w) => [w.kind, w.outcome, w.dueAt - w.startedAt])).toEqual([
      ["createVolume", "pending", 5000],
      ["createVolume", "pending", 5000],
      ["createInstance", "pending", 5000],
    ]);

    const advancedAt = Date.now();
    expect((await send("POST", "/_emulator/advance", { jobId: first.jobId })).status).toBe(200);
    const afterAdvance = await work();
    expect(afterAdvance[0]).toMatchObject({ jobId: first.jobId, outcome: "succeeded" });
    // Completed when advanced, long before it was due.
    expect(afterAdvance[0].completedAt).toBeGreaterThanOrEqual(advancedAt);
    expect(afterAdvance[0].completedAt).toBeLessThan(afterAdvance[0].dueAt);
    expect(afterAdvance.slice(1).map((w) => w.outcome)).toEqual(["pending", "pending"]);

    expect((await send("POST", "/_emulator/reset")).status).toBe(200);
    const afterReset = await work();
    expect(afterReset.map((w) => [w.resourceIds[0], w.outcome])).toEqual([
      [first.uuid, "succeeded"],
      [second.uuid, "discarded"],
      [vm.uuid, "discarded"],
    ]);
    expect(afterReset[2].completedAt).toEqual(expect.any(Number));

    expect(await send("DELETE", "/_emulator/timeline")).toEqual({ status: 200, body: { work: [] } });
    expect(await work()).toEqual([]);
    expect(manual.timeline()).toEqual([]);
  });
});

describe("WorkTimeline", () => {
  const entry = (id: string) => ({
    id,
    kind: "createVolume" as const,
    account: "demo",
    resourceType: "Volume",
    resourceIds: [id],
    jobId: null,
    startedAt: 1,
    dueAt: 2,
  });

  it("keeps the newest entries only, oldest first", () => {
    const bounded = new WorkTimeline(3);
    for (let i = 1; i <= 1010; i++) bounded.scheduled(entry(`w${i}`));
    expect(bounded.list().map((e) => e.id)).toEqual(["w1008", "w1009", "w1010"]);
    bounded.completed("w1009", 5, "succeeded");
    bounded.completed("w1", 5, "succeeded"); // long gone: ignored
    expect(bounded.list().map((e) => e.outcome)).toEqual(["pending", "succeeded", "pending"]);
  });
});
