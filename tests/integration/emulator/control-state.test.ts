/**
 * Snapshots of the whole state (`GET` / `PUT /_emulator/state`, `--load`, `loadStateFile`,
 * `initialState`): a loaded snapshot behaves as the emulator that saved it, an invalid one changes
 * nothing, and pending work resumes.
 */
import { once } from "node:events";
import { spawnEmulatorCli } from "./helpers";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningEmulator } from "../../../emulator/index";
import { ADMIN, DEMO, Fixtures, send, type ApiRecord, type Credentials } from "./fixtures";
import {
  asVersion1State,
  asVersion2State,
  emulatorsOnDemand,
  instanceInput,
  networkInput,
  request,
  until,
  volumeInput,
  vpcInput,
  ZONE,
  type Json,
} from "./helpers";
import { operationOf, SPEC_ROWS, type Row } from "./spec-table";

const CI: Credentials = { apikey: "ci-api-key", secretkey: "ci-secret-key" };
const ACCOUNTS = [{ name: "ci", apiKey: CI.apikey, secretKey: CI.secretkey }];
const FAST_MS = 20;

const emulators = emulatorsOnDemand({ accounts: ACCOUNTS });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "restcloud-control-state-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const save = async (emulator: RunningEmulator): Promise<Json> => {
  const reply = await request(emulator, "GET", "/_emulator/state");
  expect(reply.status).toBe(200);
  return reply.body as Json;
};
const load = (emulator: RunningEmulator, snapshot: unknown) =>
  fetch(`${emulator.url}/_emulator/state`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(snapshot),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
const pendingJobs = async (emulator: RunningEmulator) =>
  (await request(emulator, "GET", "/_emulator/jobs")).body.pending as Json[];
const noPendingWork = (emulator: RunningEmulator) =>
  until(
    () => pendingJobs(emulator),
    (pending) => pending.length === 0,
  );
const resources = async (emulator: RunningEmulator, account: string) =>
  (await request(emulator, "GET", `/_emulator/resources?account=${account}`)).body as Json;

/** Every uuid (and key) a state holds, for checking that new ids collide with none. */
function idsOf(state: Json): Set<string> {
  const ids = new Set<string>();
  for (const collections of Object.values(state.accounts as Json)) {
    for (const records of Object.values(collections as Json)) {
      for (const [key, record] of Object.entries(records as Json)) {
        ids.add(key);
        if (typeof (record as Json).uuid === "string") ids.add((record as Json).uuid);
      }
    }
  }
  for (const jobId of Object.keys(state.jobs as Json)) ids.add(jobId);
  return ids;
}

/** The spec's read operations (lists and lookups by id), outside the static catalog. */
const READS: readonly Row[] = SPEC_ROWS.filter(
  (row) =>
    row.method === "GET" &&
    row.section !== "Cost Estimate Analyzer" &&
    /(list|List|Id|Status)$|^list/.test(operationOf(row)),
);

/**
 * Every read endpoint of the spec, with the world's ids as inputs and again with only the required
 * ones (the unfiltered lists), as the given account: `operation -> [status, body]`.
 */
async function readEverything(fx: Fixtures, baseUrls: string[], credentials: Credentials): Promise<Json[]> {
  const answers: Json[] = baseUrls.map(() => ({}));
  for (const row of READS) {
    const operation = operationOf(row);
    const all = fx.valuesFor(operation);
    const required = Object.fromEntries(
      row.inputs.filter((i) => i.required !== undefined || i.name === "zoneUuid").map((i) => [i.name, all[i.name]]),
    );
    for (const [label, values] of [
      ["filtered", all],
      ["unfiltered", required],
    ] as const) {
      // instancePasswordList's parameters are not shown in the spec: it takes the instance's uuid.
      const extraQuery = row.parametersNotShown ? { uuid: fx.world.instance?.uuid } : undefined;
      const options = { credentials: row.admin ? ADMIN : credentials, extraQuery };
      const replies = await Promise.all(baseUrls.map((url) => send(url, row, values, options)));
      replies.forEach((reply, i) => (answers[i][`${operation} ${label}`] = [reply.status, reply.json]));
    }
  }
  return answers;
}

/** Builds one of every kind of record the model has, over HTTP, in the demo account (and a few elsewhere). */
async function fillEverything(emulator: RunningEmulator): Promise<Fixtures> {
  const fx = new Fixtures(emulator.url, FAST_MS);
  await fx.build();
  expect(fx.buildProblems).toEqual([]);
  // What the shared world leaves out: attached networks, static NAT, remote-access VPN, the rules of
  // a security group, an attached volume, a destroyed instance, invoice taxes, other accounts' records.
  await fx.call("attachNetwork", { networkUuid: await fx.newNetwork() });
  await fx.call("enableStaticNat", { ipAddressUuid: await fx.newIp() });
  await fx.call("enableremotevpnaccess", { ipAddressUuid: await fx.newIp() });
  await fx.call("createSecurityGroupFirewallRule");
  await fx.call("createSecurityGroupEgressRule");
  await fx.call("createSecurityGroupPortForwardingRule");
  await fx.newVolume(true);
  await fx.newInstance("Destroyed");
  await fx.call("updateInvoiceTax");
  await fx.call("updateInvoiceStatus");
  await fx.call("createVpc", { name: "admin-vpc" }, { credentials: ADMIN });
  await fx.call("createVpc", { name: "ci-vpc" }, { credentials: CI });
  await fx.call("createVpc", { name: "spare", getcIDR: "10.99.0.0/16" });
  await noPendingWork(emulator);
  return fx;
}

describe("snapshots of the whole state", () => {
  it("round-trip every kind of record: the loaded emulator answers every list alike and goes on as the first would", async () => {
    const first = await emulators.start({ seed: "round-trip", asyncDelayMs: FAST_MS });
    const fx = await fillEverything(first);
    const snapshot = await save(first);

    // The snapshot: its envelope, and every collection kind of the model filled.
    expect(snapshot).toEqual({
      format: "restcloud-emulator-state",
      version: 3,
      savedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      state: {
        version: 3,
        accounts: expect.any(Object),
        internal: expect.any(Object),
        jobs: expect.any(Object),
        pending: [],
        publicIps: expect.any(Object),
        uuidCounter: expect.any(Number),
      },
    });
    const demo = snapshot.state.accounts.demo as Json;
    const kinds = Object.keys(demo).sort();
    expect(kinds).toEqual(
      expect.arrayContaining([
        "cluster",
        "egressrule",
        "firewallrule",
        "instance",
        "internallb",
        "invoice",
        "invoice.tax",
        "ipaddress",
        "loadbalancerrule",
        "network",
        "nic",
        "portforwardingrule",
        "portforwardingrule.target",
        "remotevpnaccess",
        "securitygroup",
        "snapshot",
        "snapshotpolicy",
        "staticnat",
        "tag",
        "vmsnapshot",
        "volume",
        "vpc",
        "vpncustomergateway",
        "vpncustomergateway.crypto",
        "vpnconnection",
        "vpnconnection.options",
        "vpnconnection.vpngateway",
      ]),
    );
    expect(kinds.filter((kind) => Object.keys(demo[kind] as Json).length === 0)).toEqual([]);
    expect(Object.keys(snapshot.state.accounts as Json).sort()).toEqual(["admin", "ci", "demo"]);
    expect(Object.keys(snapshot.state.jobs as Json).length).toBeGreaterThan(0);
    expect(Object.values(snapshot.state.publicIps as Json).flat().length).toBeGreaterThan(0);
    expect(snapshot.state.uuidCounter).toBeGreaterThan(0);
    let records = 0;
    for (const collections of Object.values(snapshot.state.accounts as Json)) {
      for (const collection of Object.values(collections as Json)) records += Object.keys(collection as Json).length;
    }

    // A second emulator (same seed) loads it.
    const second = await emulators.start({ seed: "round-trip", asyncDelayMs: FAST_MS });
    // Whatever it held before is replaced.
    expect((await request(second, "POST", "/restapi/vpc/createVpc", vpcInput({ name: "replaced" }))).status).toBe(200);
    expect(await load(second, snapshot)).toEqual({ status: 200, body: { loaded: true, records } });
    expect((await save(second)).state).toEqual(snapshot.state);

    // Both answer every read endpoint alike, for every account, and hold the same records.
    expect(READS.length).toBeGreaterThanOrEqual(28);
    const [a, b] = await readEverything(fx, [first.url, second.url], DEMO);
    expect(Object.keys(a).length).toBe(READS.length * 2);
    expect(b).toEqual(a);
    const [ciA, ciB] = await readEverything(fx, [first.url, second.url], CI);
    expect(ciB).toEqual(ciA);
    for (const account of ["demo", "admin", "ci"])
      expect(await resources(second, account)).toEqual(await resources(first, account));
    for (const jobId of Object.keys(snapshot.state.jobs as Json)) {
      const path = `/restapi/asyncjob/resourceStatus?jobId=${jobId}`;
      expect((await request(second, "GET", path)).body).toEqual((await request(first, "GET", path)).body);
    }

    // It goes on as the first would: the same next uuid (the counter survived), colliding with no id
    // of the snapshot; deletes and asynchronous updates work.
    const known = idsOf(snapshot.state);
    const createIn = async (emulator: RunningEmulator) =>
      (
        await send(
          emulator.url,
          SPEC_ROWS.find((r) => operationOf(r) === "createVpc") as Row,
          fx.valuesFor("createVpc"),
        )
      ).json as Json;
    const vpcA = (await createIn(first)).listVpcResponse[0] as ApiRecord;
    const vpcB = (await createIn(second)).listVpcResponse[0] as ApiRecord;
    expect(vpcB.uuid).toBe(vpcA.uuid);
    expect(known.has(String(vpcB.uuid))).toBe(false);
    for (const emulator of [first, second]) {
      expect((await request(emulator, "DELETE", `/restapi/vpc/deleteVpc/${String(vpcA.uuid)}`)).status).toBe(200);
      const update = await request(emulator, "PUT", "/restapi/vpc/updateVpc", {
        uuid: fx.world.vpc?.uuid,
        name: "renamed-after-load",
      });
      expect(update.status).toBe(202);
      await noPendingWork(emulator);
    }
    const [afterA, afterB] = await readEverything(fx, [first.url, second.url], DEMO);
    expect(afterB).toEqual(afterA);
    expect(JSON.stringify(afterB)).toContain("renamed-after-load");
    expect((await save(second)).state).toEqual((await save(first)).state);
    await emulators.stopAll();
  }, 60_000);

  it("carries pending work: the loaded emulator lists the same jobs and completes them as the first does", async () => {
    const first = await emulators.start({ seed: "pending", asyncMode: "manual" });
    const network = await request(first, "POST", "/restapi/network/createNetwork", networkInput());
    expect(network.status).toBe(200);
    const networkUuid = network.body.listNetworkResponse[0].uuid as string;
    await request(first, "POST", "/_emulator/advance", {});
    const instance = (await request(first, "POST", "/restapi/instance/createInstance", instanceInput({ networkUuid })))
      .body.listInstanceResponse[0] as Json;
    const volume = (await request(first, "POST", "/restapi/volume/createVolume", volumeInput())).body
      .listVolumeResponse[0] as Json;
    expect([instance?.state, volume?.status]).toEqual(["Starting", "Creating"]);
    const snapshot = await save(first);
    expect(snapshot.state.pending).toHaveLength(2);

    const second = await emulators.start({ seed: "pending", asyncMode: "manual" });
    expect((await load(second, snapshot)).status).toBe(200);
    const withoutDue = (jobs: Json[]) => jobs.map(({ dueAt: _dueAt, ...job }) => job);
    expect(withoutDue(await pendingJobs(second))).toEqual(withoutDue(await pendingJobs(first)));
    expect(withoutDue(await pendingJobs(second))).toEqual([
      expect.objectContaining({ account: "demo", kind: "instance" }),
      expect.objectContaining({ jobId: volume.jobId, account: "demo", kind: "Volume" }),
    ]);

    for (const emulator of [first, second]) {
      expect((await request(emulator, "POST", "/_emulator/advance", {})).body).toEqual({ completed: 2, pending: 0 });
    }
    const read = async (emulator: RunningEmulator) => [
      (await request(emulator, "GET", "/restapi/instance/instanceList", { zoneUuid: ZONE })).body,
      (await request(emulator, "GET", "/restapi/volume/volumeList", { zoneUuid: ZONE })).body,
      (await request(emulator, "GET", `/restapi/asyncjob/resourceStatus?jobId=${String(volume.jobId)}`)).body,
    ];
    const [afterFirst, afterSecond] = [await read(first), await read(second)];
    expect(afterSecond).toEqual(afterFirst);
    expect(afterSecond[0].listInstanceResponse[0].state).toBe("Running");
    expect(afterSecond[2].status).toBe("SUCCEEDED");
    await emulators.stopAll();
  });

  it("reschedules pending work with the time it had left, and drops the timers of the state it replaces", async () => {
    const first = await emulators.start({ asyncDelayMs: 1500 });
    const second = await emulators.start({ asyncDelayMs: 1500 });
    const create = async (emulator: RunningEmulator, name: string) =>
      (await request(emulator, "POST", "/restapi/vpc/createVpc", vpcInput({ name }))).body.listVpcResponse[0] as Json;
    const vpc = await create(first, "v");
    expect((await request(first, "PUT", "/restapi/vpc/updateVpc", { uuid: vpc.uuid, name: "renamed" })).status).toBe(
      202,
    );
    // The second emulator has work of its own pending; loading the snapshot drops it.
    const own = await create(second, "own");
    await request(second, "PUT", "/restapi/vpc/updateVpc", { uuid: own.uuid, name: "never" });
    const snapshot = await save(first);
    expect((await load(second, snapshot)).status).toBe(200);
    expect((await pendingJobs(second)).map((j) => j.description)).toEqual([expect.stringContaining("name=renamed")]);
    const vpcOf = async (uuid: unknown) =>
      (await request(second, "GET", `/restapi/vpc/vpcId?uuid=${String(uuid)}`)).body.listVpcResponse?.[0] as
        Json | undefined;
    const renamed = await until(
      () => vpcOf(vpc.uuid),
      (v) => v?.name === "renamed",
    );
    expect(renamed?.name).toBe("renamed");
    expect(await vpcOf(own.uuid)).toBeUndefined();
    expect(await pendingJobs(second)).toEqual([]);
    await emulators.stopAll();
  });

  it("loads a snapshot at start: loadStateFile, initialState, and --load on the command line", async () => {
    const first = await emulators.start({ seed: "start" });
    expect((await request(first, "POST", "/restapi/vpc/createVpc", vpcInput({ name: "from-file" }))).status).toBe(200);
    const snapshot = await save(first);
    const file = join(dir, "snapshot.json");
    writeFileSync(file, JSON.stringify(snapshot));

    const fromFile = await emulators.start({ loadStateFile: file });
    expect((await save(fromFile)).state).toEqual(snapshot.state);
    const fromObject = await emulators.start({ initialState: snapshot });
    expect((await save(fromObject)).state).toEqual(snapshot.state);

    const child = spawnEmulatorCli(["--port", "0", "--load", file, "--account", "ci:ci-api-key:ci-secret-key"]);
    try {
      let output = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => (output += chunk));
      while (!output.includes("\n")) await once(child.stdout, "data");
      const url = /^listening on (\S+)$/m.exec(output)?.[1] as string;
      const reply = await request({ url }, "GET", "/_emulator/state");
      expect(reply.body.state).toEqual(snapshot.state);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
    await emulators.stopAll();
  }, 30_000);

  it("refuses a snapshot it cannot load at start, naming the problem", async () => {
    const file = join(dir, "bad.json");
    writeFileSync(
      file,
      JSON.stringify({ format: "something-else", version: 1, savedAt: "2025-01-01T00:00:00Z", state: {} }),
    );
    await expect(emulators.start({ loadStateFile: file })).rejects.toThrow(
      `${file}: format: must be "restcloud-emulator-state"`,
    );
    await expect(emulators.start({ loadStateFile: join(dir, "absent.json") })).rejects.toThrow(/cannot read/);
    writeFileSync(join(dir, "garbage.json"), "{not json");
    await expect(emulators.start({ loadStateFile: join(dir, "garbage.json") })).rejects.toThrow(/not JSON/);
    await expect(emulators.start({ initialState: { format: "restcloud-emulator-state", version: 4 } })).rejects.toThrow(
      /^initialState: version: unsupported version 4/,
    );

    const child = spawnEmulatorCli(["--port", "0", "--load", file]);
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, "exit")) as [number];
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(`--load ${file}: format: must be "restcloud-emulator-state" (got "something-else")`);
  }, 30_000);
});

