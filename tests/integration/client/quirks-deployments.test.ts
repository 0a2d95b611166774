/**
 * The spellings of live deployments (api-notes.md): envelopes under a `kong` prefix, `cIDR` for
 * `getcIDR`, the PENDING / COMPLETE / FAILED job vocabulary. The same client calls, through every
 * area that answers a `svc` envelope, VPCs and an async job, run against an emulator with no quirk and
 * one with the quirk: the caller gets the same answers, and the wire really carried the quirk.
 */
import type { Quirk, RunningEmulator } from "../../../emulator/index";
import { JobFailedError, waitFor, type RestCloudClient } from "../../../provider/client";
import { clientFor, discoverCatalog, start, type Recorded } from "./helpers";

/** Waiter options for an emulator whose asynchronous work takes 30 ms. */
const FAST = { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 5000 };

/** What the caller sees of a record: its fields (their names), without the values that differ per run. */
const fieldsOf = (record: object | undefined) => Object.keys(record ?? {}).sort();

/**
 * The calls, and what they answered with the per-run values (uuids, addresses) left out: VPC create,
 * list and get; instance networks; static NAT; tags create, list and delete; a volume's job, waited for.
 */
async function scenario(client: RestCloudClient) {
  const ids = await discoverCatalog(client);
  const { zoneUuid } = ids;

  const vpc = await client.vpc.create({
    name: "spellings",
    zoneUuid,
    vpcOfferingUuid: ids.vpcOfferingUuid,
    getcIDR: "10.50.0.0/16",
  });
  const listedVpc = (await client.vpc.list({ zoneUuid })).find((v) => v.uuid === vpc.uuid);
  const gotVpc = await client.vpc.get({ uuid: vpc.uuid });

  const network = await client.network.create({
    name: "spellings",
    zoneUuid,
    networkOfferingUuid: ids.networkOfferingUuid,
  });
  const instance = await client.instance.create({
    name: "spellings",
    zoneUuid,
    templateUuid: ids.templateUuid,
    computeOfferingUuid: ids.computeOfferingUuid,
    networkUuid: network.uuid,
  });
  await waitFor(
    {
      awaited: `instance ${instance.uuid} Running`,
      poll: async () => (await client.instance.list({ zoneUuid, vmUuid: instance.uuid }))[0],
      until: (vm) => vm.state === "Running",
    },
    FAST,
  );
  const networks = await client.instance.networks({ uuid: instance.uuid });

  const ip = await client.ipAddress.acquire({ networkUuid: network.uuid, networkType: "NETWORK" });
  const nat = await client.ipAddress.enableStaticNat({
    ipAddressUuid: ip.uuid,
    vmUuid: instance.uuid,
    networkUuid: network.uuid,
  });

  const tag = await client.resourceTag.create({
    resourceType: "UserVm",
    zoneUuid,
    resourceUuid: instance.uuid,
    key: "team",
    value: "core",
  });
  const tags = await client.resourceTag.list({ resourceUuid: instance.uuid });
  const afterDelete = await client.resourceTag.delete({ uuid: tag.uuid });

  const volume = await client.volume.create({
    name: "spellings",
    zoneUuid,
    storageOfferingUuid: ids.storageOfferingUuid,
    diskSize: ids.diskSize,
  });
  const job = await client.waitForJob(volume.jobId!, FAST);
  const jobRead = await client.asyncJob.status({ jobId: volume.jobId! });

  return {
    vpcs: [vpc, listedVpc, gotVpc].map((v) => ({ getcIDR: v?.getcIDR, name: v?.name, fields: fieldsOf(v) })),
    networks: networks.map((n) => ({ defaultNetwork: n.defaultNetwork, fields: fieldsOf(n) })),
    nat: {
      ip: nat.ipAddressUuid === ip.uuid,
      vm: nat.vmUuid === instance.uuid,
      network: nat.networkUuid === network.uuid,
      fields: fieldsOf(nat),
    },
    tag: { key: tag.key, value: tag.value, resource: tag.resourceUuid === instance.uuid, fields: fieldsOf(tag) },
    tags: tags.map((t) => t.uuid === tag.uuid),
    afterDelete: Array.isArray(afterDelete),
    job: [job, jobRead].map((j) => ({
      status: j.status,
      errorCode: j.errorCode,
      errorMessage: j.errorMessage,
      resource: j.resourceId === volume.uuid,
      fields: fieldsOf(j),
    })),
    ids: { vpc: vpc.uuid, instance: instance.uuid, jobId: volume.jobId! },
  };
}

