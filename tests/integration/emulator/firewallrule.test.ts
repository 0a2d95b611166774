/** Ingress firewall rules on a public IP, over HTTP: lifecycle, validation, conflicts, and what they block. */
import { CATALOG_IDS } from "../../../emulator/catalog";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ADMIN = { apikey: "admin-api-key", secretkey: "admin-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;
const KEY = "listFirewallRuleResponse";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
let emulator: RunningEmulator;
let ip: Json;

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
async function one(method: string, path: string, input: Json): Promise<Json> {
  const reply = await api(method, path, input);
  expect([reply.status, reply.body]).toEqual([200, expect.anything()]);
  return (Object.values(reply.body).find(Array.isArray) as Json[])[0];
}

const resources = async (): Promise<Json> =>
  (await fetch(`${emulator.url}/_emulator/resources?account=demo`)).json() as Promise<Json>;
const rule = (input: Json) => one("POST", "firewallrule/createFirewallRule", { ipAddressUuid: ip.uuid, ...input });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
  const network = await one("POST", "network/createNetwork", {
    name: "web",
    zoneUuid: ZONE,
    networkOfferingUuid: CATALOG_IDS.networkOfferings.isolated,
  });
  ip = await one("GET", "ipaddress/acquireIpAddress", { networkUuid: network.uuid, networkType: "NETWORK" });
});
afterAll(() => emulator.stop());

describe("firewall rules", () => {
  it("creates a TCP rule with every spec field as a string, normalizing the CIDR list", async () => {
    const record = await rule({
      protocol: "TCP",
      startPort: "8000",
      endPort: "8010",
      cidrList: "10.0.0.0/8, 192.168.0.0/16",
    });
    expect(record).toEqual({
      startPort: "8000",
      ipAddressUuid: ip.uuid,
      icmpType: "",
      protocol: "TCP",
      cidrList: "10.0.0.0/8,192.168.0.0/16",
      icmpCode: "",
      zoneUuid: ZONE,
      isActive: true,
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      endPort: "8010",
      status: "Active",
    });
    const listed = await api("GET", "firewallrule/firewallRuleList", { zoneUuid: ZONE, uuid: record.uuid });
    expect(listed.body).toEqual({ count: 1, [KEY]: [record] });
  });

  it("covers every port when TCP/UDP come without ports, one port when only startPort is given", async () => {
    expect(await rule({ protocol: "UDP" })).toMatchObject({ startPort: "1", endPort: "65535", cidrList: "0.0.0.0/0" });
    expect(await rule({ protocol: "TCP", startPort: "443", cidrList: "203.0.113.0/24" })).toMatchObject({
      startPort: "443",
      endPort: "443",
    });
  });

  it("creates an ICMP rule with type and code, and no ports", async () => {
    expect(await rule({ protocol: "ICMP", icmpType: "8", icmpCode: "0" })).toMatchObject({
      protocol: "ICMP",
      icmpType: "8",
      icmpCode: "0",
      startPort: "",
      endPort: "",
    });
  });

  it("refuses a rule overlapping one of the same protocol and source (409), allows another source", async () => {
    await rule({ protocol: "TCP", startPort: "22", cidrList: "198.51.100.0/24" });
    const clash = await api("POST", "firewallrule/createFirewallRule", {
      ipAddressUuid: ip.uuid,
      protocol: "TCP",
      startPort: "20",
      endPort: "25",
      cidrList: "198.51.100.0/24",
    });
    expect(clash.status).toBe(409);
    expect(clash.body.listErrorResponse.errorCode).toBe("CONFLICT");
    await rule({ protocol: "TCP", startPort: "20", endPort: "25", cidrList: "192.0.2.0/24" });
  });

  it("filters the list by IP address and zone", async () => {
    const all = await api("GET", "firewallrule/firewallRuleList", { zoneUuid: ZONE, ipAddressUuid: ip.uuid });
    expect(all.body.count).toBeGreaterThan(0);
    expect(all.body[KEY].every((r: Json) => r.ipAddressUuid === ip.uuid)).toBe(true);
    const elsewhere = await api("GET", "firewallrule/firewallRuleList", { zoneUuid: CATALOG_IDS.zones.singapore });
    expect(elsewhere.body).toEqual({ count: 0, [KEY]: [] });
    expect((await api("GET", "firewallrule/firewallRuleList", { zoneUuid: ZONE }, ADMIN)).body.count).toBe(0);
  });

  it("keeps the IP from being released while it has rules; deletes a rule once", async () => {
    const fresh = await one("GET", "ipaddress/acquireIpAddress", {
      networkUuid: ip.networkUuid,
      networkType: "NETWORK",
    });
    const record = await one("POST", "firewallrule/createFirewallRule", { ipAddressUuid: fresh.uuid, protocol: "TCP" });
    expect((await api("DELETE", "ipaddress/releaseIpAddress", { uuid: fresh.uuid })).status).toBe(409);
    expect((await api("DELETE", `firewallrule/deleteFirewallRule/${record.uuid}`, {}, ADMIN)).status).toBe(404);
    expect(await api("DELETE", `firewallrule/deleteFirewallRule/${record.uuid}`)).toEqual({ status: 200, body: true });
    expect((await api("DELETE", `firewallrule/deleteFirewallRule/${record.uuid}`)).status).toBe(404);
    expect((await api("DELETE", "ipaddress/releaseIpAddress", { uuid: fresh.uuid })).status).toBe(200);
  });

  it.each([
    [{ protocol: "TCP", ipAddressUuid: "" }, 400, /^ipAddressUuid: is required/],
    [{ protocol: "" }, 400, /^protocol: is required/],
    [{ protocol: "SCTP" }, 400, /^protocol: must be one of TCP, UDP, ICMP/],
    [{ protocol: "TCP", startPort: "0" }, 400, /^startPort: /],
    [{ protocol: "TCP", startPort: "70000" }, 400, /^startPort: /],
    [{ protocol: "TCP", startPort: "http" }, 400, /^startPort: /],
    [{ protocol: "TCP", startPort: "90", endPort: "80" }, 400, /^endPort: /],
    [{ protocol: "TCP", endPort: "80" }, 400, /^startPort: is required/],
    [{ protocol: "TCP", icmpType: "8" }, 400, /^icmpType: /],
    [{ protocol: "ICMP", startPort: "80" }, 400, /^startPort: /],
    [{ protocol: "ICMP", icmpType: "300" }, 400, /^icmpType: /],
    [{ protocol: "TCP", cidrList: "10.0.0.300/8" }, 400, /^cidrList: /],
    [{ protocol: "TCP", cidrList: "10.0.0.1/8" }, 400, /^cidrList: /],
    [{ protocol: "TCP", ipAddressUuid: "00000000-0000-4000-8000-000000000000" }, 404, /IP address/],
  ])("refuses %j with %i and changes nothing", async (input, status, message) => {
    const before = await resources();
    const body = Object.fromEntries(Object.entries({ ipAddressUuid: ip.uuid, ...input }).filter(([, v]) => v));
    const reply = await api("POST", "firewallrule/createFirewallRule", body);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
    expect(await resources()).toEqual(before);
  });

  it("requires a known zone to list", async () => {
    expect((await api("GET", "firewallrule/firewallRuleList")).status).toBe(400);
    expect((await api("GET", "firewallrule/firewallRuleList", { zoneUuid: "nowhere" })).status).toBe(404);
  });
});