describe("a version 1 snapshot (internal fields inside the records)", () => {
  it("loads: the `_` fields become internal entries the API never shows, and it saves as version 3", async () => {
    const first = await emulators.start({ seed: "version-1", asyncMode: "manual" });
    const network = await request(first, "POST", "/restapi/network/createNetwork", networkInput());
    const networkUuid = network.body.listNetworkResponse[0].uuid as string;
    await request(first, "POST", "/_emulator/advance", {});
    const created = await request(first, "POST", "/restapi/instance/createInstance", instanceInput({ networkUuid }));
    const uuid = created.body.listInstanceResponse[0].uuid as string;
    await request(first, "POST", "/_emulator/advance", {});
    const current = await save(first);
    const password = current.state.internal.demo.instance[uuid].password as string;
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(Object.keys(current.state.accounts.demo.instance[uuid] as Json).filter((f) => f.startsWith("_"))).toEqual(
      [],
    );

    const old = { ...current, version: 1, state: asVersion1State(current.state) };
    expect(old.state.accounts.demo.instance[uuid]._password).toBe(password);
    const second = await emulators.start({ seed: "version-1", asyncMode: "manual" });
    expect((await load(second, old)).status).toBe(200);
    expect((await save(second)).state).toEqual(current.state);
    const passwordOf = async (emulator: RunningEmulator) =>
      (await request(emulator, "GET", "/restapi/instance/instancePasswordList", { uuid })).body;
    expect(await passwordOf(second)).toEqual(await passwordOf(first));
    expect(JSON.stringify(await passwordOf(second))).toContain(password);
    const listed = (await request(second, "GET", "/restapi/instance/instanceList", { zoneUuid: ZONE })).body;
    expect(JSON.stringify(listed)).not.toContain(password);
    expect(JSON.stringify(listed)).not.toContain('"_');
  });
});

