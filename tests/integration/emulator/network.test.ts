import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import {
  acquireIp,
  asyncDelays,
  createNetwork,
  createVpcWithTier,
  errorOf,
  networkInput,
  seed,
  useEmulator,
  ZONE,
  type Json,
} from "./helpers";

const SINGAPORE = CATALOG_IDS.zones.singapore;
const { isolated: ISOLATED, shared: SHARED, vpcTier: TIER_OFFERING } = CATALOG_IDS.networkOfferings;

const emulator = useEmulator();
const { call } = emulator;

const first = (reply: { body: Json }) => (reply.body.listNetworkResponse as Json[])[0];
const createTier = async () => (await createVpcWithTier(emulator)).tier;

beforeEach(async () => {
  await emulator.reset();
});

describe("createNetwork", () => {
  it("creates a network with the next free 10.1.N.0/24 and its gateway", async () => {
    const reply = await call("POST", "/restapi/network/createNetwork", networkInput());
    expect(reply.status).toBe(200);
    expect(reply.body.count).toBe(1);
    expect(first(reply)).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "backend",
      description: "backend",
      zoneUuid: ZONE,
      networkOfferingUuid: ISOLATED,
      getcIDR: "10.1.1.0/24",
      gateway: "10.1.1.1",
      networkType: "Isolated",
      networkAclList: "",
      networkDomain: "demo.restcloud.internal",
      domainName: "demo",
      cleanUpNetwork: false,
      status: "Active",
      isActive: true,
    });
    expect(await createNetwork(emulator)).toMatchObject({ getcIDR: "10.1.2.0/24", gateway: "10.1.2.1" });
  });

  it("reads isPublic and securityGroupUuid from the query and checks the security group", async () => {
    seed(emulator, "securitygroup", { uuid: "sg-1", name: "web" });
    const network = await emulator.one(
      "POST",
      "/restapi/network/createNetwork?isPublic=true&securityGroupUuid=sg-1",
      networkInput(),
    );
    expect(network.securityGroupUuid).toBe("sg-1");
    const unknown = await call("POST", "/restapi/network/createNetwork?securityGroupUuid=sg-2", networkInput());
    expect([unknown.status, errorOf(unknown).errorMsg]).toEqual([404, "security group sg-2 does not exist"]);
    const badFlag = await call("POST", "/restapi/network/createNetwork?isPublic=maybe", networkInput());
    expect([badFlag.status, errorOf(badFlag).errorMsg]).toEqual([400, "isPublic: must be true or false"]);
  });

  it.each(["name", "zoneUuid", "networkOfferingUuid"])("requires %s", async (field) => {
    const input: Json = networkInput();
    delete input[field];
    const reply = await call("POST", "/restapi/network/createNetwork", input);
    expect([reply.status, errorOf(reply).errorMsg]).toEqual([400, `${field}: is required`]);
  });

  it.each([
    ["an unknown zone", { zoneUuid: "nowhere" }, 404, "zone nowhere does not exist"],
    ["an unknown offering", { networkOfferingUuid: "nothing" }, 404, "network offering nothing does not exist"],
    ["a VPC tier offering", { networkOfferingUuid: TIER_OFFERING }, 400, "networkOfferingUuid: "],
    ["an offering the zone lacks", { zoneUuid: SINGAPORE, networkOfferingUuid: SHARED }, 400, "networkOfferingUuid: "],
    ["an unknown instance", { virtualmachineUuid: "vm-x" }, 404, "instance vm-x does not exist"],
  ])("rejects %s", async (_label, overrides, status, message) => {
    const reply = await call("POST", "/restapi/network/createNetwork", networkInput(overrides));
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toContain(message);
    expect((await call("GET", "/_emulator/resources?account=demo")).body.network ?? {}).toEqual({});
  });
});

describe("networkList and networkId", () => {
  it("lists a zone's networks and tiers, filtered by uuid", async () => {
    const a = await createNetwork(emulator, { name: "a" });
    const tier = await createTier();
    await createNetwork(emulator, { name: "elsewhere", zoneUuid: SINGAPORE });
    const all = await call("GET", `/restapi/network/networkList?zoneUuid=${ZONE}`);
    expect(all.body.count).toBe(2);
    expect((all.body.listNetworkResponse as Json[]).map((n) => n.uuid).sort()).toEqual([a.uuid, tier.uuid].sort());
    const one = await call("GET", `/restapi/network/networkList?zoneUuid=${ZONE}&uuid=${String(a.uuid)}`);
    expect(one.body).toEqual({ count: 1, listNetworkResponse: [a] });
    expect((await call("GET", "/restapi/network/networkList")).status).toBe(400);
  });

  it("reads one network, 404 for an unknown one", async () => {
    const a = await createNetwork(emulator);
    expect((await call("GET", `/restapi/network/networkId?uuid=${String(a.uuid)}`)).body).toEqual({
      count: 1,
      listNetworkResponse: [a],
    });
    expect((await call("GET", "/restapi/network/networkId?uuid=nothing")).status).toBe(404);
  });
});

