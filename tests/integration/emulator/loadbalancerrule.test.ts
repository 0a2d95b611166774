/** Public load-balancer rules, over HTTP: lifecycle (Add, then Active), asynchronous update, validation, conflicts. */
import { CATALOG_IDS } from "../../../emulator/catalog";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ADMIN = { apikey: "admin-api-key", secretkey: "admin-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;
const KEY = "listLoadBalancerRuleResponse";
const NOWHERE = "00000000-0000-4000-8000-000000000000";
const DELAY_MS = 30;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
let emulator: RunningEmulator;
let network: Json;
let ip: Json;
/** Fresh public ports for rules that must not clash. */
let nextPort = 7100;

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const resources = async (): Promise<Json> =>
  (await fetch(`${emulator.url}/_emulator/resources?account=demo`)).json() as Promise<Json>;
const newNetwork = (name: string) =>
  one("POST", "network/createNetwork", {
    name,
    zoneUuid: ZONE,
    networkOfferingUuid: CATALOG_IDS.networkOfferings.isolated,
  });
const newIp = (networkUuid: string) =>
  one("GET", "ipaddress/acquireIpAddress", { networkUuid, networkType: "NETWORK" });
const ruleInput = (input: Json = {}) => ({
  name: "web",
  publicIpUuid: ip.uuid,
  networkUuid: network.uuid,
  publicport: "80",
  privateport: "8080",
  algorithm: "roundrobin",
  ...input,
});
const create = (input: Json) => api("POST", "loadbalancerrule/createLoadBalancerRule", ruleInput(input));
const listed = async (uuid: string): Promise<Json> =>
  (await api("GET", "loadbalancerrule/loadBalancerRuleList", { zoneUuid: ZONE, uuid })).body[KEY][0];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: DELAY_MS });
  network = await newNetwork("web");
  ip = await newIp(network.uuid);
});
afterAll(() => emulator.stop());

describe("load-balancer rules", () => {
  it("creates a rule in state Add that becomes Active after the delay", async () => {
    const reply = await create({
      publicport: "443",
      privateport: "8443",
      algorithm: "leastconn",
      svcLbSticky: { stickinessMethod: "LbCookie", stickinessName: "web-sticky", cookieName: "SRV" },
    });
    expect(reply.status).toBe(200);
    const record = reply.body[KEY][0];
    expect(record).toEqual({
      ipAddressUuid: ip.uuid,
      stickinessName: "web-sticky",
      privatePort: "8443",
      name: "web",
      publicPort: "443",
      zoneUuid: ZONE,
      state: "Add",
      isActive: true,
      uuid: expect.any(String),
      algorithm: "leastconn",
      status: "Active",
    });
    await sleep(DELAY_MS * 4);
    expect(await listed(record.uuid)).toEqual({ ...record, state: "Active" });
  });

  it("accepts an update (202) that becomes visible after the delay", async () => {
    const record = (await create({ name: "api", publicport: "8081" })).body[KEY][0];
    const reply = await api("PUT", "loadbalancerrule/updateLoadBalancerRule", {
      uuid: record.uuid,
      name: "api-v2",
      algorithm: "source",
    });
    expect(reply.status).toBe(202);
    expect(reply.body[KEY][0]).toMatchObject({ name: "api", algorithm: "roundrobin" });
    await sleep(DELAY_MS * 4);
    expect(await listed(record.uuid)).toMatchObject({ name: "api-v2", algorithm: "source", state: "Active" });
  });

  it("refuses a second rule on a public port of the IP (409)", async () => {
    expect((await create({ name: "a", publicport: "8082" })).status).toBe(200);
    const clash = await create({ name: "b", publicport: "8082", privateport: "9000" });
    expect(clash.status).toBe(409);
  });

  it("filters the list by IP address and shows another account nothing", async () => {
    const other = await newIp(network.uuid);
    const record = (await create({ publicIpUuid: other.uuid })).body[KEY][0];
    const byIp = await api("GET", "loadbalancerrule/loadBalancerRuleList", {
      zoneUuid: ZONE,
      ipAddressUuid: other.uuid,
    });
    expect(byIp.body).toEqual({ count: 1, [KEY]: [expect.objectContaining({ uuid: record.uuid })] });
    expect((await api("GET", "loadbalancerrule/loadBalancerRuleList", { zoneUuid: ZONE }, ADMIN)).body.count).toBe(0);
  });

  it("keeps the IP from being released while it has rules; deletes a rule once", async () => {
    const fresh = await newIp(network.uuid);
    const record = (await create({ publicIpUuid: fresh.uuid })).body[KEY][0];
    expect((await api("DELETE", "ipaddress/releaseIpAddress", { uuid: fresh.uuid })).status).toBe(409);
    const path = `loadbalancerrule/deleteLoadBalancerRule/${record.uuid}`;
    expect(await api("DELETE", path)).toEqual({ status: 200, body: true });
    expect((await api("DELETE", path)).status).toBe(404);
    expect((await api("DELETE", "ipaddress/releaseIpAddress", { uuid: fresh.uuid })).status).toBe(200);
  });

  it("refuses a network that cannot reach the IP (400)", async () => {
    const other = await newNetwork("other");
    const reply = await create({ networkUuid: other.uuid, publicport: "8090" });
    expect(reply.status).toBe(400);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(/^networkUuid: /);
  });

  it.each([
    ["no name", { name: undefined }, 400, /^name: is required/],
    ["no publicIpUuid", { publicIpUuid: undefined }, 400, /^publicIpUuid: is required/],
    ["no networkUuid", { networkUuid: undefined }, 400, /^networkUuid: is required/],
    ["no publicport", { publicport: undefined }, 400, /^publicport: is required/],
    ["no privateport", { privateport: undefined }, 400, /^privateport: is required/],
    ["no algorithm", { algorithm: undefined }, 400, /^algorithm: is required/],
    ["algorithm random", { algorithm: "random" }, 400, /^algorithm: must be one of source, roundrobin, leastconn/],
    ["port 99999", { publicport: "99999" }, 400, /^publicport: /],
    ["a sticky string", { svcLbSticky: "LbCookie" }, 400, /^svcLbSticky: /],
    ["a sticky method Magic", { svcLbSticky: { stickinessMethod: "Magic" } }, 400, /^svcLbSticky.stickinessMethod: /],
    ["an unknown IP", { publicIpUuid: NOWHERE }, 404, /IP address/],
    ["an unknown network", { networkUuid: NOWHERE }, 404, /network/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    await sleep(DELAY_MS * 3); // pending state changes of earlier rules are done
    const before = await resources();
    const body = Object.fromEntries(Object.entries(ruleInput({ publicport: "7000", ...input })).filter(([, v]) => v));
    const reply = await api("POST", "loadbalancerrule/createLoadBalancerRule", body);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
    expect(await resources()).toEqual(before);
  });

  it.each([
    ["no uuid", { name: "x" }, 400, /^uuid: is required/],
    ["nothing to change", { uuid: "KNOWN" }, 400, /name or algorithm/],
    ["algorithm random", { uuid: "KNOWN", algorithm: "random" }, 400, /^algorithm: /],
    ["an unknown rule", { uuid: NOWHERE, name: "x" }, 404, /load-balancer rule/],
  ])("refuses an update with %s (%i)", async (_label, input, status, message) => {
    const known = (await create({ name: "upd", publicport: String(nextPort++) })).body[KEY][0];
    const body = { ...input, ...((input as Json).uuid === "KNOWN" ? { uuid: known.uuid } : {}) };
    const reply = await api("PUT", "loadbalancerrule/updateLoadBalancerRule", body);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
  });
});