describe("a version 2 snapshot (records under the spec's field names)", () => {
  it("loads: getcIDR and transNetworkUuid become the model's cidr and networkUuid, the API answers alike, it saves as version 3", async () => {
    const first = await emulators.start({ seed: "version-2", asyncDelayMs: FAST_MS });
    const fx = await fillEverything(first);
    const current = await save(first);
    const old = { ...current, version: 2, state: asVersion2State(current.state) };
    const oldVpc = Object.values(old.state.accounts.demo.vpc as Json)[0] as Json;
    expect([typeof oldVpc.getcIDR, "cidr" in oldVpc]).toEqual(["string", false]);
    const oldCluster = Object.values(old.state.accounts.demo.cluster as Json)[0] as Json;
    expect([typeof oldCluster.transNetworkUuid, "networkUuid" in oldCluster]).toEqual(["string", false]);

    const second = await emulators.start({ seed: "version-2", asyncDelayMs: FAST_MS });
    expect((await load(second, old)).status).toBe(200);
    expect((await save(second)).state).toEqual(current.state);
    const [a, b] = await readEverything(fx, [first.url, second.url], DEMO);
    expect(b).toEqual(a);
  }, 30_000);

  it("migrates a pending change of a network's getcIDR: it applies as the model's cidr", async () => {
    const first = await emulators.start({ asyncMode: "manual" });
    const created = await request(first, "POST", "/restapi/network/createNetwork", networkInput());
    const uuid = created.body.listNetworkResponse[0].uuid as string;
    await request(first, "POST", "/_emulator/advance", {});
    const update = await request(first, "PUT", "/restapi/network/updateNetwork", { uuid, getcIDR: "10.77.0.0/24" });
    expect(update.status).toBe(202);
    const current = await save(first);
    const old = { ...current, version: 2, state: asVersion2State(current.state) };
    expect(JSON.stringify(old.state.pending)).toContain('"getcIDR":"10.77.0.0/24"');

    const second = await emulators.start({ asyncMode: "manual" });
    expect((await load(second, old)).status).toBe(200);
    const changesOf = (state: Json) => (state.pending as Json[]).map((work) => work.changes);
    expect(changesOf((await save(second)).state)).toEqual(changesOf(current.state));
    await request(second, "POST", "/_emulator/advance", {});
    const network = (await request(second, "GET", "/restapi/network/networkId", { uuid })).body.listNetworkResponse[0];
    expect([network.getcIDR, network.gateway, "cidr" in network]).toEqual(["10.77.0.0/24", "10.77.0.1", false]);
  });
});

