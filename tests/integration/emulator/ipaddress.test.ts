import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import {
  acquireIp,
  ADMIN,
  createNetwork as newNetwork,
  createVpcWithTier,
  DEMO,
  errorOf,
  seed,
  useEmulator,
} from "./helpers";

const { frankfurt: ZONE, singapore: SINGAPORE, mumbai: MUMBAI } = CATALOG_IDS.zones;

const emulator = useEmulator();
const { call } = emulator;

const createNetwork = (zoneUuid = ZONE, headers = DEMO) => newNetwork(emulator, { name: "n", zoneUuid }, headers);
const acquire = (networkUuid: unknown, networkType = "NETWORK", headers = DEMO) =>
  acquireIp(emulator, networkUuid, networkType, headers);

/** An instance of the instance area, put straight into the account. */
const seedInstance = (uuid: string, networkUuid: unknown) =>
  seed(emulator, "instance", { uuid, name: `vm-${uuid}`, displayName: `vm-${uuid}`, networkUuid });

const release = (uuid: unknown) => call("DELETE", `/restapi/ipaddress/releaseIpAddress?uuid=${String(uuid)}`);
const enableNat = (ipAddressUuid: unknown, vmUuid: string, networkUuid?: unknown) =>
  call("POST", "/restapi/ipaddress/enableStaticNat", { ipAddressUuid, vmUuid, networkUuid });

beforeEach(async () => {
  await emulator.reset();
});

describe("acquireIpAddress", () => {
  it("acquires an address of the zone's pool for a network", async () => {
    const network = await createNetwork();
    const reply = await call(
      "GET",
      `/restapi/ipaddress/acquireIpAddress?networkUuid=${String(network.uuid)}&networkType=NETWORK`,
    );
    expect(reply.body).toEqual({
      count: 1,
      listIpAddressResponse: [
        {
          uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          publicIpAddress: "203.0.113.2",
          zoneUuid: ZONE,
          zoneName: "Frankfurt 1",
          networkUuid: network.uuid,
          isSourcenat: false,
          state: "Allocated",
          status: "Active",
          isActive: true,
        },
      ],
    });
    expect((await acquire(network.uuid)).publicIpAddress).toBe("203.0.113.3");
  });

  it("uses one pool per zone", async () => {
    expect((await acquire((await createNetwork(SINGAPORE)).uuid)).publicIpAddress).toBe("198.51.100.2");
    expect((await acquire((await createNetwork(MUMBAI)).uuid)).publicIpAddress).toBe("192.0.2.2");
  });

  it("acquires for a VPC", async () => {
    const { vpc } = await createVpcWithTier(emulator);
    expect(await acquire(vpc.uuid, "VPC")).toMatchObject({ networkUuid: vpc.uuid, vpcUuid: vpc.uuid });
  });

  it("shares the pools across accounts without handing out an address twice", async () => {
    const mine = await acquire((await createNetwork()).uuid);
    const theirs = await acquire((await createNetwork(ZONE, ADMIN)).uuid, "NETWORK", ADMIN);
    expect(new Set([mine.publicIpAddress, theirs.publicIpAddress]).size).toBe(2);
  });

  it("answers 409 when the zone's pool is exhausted", async () => {
    const network = await createNetwork();
    for (let i = 0; i < 253; i++) emulator.context.allocatePublicIp(ZONE);
    const reply = await call(
      "GET",
      `/restapi/ipaddress/acquireIpAddress?networkUuid=${String(network.uuid)}&networkType=NETWORK`,
    );
    expect(reply.status).toBe(409);
    expect(errorOf(reply).errorMsg).toContain("exhausted");
  });

  it.each([
    ["networkType=NETWORK", 400, "networkUuid: is required"],
    ["networkUuid=x", 400, "networkType: is required"],
    ["networkUuid=x&networkType=LAN", 400, "networkType: must be one of NETWORK, VPC"],
    ["networkUuid=x&networkType=NETWORK", 404, "network x does not exist"],
    ["networkUuid=x&networkType=VPC", 404, "VPC x does not exist"],
  ])("rejects %s", async (query, status, message) => {
    const reply = await call("GET", `/restapi/ipaddress/acquireIpAddress?${query}`);
    expect([reply.status, errorOf(reply).errorMsg]).toEqual([status, message]);
  });
});

describe("ipAddressList", () => {
  it("lists a zone's addresses, filtered by network", async () => {
    const a = await createNetwork();
    const b = await createNetwork();
    const ipA = await acquire(a.uuid);
    await acquire(b.uuid);
    expect((await call("GET", `/restapi/ipaddress/ipAddressList?zoneUuid=${ZONE}`)).body.count).toBe(2);
    const filtered = await call(
      "GET",
      `/restapi/ipaddress/ipAddressList?zoneUuid=${ZONE}&networkUuid=${String(a.uuid)}`,
    );
    expect(filtered.body).toEqual({ count: 1, listIpAddressResponse: [ipA] });
    expect((await call("GET", `/restapi/ipaddress/ipAddressList?zoneUuid=${SINGAPORE}`)).body.count).toBe(0);
    expect((await call("GET", "/restapi/ipaddress/ipAddressList")).status).toBe(400);
  });
});

