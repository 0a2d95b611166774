/**
 * What the console shows as each record's owner, over HTTP: GET /_emulator/owners reads the
 * `pulumi-owner` tags of records made through the REST API (the demo account's keys) and answers,
 * per record, its owner (stack, project, type, logical name; a shortened URN without the name), "no
 * owner", the record it belongs to, or "not taggable", and the list of records no stack owns.
 * The page that renders it is driven in a real browser by tests/e2e/console/owners.test.ts.
 */
import { CONSOLE_HTML } from "../../../emulator/console/index";
import { parseOwner } from "../../../emulator/control/owners";
import { request, useEmulator, type Json } from "../emulator/helpers";
import { buildScenario, OWNER_KEY, shortenUrn, tag, URNS, type Scenario } from "./owners-scenario";

const emulator = useEmulator();
let world: Scenario;

const owners = async (account = "demo"): Promise<Json> => {
  const reply = await request(emulator, "GET", `/_emulator/owners?account=${account}`, undefined, {});
  expect(reply.status).toBe(200);
  return reply.body as Json;
};

beforeAll(async () => {
  world = await buildScenario(emulator);
});

describe("GET /_emulator/owners", () => {
  it("shows the owner of each tagged record: stack, project, type and logical name of its URN", async () => {
    const { records } = await owners();
    expect(records.vpc[world.vpc.uuid]).toEqual({
      ownership: "owned",
      owner: {
        value: URNS.vpc,
        readable: true,
        stack: "dev",
        project: "shop",
        type: "pulumi-nodejs:dynamic/restcloud:Vpc",
        name: "net",
        shortened: false,
      },
    });
    expect(records.network[world.backend.uuid].owner).toMatchObject({
      stack: "app-1",
      project: "shop",
      type: "restcloud:index:Network",
      name: "backend",
    });
    expect(records.instance[world.web1.uuid]).toEqual({
      ownership: "owned",
      owner: expect.objectContaining({ stack: "app-1", project: "shop", name: "web-1" }),
      parent: { kind: "network", uuid: world.backend.uuid, name: "backend" },
    });
  });

  it("reads a shortened URN: stack, project and type, no logical name", async () => {
    const { records } = await owners();
    expect(world.shortenedValue).toHaveLength(255);
    expect(records.ipaddress[world.ownedIp.uuid]).toEqual({
      ownership: "owned",
      owner: {
        value: world.shortenedValue,
        readable: true,
        stack: "app-1",
        project: "shop",
        type: "restcloud:index:PublicIpAddress",
        shortened: true,
      },
      parent: { kind: "network", uuid: world.backend.uuid, name: "backend" },
    });
  });

  it("lists the records of taggable kinds no stack owns, by kind, with name, uuid and parent", async () => {
    const view = await owners();
    expect(view.unowned).toEqual([
      { kind: "network", resourceType: "Network", uuid: world.k8sNet.uuid, name: "k8s-net" },
      {
        kind: "network",
        resourceType: "Network",
        uuid: world.tier.uuid,
        name: "web-tier",
        parent: { kind: "vpc", uuid: world.vpc.uuid, name: "net" },
      },
      { kind: "volume", resourceType: "Volume", uuid: world.scratch.uuid, name: "scratch" },
      {
        kind: "ipaddress",
        resourceType: "PublicIpAddress",
        uuid: world.looseIp.uuid,
        name: world.looseIp.publicIpAddress,
        parent: { kind: "network", uuid: world.backend.uuid, name: "backend" },
      },
      {
        kind: "firewallrule",
        resourceType: "FirewallRule",
        uuid: world.looseRule.uuid,
        name: "TCP 443",
        parent: { kind: "ipaddress", uuid: world.looseIp.uuid, name: world.looseIp.publicIpAddress },
      },
    ]);
    for (const record of view.unowned as Json[]) {
      expect(view.records[record.kind][record.uuid].ownership).toBe("unowned");
    }
    expect(view.counts.unowned).toBe(5);
  });

  it("shows derived records as their parent's, and the kinds the API cannot tag as not taggable", async () => {
    const { records } = await owners();
    expect(records.volume[world.rootOfWeb1.uuid]).toEqual({
      ownership: "derived",
      parent: { kind: "instance", uuid: world.web1.uuid, name: "web-1" },
      why: "the instance's ROOT volume",
    });
    expect(records.volume[world.dataOfWeb1.uuid]).toMatchObject({
      ownership: "derived",
      parent: { kind: "instance", uuid: world.web1.uuid },
    });
    for (const node of world.nodes) {
      expect(records.instance[node.uuid]).toEqual({
        ownership: "derived",
        parent: { kind: "cluster", uuid: world.cluster.uuid, name: "kube" },
        why: "a node of the Kubernetes cluster",
      });
    }
    const nodeRoots = Object.entries(records.volume as Record<string, Json>).filter(([, o]) =>
      world.nodes.some((n) => n.uuid === o.parent?.uuid),
    );
    expect(nodeRoots).toHaveLength(world.nodes.length);
    expect(nodeRoots.every(([, o]) => o.ownership === "derived")).toBe(true);

    expect(records.egressrule[world.egress.uuid]).toEqual({
      ownership: "not-taggable",
      parent: { kind: "network", uuid: world.backend.uuid, name: "backend" },
    });
    expect(records.securitygroup[world.securityGroup.uuid]).toEqual({ ownership: "not-taggable" });
    expect(records.cluster[world.cluster.uuid]).toEqual({
      ownership: "not-taggable",
      parent: { kind: "network", uuid: world.k8sNet.uuid, name: "k8s-net" },
    });
    expect(Object.values(records.tag as Record<string, Json>).every((o) => o.ownership === "not-taggable")).toBe(true);
  });

  it("follows the tags: a claim takes a record off the list, a deleted tag puts it back", async () => {
    const claim = await tag(
      emulator,
      "Volume",
      world.scratch.uuid,
      OWNER_KEY,
      "urn:pulumi:ci::shop::restcloud:index:Volume::scratch",
    );
    const again = await request(
      emulator,
      "POST",
      `/restapi/resourcetags/createTags?resourceType=Volume&zoneUuid=${world.scratch.zoneUuid}`,
      { resourceUuid: world.scratch.uuid, key: OWNER_KEY, value: "urn:pulumi:other::shop::restcloud:index:Volume::x" },
    );
    expect(again.status).toBe(409); // one claim per record
    let view = await owners();
    expect(view.records.volume[world.scratch.uuid].owner).toMatchObject({ stack: "ci", name: "scratch" });
    expect((view.unowned as Json[]).map((u) => u.uuid)).not.toContain(world.scratch.uuid);

    await request(emulator, "DELETE", `/restapi/resourcetags/deleteResourceTag/${claim.uuid}`);
    view = await owners();
    expect(view.records.volume[world.scratch.uuid]).toEqual({ ownership: "unowned" });
    expect((view.unowned as Json[]).map((u) => u.uuid)).toContain(world.scratch.uuid);
  });

  it("answers per account, and 404 for an unknown account", async () => {
    expect(await owners("admin")).toMatchObject({ account: "admin", records: {}, unowned: [] });
    const reply = await request(emulator, "GET", "/_emulator/owners?account=nobody", undefined, {});
    expect(reply.status).toBe(404);
    expect(reply.body.error).toMatch(/nobody/);
  });
});