describe("an invalid snapshot", () => {
  let emulator: RunningEmulator;
  let good: Json;
  beforeAll(async () => {
    emulator = await emulators.start({ asyncMode: "manual" });
    await request(emulator, "POST", "/restapi/vpc/createVpc", vpcInput({ name: "keep-me" }));
    const volume = await request(emulator, "POST", "/restapi/volume/createVolume", volumeInput());
    expect(volume.status).toBe(200);
    good = await save(emulator);
  });

  /** `good`, changed by `edit` (a deep copy). */
  const edited = (edit: (s: Json) => void): Json => {
    const copy = structuredClone(good);
    edit(copy);
    return copy;
  };
  const vpcKey = () => Object.keys(good.state.accounts.demo.vpc as Json)[0];

  it.each<[string, () => unknown, RegExp]>([
    ["not an object", () => [1, 2], /^body: must be a JSON object/],
    ["a bare string", () => "hello", /^body: must be a JSON object/],
    [
      "a wrong format marker",
      () => edited((s) => (s.format = "moto")),
      /^format: must be "restcloud-emulator-state" \(got "moto"\)/,
    ],
    ["no format marker", () => edited((s) => delete s.format), /^format: must be/],
    ["a wrong version", () => edited((s) => (s.version = 4)), /^version: unsupported version 4/],
    [
      "a state version other than the snapshot's",
      () => edited((s) => (s.state.version = 1)),
      /^state\.version: must be 3, the snapshot's version/,
    ],
    ["a bad savedAt", () => edited((s) => (s.savedAt = "yesterday")), /^savedAt: must be an ISO 8601 date/],
    ["an unknown top-level field", () => edited((s) => (s.extra = 1)), /^body\.extra: unknown field/],
    ["no state", () => edited((s) => delete s.state), /^state: must be an object/],
    ["an unknown state field", () => edited((s) => (s.state.vpcs = {})), /^state\.vpcs: unknown field/],
    ["accounts not an object", () => edited((s) => (s.state.accounts = [])), /^state\.accounts: must be an object/],
    [
      "an internal field inside a record",
      () => edited((s) => (s.state.accounts.demo.vpc[vpcKey()]._password = "secret")),
      /^state\.accounts\.demo\.vpc\.[0-9a-f-]+\._password: a record holds the API's fields only/,
    ],
    [
      "an internal entry of no record",
      () => edited((s) => (s.state.internal = { demo: { instance: { "no-such-vm": { password: "x" } } } })),
      /^state\.internal\.demo\.instance\.no-such-vm: no record instance no-such-vm in state\.accounts\.demo/,
    ],
    [
      "an internal entry that is not an object",
      () => edited((s) => (s.state.internal = { demo: { vpc: { [vpcKey()]: "x" } } })),
      /^state\.internal\.demo\.vpc\.[0-9a-f-]+: must be an object of internal fields/,
    ],
    [
      "an unknown account",
      () => edited((s) => (s.state.accounts.ghost = {})),
      /^state\.accounts\.ghost: no account ghost/,
    ],
    [
      "a collection that is not an object of records",
      () => edited((s) => (s.state.accounts.demo.vpc = [{ uuid: "x" }])),
      /^state\.accounts\.demo\.vpc: must be an object of records keyed by uuid \(got an array\)/,
    ],
    [
      "a record that is not an object",
      () => edited((s) => (s.state.accounts.demo.vpc[vpcKey()] = "vpc")),
      /^state\.accounts\.demo\.vpc\.[0-9a-f-]+: must be a record/,
    ],
    [
      "a record without a uuid",
      () => edited((s) => delete s.state.accounts.demo.vpc[vpcKey()].uuid),
      /^state\.accounts\.demo\.vpc\.[0-9a-f-]+: the record has no uuid$/,
    ],
    [
      "a record filed under another uuid",
      () => edited((s) => (s.state.accounts.demo.vpc[vpcKey()].uuid = "other")),
      /^state\.accounts\.demo\.vpc\.[0-9a-f-]+\.uuid: is other, but the record is filed under/,
    ],
    [
      "an invoice without its number",
      () => edited((s) => (s.state.accounts.demo.invoice = { "1": { status: "DUE" } })),
      /^state\.accounts\.demo\.invoice\.1: the record has no invoiceNumber$/,
    ],
    ["jobs not an object", () => edited((s) => (s.state.jobs = [])), /^state\.jobs: must be an object of jobs/],
    [
      "a job with a bad status",
      () => edited((s) => (Object.values(s.state.jobs as Json)[0].status = "DONE")),
      /^state\.jobs\.[0-9a-f-]+\.status: must be one of IN_PROGRESS, SUCCEEDED, FAILED/,
    ],
    ["pending not an array", () => edited((s) => (s.state.pending = {})), /^state\.pending: must be an array/],
    [
      "pending work without a due time",
      () => edited((s) => delete s.state.pending[0].dueAt),
      /^state\.pending\[0\]\.dueAt: must be a time in epoch milliseconds/,
    ],
    [
      "pending work of an unknown job",
      () => edited((s) => (s.state.pending[0].jobId = "no-such-job")),
      /^state\.pending\[0\]\.jobId: names no job of state\.jobs/,
    ],
    [
      "a malformed change",
      () => edited((s) => (s.state.pending[0].changes[0] = { collection: "volume", uuid: "x" })),
      /^state\.pending\[0\]\.changes\[0\]: must hold either set/,
    ],
    [
      "a public address that is not one",
      () => edited((s) => (s.state.publicIps = { [ZONE]: ["not-an-ip"] })),
      /^state\.publicIps\.[0-9a-f-]+\[0\]: must be an IPv4 address/,
    ],
    [
      "a negative uuid counter",
      () => edited((s) => (s.state.uuidCounter = -1)),
      /^state\.uuidCounter: must be a non-negative integer/,
    ],
  ])("answers 400 for %s, naming it, and changes nothing", async (_label, body, message) => {
    const before = await save(emulator);
    const jobsBefore = await pendingJobs(emulator);
    const reply = await load(emulator, body());
    expect(reply).toEqual({ status: 400, body: { error: expect.stringMatching(message) } });
    expect((await save(emulator)).state).toEqual(before.state);
    expect(await pendingJobs(emulator)).toEqual(jobsBefore);
  });

  it.each([
    ["invalid JSON", '{"format": ', "application/json"],
    ["an empty body", "", "application/json"],
    ["another content type", "format=x", "application/x-www-form-urlencoded"],
  ])("answers 400 with a message for %s, and changes nothing", async (_label, text, contentType) => {
    const before = await save(emulator);
    const response = await fetch(`${emulator.url}/_emulator/state`, {
      method: "PUT",
      headers: { "content-type": contentType },
      body: text,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String) });
    expect((await save(emulator)).state).toEqual(before.state);
  });

  it("still loads the good one", async () => {
    expect((await load(emulator, good)).body).toEqual({ loaded: true, records: expect.any(Number) });
  });
});

