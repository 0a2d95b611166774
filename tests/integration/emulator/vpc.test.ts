import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import {
  asyncDelays,
  createNetwork,
  errorOf,
  tierInput as baseTierInput,
  useEmulator,
  vpcInput as baseVpcInput,
  ZONE,
  type Json,
} from "./helpers";

const MUMBAI = CATALOG_IDS.zones.mumbai;
const TIER_OFFERING = CATALOG_IDS.networkOfferings.vpcTier;

const emulator = useEmulator();
const { call } = emulator;

/** The VPC "web" of 10.10.0.0/16, and its tier "app" of 10.10.1.0/24. */
const vpcInput = (overrides: Json = {}) => baseVpcInput({ name: "web", getcIDR: "10.10.0.0/16", ...overrides });
const createVpc = (overrides: Json = {}) => emulator.one("POST", "/restapi/vpc/createVpc", vpcInput(overrides));
const tierInput = (vpcUuid: unknown, overrides: Json = {}) =>
  baseTierInput(vpcUuid, { name: "app", zoneUuid: ZONE, gateway: "10.10.1.1", ...overrides });

beforeEach(async () => {
  await emulator.reset();
});

describe("createVpc", () => {
  it("creates an active VPC and answers its envelope with every spec field", async () => {
    const reply = await call("POST", "/restapi/vpc/createVpc", vpcInput({ description: "front end" }));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      count: 1,
      listVpcResponse: [
        {
          uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: "web",
          description: "front end",
          getcIDR: "10.10.0.0/16",
          zoneUuid: ZONE,
          zoneName: "Frankfurt 1",
          domainName: "demo",
          status: "Active",
          isActive: true,
        },
      ],
    });
  });

  it("defaults the description to the name", async () => {
    expect(await createVpc()).toMatchObject({ description: "web" });
  });

  it.each(["name", "zoneUuid", "vpcOfferingUuid", "getcIDR"])("requires %s", async (field) => {
    const input: Json = vpcInput();
    delete input[field];
    const reply = await call("POST", "/restapi/vpc/createVpc", input);
    expect(reply.status).toBe(400);
    expect(errorOf(reply).errorCode).toBe("MISSING_PARAMETER");
    expect(errorOf(reply).errorMsg).toContain(field === "getcIDR" ? "cIDR" : field);
  });

  it("accepts the CIDR as cIDR too", async () => {
    const input: Json = vpcInput({ cIDR: "192.168.0.0/20" });
    delete input.getcIDR;
    const reply = await call("POST", "/restapi/vpc/createVpc", input);
    expect(reply.status).toBe(200);
    expect((reply.body.listVpcResponse as Json[])[0].getcIDR).toBe("192.168.0.0/20");
  });

  it.each([
    ["not a CIDR", "ten-dot-zero"],
    ["host bits set", "10.10.0.1/16"],
    ["a public block", "8.8.0.0/16"],
    ["too large", "10.0.0.0/8"],
    ["too small", "10.0.0.0/29"],
    ["a bad octet", "10.300.0.0/16"],
  ])("rejects a CIDR that is %s with 400 naming getcIDR", async (_label, cidr) => {
    const reply = await call("POST", "/restapi/vpc/createVpc", vpcInput({ getcIDR: cidr }));
    expect(reply.status).toBe(400);
    expect(errorOf(reply).errorCode).toBe("INVALID_PARAMETER");
    expect(errorOf(reply).errorMsg).toMatch(/^getcIDR: /);
  });

  it("answers 404 for an unknown zone or offering, 400 for an offering the zone lacks", async () => {
    const zone = await call("POST", "/restapi/vpc/createVpc", vpcInput({ zoneUuid: "no-zone" }));
    expect([zone.status, errorOf(zone).errorMsg]).toEqual([404, "zone no-zone does not exist"]);
    const offering = await call("POST", "/restapi/vpc/createVpc", vpcInput({ vpcOfferingUuid: "no-offering" }));
    expect([offering.status, errorOf(offering).errorMsg]).toEqual([404, "VPC offering no-offering does not exist"]);
    const lacking = await call(
      "POST",
      "/restapi/vpc/createVpc",
      vpcInput({ zoneUuid: MUMBAI, vpcOfferingUuid: CATALOG_IDS.vpcOfferings.redundant }),
    );
    expect(lacking.status).toBe(400);
    expect(errorOf(lacking).errorMsg).toMatch(/^vpcOfferingUuid: /);
    const all = await call("GET", "/_emulator/resources?account=demo");
    expect(all.body.vpc ?? {}).toEqual({});
  });
});