describe("updateNetwork", () => {
  it("answers 202 with the current record; name, description and CIDR change after the async delay", async () => {
    const network = await createNetwork(emulator);
    const reply = await call("PUT", "/restapi/network/updateNetwork", {
      uuid: network.uuid,
      name: "renamed",
      description: "d",
      getcIDR: "172.16.4.0/22",
      networkDomain: "corp.example",
    });
    expect(reply.status).toBe(202);
    expect(first(reply)).toEqual(network);
    await asyncDelays(3);
    const read = await call("GET", `/restapi/network/networkId?uuid=${String(network.uuid)}`);
    expect(first(read)).toMatchObject({
      name: "renamed",
      description: "d",
      getcIDR: "172.16.4.0/22",
      gateway: "172.16.4.1",
      networkDomain: "corp.example",
    });
  });

  it("rejects a public CIDR, a tier's CIDR change, and a CIDR that leaves instances outside", async () => {
    const network = await createNetwork(emulator);
    const bad = await call("PUT", "/restapi/network/updateNetwork", { uuid: network.uuid, getcIDR: "1.2.3.0/24" });
    expect([bad.status, errorOf(bad).errorMsg]).toEqual([400, "getcIDR: 1.2.3.0/24 is not a private (RFC 1918) block"]);
    const tier = await createTier();
    const fixed = await call("PUT", "/restapi/network/updateNetwork", { uuid: tier.uuid, getcIDR: "10.9.0.0/24" });
    expect(fixed.status).toBe(400);
    seed(emulator, "instance", { uuid: "vm-1", networkUuid: network.uuid, instancePrivateIp: "10.1.1.5" });
    const stranding = await call("PUT", "/restapi/network/updateNetwork", {
      uuid: network.uuid,
      getcIDR: "10.2.0.0/24",
    });
    expect(stranding.status).toBe(409);
    expect((await call("PUT", "/restapi/network/updateNetwork", { uuid: "nothing", name: "x" })).status).toBe(404);
  });
});

describe("restartNetwork, replaceAcl, changeSecurityGroup", () => {
  it("restarts through Restarting back to Active and records cleanUpNetwork", async () => {
    const network = await createNetwork(emulator);
    const path = `/restapi/network/restartNetwork?uuid=${String(network.uuid)}&cleanUpNetwork=true`;
    expect(first(await call("GET", path))).toMatchObject({ status: "Restarting", cleanUpNetwork: true });
    await asyncDelays(3);
    const read = await call("GET", `/restapi/network/networkId?uuid=${String(network.uuid)}`);
    expect(first(read)).toMatchObject({ status: "Active", cleanUpNetwork: true });
    const missing = await call("GET", `/restapi/network/restartNetwork?uuid=${String(network.uuid)}`);
    expect([missing.status, errorOf(missing).errorMsg]).toEqual([400, "cleanUpNetwork: is required"]);
  });

  it("replaces a tier's ACL (opaque uuid) and refuses one on a plain network", async () => {
    const tier = await createTier();
    const reply = await call("GET", `/restapi/network/replaceAcl?uuid=${String(tier.uuid)}&aclUuid=acl-9`);
    expect(first(reply).networkAclList).toBe("acl-9");
    const network = await createNetwork(emulator);
    const refused = await call("GET", `/restapi/network/replaceAcl?uuid=${String(network.uuid)}&aclUuid=acl-9`);
    expect(refused.status).toBe(400);
    expect((await call("GET", `/restapi/network/replaceAcl?uuid=${String(tier.uuid)}`)).status).toBe(400);
  });

  it("records the security group, accepting an integer id as the spec types it", async () => {
    const network = await createNetwork(emulator);
    const base = `/restapi/network/changeSecurityGroup?uuid=${String(network.uuid)}`;
    expect(first(await call("GET", `${base}&securityGroupId=42`)).securityGroupUuid).toBe("42");
    seed(emulator, "securitygroup", { uuid: "sg-7" });
    expect(first(await call("GET", `${base}&securityGroupId=sg-7`)).securityGroupUuid).toBe("sg-7");
    expect((await call("GET", `${base}&securityGroupId=sg-8`)).status).toBe(404);
    expect((await call("GET", base)).status).toBe(400);
  });
});

describe("deleteNetwork", () => {
  it("answers 409 while an instance, an IP address or a rule uses the network", async () => {
    const network = await createNetwork(emulator);
    const path = `/restapi/network/deleteNetwork/${String(network.uuid)}`;
    seed(emulator, "instance", { uuid: "vm-1", networkUuid: network.uuid });
    const byInstance = await call("DELETE", path);
    expect([byInstance.status, errorOf(byInstance).errorMsg]).toEqual([
      409,
      `network ${String(network.uuid)} is in use (1 instance); delete those first`,
    ]);
    delete emulator.scope("demo").collection("instance")["vm-1"];
    const ipUuid = (await acquireIp(emulator, network.uuid)).uuid;
    expect((await call("DELETE", path)).status).toBe(409);
    expect((await call("DELETE", `/restapi/ipaddress/releaseIpAddress?uuid=${String(ipUuid)}`)).body).toBe(true);
    seed(emulator, "egressrule", { uuid: "eg-1", networkUuid: network.uuid });
    expect((await call("DELETE", path)).status).toBe(409);
    delete emulator.scope("demo").collection("egressrule")["eg-1"];
    seed(emulator, "cluster", { uuid: "k-1", networkUuid: network.uuid });
    expect((await call("DELETE", path)).status).toBe(409);
    delete emulator.scope("demo").collection("cluster")["k-1"];
    expect(await call("DELETE", path)).toEqual({ status: 200, body: true });
    expect((await call("DELETE", path)).status).toBe(404);
  });
});