describe("a snapshot of 1,000 records", () => {
  it("is saved and loaded over HTTP (size and times printed)", async () => {
    const source = await emulators.start({ asyncDelayMs: FAST_MS });
    const fx = new Fixtures(source.url, FAST_MS);
    await fx.build();
    await noPendingWork(source);
    // Realistic records of several kinds, made over HTTP, then copied under new uuids up to 1,000.
    const scope = source.scope("demo");
    const templates = ["vpc", "network", "instance", "volume", "ipaddress", "firewallrule", "loadbalancerrule"].map(
      (collection) => ({ collection, record: Object.values(scope.collection(collection))[0] }),
    );
    const count = () => scope.collectionNames().reduce((n, c) => n + Object.keys(scope.collection(c)).length, 0);
    for (let i = 0; count() < 1000; i++) {
      const { collection, record } = templates[i % templates.length];
      const uuid = source.context.newUuid();
      scope.collection(collection)[uuid] = { ...structuredClone(record), uuid, name: `copy-${i}` };
    }
    scope.changed();
    expect(count()).toBe(1000);

    const savedAt = performance.now();
    const response = await fetch(`${source.url}/_emulator/state`);
    const text = await response.text();
    const saveMs = performance.now() - savedAt;

    const target = await emulators.start({ asyncDelayMs: FAST_MS });
    const loadStart = performance.now();
    const loaded = await fetch(`${target.url}/_emulator/state`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: text,
    });
    const answer = (await loaded.json()) as Json;
    const loadMs = performance.now() - loadStart;
    expect(answer).toEqual({ loaded: true, records: 1000 });
    expect(await resources(target, "demo")).toEqual(await resources(source, "demo"));

    console.log(
      `snapshot of 1,000 records: ${Buffer.byteLength(text)} bytes; ` +
        `save (GET /_emulator/state) ${saveMs.toFixed(1)} ms; load (PUT /_emulator/state) ${loadMs.toFixed(1)} ms`,
    );
    await emulators.stopAll();
  }, 30_000);
});
