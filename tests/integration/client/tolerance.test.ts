/**
 * Tolerance of real deployments (api-notes.md), each against the emulator with the matching quirk
 * switched on: the client hands the caller the spec's shapes whatever the deployment does.
 */
import type { Quirk, RunningEmulator } from "../../../emulator/index";
import type { RestCloudClient } from "../../../provider/client";
import { clientFor, discoverCatalog, start, stats, type CatalogIds, type Recorded } from "./helpers";

interface World {
  emulator: RunningEmulator;
  recorded: Recorded;
  client: RestCloudClient;
  ids: CatalogIds;
}

/** An emulator with `quirks` for the tests of one describe block. */
function withQuirks(quirks: Quirk[]): World {
  const world = {} as World;
  beforeAll(async () => {
    world.emulator = await start({ quirks });
    world.recorded = clientFor(world.emulator);
    world.client = world.recorded.client;
    world.ids = await discoverCatalog(world.client);
  });
  afterAll(() => world.emulator.stop());
  return world;
}

const createVpc = (world: World, name: string, cidr = "10.30.0.0/16") =>
  world.client.vpc.create({
    name,
    zoneUuid: world.ids.zoneUuid,
    vpcOfferingUuid: world.ids.vpcOfferingUuid,
    getcIDR: cidr,
  });

describe("cidr-as-cIDR: the VPC CIDR arrives as cIDR", () => {
  const world = withQuirks(["cidr-as-cIDR"]);

  test("every VPC answer carries getcIDR, and only getcIDR", async () => {
    const created = await createVpc(world, "cidr");
    const listed = await world.client.vpc.list({ zoneUuid: world.ids.zoneUuid });
    const got = await world.client.vpc.get({ uuid: created.uuid });
    for (const vpc of [created, listed[0]!, got!]) {
      expect(vpc.getcIDR).toBe("10.30.0.0/16");
      expect(vpc).not.toHaveProperty("cIDR");
    }
    // The quirk is really on: the wire carried cIDR.
    const raw = await fetch(`${world.emulator.url}/restapi/vpc/vpcId?uuid=${created.uuid}`, {
      headers: { apikey: "demo-api-key", secretkey: "demo-secret-key" },
    });
    expect(JSON.stringify(await raw.json())).toContain('"cIDR"');
  });
});

describe("cluster-list-object: List Cluster answers one object", () => {
  const world = withQuirks(["cluster-list-object"]);

  test("the one object is read as a one-element array", async () => {
    const network = await world.client.network.create({
      name: "k8s-net",
      zoneUuid: world.ids.zoneUuid,
      networkOfferingUuid: world.ids.networkOfferingUuid,
    });
    const cluster = await world.client.kubernetes.create({
      name: "one",
      zoneUuid: world.ids.zoneUuid,
      kubernetesSupportedVersionUuid: world.ids.kubernetesVersionUuid,
      computeOfferingUuid: world.ids.nodeOfferingUuid,
      transNetworkUuid: network.uuid,
      size: 1,
    });
    const listed = await world.client.kubernetes.list({ clusterUuid: cluster.uuid });
    expect(listed).toEqual([expect.objectContaining({ uuid: cluster.uuid, name: "one" })]);
    expect(world.recorded.lines).toContain("listCluster: answered one object, not an array");
  });
});

describe("duplicate-list-records: volumeList returns each record twice", () => {
  const world = withQuirks(["duplicate-list-records"]);

  test("records are deduplicated by uuid and the debug log says so", async () => {
    const input = {
      zoneUuid: world.ids.zoneUuid,
      storageOfferingUuid: world.ids.storageOfferingUuid,
      diskSize: world.ids.diskSize,
    };
    const a = await world.client.volume.create({ name: "a", ...input });
    const b = await world.client.volume.create({ name: "b", ...input });
    const listed = await world.client.volume.list({ zoneUuid: world.ids.zoneUuid });
    expect(listed.map((v) => v.uuid).sort()).toEqual([a.uuid, b.uuid].sort());
    expect(world.recorded.lines).toContain("volumeList: dropped 2 duplicate record(s) (same uuid)");
  });
});

