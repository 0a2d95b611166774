/**
 * Durations per kind of asynchronous work: the `jobProfile` and `jobDurations` options, the
 * `--job-profile` and `--job-duration` flags, `GET`/`PUT /_emulator/job-durations`, measured on the
 * timeline (`dueAt - startedAt` is the duration drawn for the piece of work).
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCli } from "../../../emulator/cli";
import { JOB_KINDS, REALISTIC_DURATIONS, startEmulator, type RunningEmulator } from "../../../emulator/index";
import {
  createNetwork,
  createVolume,
  createVpc,
  emulatorsOnDemand,
  instanceInput,
  one,
  request,
  sleep,
  spawnEmulatorCli,
  type Json,
} from "./helpers";

const emulators = emulatorsOnDemand();

const timeline = async (on: RunningEmulator) => (await request(on, "GET", "/_emulator/timeline")).body.work as Json[];
const durationsOf = async (on: RunningEmulator, kind: string) =>
  (await timeline(on)).filter((w) => w.kind === kind).map((w) => w.dueAt - w.startedAt);
const settingsOf = async (on: RunningEmulator) => (await request(on, "GET", "/_emulator/job-durations")).body as Json;
const putSettings = (on: RunningEmulator, body: unknown) =>
  request(on, "PUT", "/_emulator/job-durations", body as Json);

/** Every kind at `ms` without jitter (`kubernetes`: at twice it, as the uniform profile has them). */
const uniformAt = (ms: number): Json =>
  Object.fromEntries(JOB_KINDS.map((kind) => [kind, { ms: kind.endsWith("Kubernetes") ? 2 * ms : ms, jitterMs: 0 }]));

describe("durations per kind", () => {
  it("give each kind its own duration, and asyncDelayMs to the kinds not named", async () => {
    const emulator = await emulators.start({
      asyncDelayMs: 7000,
      jobDurations: { createVolume: 5000, createInstance: { ms: 9000 } },
    });
    const networkUuid = (await createNetwork(emulator)).uuid;
    await createVolume(emulator);
    await one(emulator, "POST", "/restapi/instance/createInstance", instanceInput({ networkUuid }));
    const vpc = await createVpc(emulator);
    expect((await request(emulator, "PUT", "/restapi/vpc/updateVpc", { uuid: vpc.uuid, name: "w" })).status).toBe(202);

    expect((await timeline(emulator)).map((w) => [w.kind, w.dueAt - w.startedAt])).toEqual([
      ["createVolume", 5000],
      ["createInstance", 9000],
      ["updateVpc", 7000],
    ]);
  });

  it("draw a jittered duration within its bounds, the same ones under the same seed", async () => {
    const options = { seed: "durations", jobDurations: { createVolume: { ms: 40_000, jitterMs: 10_000 } } };
    const draws = async (seed: string): Promise<number[]> => {
      const emulator = await emulators.start({ ...options, seed });
      for (let i = 0; i < 6; i++) await createVolume(emulator, { name: `v${i}` });
      const drawn = await durationsOf(emulator, "createVolume");
      await emulators.stop(emulator);
      return drawn;
    };
    const first = await draws("durations");
    expect(first).toHaveLength(6);
    for (const ms of first) {
      expect(ms).toBeGreaterThanOrEqual(30_000);
      expect(ms).toBeLessThanOrEqual(50_000);
    }
    expect(new Set(first).size).toBeGreaterThan(1);
    expect(await draws("durations")).toEqual(first);
    expect(await draws("another seed")).not.toEqual(first);
  });

  it("name the kind of a lingering delete (quirk lingering-deletes)", async () => {
    const emulator = await emulators.start({ quirks: ["lingering-deletes"], jobDurations: { deleteVpc: 4321 } });
    const vpc = await createVpc(emulator);
    expect((await request(emulator, "DELETE", `/restapi/vpc/deleteVpc/${vpc.uuid}`)).status).toBe(200);
    expect((await timeline(emulator)).map((w) => [w.kind, w.resourceIds, w.dueAt - w.startedAt])).toEqual([
      ["deleteVpc", [vpc.uuid], 4321],
    ]);
  });

  it("leave manual mode as it is: nothing completes until advanced, whatever the duration", async () => {
    const emulator = await emulators.start({ asyncMode: "manual", jobDurations: { createVolume: 10 } });
    const volume = await createVolume(emulator);
    await sleep(200);
    const volumeStatus = async () =>
      (await request(emulator, "GET", "/restapi/volume/volumeList", { zoneUuid: volume.zoneUuid, uuid: volume.uuid }))
        .body.listVolumeResponse[0].status;
    expect(await volumeStatus()).toBe("Creating");
    const [work] = await timeline(emulator);
    expect([work.outcome, work.dueAt - work.startedAt]).toEqual(["pending", 10]);
    expect((await request(emulator, "POST", "/_emulator/advance", {})).body).toEqual({ completed: 1, pending: 0 });
    expect(await volumeStatus()).toBe("Allocated");
  });
});

