/**
 * The spellings of live deployments that an independently written client of this API family met
 * (api-notes.md, "Where deployments differ from the spec"): envelopes under a `kong` prefix, `cIDR`
 * for `getcIDR` in VPC records, and the PENDING / COMPLETE / FAILED job vocabulary. And the job status
 * record, which like every answer holds no null.
 */
import { startEmulator, type Quirk, type RunningEmulator } from "../../../emulator/index";
import { kongEnvelopes, kongKey, parseQuirks } from "../../../emulator/quirks";
import { Fixtures, send, type Answer } from "./fixtures";
import {
  acquireIp,
  createNetwork,
  createVolume,
  createVpc,
  emulatorsOnDemand,
  request,
  runningInstance,
  until,
  ZONE,
  type Json,
  type Target,
} from "./helpers";
import { ENVELOPE_KEYS, SPEC_ROWS, operationOf, type Row } from "./spec-table";

const emulators = emulatorsOnDemand();

/** The keys, at any depth, of a JSON value that carry the `svc` prefix. */
function svcKeys(value: unknown, where = "answer"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => svcKeys(item, `${where}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(/^svc[A-Z]/.test(key) ? [`${where}.${key}`] : []),
    ...svcKeys(item, `${where}.${key}`),
  ]);
}

/** The envelope keys of the spec (as spec-table.ts, an independent reading, transcribes them) spelled `svc...`. */
const SVC_KEYS = [...new Set(Object.values(ENVELOPE_KEYS))].filter((key) => key.startsWith("svc")).sort();

describe("kong-envelopes: the renaming of envelope keys", () => {
  test("the spec's svc envelope keys are the three api-notes.md names", () => {
    expect(SVC_KEYS).toEqual(["svcAttachStaticNatResponse", "svcCreateTagsResponse", "svcInstanceNetworkResponses"]);
  });

  test.each([...new Set(Object.values(ENVELOPE_KEYS))].sort().map((key) => [key]))(
    "renames %s to its kong form only when it is a svc key",
    (key) => {
      const record = { uuid: "r-1", name: "x" };
      const renamed = kongEnvelopes({ count: 1, [key]: [record] }) as Json;
      const expected = key.startsWith("svc") ? `kong${key.slice(3)}` : key;
      expect(kongKey(key)).toBe(expected);
      expect(renamed).toEqual({ count: 1, [expected]: [record] });
      expect(svcKeys(renamed)).toEqual([]);
    },
  );

  test("leaves fields that hold no records, bare arrays and scalars alone", () => {
    expect(kongEnvelopes({ svcLbSticky: { stickinessMethod: "None" } })).toEqual({
      svcLbSticky: { stickinessMethod: "None" },
    });
    expect(kongEnvelopes([{ svcCreateTagsResponse: [] }])).toEqual([{ svcCreateTagsResponse: [] }]);
    expect(kongEnvelopes(true)).toBe(true);
    expect(kongKey("listVpcResponse")).toBe("listVpcResponse");
    expect(kongKey("svc")).toBe("svc");
  });

  test("tags-kong-envelope is an alias of kong-envelopes", async () => {
    expect(parseQuirks(["tags-kong-envelope"])).toEqual(new Set(["kong-envelopes"]));
    expect(parseQuirks(["tags-kong-envelope", "kong-envelopes", "cidr-as-cIDR"])).toEqual(
      new Set(["kong-envelopes", "cidr-as-cIDR"]),
    );
    const emulator = await emulators.start({ quirks: ["tags-kong-envelope"] });
    expect([...emulator.context.quirks]).toEqual(["kong-envelopes"]);
  });
});

/** An instance on a network with a public IP, in an emulator with `quirks`. */
async function instanceWithIp(emulator: Target) {
  const network = await createNetwork(emulator, { name: "kong-net" });
  const instance = await runningInstance(emulator, { networkUuid: network.uuid });
  const ip = await acquireIp(emulator, network.uuid);
  return { network, instance, ip };
}

describe.each<[string, Quirk[]]>([
  ["kong-envelopes", ["kong-envelopes"]],
  ["tags-kong-envelope (the alias)", ["tags-kong-envelope"]],
])("%s: the three svc envelopes over HTTP", (_name, quirks) => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await emulators.start({ quirks });
  });

  test("static NAT, instance networks and tags answer under kong, with the records of the spec's key", async () => {
    const { network, instance, ip } = await instanceWithIp(emulator);
    const nat = await request(emulator, "POST", "/restapi/ipaddress/enableStaticNat", {
      ipAddressUuid: ip.uuid,
      vmUuid: instance.uuid,
      networkUuid: network.uuid,
    });
    expect(nat.status).toBe(200);
    expect(nat.body).toEqual({
      count: 1,
      kongAttachStaticNatResponse: [expect.objectContaining({ ipAddressUuid: ip.uuid, vmUuid: instance.uuid })],
    });

    const networks = await request(emulator, "GET", "/restapi/instance/instanceNetworkList", { uuid: instance.uuid });
    expect(networks.status).toBe(200);
    expect(Object.keys(networks.body as Json).sort()).toEqual(["count", "kongInstanceNetworkResponses"]);
    expect((networks.body as Json).kongInstanceNetworkResponses).toHaveLength(1);

    const tagPath = `/restapi/resourcetags/createTags?resourceType=UserVm&zoneUuid=${ZONE}`;
    const created = await request(emulator, "POST", tagPath, { resourceUuid: instance.uuid, key: "k", value: "v" });
    expect(created.body).toEqual({
      count: 1,
      kongCreateTagsResponse: [expect.objectContaining({ key: "k", value: "v", resourceUuid: instance.uuid })],
    });
    const tag = (created.body as Json).kongCreateTagsResponse[0] as Json;
    const listed = await request(emulator, "GET", "/restapi/resourcetags/resourceTagsList", {
      resourceUuid: instance.uuid,
    });
    expect(listed.body).toEqual({ count: 1, kongCreateTagsResponse: [tag] });
    const deleted = await request(emulator, "DELETE", `/restapi/resourcetags/deleteResourceTag/${String(tag.uuid)}`);
    expect(deleted.status).toBe(200);
    expect(Object.keys(deleted.body as Json)).toContain("kongCreateTagsResponse");

    for (const answer of [nat, networks, created, listed, deleted]) expect(svcKeys(answer.body)).toEqual([]);
  });

  test("other envelopes keep their names", async () => {
    const vpc = await createVpc(emulator, { name: "kong-vpc" });
    const reply = await request(emulator, "GET", "/restapi/vpc/vpcId", { uuid: vpc.uuid });
    expect(Object.keys(reply.body as Json).sort()).toEqual(["count", "listVpcResponse"]);
  });
});

describe("kong-envelopes: no answer of any endpoint of the spec holds a svc key", () => {
  const ASYNC_DELAY_MS = 20;
  let emulator: RunningEmulator;
  let fx: Fixtures;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: ASYNC_DELAY_MS, quirks: ["kong-envelopes"] });
    fx = new Fixtures(emulator.url, ASYNC_DELAY_MS);
    await fx.build();
  }, 30_000);

  afterAll(async () => {
    await emulator?.stop();
  });

  test("the fixtures build through the API", () => {
    expect(fx.buildProblems).toEqual([]);
  });

  /** The parameters a client would send to rows whose parameters the spec does not show (as contract.test.ts). */
  function guessed(row: Row, values: Json): Json | undefined {
    if (!row.parametersNotShown) return undefined;
    const instance = { uuid: values.uuid ?? fx.world.instance?.uuid };
    const guesses: Record<string, Json> = {
      attachIso: { ...instance, isoUuid: "6f1c2a3e-0000-4000-8000-0000000015f0" },
      detachIso: instance,
      resetSSHkey: { ...instance, sshKeyName: "kong-ssh-key" },
      instancePasswordList: instance,
    };
    return guesses[operationOf(row)] ?? { zoneUuid: fx.world.zoneUuid };
  }

  test.each(SPEC_ROWS.map((row) => [`${row.method} ${row.path}`, row] as const))("%s", async (_title, row) => {
    const values = await fx.valuesForSuccess(row);
    const answer: Answer = await send(emulator.url, row, values, {
      credentials: row.noAuth ? null : undefined,
      extraQuery: guessed(row, values),
    });
    const summary = `${answer.status} ${answer.text.slice(0, 300)}`;
    expect({ succeeded: answer.status >= 200 && answer.status < 300, summary }).toEqual({ succeeded: true, summary });
    expect(svcKeys(answer.json)).toEqual([]);
    const { response } = row;
    if (response.kind === "envelope" && response.key.startsWith("svc")) {
      const body = answer.json as Json;
      expect({ operation: operationOf(row), keys: Object.keys(body).sort() }).toEqual({
        operation: operationOf(row),
        keys: ["count", kongKey(response.key)].sort(),
      });
      expect(Array.isArray(body[kongKey(response.key)])).toBe(true);
    }
  });
});

describe("cidr-as-cIDR: every answer holding a VPC carries cIDR", () => {
  test("create, list, get, update (202), restart", async () => {
    const emulator = await emulators.start({ quirks: ["cidr-as-cIDR", "kong-envelopes"] });
    const vpc = await createVpc(emulator, { name: "cidr-everywhere", getcIDR: "10.40.0.0/16" });
    const answers = [
      await request(emulator, "GET", "/restapi/vpc/vpcList", { zoneUuid: ZONE }),
      await request(emulator, "GET", "/restapi/vpc/vpcId", { uuid: vpc.uuid }),
      await request(emulator, "PUT", "/restapi/vpc/updateVpc", { uuid: vpc.uuid, name: "renamed" }),
      await request(emulator, "GET", "/restapi/vpc/restartVpc", {
        uuid: vpc.uuid,
        cleanUpVPC: false,
        redundantVpcRouter: false,
      }),
    ];
    const records = [vpc, ...answers.map((answer) => (answer.body as Json).listVpcResponse[0] as Json)];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 202, 200]);
    for (const record of records) {
      expect(record).toMatchObject({ uuid: vpc.uuid, cIDR: "10.40.0.0/16" });
      expect(record).not.toHaveProperty("getcIDR");
    }
  });
});

/** The status record of a job, as resourceStatus answers it. */
const jobOf = async (emulator: Target, jobId: string): Promise<Json> =>
  (await request(emulator, "GET", `/restapi/asyncjob/resourceStatus?jobId=${jobId}`)).body as Json;

const nullFields = (record: Json) => Object.keys(record).filter((key) => record[key] === null);

describe("job-status-complete: PENDING, then COMPLETE or FAILED", () => {
  test("a job still running is PENDING, with errorCode and errorMessage empty", async () => {
    // Work that never completes during the test: the status is the running one, whenever it is read.
    const emulator = await emulators.start({ asyncDelayMs: 60_000, quirks: ["job-status-complete"] });
    const volume = await createVolume(emulator, { name: "pending" });
    expect(await jobOf(emulator, volume.jobId)).toEqual({
      jobId: volume.jobId,
      resourceId: volume.uuid,
      resourceType: expect.any(String),
      status: "PENDING",
      errorCode: "",
      errorMessage: "",
    });
  });

  test("a finished job is COMPLETE; one whose record vanished is FAILED with its error", async () => {
    const emulator = await emulators.start({ quirks: ["job-status-complete"] });
    const volume = await createVolume(emulator, { name: "complete" });
    const done = await until(
      () => jobOf(emulator, volume.jobId),
      (job) => job.status !== "PENDING",
    );
    expect(done).toMatchObject({ jobId: volume.jobId, status: "COMPLETE", errorCode: "", errorMessage: "" });

    const scope = emulator.scope("demo");
    scope.collection("volume")["v-gone"] = { uuid: "v-gone", status: "Ready", isActive: true };
    const jobId = emulator.context.startJob(scope, "resizeVolume", "Volume", "v-gone", [
      { collection: "volume", uuid: "v-gone", set: { status: "Resized" } },
    ]);
    delete scope.collection("volume")["v-gone"];
    const failed = await until(
      () => jobOf(emulator, jobId),
      (job) => job.status !== "PENDING",
    );
    expect(failed).toMatchObject({ status: "FAILED", errorCode: "NOT_FOUND", errorMessage: expect.any(String) });
    expect(failed.errorMessage).not.toBe("");
  });
});

describe("resourceStatus holds no null (emulator/README.md: no field is ever null)", () => {
  test("neither while the job runs nor once it succeeded", async () => {
    const slow = await emulators.start({ asyncDelayMs: 60_000 });
    const running = await createVolume(slow, { name: "running" });
    const inProgress = await jobOf(slow, running.jobId);
    expect(inProgress).toMatchObject({ status: "IN_PROGRESS", errorCode: "", errorMessage: "" });
    expect(nullFields(inProgress)).toEqual([]);

    const fast = await emulators.start();
    const volume = await createVolume(fast, { name: "succeeded" });
    const done = await until(
      () => jobOf(fast, volume.jobId),
      (job) => job.status !== "IN_PROGRESS",
    );
    expect(done).toMatchObject({ status: "SUCCEEDED", errorCode: "", errorMessage: "" });
    expect(nullFields(done)).toEqual([]);
  });
});
