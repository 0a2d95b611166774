/**
 * Site-to-site VPN connections, over HTTP: Pending, then Connected (Disconnected when passive); reset;
 * the VPC's VPN gateway; conflicts; and what a connection keeps from being deleted.
 */
import { CATALOG_IDS } from "../../../emulator/catalog";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ADMIN = { apikey: "admin-api-key", secretkey: "admin-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;
const KEY = "listVpnConnectionResponse";
const NOWHERE = "00000000-0000-4000-8000-000000000000";
const DELAY_MS = 30;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
let emulator: RunningEmulator;

/** GET and DELETE carry `input` in the query, POST and PUT in a JSON body. */
async function api(method: string, path: string, input: Json = {}, headers = DEMO) {
  const inQuery = method === "GET" || method === "DELETE";
  const search = inQuery && Object.keys(input).length > 0 ? `?${new URLSearchParams(input)}` : "";
  const response = await fetch(`${emulator.url}/restapi/${path}${search}`, {
    method,
    headers: inQuery ? headers : { ...headers, "content-type": "application/json" },
    body: inQuery ? undefined : JSON.stringify(input),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
}

/** The one record of a successful envelope answer. */
async function one(method: string, path: string, input: Json = {}): Promise<Json> {
  const reply = await api(method, path, input);
  expect([reply.status, reply.body]).toEqual([200, expect.anything()]);
  return (Object.values(reply.body).find(Array.isArray) as Json[])[0];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const resources = async (): Promise<Json> =>
  (await fetch(`${emulator.url}/_emulator/resources?account=demo`)).json() as Promise<Json>;
let serial = 0;
const newVpc = (cidr = `10.${++serial}.0.0/16`) =>
  one("POST", "vpc/createVpc", {
    name: `vpc-${serial}`,
    zoneUuid: ZONE,
    vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard,
    getcIDR: cidr,
  });
const newGateway = (input: Json = {}) =>
  one("POST", "vpncustomergateway/addVpnCustomerGateway", {
    name: `branch-${++serial}`,
    gateway: "198.51.100.7",
    cidrlist: "192.168.50.0/24",
    ipsecpsk: "pre-shared",
    ikepolicy: "Group 5(modp1536)",
    esppolicy: "None",
    ikeEncryption: "aes256",
    ikeHash: "sha256",
    espEncryption: "aes256",
    espHash: "sha256",
    ikelifetime: "86400",
    esplifetime: "3600",
    ...input,
  });
const connect = (vpc: Json, gateway: Json, passive?: boolean) =>
  one("POST", "vpnconnection/addVpnConnection", {
    vpcUuid: vpc.uuid,
    customerGatewayUuid: gateway.uuid,
    ...(passive === undefined ? {} : { passive }),
  });
const listed = async (uuid: string): Promise<Json> =>
  (await api("GET", "vpnconnection/vpnConnectionList", { zoneUuid: ZONE, uuid })).body[KEY][0];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: DELAY_MS });
});
afterAll(() => emulator.stop());

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
    await sleep(DELAY_MS * 4);
    expect(await listed(record.uuid)).toEqual({ ...record, state: "Connected" });
  });

  it("leaves a passive connection Disconnected; a reset goes back through Pending", async () => {
    const vpc = await newVpc();
    const passive = await connect(vpc, await newGateway(), true);
    const active = await connect(vpc, await newGateway());
    expect(active.vpnGatewayUuid).toBe(passive.vpnGatewayUuid);
    expect(active.publicIpAddress).toBe(passive.publicIpAddress);
    await sleep(DELAY_MS * 4);
    expect((await listed(passive.uuid)).state).toBe("Disconnected");

    const reset = await api("PUT", `vpnconnection/resetVpnConnection/${active.uuid}`);
    expect(reset.status).toBe(200);
    expect(reset.body[KEY][0].state).toBe("Pending");
    await sleep(DELAY_MS * 4);
    expect((await listed(active.uuid)).state).toBe("Connected");
    expect((await api("PUT", `vpnconnection/resetVpnConnection/${NOWHERE}`)).status).toBe(404);
  });

  it("shows a customer gateway's update on its connections after the delay", async () => {
    const gateway = await newGateway();
    const record = await connect(await newVpc(), gateway);
    const update = await api("PUT", "vpncustomergateway/updateVpnCustomerGateway", {
      uuid: gateway.uuid,
      ipsecpsk: "rotated",
      gateway: "198.51.100.8",
    });
    expect(update.status).toBe(202);
    await sleep(DELAY_MS * 4);
    expect(await listed(record.uuid)).toMatchObject({ ipsecPresharedKey: "rotated", gateway: "198.51.100.8" });
  });

  it("refuses a second connection of the same pair, and a gateway whose CIDR overlaps the VPC (409)", async () => {
    const vpc = await newVpc("10.200.0.0/16");
    const gateway = await newGateway();
    await connect(vpc, gateway);
    const twin = await api("POST", "vpnconnection/addVpnConnection", {
      vpcUuid: vpc.uuid,
      customerGatewayUuid: gateway.uuid,
    });
    expect(twin.status).toBe(409);
    const overlapping = await newGateway({ cidrlist: "10.200.5.0/24" });
    const clash = await api("POST", "vpnconnection/addVpnConnection", {
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
    expect((await api("DELETE", `vpc/deleteVpc/${vpc.uuid}`)).status).toBe(409);
    expect((await api("DELETE", `vpncustomergateway/deleteVpnCustomerGateway/${gateway.uuid}`)).status).toBe(409);

    expect((await api("DELETE", `vpnconnection/deleteVpnConnection/${record.uuid}`, {}, ADMIN)).status).toBe(404);
    expect(await api("DELETE", `vpnconnection/deleteVpnConnection/${record.uuid}`)).toEqual({
      status: 200,
      body: true,
    });
    expect((await api("DELETE", `vpnconnection/deleteVpnConnection/${record.uuid}`)).status).toBe(404);
    const state = await resources();
    expect(Object.values(state["vpnconnection.vpngateway"] ?? {}).map((g) => (g as Json).vpcUuid)).not.toContain(
      vpc.uuid,
    );
    expect((await api("DELETE", `vpncustomergateway/deleteVpnCustomerGateway/${gateway.uuid}`)).status).toBe(200);
    expect((await api("DELETE", `vpc/deleteVpc/${vpc.uuid}`)).status).toBeLessThan(300);
  });

  it("filters the list by VPC and needs a known zone", async () => {
    const vpc = await newVpc();
    const record = await connect(vpc, await newGateway());
    const byVpc = await api("GET", "vpnconnection/vpnConnectionList", { zoneUuid: ZONE, vpcUuid: vpc.uuid });
    expect(byVpc.body).toEqual({ count: 1, [KEY]: [expect.objectContaining({ uuid: record.uuid })] });
    expect((await api("GET", "vpnconnection/vpnConnectionList", { zoneUuid: ZONE }, ADMIN)).body.count).toBe(0);
    expect((await api("GET", "vpnconnection/vpnConnectionList")).status).toBe(400);
    expect((await api("GET", "vpnconnection/vpnConnectionList", { zoneUuid: NOWHERE })).status).toBe(404);
  });

  it.each([
    ["no vpcUuid", { vpcUuid: undefined }, 400, /^vpcUuid: is required/],
    ["no customerGatewayUuid", { customerGatewayUuid: undefined }, 400, /^customerGatewayUuid: is required/],
    ["passive maybe", { passive: "maybe" }, 400, /^passive: /],
    ["an unknown VPC", { vpcUuid: NOWHERE }, 404, /VPC/],
    ["an unknown customer gateway", { customerGatewayUuid: NOWHERE }, 404, /VPN customer gateway/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    const vpc = await newVpc();
    const gateway = await newGateway();
    await sleep(DELAY_MS * 4); // earlier connections have settled
    const before = await resources();
    const body = Object.fromEntries(
      Object.entries({ vpcUuid: vpc.uuid, customerGatewayUuid: gateway.uuid, ...input }).filter(([, v]) => v),
    );
    const reply = await api("POST", "vpnconnection/addVpnConnection", body);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
    expect(await resources()).toEqual(before);
  });
});