describe("vpcList and vpcId", () => {
  it("lists the VPCs of a zone, filtered by uuid", async () => {
    const a = await createVpc({ name: "a" });
    await createVpc({ name: "b" });
    await createVpc({ name: "c", zoneUuid: MUMBAI });
    const all = await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`);
    expect(all.body.count).toBe(2);
    expect((all.body.listVpcResponse as Json[]).map((v) => v.name).sort()).toEqual(["a", "b"]);
    const one = await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}&uuid=${String(a.uuid)}`);
    expect(one.body).toEqual({ count: 1, listVpcResponse: [a] });
    const none = await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}&uuid=nothing`);
    expect(none.body).toEqual({ count: 0, listVpcResponse: [] });
  });

  it("requires zoneUuid", async () => {
    const reply = await call("GET", "/restapi/vpc/vpcList");
    expect([reply.status, errorOf(reply).errorMsg]).toEqual([400, "zoneUuid: is required"]);
  });

  it("reads one VPC by uuid, 404 for an unknown one", async () => {
    const vpc = await createVpc();
    expect((await call("GET", `/restapi/vpc/vpcId?uuid=${String(vpc.uuid)}`)).body).toEqual({
      count: 1,
      listVpcResponse: [vpc],
    });
    const missing = await call("GET", "/restapi/vpc/vpcId?uuid=nothing");
    expect([missing.status, errorOf(missing).errorCode]).toEqual([404, "NOT_FOUND"]);
  });
});

describe("updateVpc", () => {
  it("answers 202 with the current record and shows the change after the async delay", async () => {
    const vpc = await createVpc();
    const reply = await call("PUT", "/restapi/vpc/updateVpc", { uuid: vpc.uuid, name: "web2", description: "d2" });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({ count: 1, listVpcResponse: [vpc] });
    await asyncDelays(3);
    const read = await call("GET", `/restapi/vpc/vpcId?uuid=${String(vpc.uuid)}`);
    expect((read.body.listVpcResponse as Json[])[0]).toMatchObject({ name: "web2", description: "d2" });
  });

  it("answers 404 for an unknown VPC and 400 without uuid", async () => {
    expect((await call("PUT", "/restapi/vpc/updateVpc", { uuid: "nothing", name: "x" })).status).toBe(404);
    expect((await call("PUT", "/restapi/vpc/updateVpc", { name: "x" })).status).toBe(400);
  });

  it("does not resurrect a VPC deleted before the update applied", async () => {
    const vpc = await createVpc();
    await call("PUT", "/restapi/vpc/updateVpc", { uuid: vpc.uuid, name: "late" });
    expect((await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`)).body).toBe(true);
    await asyncDelays(3);
    expect((await call("GET", `/restapi/vpc/vpcId?uuid=${String(vpc.uuid)}`)).status).toBe(404);
  });
});

describe("restartVpc", () => {
  it("passes through Restarting back to Active", async () => {
    const vpc = await createVpc();
    const path = `/restapi/vpc/restartVpc?uuid=${String(vpc.uuid)}&cleanUpVPC=true&redundantVpcRouter=false`;
    const reply = await call("GET", path);
    expect(reply.status).toBe(200);
    expect((reply.body.listVpcResponse as Json[])[0].status).toBe("Restarting");
    await asyncDelays(3);
    const read = await call("GET", `/restapi/vpc/vpcId?uuid=${String(vpc.uuid)}`);
    expect((read.body.listVpcResponse as Json[])[0].status).toBe("Active");
  });

  it("requires its booleans", async () => {
    const vpc = await createVpc();
    const missing = await call("GET", `/restapi/vpc/restartVpc?uuid=${String(vpc.uuid)}&cleanUpVPC=true`);
    expect([missing.status, errorOf(missing).errorMsg]).toEqual([400, "redundantVpcRouter: is required"]);
    const bad = await call(
      "GET",
      `/restapi/vpc/restartVpc?uuid=${String(vpc.uuid)}&cleanUpVPC=yes&redundantVpcRouter=false`,
    );
    expect([bad.status, errorOf(bad).errorMsg]).toEqual([400, "cleanUpVPC: must be true or false"]);
  });
});

