/**
 * Internal load balancers, over HTTP. The record carries no uuid: a client creates one, finds it by
 * network and name (internalLbList's uuid filter takes the name), assigns and deletes it by name.
 */
import { CATALOG_IDS } from "../../../emulator/catalog";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ADMIN = { apikey: "admin-api-key", secretkey: "admin-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;
const KEY = "listInternalLbResponse";
const NOWHERE = "00000000-0000-4000-8000-000000000000";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
let emulator: RunningEmulator;
let tier: Json;

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
const lbInput = (input: Json = {}) => ({
  name: "db",
  networkUuid: tier.uuid,
  algorithm: "source",
  sourceport: "5432",
  instanceport: "5432",
  ...input,
});
const create = (input: Json) => api("POST", "internallb/createInternalLb", lbInput(input));
const list = async (query: Json) =>
  (await api("GET", "internallb/internalLbList", { zoneUuid: ZONE, ...query })).body as Json;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
  const vpc = await one("POST", "vpc/createVpc", {
    name: "prod",
    zoneUuid: ZONE,
    vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard,
    getcIDR: "10.20.0.0/16",
  });
  tier = await one("POST", "vpc/createVpcNetwork", {
    name: "data",
    vpcUuid: vpc.uuid,
    networkOfferingUuid: CATALOG_IDS.networkOfferings.vpcTierInternalLb,
    gateway: "10.20.1.1",
    netmask: "255.255.255.0",
  });
});
afterAll(() => emulator.stop());

describe("internal load balancers", () => {
  it("creates one (no uuid, status Add, an address of the tier), finds it by name, assigns it, deletes it", async () => {
    const reply = await create({ name: "pg", description: "postgres" });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      count: 1,
      [KEY]: [
        {
          instancePort: "5432",
          sourcePort: "5432",
          name: "pg",
          zoneUuid: ZONE,
          description: "postgres",
          sourceIpAddress: "10.20.1.2",
          isActive: true,
          networkUuid: tier.uuid,
          algorithm: "source",
          status: "Add",
        },
      ],
    });
    const created = reply.body[KEY][0];
    expect(await list({ networkUuid: tier.uuid, uuid: "pg" })).toEqual({ count: 1, [KEY]: [created] });

    const assigned = await api("GET", "internallb/assignLbRule", { uuid: "pg" });
    expect(assigned.status).toBe(200);
    expect(assigned.body[KEY]).toEqual([{ ...created, status: "Active" }]);
    expect((await list({ uuid: "pg" }))[KEY][0].status).toBe("Active");

    expect(await api("DELETE", "internallb/deleteInternalLb/pg")).toEqual({ status: 200, body: true });
    expect(await list({ uuid: "pg" })).toEqual({ count: 0, [KEY]: [] });
    expect((await api("DELETE", "internallb/deleteInternalLb/pg")).status).toBe(404);
    expect((await api("GET", "internallb/assignLbRule", { uuid: "pg" })).status).toBe(404);
  });

  it("takes a given source address of the tier, and skips taken ones when allocating", async () => {
    const given = await create({
      name: "cache",
      sourceIpAddress: "10.20.1.50",
      sourceport: "6379",
      instanceport: "6379",
    });
    expect(given.body[KEY][0].sourceIpAddress).toBe("10.20.1.50");
    const first = await create({ name: "queue-a" });
    const second = await create({ name: "queue-b" });
    expect(first.body[KEY][0].sourceIpAddress).not.toBe(second.body[KEY][0].sourceIpAddress);
    const taken = await create({ name: "cache-2", sourceIpAddress: "10.20.1.50" });
    expect(taken.status).toBe(409);
  });

  it("keeps names unique in the account (409), and shows another account nothing", async () => {
    expect((await create({ name: "unique" })).status).toBe(200);
    expect((await create({ name: "unique" })).status).toBe(409);
    const other = await api("GET", "internallb/internalLbList", { zoneUuid: ZONE }, ADMIN);
    expect(other.body.count).toBe(0);
    expect((await api("DELETE", "internallb/deleteInternalLb/unique", {}, ADMIN)).status).toBe(404);
  });

  it("lives in VPC tiers only (400 for an isolated network)", async () => {
    const network = await one("POST", "network/createNetwork", {
      name: "flat",
      zoneUuid: ZONE,
      networkOfferingUuid: CATALOG_IDS.networkOfferings.isolated,
    });
    const reply = await create({ name: "flat-lb", networkUuid: network.uuid });
    expect(reply.status).toBe(400);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(/^networkUuid: /);
  });

  it("filters the list by network and needs a known zone", async () => {
    expect((await list({ networkUuid: NOWHERE })).count).toBe(0);
    expect((await api("GET", "internallb/internalLbList")).status).toBe(400);
    expect((await api("GET", "internallb/internalLbList", { zoneUuid: NOWHERE })).status).toBe(404);
  });

  it.each([
    ["no name", { name: undefined }, 400, /^name: is required/],
    ["no networkUuid", { networkUuid: undefined }, 400, /^networkUuid: is required/],
    ["no algorithm", { algorithm: undefined }, 400, /^algorithm: is required/],
    ["algorithm random", { algorithm: "random" }, 400, /^algorithm: /],
    ["no sourceport", { sourceport: undefined }, 400, /^sourceport: is required/],
    ["instanceport 0", { instanceport: "0" }, 400, /^instanceport: /],
    ["an address outside the tier", { sourceIpAddress: "10.99.0.5" }, 400, /^sourceIpAddress: /],
    ["a malformed address", { sourceIpAddress: "10.20.1" }, 400, /^sourceIpAddress: /],
    ["an unknown network", { networkUuid: NOWHERE }, 404, /network/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    const before = await resources();
    const body = Object.fromEntries(Object.entries(lbInput({ name: "refused", ...input })).filter(([, v]) => v));
    const reply = await api("POST", "internallb/createInternalLb", body);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
    expect(await resources()).toEqual(before);
  });
});
