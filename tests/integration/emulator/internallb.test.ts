/**
 * Internal load balancers, over HTTP. The record carries no uuid: a client creates one, finds it by
 * network and name (internalLbList's uuid filter takes the name), assigns and deletes it by name.
 */
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import {
  ADMIN,
  createNetwork,
  createVpcWithTier,
  UNKNOWN,
  useEmulator,
  withoutBlanks,
  ZONE,
  type Json,
} from "./helpers";

const KEY = "listInternalLbResponse";

const emulator = useEmulator();
const { call, expectRefused } = emulator;
let tier: Json;

const lbInput = (input: Json = {}) => ({
  name: "db",
  networkUuid: tier.uuid,
  algorithm: "source",
  sourceport: "5432",
  instanceport: "5432",
  ...input,
});
const create = (input: Json) => call("POST", "/restapi/internallb/createInternalLb", lbInput(input));
const list = async (query: Json) =>
  (await call("GET", "/restapi/internallb/internalLbList", { zoneUuid: ZONE, ...query })).body as Json;

beforeAll(async () => {
  ({ tier } = await createVpcWithTier(emulator, {
    vpc: { name: "prod" },
    tier: { name: "data", networkOfferingUuid: CATALOG_IDS.networkOfferings.vpcTierInternalLb },
  }));
});

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

    const assigned = await call("GET", "/restapi/internallb/assignLbRule", { uuid: "pg" });
    expect(assigned.status).toBe(200);
    expect(assigned.body[KEY]).toEqual([{ ...created, status: "Active" }]);
    expect((await list({ uuid: "pg" }))[KEY][0].status).toBe("Active");

    expect(await call("DELETE", "/restapi/internallb/deleteInternalLb/pg")).toEqual({ status: 200, body: true });
    expect(await list({ uuid: "pg" })).toEqual({ count: 0, [KEY]: [] });
    expect((await call("DELETE", "/restapi/internallb/deleteInternalLb/pg")).status).toBe(404);
    expect((await call("GET", "/restapi/internallb/assignLbRule", { uuid: "pg" })).status).toBe(404);
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
    const other = await call("GET", "/restapi/internallb/internalLbList", { zoneUuid: ZONE }, ADMIN);
    expect(other.body.count).toBe(0);
    expect((await call("DELETE", "/restapi/internallb/deleteInternalLb/unique", {}, ADMIN)).status).toBe(404);
  });

  it("lives in VPC tiers only (400 for an isolated network)", async () => {
    const network = await createNetwork(emulator, { name: "flat" });
    const reply = await create({ name: "flat-lb", networkUuid: network.uuid });
    expect(reply.status).toBe(400);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(/^networkUuid: /);
  });

  it("filters the list by network and needs a known zone", async () => {
    expect((await list({ networkUuid: UNKNOWN })).count).toBe(0);
    expect((await call("GET", "/restapi/internallb/internalLbList")).status).toBe(400);
    expect((await call("GET", "/restapi/internallb/internalLbList", { zoneUuid: UNKNOWN })).status).toBe(404);
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
    ["an unknown network", { networkUuid: UNKNOWN }, 404, /network/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    const body = withoutBlanks(lbInput({ name: "refused", ...input }));
    await expectRefused(() => call("POST", "/restapi/internallb/createInternalLb", body), status, message);
  });
});
