/** Port-forwarding rules, over HTTP: lifecycle, filters, validation, port conflicts, and what they block. */
import { CATALOG_IDS } from "../../../emulator/catalog";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ADMIN = { apikey: "admin-api-key", secretkey: "admin-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;
const KEY = "listPortForwardingResponse";
const NOWHERE = "00000000-0000-4000-8000-000000000000";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
let emulator: RunningEmulator;
let network: Json;
let ip: Json;
let vm: Json;

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
const newIp = (networkUuid: string) =>
  one("GET", "ipaddress/acquireIpAddress", { networkUuid, networkType: "NETWORK" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An instance on the network, once Running (so that no asynchronous change is pending). */
async function newInstance(name: string, networkUuid: string): Promise<Json> {
  const instance = await one("POST", "instance/createInstance", {
    name,
    zoneUuid: ZONE,
    templateUuid: CATALOG_IDS.templates.ubuntu2404,
    computeOfferingUuid: CATALOG_IDS.computeOfferings.gp1c1g,
    networkUuid,
  });
  for (let i = 0; i < 100; i++) {
    const listed = await api("GET", "instance/instanceList", { zoneUuid: ZONE, vmUuid: instance.uuid });
    if (listed.body.listInstanceResponse?.[0]?.state === "Running") break;
    await sleep(10);
  }
  return instance;
}
const forward = (input: Json) => ({
  ipAddressUuid: ip.uuid,
  protocol: "TCP",
  privatePort: "22",
  publicPort: "2222",
  virtualmachineUuid: vm.uuid,
  networkUuid: network.uuid,
  ...input,
});
const create = (input: Json) => api("POST", "portforwardingrule/createPortForwardingRule", forward(input));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
  network = await newNetwork("web");
  ip = await newIp(network.uuid);
  vm = await newInstance("web1", network.uuid);
});
afterAll(() => emulator.stop());

describe("port-forwarding rules", () => {
  it("creates a rule of port ranges, naming the instance, and lists it by VM, IP and uuid", async () => {
    const reply = await create({
      privatePort: "8000",
      privateEndPort: "8009",
      publicPort: "9000",
      publicEndPort: "9009",
    });
    expect(reply.status).toBe(200);
    const record = reply.body[KEY][0];
    expect(record).toEqual({
      ipAddressUuid: ip.uuid,
      protocol: "TCP",
      virtualMachineName: vm.displayName || vm.name,
      privatePort: "8000",
      privateEndPort: "8009",
      publicPort: "9000",
      publicEndPort: "9009",
      zoneUuid: ZONE,
      isActive: true,
      uuid: expect.any(String),
      status: "Active",
    });
    for (const filter of [{ vmUuid: vm.uuid }, { ipAddressUuid: ip.uuid }, { uuid: record.uuid }]) {
      const listed = await api("GET", "portforwardingrule/portForwardingRuleList", { zoneUuid: ZONE, ...filter });
      expect(listed.body[KEY]).toContainEqual(record);
    }
    const otherVm = await api("GET", "portforwardingrule/portForwardingRuleList", { zoneUuid: ZONE, vmUuid: NOWHERE });
    expect(otherVm.body).toEqual({ count: 0, [KEY]: [] });
    expect((await api("GET", "portforwardingrule/portForwardingRuleList", { zoneUuid: ZONE }, ADMIN)).body.count).toBe(
      0,
    );
  });

  it("refuses public ports overlapping a rule of the same protocol (409); another protocol may share them", async () => {
    expect(
      (await create({ publicPort: "2200", publicEndPort: "2300", privatePort: "2200", privateEndPort: "2300" })).status,
    ).toBe(200);
    const clash = await create({ publicPort: "2250" });
    expect(clash.status).toBe(409);
    expect(clash.body.listErrorResponse.errorMsg).toContain("overlap");
    expect((await create({ protocol: "UDP", publicPort: "2250" })).status).toBe(200);
  });

  it("refuses a public TCP port that a load-balancer rule of the IP uses (409)", async () => {
    const lb = await api("POST", "loadbalancerrule/createLoadBalancerRule", {
      name: "web-lb",
      publicIpUuid: ip.uuid,
      networkUuid: network.uuid,
      publicport: "80",
      privateport: "8080",
      algorithm: "roundrobin",
    });
    expect(lb.status).toBe(200);
    expect((await create({ publicPort: "80", privatePort: "80" })).status).toBe(409);
  });

  it("refuses rules on an address with static NAT (409)", async () => {
    const natIp = await newIp(network.uuid);
    const natVm = await newInstance("nat1", network.uuid);
    expect(
      (await api("POST", "ipaddress/enableStaticNat", { ipAddressUuid: natIp.uuid, vmUuid: natVm.uuid })).status,
    ).toBe(200);
    expect((await create({ ipAddressUuid: natIp.uuid, virtualmachineUuid: natVm.uuid })).status).toBe(409);
  });

  it("keeps the IP from being released while it has rules; deletes a rule once", async () => {
    const freshIp = await newIp(network.uuid);
    const record = (await create({ ipAddressUuid: freshIp.uuid })).body[KEY][0];
    expect((await api("DELETE", "ipaddress/releaseIpAddress", { uuid: freshIp.uuid })).status).toBe(409);
    const path = `portforwardingrule/deletePortForwardingRule/${record.uuid}`;
    expect(await api("DELETE", path)).toEqual({ status: 200, body: true });
    expect((await api("DELETE", path)).status).toBe(404);
    expect((await api("DELETE", "ipaddress/releaseIpAddress", { uuid: freshIp.uuid })).status).toBe(200);
  });

  it("refuses an instance that is not on the network, and a network that cannot reach the IP (400)", async () => {
    const other = await newNetwork("other");
    const stranger = await newInstance("stranger", other.uuid);
    const notOnNetwork = await create({ virtualmachineUuid: stranger.uuid, publicPort: "3000", privatePort: "3000" });
    expect(notOnNetwork.status).toBe(400);
    expect(notOnNetwork.body.listErrorResponse.errorMsg).toMatch(/^virtualmachineUuid: /);
    const unreachable = await create({
      networkUuid: other.uuid,
      virtualmachineUuid: stranger.uuid,
      publicPort: "3001",
      privatePort: "3001",
    });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.listErrorResponse.errorMsg).toMatch(/^networkUuid: /);
  });

  it.each([
    ["no ipAddressUuid", { ipAddressUuid: undefined }, 400, /^ipAddressUuid: is required/],
    ["protocol ICMP", { protocol: "ICMP" }, 400, /^protocol: must be one of TCP, UDP/],
    ["no privatePort", { privatePort: undefined }, 400, /^privatePort: is required/],
    ["no publicPort", { publicPort: undefined }, 400, /^publicPort: is required/],
    ["no virtualmachineUuid", { virtualmachineUuid: undefined }, 400, /^virtualmachineUuid: is required/],
    ["no networkUuid", { networkUuid: undefined }, 400, /^networkUuid: is required/],
    ["port 0", { publicPort: "0" }, 400, /^publicPort: /],
    ["a reversed range", { publicPort: "5000", publicEndPort: "4000" }, 400, /^publicEndPort: /],
    [
      "ranges of different lengths",
      { publicPort: "5000", publicEndPort: "5009", privatePort: "22" },
      400,
      /^privateEndPort: /,
    ],
    ["an unknown IP", { ipAddressUuid: NOWHERE }, 404, /IP address/],
    ["an unknown instance", { virtualmachineUuid: NOWHERE }, 404, /instance/],
    ["an unknown network", { networkUuid: NOWHERE }, 404, /network/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    const before = await resources();
    const body = Object.fromEntries(Object.entries(forward({ publicPort: "5555", ...input })).filter(([, v]) => v));
    const reply = await api("POST", "portforwardingrule/createPortForwardingRule", body);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
    expect(await resources()).toEqual(before);
  });

  it("requires a known zone to list", async () => {
    expect((await api("GET", "portforwardingrule/portForwardingRuleList")).status).toBe(400);
    expect((await api("GET", "portforwardingrule/portForwardingRuleList", { zoneUuid: NOWHERE })).status).toBe(404);
  });
});
