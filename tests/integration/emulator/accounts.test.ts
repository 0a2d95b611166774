import { CATALOG_IDS } from "../../../emulator/catalog";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ADMIN = { apikey: "admin-api-key", secretkey: "admin-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;

type Json = Record<string, unknown>;
type Headers = Record<string, string>;

let emulator: RunningEmulator;

async function call(url: string, method: string, path: string, headers: Headers, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

async function createVpc(headers: Headers, name: string): Promise<string> {
  const reply = await call(emulator.url, "POST", "/restapi/vpc/createVpc", headers, {
    name,
    zoneUuid: ZONE,
    vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard,
    getcIDR: "10.0.0.0/16",
  });
  expect(reply.status).toBe(200);
  return String((reply.body.listVpcResponse as Json[])[0].uuid);
}

const namesListed = async (headers: Headers) =>
  ((await call(emulator.url, "GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`, headers)).body.listVpcResponse as Json[])
    .map((v) => v.name)
    .sort();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
});
afterAll(async () => {
  await emulator.stop();
});

describe("accounts", () => {
  it("keep their resources apart, both ways", async () => {
    const demoVpc = await createVpc(DEMO, "demo-vpc");
    const adminVpc = await createVpc(ADMIN, "admin-vpc");
    expect(await namesListed(DEMO)).toEqual(["demo-vpc"]);
    expect(await namesListed(ADMIN)).toEqual(["admin-vpc"]);

    for (const [headers, foreign] of [
      [ADMIN, demoVpc],
      [DEMO, adminVpc],
    ] as const) {
      expect((await call(emulator.url, "GET", `/restapi/vpc/vpcId?uuid=${foreign}`, headers)).status).toBe(404);
      const update = await call(emulator.url, "PUT", "/restapi/vpc/updateVpc", headers, { uuid: foreign, name: "x" });
      expect(update.status).toBe(404);
      const tier = await call(emulator.url, "POST", "/restapi/vpc/createVpcNetwork", headers, {
        name: "t",
        vpcUuid: foreign,
        networkOfferingUuid: CATALOG_IDS.networkOfferings.vpcTier,
        gateway: "10.0.1.1",
        netmask: "255.255.255.0",
      });
      expect(tier.status).toBe(404);
      expect((await call(emulator.url, "DELETE", `/restapi/vpc/deleteVpc/${foreign}`, headers)).status).toBe(404);
    }
    // Nothing the other account tried changed anything.
    expect(await namesListed(DEMO)).toEqual(["demo-vpc"]);
    expect(await namesListed(ADMIN)).toEqual(["admin-vpc"]);
    const resources = await call(emulator.url, "GET", "/_emulator/resources?account=admin", {});
    expect(Object.keys(resources.body.vpc as Json)).toEqual([adminVpc]);
  });

  it("can use other keys, given by option", async () => {
    const custom = await startEmulator({
      port: 0,
      accounts: { demo: { apiKey: "k1", secretKey: "s1" }, admin: { apiKey: "k2", secretKey: "s2" } },
    });
    try {
      const list = `/restapi/vpc/vpcList?zoneUuid=${ZONE}`;
      expect((await call(custom.url, "GET", list, DEMO)).status).toBe(401);
      expect((await call(custom.url, "GET", list, ADMIN)).status).toBe(401);
      expect((await call(custom.url, "GET", list, { apikey: "k1", secretkey: "s1" })).status).toBe(200);
      expect((await call(custom.url, "GET", list, { apikey: "k2", secretkey: "s2" })).status).toBe(200);
      expect((await call(custom.url, "GET", list, { apikey: "k1", secretkey: "s2" })).status).toBe(401);
    } finally {
      await custom.stop();
    }
  });
});
