/** Egress rules of a network, over HTTP: lifecycle, validation, conflicts, and what they block. */
import { ADMIN, createNetwork, useEmulator, withoutBlanks, ZONE, type Json } from "./helpers";

const KEY = "listEgressRuleResponse";

const emulator = useEmulator();
const { call, one, expectRefused } = emulator;
let network: Json;

const rule = (input: Json) =>
  one("POST", "/restapi/egressrule/createEgressRule", { networkUuid: network.uuid, ...input });

beforeAll(async () => {
  network = await createNetwork(emulator, { name: "app" });
});

describe("egress rules", () => {
  it("creates a rule with the spec's fields (no cidrList) and lists it", async () => {
    const record = await rule({ protocol: "TCP", startPort: "443", endPort: "443", cidrList: "0.0.0.0/0" });
    expect(record).toEqual({
      startPort: "443",
      icmpType: "",
      protocol: "TCP",
      icmpCode: "",
      zoneUuid: ZONE,
      isActive: true,
      uuid: expect.any(String),
      endPort: "443",
      networkUuid: network.uuid,
      status: "Active",
    });
    const listed = await call("GET", "/restapi/egressrule/egressRuleList", {
      zoneUuid: ZONE,
      networkUuid: network.uuid,
    });
    expect(listed.body).toEqual({ count: 1, [KEY]: [record] });
    expect((await call("GET", "/restapi/egressrule/egressRuleList", { zoneUuid: ZONE }, ADMIN)).body.count).toBe(0);
  });

  it("creates ICMP rules with all types by default", async () => {
    expect(await rule({ protocol: "ICMP" })).toMatchObject({ icmpType: "-1", icmpCode: "-1", startPort: "" });
  });

  it("refuses a rule overlapping another of the network (409)", async () => {
    await rule({ protocol: "UDP", startPort: "53" });
    const clash = await call("POST", "/restapi/egressrule/createEgressRule", {
      networkUuid: network.uuid,
      protocol: "UDP",
      startPort: "50",
      endPort: "60",
    });
    expect(clash.status).toBe(409);
  });

  it("keeps the network from being deleted while it has rules; deletes a rule once", async () => {
    const other = await createNetwork(emulator, { name: "batch" });
    const record = await one("POST", "/restapi/egressrule/createEgressRule", {
      networkUuid: other.uuid,
      protocol: "TCP",
    });
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${other.uuid}`)).status).toBe(409);
    expect(await call("DELETE", `/restapi/egressrule/deleteEgressRule/${record.uuid}`)).toEqual({
      status: 200,
      body: true,
    });
    expect((await call("DELETE", `/restapi/egressrule/deleteEgressRule/${record.uuid}`)).status).toBe(404);
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${other.uuid}`)).status).toBe(200);
  });

  it.each([
    ["no networkUuid", { networkUuid: undefined }, 400, /^networkUuid: is required/],
    ["no protocol", { protocol: undefined }, 400, /^protocol: is required/],
    ["protocol GRE", { protocol: "GRE" }, 400, /^protocol: /],
    ["port 65536", { startPort: "65536" }, 400, /^startPort: /],
    ["a bad CIDR list", { cidrList: "everywhere" }, 400, /^cidrList: /],
    ["an unknown network", { networkUuid: "00000000-0000-4000-8000-000000000000" }, 404, /network/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    const body = withoutBlanks({ networkUuid: network.uuid, protocol: "TCP", startPort: "9000", ...input });
    await expectRefused(() => call("POST", "/restapi/egressrule/createEgressRule", body), status, message);
  });

  it("requires a known zone to list", async () => {
    expect((await call("GET", "/restapi/egressrule/egressRuleList")).status).toBe(400);
    expect((await call("GET", "/restapi/egressrule/egressRuleList", { zoneUuid: "nowhere" })).status).toBe(404);
  });
});
