/**
 * Site-to-site VPN connections, over HTTP: Pending, then Connected (Disconnected when passive); reset;
 * the VPC's VPN gateway; conflicts; and what a connection keeps from being deleted.
 */
import {
  addGateway,
  ADMIN,
  asyncDelays,
  createVpc,
  UNKNOWN,
  useEmulator,
  withoutBlanks,
  ZONE,
  type Json,
} from "./helpers";

const KEY = "listVpnConnectionResponse";

const emulator = useEmulator();
const { call, one, resources, expectRefused } = emulator;
let serial = 0;
const newVpc = (cidr = `10.${++serial}.0.0/16`) => createVpc(emulator, { name: `vpc-${serial}`, getcIDR: cidr });
const newGateway = (input: Json = {}) =>
  addGateway(emulator, {
    cidrlist: "192.168.50.0/24",
    ipsecpsk: "pre-shared",
    ikepolicy: "Group 5(modp1536)",
    espEncryption: "aes256",
    espHash: "sha256",
    ...input,
  });
const connect = (vpc: Json, gateway: Json, passive?: boolean) =>
  one("POST", "/restapi/vpnconnection/addVpnConnection", {
    vpcUuid: vpc.uuid,
    customerGatewayUuid: gateway.uuid,
    ...(passive === undefined ? {} : { passive }),
  });
const listed = async (uuid: string): Promise<Json> =>
  (await call("GET", "/restapi/vpnconnection/vpnConnectionList", { zoneUuid: ZONE, uuid })).body[KEY][0];