describe("lingering-deletes: a delete answers success while the record stays listed", () => {
  const world = withQuirks(["lingering-deletes"]);

  test("without confirmation the deleted VPC is still there: the quirk is on", async () => {
    const vpc = await createVpc(world, "lingers", "10.31.0.0/16");
    expect(await world.client.vpc.delete({ uuid: vpc.uuid }, { confirmGone: false })).toBe(true);
    expect(await world.client.vpc.get({ uuid: vpc.uuid })).toMatchObject({ uuid: vpc.uuid });
  });

  test("VPC, network, volume and security group deletes return only once the record is gone", async () => {
    const { client, ids } = world;
    const vpc = await createVpc(world, "gone", "10.32.0.0/16");
    const network = await client.network.create({
      name: "gone",
      zoneUuid: ids.zoneUuid,
      networkOfferingUuid: ids.networkOfferingUuid,
    });
    const volume = await client.volume.create({
      name: "gone",
      zoneUuid: ids.zoneUuid,
      storageOfferingUuid: ids.storageOfferingUuid,
      diskSize: ids.diskSize,
    });
    await client.waitForJob(volume.jobId!, { initialDelayMs: 10 });
    const group = await client.securityGroup.create({ name: "gone" });

    expect(await client.vpc.delete({ uuid: vpc.uuid })).toBe(true);
    expect(await client.vpc.get({ uuid: vpc.uuid })).toBeUndefined();
    expect(await client.network.delete({ uuid: network.uuid })).toBe(true);
    expect(await client.network.get({ uuid: network.uuid })).toBeUndefined();
    await client.volume.delete({ uuid: volume.uuid, zoneUuid: ids.zoneUuid });
    expect(await client.volume.list({ zoneUuid: ids.zoneUuid, uuid: volume.uuid })).toEqual([]);
    expect(await client.securityGroup.delete({ uuid: group.uuid })).toBe(true);
    expect(await client.securityGroup.list({ uuid: group.uuid })).toEqual([]);

    // The confirmation polled: each delete's lookup ran more than once.
    const counts = (await stats(world.emulator)).byOperation;
    expect(counts.vpcId).toBeGreaterThan(2);
    expect(counts.networkId).toBeGreaterThan(2);
  });
});

describe("numbers-as-strings: integer and number fields arrive as strings", () => {
  const world = withQuirks(["numbers-as-strings"]);

  test("records are coerced to the spec's types", async () => {
    const volume = await world.client.volume.create({
      name: "numbers",
      zoneUuid: world.ids.zoneUuid,
      storageOfferingUuid: world.ids.storageOfferingUuid,
      diskSize: world.ids.diskSize,
    });
    expect(typeof volume.createdTimeStamp).toBe("number");
    const [invoice] = await world.client.invoice.listByClient();
    expect(typeof invoice!.totalCost).toBe("number");
    expect(typeof invoice!.generatedDate).toBe("number");
    expect(typeof (await world.client.costEstimate.ipCost({ zoneUuid: world.ids.zoneUuid })).ipCost).toBe("number");
    const [zone] = await world.client.costEstimate.zones();
    expect(typeof zone!.isActive).toBe("boolean");
    // The quirk is really on: the wire carried a string.
    const raw = await fetch(`${world.emulator.url}/restapi/costestimate/ip-cost?zoneUuid=${world.ids.zoneUuid}`, {
      headers: { apikey: "demo-api-key", secretkey: "demo-secret-key" },
    });
    expect(typeof ((await raw.json()) as { ipCost: unknown }).ipCost).toBe("string");
  });
});

describe("delete-returns-object: deletes answer {} instead of true", () => {
  const world = withQuirks(["delete-returns-object"]);

  test("a delete answering {} is a success", async () => {
    const vpc = await createVpc(world, "object", "10.33.0.0/16");
    expect(await world.client.vpc.delete({ uuid: vpc.uuid })).toBe(true);
    const group = await world.client.securityGroup.create({ name: "object" });
    expect(await world.client.securityGroup.delete({ uuid: group.uuid })).toBe(true);
    expect(await world.client.securityGroup.list({ uuid: group.uuid })).toEqual([]);
  });
});

describe("tags-kong-envelope: the tags envelope is kongCreateTagsResponse", () => {
  const world = withQuirks(["tags-kong-envelope"]);

  test("tags are read from either key", async () => {
    const vpc = await createVpc(world, "tagged", "10.34.0.0/16");
    const tag = await world.client.resourceTag.create({
      resourceType: "Vpc",
      zoneUuid: world.ids.zoneUuid,
      resourceUuid: vpc.uuid,
      key: "team",
      value: "core",
    });
    expect(tag).toMatchObject({ key: "team", value: "core", resourceUuid: vpc.uuid });
    expect(await world.client.resourceTag.list({ resourceUuid: vpc.uuid })).toEqual([
      expect.objectContaining({ uuid: tag.uuid }),
    ]);
    expect(world.recorded.lines).toContain(
      "createTags: envelope key kongCreateTagsResponse (spec: svcCreateTagsResponse)",
    );
  });
});

describe("fields outside the spec", () => {
  const world = withQuirks([]);

  test("pass through untouched (loose records)", async () => {
    const network = await world.client.network.create({
      name: "extra",
      zoneUuid: world.ids.zoneUuid,
      networkOfferingUuid: world.ids.networkOfferingUuid,
    });
    const group = await world.client.securityGroup.create({ name: "extra" });
    await world.client.network.changeSecurityGroup({ uuid: network.uuid, securityGroupId: group.uuid });
    // securityGroupUuid is not a field of the spec's Network record; the emulator adds it.
    const read = (await world.client.network.get({ uuid: network.uuid })) as Record<string, unknown>;
    expect(read.securityGroupUuid).toBe(group.uuid);
  });
});