/** The scenario's answers, without the per-run ids. */
const comparable = ({ ids: _ids, ...rest }: Awaited<ReturnType<typeof scenario>>) => rest;

/** One emulator without quirks (the reference) and one with `quirks`, each with a recording client. */
function twoEmulators(quirks: Quirk[]) {
  const world = {} as { plain: RunningEmulator; quirked: RunningEmulator; reference: Recorded; recorded: Recorded };
  beforeAll(async () => {
    world.plain = await start();
    world.quirked = await start({ quirks });
    world.reference = clientFor(world.plain);
    world.recorded = clientFor(world.quirked);
  });
  afterAll(async () => {
    await world.plain?.stop();
    await world.quirked?.stop();
  });
  return world;
}

/** A raw answer of the quirked emulator, to see what the wire carried. */
async function raw(emulator: RunningEmulator, path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${emulator.url}${path}`, {
    headers: { apikey: "demo-api-key", secretkey: "demo-secret-key" },
  });
  return (await response.json()) as Record<string, unknown>;
}

const KONG_LINES = [
  "instanceNetworkList: envelope key kongInstanceNetworkResponses (spec: svcInstanceNetworkResponses)",
  "enableStaticNat: envelope key kongAttachStaticNatResponse (spec: svcAttachStaticNatResponse)",
  "createTags: envelope key kongCreateTagsResponse (spec: svcCreateTagsResponse)",
  "resourceTagsList: envelope key kongCreateTagsResponse (spec: svcCreateTagsResponse)",
  "deleteResourceTag: envelope key kongCreateTagsResponse (spec: svcCreateTagsResponse)",
];

describe.each<[Quirk[]]>([[["kong-envelopes"]], [["tags-kong-envelope"]]])(
  "%j: every svc envelope arrives under kong",
  (quirks) => {
    const world = twoEmulators(quirks);

    test("the client answers as without the quirk, and logs each kong key it read", async () => {
      const expected = await scenario(world.reference.client);
      const got = await scenario(world.recorded.client);
      expect(comparable(got)).toEqual(comparable(expected));
      expect(got.nat).toMatchObject({ ip: true, vm: true, network: true });
      expect(got.networks).toHaveLength(1);
      expect(got.tags).toEqual([true]);
      expect(world.recorded.lines).toEqual(expect.arrayContaining(KONG_LINES));
      expect(world.reference.lines.filter((line) => line.includes("kong"))).toEqual([]);
      // The quirk is really on: the wire carried the kong key.
      const networks = await raw(world.quirked, `/restapi/instance/instanceNetworkList?uuid=${got.ids.instance}`);
      expect(Object.keys(networks).sort()).toEqual(["count", "kongInstanceNetworkResponses"]);
    });
  },
);

describe("job-status-complete: jobs answer PENDING, then COMPLETE or FAILED", () => {
  const world = twoEmulators(["job-status-complete"]);

  test("waitForJob finishes on COMPLETE, and the caller reads SUCCEEDED as without the quirk", async () => {
    const expected = await scenario(world.reference.client);
    const got = await scenario(world.recorded.client);
    expect(comparable(got)).toEqual(comparable(expected));
    expect(got.job.map((j) => [j.status, j.errorCode, j.errorMessage])).toEqual([
      ["SUCCEEDED", "", ""],
      ["SUCCEEDED", "", ""],
    ]);
    // The quirk is really on: the wire carried COMPLETE.
    expect(await raw(world.quirked, `/restapi/asyncjob/resourceStatus?jobId=${got.ids.jobId}`)).toMatchObject({
      status: "COMPLETE",
    });
  });

  // Work that never completes during the test: its job is PENDING on the wire whenever it is read.
  let slow: RunningEmulator;
  beforeAll(async () => {
    slow = await start({ asyncDelayMs: 3_600_000, quirks: ["job-status-complete"] });
  });
  afterAll(() => slow?.stop());

  test("a job still running reads IN_PROGRESS; a FAILED job is a JobFailedError with its code", async () => {
    const slowScope = slow.scope("demo");
    const running = slow.context.startJob(slowScope, "resizeVolume", "Volume", "v-slow", []);
    expect(await raw(slow, `/restapi/asyncjob/resourceStatus?jobId=${running}`)).toMatchObject({
      status: "PENDING",
      errorCode: "",
      errorMessage: "",
    });
    expect(await clientFor(slow).client.asyncJob.status({ jobId: running })).toMatchObject({
      status: "IN_PROGRESS",
    });

    const scope = world.quirked.scope("demo");
    scope.collection("volume")["v-job"] = { uuid: "v-job", status: "Ready", isActive: true };
    const failing = world.quirked.context.startJob(scope, "resizeVolume", "Volume", "v-job", [
      { collection: "volume", uuid: "v-job", set: { status: "Resized" } },
    ]);
    delete scope.collection("volume")["v-job"];
    const error = await world.recorded.client.waitForJob(failing, FAST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error).toMatchObject({ jobId: failing, resourceId: "v-job", errorCode: "NOT_FOUND" });
  });
});

describe("cidr-as-cIDR: VPC records carry cIDR", () => {
  const world = twoEmulators(["cidr-as-cIDR"]);

  test("every VPC the caller reads carries getcIDR, as without the quirk", async () => {
    const expected = await scenario(world.reference.client);
    const got = await scenario(world.recorded.client);
    expect(comparable(got)).toEqual(comparable(expected));
    for (const vpc of got.vpcs) {
      expect(vpc.getcIDR).toBe("10.50.0.0/16");
      expect(vpc.fields).not.toContain("cIDR");
    }
    const updated = await world.recorded.client.vpc.update({ uuid: got.ids.vpc, name: "renamed" });
    const restarted = await world.recorded.client.vpc.restart({
      uuid: got.ids.vpc,
      cleanUpVPC: false,
      redundantVpcRouter: false,
    });
    for (const vpc of [...updated, restarted].filter((v) => v !== undefined)) {
      expect(vpc).toMatchObject({ getcIDR: "10.50.0.0/16" });
      expect(vpc).not.toHaveProperty("cIDR");
    }
    // The quirk is really on: the wire carried cIDR.
    const answer = await raw(world.quirked, `/restapi/vpc/vpcId?uuid=${got.ids.vpc}`);
    expect((answer.listVpcResponse as Record<string, unknown>[])[0]).toMatchObject({ cIDR: "10.50.0.0/16" });
  });
});

describe("cidr-as-cIDR: network and tier records carry cIDR", () => {
  const world = twoEmulators(["cidr-as-cIDR"]);

  test("every network and tier the caller reads carries getcIDR; the wire carried cIDR", async () => {
    const { client } = world.recorded;
    const ids = await discoverCatalog(client);
    const { zoneUuid } = ids;
    const network = await client.network.create({
      name: "cidr-network",
      zoneUuid,
      networkOfferingUuid: ids.networkOfferingUuid,
    });
    const updated = await client.network.update({ uuid: network.uuid, getcIDR: "10.1.9.0/24" });
    const listed = await client.network.list({ zoneUuid, uuid: network.uuid });
    const got = await client.network.get({ uuid: network.uuid });
    const restarted = await client.network.restart({ uuid: network.uuid, cleanUpNetwork: false });
    for (const record of [network, ...updated, ...listed, got, restarted]) {
      expect(record?.getcIDR).toMatch(/^10\.1\.\d+\.0\/24$/);
      expect(record).not.toHaveProperty("cIDR");
    }
    const vpc = await client.vpc.create({
      name: "cidr-vpc",
      zoneUuid,
      vpcOfferingUuid: ids.vpcOfferingUuid,
      getcIDR: "10.60.0.0/16",
    });
    const tier = await client.vpc.createTier({
      name: "cidr-tier",
      zoneUuid,
      vpcUuid: vpc.uuid,
      networkOfferingUuid: ids.tierOfferingUuid,
      gateway: "10.60.1.1",
      netmask: "255.255.255.0",
    });
    expect(tier).toMatchObject({ getcIDR: "10.60.1.0/24" });
    expect(tier).not.toHaveProperty("cIDR");
    // The quirk is really on: the wire carried cIDR, and no getcIDR.
    for (const uuid of [network.uuid, tier.uuid]) {
      const answer = await raw(world.quirked, `/restapi/network/networkId?uuid=${uuid}`);
      const record = (answer.listNetworkResponse as Record<string, unknown>[])[0];
      expect(record.cIDR).toMatch(/^10\.(1|60)\.\d+\.0\/24$/);
      expect(record).not.toHaveProperty("getcIDR");
    }
  });
});

describe("every spelling at once", () => {
  const world = twoEmulators(["kong-envelopes", "cidr-as-cIDR", "job-status-complete"]);

  test("the client answers as without any quirk", async () => {
    const expected = await scenario(world.reference.client);
    const got = await scenario(world.recorded.client);
    expect(comparable(got)).toEqual(comparable(expected));
    expect(world.recorded.lines).toEqual(expect.arrayContaining(KONG_LINES));
  });
});