describe("reading a pulumi-owner value", () => {
  it.each([
    ["a full URN", URNS.network, { stack: "app-1", project: "shop", type: "restcloud:index:Network", name: "backend" }],
    [
      "a child's URN (parent types joined by $), a name with ::",
      "urn:pulumi:dev::shop::restcloud:index:Vpc$restcloud:index:VpcTier::a::b",
      { stack: "dev", project: "shop", type: "restcloud:index:Vpc$restcloud:index:VpcTier", name: "a::b" },
    ],
    [
      "a shortened URN cut in the name",
      shortenUrn(URNS.longIp),
      { stack: "app-1", project: "shop", type: "restcloud:index:PublicIpAddress" },
    ],
    [
      "a shortened URN cut in the type",
      shortenUrn(`urn:pulumi:dev::${"p".repeat(200)}::restcloud:index:Network::${"n".repeat(40)}`),
      { stack: "dev", project: "p".repeat(200) },
    ],
  ])("%s", (_what, value, expected) => {
    const owner = parseOwner(value);
    expect(owner).toEqual({ value, readable: true, shortened: value.length === 255, ...expected });
  });

  it("marks a value that is no URN as unreadable", () => {
    expect(parseOwner("hand-made")).toEqual({ value: "hand-made", readable: false, shortened: false });
  });
});

describe("the page", () => {
  it("has the panel of records no stack owns and reads the owners endpoint", () => {
    expect(CONSOLE_HTML).toContain('id="unowned-panel"');
    expect(CONSOLE_HTML).toContain("Records no stack owns");
    expect(CONSOLE_HTML).toContain('"owners?account="');
  });
});
