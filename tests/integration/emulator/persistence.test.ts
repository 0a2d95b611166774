import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorOptions, RunningEmulator } from "../../../emulator/index";
import {
  asVersion1State,
  createNetwork,
  createVpc,
  emulatorsOnDemand,
  instanceInput,
  request,
  sleep,
  type Json,
} from "./helpers";

let dir: string;
let stateFile: string;
const emulators = emulatorsOnDemand();
const start = (options: EmulatorOptions = {}) => emulators.start({ stateFile, ...options });
const { stop } = emulators;

const readVpc = async (emulator: RunningEmulator, uuid: unknown) =>
  ((await request(emulator, "GET", `/restapi/vpc/vpcId?uuid=${String(uuid)}`)).body.listVpcResponse as Json[])[0];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "restcloud-emulator-"));
  stateFile = join(dir, "state.json");
});
afterEach(async () => {
  await emulators.stopAll();
  rmSync(dir, { recursive: true, force: true });
});

describe("persistence", () => {
  it("keeps records, jobs and allocated addresses across a restart", async () => {
    const first = await start();
    const vpc = await createVpc(first);
    const networkUuid = (await createNetwork(first, { name: "n" })).uuid;
    const acquire = `/restapi/ipaddress/acquireIpAddress?networkUuid=${String(networkUuid)}&networkType=NETWORK`;
    const ip = (await request(first, "GET", acquire)).body.listIpAddressResponse as Json[];
    await stop(first);

    const second = await start();
    expect(await readVpc(second, vpc.uuid)).toEqual(vpc);
    const again = (await request(second, "GET", acquire)).body.listIpAddressResponse as Json[];
    expect(again[0].publicIpAddress).not.toBe(ip[0].publicIpAddress);
  });

  it("reads a version 1 state file (internal fields inside the records) and writes it back as version 3", async () => {
    const first = await start({ asyncDelayMs: 10 });
    const networkUuid = (await createNetwork(first, { name: "n" })).uuid;
    const created = await request(first, "POST", "/restapi/instance/createInstance", instanceInput({ networkUuid }));
    const uuid = created.body.listInstanceResponse[0].uuid as string;
    const passwordOf = async (emulator: RunningEmulator) =>
      (await request(emulator, "GET", "/restapi/instance/instancePasswordList", { uuid })).body;
    const password = await passwordOf(first);
    await stop(first);
    const saved = JSON.parse(readFileSync(stateFile, "utf8")) as Json;
    expect(saved.version).toBe(3);
    expect(saved.internal.demo.instance[uuid]).toEqual({ password: expect.any(String) });
    writeFileSync(stateFile, JSON.stringify(asVersion1State(saved)));

    const second = await start({ asyncDelayMs: 10 });
    expect(await passwordOf(second)).toEqual(password);
    await createVpc(second);
    const rewritten = JSON.parse(readFileSync(stateFile, "utf8")) as Json;
    expect(rewritten.version).toBe(3);
    expect(rewritten.accounts.demo.network[networkUuid]).toEqual(saved.accounts.demo.network[networkUuid]);
    expect(rewritten.internal.demo.instance[uuid]).toEqual(saved.internal.demo.instance[uuid]);
    expect(Object.keys(rewritten.accounts.demo.instance[uuid] as Json).filter((f) => f.startsWith("_"))).toEqual([]);
  });

  it("completes a deferred change that fell due while the emulator was down", async () => {
    const first = await start({ asyncDelayMs: 500 });
    const vpc = await createVpc(first);
    expect((await request(first, "PUT", "/restapi/vpc/updateVpc", { uuid: vpc.uuid, name: "renamed" })).status).toBe(
      202,
    );
    await stop(first);
    const saved = JSON.parse(readFileSync(stateFile, "utf8")) as { pending: unknown[] };
    expect(saved.pending).toHaveLength(1);
    await sleep(600);
    const second = await start({ asyncDelayMs: 500 });
    expect((await readVpc(second, vpc.uuid)).name).toBe("renamed");
  });

  it("reschedules a deferred change that is not yet due", async () => {
    const first = await start({ asyncDelayMs: 1500 });
    const vpc = await createVpc(first);
    await request(first, "PUT", "/restapi/vpc/updateVpc", { uuid: vpc.uuid, name: "renamed" });
    await stop(first);
    const second = await start({ asyncDelayMs: 1500 });
    expect((await readVpc(second, vpc.uuid)).name).toBe("v");
    await sleep(1700);
    expect((await readVpc(second, vpc.uuid)).name).toBe("renamed");
  });

  it("completes a pending job after a restart", async () => {
    const first = await start({ asyncDelayMs: 500 });
    const jobId = first.context.startJob(first.scope("demo"), "createVolume", "Volume", "vol-1", [
      { collection: "volume", uuid: "vol-1", set: { uuid: "vol-1", status: "Ready" } },
    ]);
    await stop(first);
    await sleep(600);
    const second = await start({ asyncDelayMs: 500 });
    const job = await request(second, "GET", `/restapi/asyncjob/resourceStatus?jobId=${jobId}`);
    expect(job.body).toMatchObject({ jobId, status: "SUCCEEDED" });
    expect(second.scope("demo").collection("volume")["vol-1"]).toEqual({ uuid: "vol-1", status: "Ready" });
  });

  it("does not reissue seeded uuids after a restart", async () => {
    const first = await start({ seed: "s" });
    const a = await createVpc(first);
    await stop(first);
    const second = await start({ seed: "s" });
    const b = await createVpc(second);
    expect(b.uuid).not.toBe(a.uuid);
  });

  it("writes atomically: each write replaces the file by a rename, and no temporary file is left", async () => {
    const emulator = await start();
    await createVpc(emulator, { name: "a" });
    const before = statSync(stateFile).ino;
    await createVpc(emulator, { name: "b" });
    // An in-place write keeps the inode; a temp file renamed over the state file brings a new one.
    expect(statSync(stateFile).ino).not.toBe(before);
    const state = JSON.parse(readFileSync(stateFile, "utf8")) as { accounts: { demo: { vpc: Json } } };
    expect(Object.values(state.accounts.demo.vpc).map((v) => (v as Json).name)).toEqual(["a", "b"]);
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });
});