describe("VPC tiers", () => {
  it("creates a tier as a Network record inside the VPC", async () => {
    const vpc = await createVpc();
    const reply = await call("POST", "/restapi/vpc/createVpcNetwork", tierInput(vpc.uuid, { aclUuid: "acl-1" }));
    expect(reply.status).toBe(200);
    expect(reply.body.count).toBe(1);
    const tier = (reply.body.listNetworkResponse as Json[])[0];
    expect(tier).toMatchObject({
      name: "app",
      vpcUuid: vpc.uuid,
      zoneUuid: ZONE,
      networkOfferingUuid: TIER_OFFERING,
      getcIDR: "10.10.1.0/24",
      gateway: "10.10.1.1",
      networkAclList: "acl-1",
      cleanUpNetwork: false,
      status: "Active",
      isActive: true,
    });
    for (const field of ["uuid", "domainName", "name", "networkType", "networkDomain"]) {
      expect(typeof tier[field]).toBe("string");
    }
    const listed = await call("GET", `/restapi/network/networkList?zoneUuid=${ZONE}&uuid=${String(tier.uuid)}`);
    expect(listed.body).toEqual({ count: 1, listNetworkResponse: [tier] });
  });

  it("takes the zone from the VPC when none is given", async () => {
    const vpc = await createVpc();
    const input: Json = tierInput(vpc.uuid);
    delete input.zoneUuid;
    const reply = await call("POST", "/restapi/vpc/createVpcNetwork", input);
    expect((reply.body.listNetworkResponse as Json[])[0].zoneUuid).toBe(ZONE);
  });

  it.each([
    ["outside the VPC", { gateway: "10.20.1.1" }, 400, /^gateway: /],
    ["with a bad netmask", { netmask: "255.0.255.0" }, 400, /^netmask: /],
    ["with a too small netmask", { netmask: "255.255.255.252" }, 400, /^netmask: /],
    ["with the network address as gateway", { gateway: "10.10.1.0" }, 400, /^gateway: /],
    ["with a gateway that is no address", { gateway: "gw" }, 400, /^gateway: /],
    ["with a non-tier offering", { networkOfferingUuid: CATALOG_IDS.networkOfferings.isolated }, 400, /^networkOff/],
    ["with an unknown offering", { networkOfferingUuid: "nothing" }, 404, /^network offering nothing/],
    ["in another zone than its VPC", { zoneUuid: MUMBAI }, 400, /^zoneUuid: /],
    ["in an unknown VPC", { vpcUuid: "nothing" }, 404, /^VPC nothing/],
  ])("rejects a tier %s", async (_label, overrides, status, message) => {
    const vpc = await createVpc();
    const reply = await call("POST", "/restapi/vpc/createVpcNetwork", tierInput(vpc.uuid, overrides));
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toMatch(message);
  });

  it("answers 409 for a tier overlapping a sibling, and allows the same block in another VPC", async () => {
    const vpc = await createVpc();
    const other = await createVpc({ name: "other" });
    expect((await call("POST", "/restapi/vpc/createVpcNetwork", tierInput(vpc.uuid))).status).toBe(200);
    const overlapping = await call(
      "POST",
      "/restapi/vpc/createVpcNetwork",
      tierInput(vpc.uuid, { gateway: "10.10.0.1", netmask: "255.255.0.0" }),
    );
    expect([overlapping.status, errorOf(overlapping).errorCode]).toEqual([409, "CONFLICT"]);
    expect((await call("POST", "/restapi/vpc/createVpcNetwork", tierInput(other.uuid))).status).toBe(200);
  });

  it("updates a tier with 202, visible after the async delay", async () => {
    const vpc = await createVpc();
    const created = await call("POST", "/restapi/vpc/createVpcNetwork", tierInput(vpc.uuid));
    const tier = (created.body.listNetworkResponse as Json[])[0];
    const reply = await call("PUT", "/restapi/vpc/updateVpcNetwork", { uuid: tier.uuid, name: "app2" });
    expect(reply.status).toBe(202);
    expect((reply.body.listNetworkResponse as Json[])[0].name).toBe("app");
    await asyncDelays(3);
    const read = await call("GET", `/restapi/network/networkId?uuid=${String(tier.uuid)}`);
    expect((read.body.listNetworkResponse as Json[])[0].name).toBe("app2");
  });

  it("answers 404 when updateVpcNetwork names a network that is no tier", async () => {
    const { uuid } = await createNetwork(emulator, { name: "plain" });
    const reply = await call("PUT", "/restapi/vpc/updateVpcNetwork", { uuid, name: "x" });
    expect([reply.status, errorOf(reply).errorMsg]).toEqual([404, `VPC tier ${String(uuid)} does not exist`]);
  });
});

describe("deleteVpc", () => {
  it("answers 409 while a tier exists, then true once it is gone, then 404", async () => {
    const vpc = await createVpc();
    const created = await call("POST", "/restapi/vpc/createVpcNetwork", tierInput(vpc.uuid));
    const tier = (created.body.listNetworkResponse as Json[])[0];
    const blocked = await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`);
    expect([blocked.status, errorOf(blocked).errorCode]).toEqual([409, "CONFLICT"]);
    expect(errorOf(blocked).errorMsg).toContain("1 network");
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${String(tier.uuid)}`)).body).toBe(true);
    const deleted = await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`);
    expect([deleted.status, deleted.body]).toEqual([200, true]);
    expect((await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`)).status).toBe(404);
    expect((await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`)).body.count).toBe(0);
  });

  it("answers 409 while any record of another area refers to the VPC (a VPN connection)", async () => {
    const vpc = await createVpc();
    emulator.scope("demo").collection("vpnconnection")["c-1"] = { uuid: "c-1", vpcUuid: vpc.uuid, status: "Active" };
    const blocked = await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`);
    expect(blocked.status).toBe(409);
    expect(errorOf(blocked).errorMsg).toContain("vpnconnection");
  });
});
