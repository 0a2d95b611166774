/** Ingress firewall rules on a public IP, over HTTP: lifecycle, validation, conflicts, and what they block. */
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { acquireIp, ADMIN, createNetwork, useEmulator, withoutBlanks, ZONE, type Json } from "./helpers";

const KEY = "listFirewallRuleResponse";

const emulator = useEmulator();
const { call, one, expectRefused } = emulator;
let ip: Json;

const rule = (input: Json) =>
  one("POST", "/restapi/firewallrule/createFirewallRule", { ipAddressUuid: ip.uuid, ...input });

beforeAll(async () => {
  const network = await createNetwork(emulator, { name: "web" });
  ip = await acquireIp(emulator, network.uuid);
});

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
    const listed = await call("GET", "/restapi/firewallrule/firewallRuleList", { zoneUuid: ZONE, uuid: record.uuid });
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
    const clash = await call("POST", "/restapi/firewallrule/createFirewallRule", {
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
    const all = await call("GET", "/restapi/firewallrule/firewallRuleList", { zoneUuid: ZONE, ipAddressUuid: ip.uuid });
    expect(all.body.count).toBeGreaterThan(0);
    expect(all.body[KEY].every((r: Json) => r.ipAddressUuid === ip.uuid)).toBe(true);
    const elsewhere = await call("GET", "/restapi/firewallrule/firewallRuleList", {
      zoneUuid: CATALOG_IDS.zones.singapore,
    });
    expect(elsewhere.body).toEqual({ count: 0, [KEY]: [] });
    expect((await call("GET", "/restapi/firewallrule/firewallRuleList", { zoneUuid: ZONE }, ADMIN)).body.count).toBe(0);
  });

  it("keeps the IP from being released while it has rules; deletes a rule once", async () => {
    const fresh = await acquireIp(emulator, ip.networkUuid);
    const record = await one("POST", "/restapi/firewallrule/createFirewallRule", {
      ipAddressUuid: fresh.uuid,
      protocol: "TCP",
    });
    const path = `/restapi/firewallrule/deleteFirewallRule/${record.uuid}`;
    expect((await call("DELETE", "/restapi/ipaddress/releaseIpAddress", { uuid: fresh.uuid })).status).toBe(409);
    expect((await call("DELETE", path, {}, ADMIN)).status).toBe(404);
    expect(await call("DELETE", path)).toEqual({ status: 200, body: true });
    expect((await call("DELETE", path)).status).toBe(404);
    expect((await call("DELETE", "/restapi/ipaddress/releaseIpAddress", { uuid: fresh.uuid })).status).toBe(200);
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
    const body = withoutBlanks({ ipAddressUuid: ip.uuid, ...input });
    await expectRefused(() => call("POST", "/restapi/firewallrule/createFirewallRule", body), status, message);
  });

  it("requires a known zone to list", async () => {
    expect((await call("GET", "/restapi/firewallrule/firewallRuleList")).status).toBe(400);
    expect((await call("GET", "/restapi/firewallrule/firewallRuleList", { zoneUuid: "nowhere" })).status).toBe(404);
  });
});
