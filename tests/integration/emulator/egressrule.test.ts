/** Egress rules of a network, over HTTP: lifecycle, validation, conflicts, and what they block. */
import { CATALOG_IDS } from "../../../emulator/catalog";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ADMIN = { apikey: "admin-api-key", secretkey: "admin-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;
const KEY = "listEgressRuleResponse";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
let emulator: RunningEmulator;
let network: Json;

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
const newNetwork = (name: string) =>
  one("POST", "network/createNetwork", {
    name,
    zoneUuid: ZONE,
    networkOfferingUuid: CATALOG_IDS.networkOfferings.isolated,
  });
const rule = (input: Json) => one("POST", "egressrule/createEgressRule", { networkUuid: network.uuid, ...input });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
  network = await newNetwork("app");
});
afterAll(() => emulator.stop());

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
    const listed = await api("GET", "egressrule/egressRuleList", { zoneUuid: ZONE, networkUuid: network.uuid });
    expect(listed.body).toEqual({ count: 1, [KEY]: [record] });
    expect((await api("GET", "egressrule/egressRuleList", { zoneUuid: ZONE }, ADMIN)).body.count).toBe(0);
  });

  it("creates ICMP rules with all types by default", async () => {
    expect(await rule({ protocol: "ICMP" })).toMatchObject({ icmpType: "-1", icmpCode: "-1", startPort: "" });
  });

  it("refuses a rule overlapping another of the network (409)", async () => {
    await rule({ protocol: "UDP", startPort: "53" });
    const clash = await api("POST", "egressrule/createEgressRule", {
      networkUuid: network.uuid,
      protocol: "UDP",
      startPort: "50",
      endPort: "60",
    });
    expect(clash.status).toBe(409);
  });

  it("keeps the network from being deleted while it has rules; deletes a rule once", async () => {
    const other = await newNetwork("batch");
    const record = await one("POST", "egressrule/createEgressRule", { networkUuid: other.uuid, protocol: "TCP" });
    expect((await api("DELETE", `network/deleteNetwork/${other.uuid}`)).status).toBe(409);
    expect(await api("DELETE", `egressrule/deleteEgressRule/${record.uuid}`)).toEqual({ status: 200, body: true });
    expect((await api("DELETE", `egressrule/deleteEgressRule/${record.uuid}`)).status).toBe(404);
    expect((await api("DELETE", `network/deleteNetwork/${other.uuid}`)).status).toBe(200);
  });

  it.each([
    ["no networkUuid", { networkUuid: undefined }, 400, /^networkUuid: is required/],
    ["no protocol", { protocol: undefined }, 400, /^protocol: is required/],
    ["protocol GRE", { protocol: "GRE" }, 400, /^protocol: /],
    ["port 65536", { startPort: "65536" }, 400, /^startPort: /],
    ["a bad CIDR list", { cidrList: "everywhere" }, 400, /^cidrList: /],
    ["an unknown network", { networkUuid: "00000000-0000-4000-8000-000000000000" }, 404, /network/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    const before = await resources();
    const body = Object.fromEntries(
      Object.entries({ networkUuid: network.uuid, protocol: "TCP", startPort: "9000", ...input }).filter(([, v]) => v),
    );
    const reply = await api("POST", "egressrule/createEgressRule", body);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
    expect(await resources()).toEqual(before);
  });

  it("requires a known zone to list", async () => {
    expect((await api("GET", "egressrule/egressRuleList")).status).toBe(400);
    expect((await api("GET", "egressrule/egressRuleList", { zoneUuid: "nowhere" })).status).toBe(404);
  });
});