describe("profiles", () => {
  it("uniform, the default: every kind takes asyncDelayMs (Kubernetes cluster steps twice it)", async () => {
    const emulator = await emulators.start({ asyncDelayMs: 1500 });
    expect(await settingsOf(emulator)).toEqual({ profile: "uniform", defaultMs: 1500, durations: uniformAt(1500) });
  });

  it("realistic sets every kind, each to a duration of its own; explicit durations override it", async () => {
    const emulator = await emulators.start({ jobProfile: "realistic", jobDurations: { createVolume: 5 } });
    const { profile, durations } = await settingsOf(emulator);
    expect(profile).toBe("realistic");
    expect(Object.keys(durations)).toEqual([...JOB_KINDS]);
    expect(durations).toEqual({ ...REALISTIC_DURATIONS, createVolume: { ms: 5, jitterMs: 0 } });
    for (const kind of JOB_KINDS) {
      expect(REALISTIC_DURATIONS[kind].ms).toBeGreaterThan(0);
      expect(REALISTIC_DURATIONS[kind].jitterMs).toBeLessThanOrEqual(REALISTIC_DURATIONS[kind].ms);
    }
    // Figures, not one delay for all: a cluster takes minutes, a volume seconds.
    expect(REALISTIC_DURATIONS.createKubernetes.ms).toBeGreaterThanOrEqual(60_000);
    expect(REALISTIC_DURATIONS.createInstance.ms).toBeGreaterThan(REALISTIC_DURATIONS.createVolume.ms);

    const networkUuid = (await createNetwork(emulator)).uuid;
    await one(emulator, "POST", "/restapi/instance/createInstance", instanceInput({ networkUuid }));
    const [deploy] = await durationsOf(emulator, "createInstance");
    const { ms, jitterMs } = REALISTIC_DURATIONS.createInstance;
    expect(deploy).toBeGreaterThanOrEqual(ms - jitterMs);
    expect(deploy).toBeLessThanOrEqual(ms + jitterMs);
  });

  it("has the figures emulator/README.md states for it", () => {
    const readme = readFileSync(join(__dirname, "../../../emulator/README.md"), "utf8");
    const stated = Object.fromEntries(
      [...readme.matchAll(/^\| `(\w+)` +\| ([\d.]+) s +\| ([\d.]+) s +\|/gm)].map(([, kind, s, jitter]) => [
        kind,
        { ms: Number(s) * 1000, jitterMs: Number(jitter) * 1000 },
      ]),
    );
    expect(stated).toEqual(REALISTIC_DURATIONS);
  });

  it("refuse a bad option at start, naming it", async () => {
    await expect(startEmulator({ jobDurations: { createUnicorn: 5 } as never })).rejects.toThrow(
      /^jobDurations\.createUnicorn: unknown job kind \(kinds: createInstance, /,
    );
    await expect(startEmulator({ jobProfile: "fast" as never })).rejects.toThrow(
      'jobProfile: must be one of uniform, realistic (got "fast")',
    );
    await expect(startEmulator({ jobDurations: { createVolume: { ms: 100, jitterMs: 200 } } })).rejects.toThrow(
      "jobDurations.createVolume.jitterMs: must not exceed the duration (100 ms): a duration is never negative",
    );
    await expect(startEmulator({ asyncDelayMs: -1 })).rejects.toThrow(
      "asyncDelayMs: must be from 0 to 2147483647 milliseconds (got -1)",
    );
  });
});

describe("GET and PUT /_emulator/job-durations", () => {
  it("replace the setting for work started afterwards; pending work keeps its due time", async () => {
    const emulator = await emulators.start({ asyncDelayMs: 60_000 });
    const first = await createVolume(emulator, { name: "before" });
    const [pending] = await timeline(emulator);

    const put = await putSettings(emulator, { durations: { createVolume: { ms: 1234, jitterMs: 0 } } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      profile: "uniform",
      defaultMs: 60_000,
      durations: { ...uniformAt(60_000), createVolume: { ms: 1234, jitterMs: 0 } },
    });
    expect(await settingsOf(emulator)).toEqual(put.body);

    await createVolume(emulator, { name: "after" });
    const [before, after] = await timeline(emulator);
    expect(before).toEqual(pending);
    expect(after.dueAt - after.startedAt).toBe(1234);
    const jobs = (await request(emulator, "GET", "/_emulator/jobs")).body.pending as Json[];
    expect(jobs.find((j) => j.jobId === first.jobId)?.dueAt).toBe(new Date(pending.dueAt).toISOString());
  });

  it("change only the fields given: a profile keeps the explicit durations, {} clears them", async () => {
    const emulator = await emulators.start({ asyncDelayMs: 100 });
    await putSettings(emulator, { durations: { attachVolume: 42 } });
    expect((await putSettings(emulator, { profile: "realistic" })).body).toEqual({
      profile: "realistic",
      defaultMs: 100,
      durations: { ...REALISTIC_DURATIONS, attachVolume: { ms: 42, jitterMs: 0 } },
    });
    expect((await putSettings(emulator, { profile: "uniform", defaultMs: 250, durations: {} })).body).toEqual({
      profile: "uniform",
      defaultMs: 250,
      durations: uniformAt(250),
    });
    expect(emulator.context.asyncDelayMs).toBe(250);
  });

  it.each([
    [[], "body: must be {profile?, defaultMs?, durations?}"],
    [{ speed: 2 }, "speed: unknown field (expected profile, defaultMs, durations)"],
    [{ profile: "fast" }, 'profile: must be one of uniform, realistic (got "fast")'],
    [{ defaultMs: "3000" }, 'defaultMs: must be a number of milliseconds (got "3000")'],
    [{ defaultMs: -5 }, "defaultMs: must be from 0 to 2147483647 milliseconds (got -5)"],
    [{ durations: [] }, "durations: must be an object of durations by kind ({createVolume: 5000, ...})"],
    [{ durations: { createVolume: null } }, "durations.createVolume: must be a number of milliseconds (got null)"],
    [
      { durations: { createVolume: { ms: 10, jitterMs: 11 } } },
      "durations.createVolume.jitterMs: must not exceed the duration (10 ms): a duration is never negative",
    ],
    [
      { durations: { createVolume: { ms: 10, jitter: 1 } } },
      "durations.createVolume.jitter: unknown field (expected ms, jitterMs)",
    ],
  ])("refuse %j with a 400 naming the field, changing nothing", async (body, message) => {
    const emulator = await emulators.start({ asyncDelayMs: 100 });
    const before = await settingsOf(emulator);
    expect(await putSettings(emulator, body)).toEqual({ status: 400, body: { error: message } });
    expect(await settingsOf(emulator)).toEqual(before);
  });

  it("refuse an unknown kind with a 400 naming it, the valid kinds given before it applying nothing", async () => {
    const emulator = await emulators.start({ asyncDelayMs: 100 });
    const reply = await putSettings(emulator, { durations: { createVolume: 5, createUnicorn: 5 } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/^durations\.createUnicorn: unknown job kind \(kinds: createInstance, .*\)$/);
    expect((await settingsOf(emulator)).durations.createVolume).toEqual({ ms: 100, jitterMs: 0 });
  });
});

describe("the command line", () => {
  it("reads --job-profile and --job-duration, repeated or comma-separated", () => {
    expect(
      parseCli([
        "--job-profile",
        "realistic",
        "--job-duration",
        "createVolume=5000",
        "--job-duration",
        "createInstance=40000~10000, attachVolume=0",
      ]),
    ).toMatchObject({
      jobProfile: "realistic",
      jobDurations: {
        createVolume: { ms: 5000, jitterMs: 0 },
        createInstance: { ms: 40_000, jitterMs: 10_000 },
        attachVolume: { ms: 0, jitterMs: 0 },
      },
    });
    const none = parseCli([]);
    expect(none).toMatchObject({ jobProfile: undefined });
    expect(none).not.toHaveProperty("jobDurations");
  });

  it.each([
    [["--job-profile", "fast"], "--job-profile fast: must be one of uniform, realistic"],
    [["--job-duration", "createUnicorn=5"], /^--job-duration createUnicorn=5: unknown kind "createUnicorn" \(kinds: /],
    [["--job-duration", "createVolume"], "--job-duration createVolume: must be KIND=MS or KIND=MS~JITTER"],
    [["--job-duration", "createVolume=soon"], "--job-duration createVolume=soon: MS is not a number: soon"],
    [["--job-duration", "createVolume=10~x"], "--job-duration createVolume=10~x: JITTER is not a number: x"],
    [
      ["--job-duration", "createVolume=-1"],
      "--job-duration createVolume=-1: MS must be from 0 to 2147483647 milliseconds (got -1)",
    ],
    [
      ["--job-duration", "createVolume=10~20"],
      "--job-duration createVolume=10~20: JITTER must not exceed the duration (10 ms): a duration is never negative",
    ],
  ])("refuses %j, naming the flag and the kind", (args, message) => {
    expect(() => parseCli(args)).toThrow(message);
  });

  it("exits 2 with one line on a bad --job-duration", async () => {
    const child = spawnEmulatorCli(["--port", "0", "--job-duration", "createVolume=5,createUnicorn=5"]);
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, "exit")) as [number];
    expect(code).toBe(2);
    expect(stderr).toMatch(/^--job-duration createUnicorn=5: unknown kind "createUnicorn" \(kinds: [^\n]*\)\n$/);
  }, 30_000);
});