describe("VPN connections", () => {
  it("connects a VPC to a customer gateway: Pending, then Connected", async () => {
    const vpc = await newVpc();
    const gateway = await newGateway();
    const record = await connect(vpc, gateway);
    expect(record).toEqual({
      ikePolicy: "Group 5(modp1536)",
      publicIpAddress: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      espPolicy: "None",
      ipsecPresharedKey: "pre-shared",
      zoneUuid: ZONE,
      isActive: true,
      uuid: expect.any(String),
      customerGatewayUuid: gateway.uuid,
      vpnGatewayUuid: expect.any(String),
      state: "Pending",
      vpcUuid: vpc.uuid,
      gateway: "198.51.100.7",
      status: "Active",
    });
    await asyncDelays(4);
    expect(await listed(record.uuid)).toEqual({ ...record, state: "Connected" });
  });

  it("leaves a passive connection Disconnected; a reset goes back through Pending", async () => {
    const vpc = await newVpc();
    const passive = await connect(vpc, await newGateway(), true);
    const active = await connect(vpc, await newGateway());
    expect(active.vpnGatewayUuid).toBe(passive.vpnGatewayUuid);
    expect(active.publicIpAddress).toBe(passive.publicIpAddress);
    await asyncDelays(4);
    expect((await listed(passive.uuid)).state).toBe("Disconnected");

    const reset = await call("PUT", `/restapi/vpnconnection/resetVpnConnection/${active.uuid}`);
    expect(reset.status).toBe(200);
    expect(reset.body[KEY][0].state).toBe("Pending");
    await asyncDelays(4);
    expect((await listed(active.uuid)).state).toBe("Connected");
    expect((await call("PUT", `/restapi/vpnconnection/resetVpnConnection/${UNKNOWN}`)).status).toBe(404);
  });

  it("shows a customer gateway's update on its connections after the delay", async () => {
    const gateway = await newGateway();
    const record = await connect(await newVpc(), gateway);
    const update = await call("PUT", "/restapi/vpncustomergateway/updateVpnCustomerGateway", {
      uuid: gateway.uuid,
      ipsecpsk: "rotated",
      gateway: "198.51.100.8",
    });
    expect(update.status).toBe(202);
    await asyncDelays(4);
    expect(await listed(record.uuid)).toMatchObject({ ipsecPresharedKey: "rotated", gateway: "198.51.100.8" });
  });

  it("refuses a second connection of the same pair, and a gateway whose CIDR overlaps the VPC (409)", async () => {
    const vpc = await newVpc("10.200.0.0/16");
    const gateway = await newGateway();
    await connect(vpc, gateway);
    const twin = await call("POST", "/restapi/vpnconnection/addVpnConnection", {
      vpcUuid: vpc.uuid,
      customerGatewayUuid: gateway.uuid,
    });
    expect(twin.status).toBe(409);
    const overlapping = await newGateway({ cidrlist: "10.200.5.0/24" });
    const clash = await call("POST", "/restapi/vpnconnection/addVpnConnection", {
      vpcUuid: vpc.uuid,
      customerGatewayUuid: overlapping.uuid,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.listErrorResponse.errorMsg).toContain("10.200.5.0/24");
  });

  it("keeps its VPC and customer gateway from being deleted; deleting it frees both and the VPN gateway", async () => {
    const vpc = await newVpc();
    const gateway = await newGateway();
    const record = await connect(vpc, gateway);
    expect((await call("DELETE", `/restapi/vpc/deleteVpc/${vpc.uuid}`)).status).toBe(409);
    expect((await call("DELETE", `/restapi/vpncustomergateway/deleteVpnCustomerGateway/${gateway.uuid}`)).status).toBe(
      409,
    );

    expect((await call("DELETE", `/restapi/vpnconnection/deleteVpnConnection/${record.uuid}`, {}, ADMIN)).status).toBe(
      404,
    );
    expect(await call("DELETE", `/restapi/vpnconnection/deleteVpnConnection/${record.uuid}`)).toEqual({
      status: 200,
      body: true,
    });
    expect((await call("DELETE", `/restapi/vpnconnection/deleteVpnConnection/${record.uuid}`)).status).toBe(404);
    const state = await resources();
    expect(Object.values(state["vpnconnection.vpngateway"] ?? {}).map((g) => (g as Json).vpcUuid)).not.toContain(
      vpc.uuid,
    );
    expect((await call("DELETE", `/restapi/vpncustomergateway/deleteVpnCustomerGateway/${gateway.uuid}`)).status).toBe(
      200,
    );
    expect((await call("DELETE", `/restapi/vpc/deleteVpc/${vpc.uuid}`)).status).toBeLessThan(300);
  });

  it("filters the list by VPC and needs a known zone", async () => {
    const vpc = await newVpc();
    const record = await connect(vpc, await newGateway());
    const byVpc = await call("GET", "/restapi/vpnconnection/vpnConnectionList", { zoneUuid: ZONE, vpcUuid: vpc.uuid });
    expect(byVpc.body).toEqual({ count: 1, [KEY]: [expect.objectContaining({ uuid: record.uuid })] });
    expect((await call("GET", "/restapi/vpnconnection/vpnConnectionList", { zoneUuid: ZONE }, ADMIN)).body.count).toBe(
      0,
    );
    expect((await call("GET", "/restapi/vpnconnection/vpnConnectionList")).status).toBe(400);
    expect((await call("GET", "/restapi/vpnconnection/vpnConnectionList", { zoneUuid: UNKNOWN })).status).toBe(404);
  });

  it.each([
    ["no vpcUuid", { vpcUuid: undefined }, 400, /^vpcUuid: is required/],
    ["no customerGatewayUuid", { customerGatewayUuid: undefined }, 400, /^customerGatewayUuid: is required/],
    ["passive maybe", { passive: "maybe" }, 400, /^passive: /],
    ["an unknown VPC", { vpcUuid: UNKNOWN }, 404, /VPC/],
    ["an unknown customer gateway", { customerGatewayUuid: UNKNOWN }, 404, /VPN customer gateway/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    const vpc = await newVpc();
    const gateway = await newGateway();
    await asyncDelays(4); // earlier connections have settled
    const body = withoutBlanks({ vpcUuid: vpc.uuid, customerGatewayUuid: gateway.uuid, ...input });
    await expectRefused(() => call("POST", "/restapi/vpnconnection/addVpnConnection", body), status, message);
  });
});