describe("releaseIpAddress", () => {
  it("releases the address back to the pool", async () => {
    const network = await createNetwork();
    const ip = await acquire(network.uuid);
    expect(await release(ip.uuid)).toEqual({ status: 200, body: true });
    expect((await call("GET", `/restapi/ipaddress/ipAddressList?zoneUuid=${ZONE}`)).body.count).toBe(0);
    expect((await acquire(network.uuid)).publicIpAddress).toBe(ip.publicIpAddress);
    expect((await release("nothing")).status).toBe(404);
  });

  it("answers 409 while a rule sits on the address", async () => {
    const ip = await acquire((await createNetwork()).uuid);
    emulator.scope("demo").collection("firewallrule")["fw-1"] = { uuid: "fw-1", ipAddressUuid: ip.uuid };
    const reply = await release(ip.uuid);
    expect([reply.status, errorOf(reply).errorMsg]).toEqual([
      409,
      `IP address ${String(ip.uuid)} is in use (1 firewallrule); remove those first`,
    ]);
  });
});

describe("static NAT", () => {
  it("maps an address to an instance, once per address and per instance", async () => {
    const network = await createNetwork();
    const ip = await acquire(network.uuid);
    const other = await acquire(network.uuid);
    seedInstance("vm1", network.uuid);
    seedInstance("vm2", network.uuid);
    const reply = await enableNat(ip.uuid, "vm1");
    expect(reply.body).toEqual({
      count: 1,
      svcAttachStaticNatResponse: [
        {
          ipAddressUuid: ip.uuid,
          vmName: "vm-vm1",
          vmUuid: "vm1",
          networkUuid: network.uuid,
          status: "Active",
          isActive: true,
        },
      ],
    });
    expect((await enableNat(ip.uuid, "vm2")).status).toBe(409);
    expect((await enableNat(other.uuid, "vm1")).status).toBe(409);
    expect((await release(ip.uuid)).status).toBe(409);
    const disable = `/restapi/ipaddress/disableStaticNat?ipAddressUuid=${String(ip.uuid)}`;
    expect(await call("DELETE", disable)).toEqual({ status: 200, body: true });
    expect((await call("DELETE", disable)).status).toBe(409);
    expect((await release(ip.uuid)).body).toBe(true);
  });

  it("maps a VPC address to an instance of one of its tiers", async () => {
    const { vpc, tier } = await createVpcWithTier(emulator);
    const ip = await acquire(vpc.uuid, "VPC");
    seedInstance("vm1", tier.uuid);
    expect((await enableNat(ip.uuid, "vm1")).status).toBe(200);
  });

  it("rejects unknown references, a foreign network and an address with forwarding rules", async () => {
    const network = await createNetwork();
    const ip = await acquire(network.uuid);
    seedInstance("vm1", network.uuid);
    expect(errorOf(await enableNat(ip.uuid, "vm-x")).errorMsg).toBe("instance vm-x does not exist");
    expect((await enableNat("ip-x", "vm1")).status).toBe(404);
    expect((await enableNat(ip.uuid, "vm1", "net-x")).status).toBe(404);
    const elsewhere = await createNetwork();
    expect((await enableNat(ip.uuid, "vm1", elsewhere.uuid)).status).toBe(400);
    const missing = await call("POST", "/restapi/ipaddress/enableStaticNat", { ipAddressUuid: ip.uuid });
    expect([missing.status, errorOf(missing).errorMsg]).toEqual([400, "vmUuid: is required"]);
    emulator.scope("demo").collection("portforwardingrule")["pf-1"] = { uuid: "pf-1", ipAddressUuid: ip.uuid };
    expect((await enableNat(ip.uuid, "vm1")).status).toBe(409);
  });
});

describe("remote-access VPN", () => {
  it("enables and disables remote access on an address, answering the address", async () => {
    const ip = await acquire((await createNetwork()).uuid);
    const enable = `/restapi/ipaddress/enableremotevpnaccess?ipAddressUuid=${String(ip.uuid)}`;
    const disable = `/restapi/ipaddress/disableremotevpnaccess?ipAddressUuid=${String(ip.uuid)}`;
    expect(await call("GET", enable)).toEqual({ status: 200, body: { count: 1, listIpAddressResponse: [ip] } });
    expect((await call("GET", enable)).status).toBe(409);
    expect((await release(ip.uuid)).status).toBe(409);
    seedInstance("vm1", ip.networkUuid);
    expect((await enableNat(ip.uuid, "vm1")).status).toBe(409);
    expect(await call("DELETE", disable)).toEqual({ status: 200, body: { count: 1, listIpAddressResponse: [ip] } });
    expect((await call("DELETE", disable)).status).toBe(409);
    expect((await call("GET", "/restapi/ipaddress/enableremotevpnaccess?ipAddressUuid=nothing")).status).toBe(404);
  });
});
