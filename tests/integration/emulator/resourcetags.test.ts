import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { createNetwork, errorOf, instanceInput, UNKNOWN, until, useEmulator, ZONE, type Json } from "./helpers";

const emulator = useEmulator();
const { call } = emulator;

const tagsPath = (resourceType: string, zoneUuid = ZONE) =>
  `/restapi/resourcetags/createTags?resourceType=${resourceType}&zoneUuid=${zoneUuid}`;
const listTags = async (query = "") =>
  (await call("GET", `/restapi/resourcetags/resourceTagsList${query}`)).body as {
    count: number;
    svcCreateTagsResponse: Json[];
  };

let network: Json;

beforeEach(async () => {
  await emulator.reset();
  network = await createNetwork(emulator);
});

describe("resource tags", () => {
  it("tag a resource (Envelope of Tag under svcCreateTagsResponse), one value per key; delete answers the tag", async () => {
    const reply = await call("POST", tagsPath("Network"), { resourceUuid: network.uuid, key: "env", value: "prod" });
    expect(reply.status).toBe(200);
    const tag = {
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      key: "env",
      value: "prod",
      resourceUuid: network.uuid,
      resourceType: "Network",
      status: "Active",
      isActive: true,
    };
    expect(reply.body).toEqual({ count: 1, svcCreateTagsResponse: [tag] });
    const again = await call("POST", tagsPath("Network"), { resourceUuid: network.uuid, key: "env", value: "dev" });
    expect(again.status).toBe(409);
    await call("POST", tagsPath("Network"), { resourceUuid: network.uuid, key: "team", value: "web" });
    await call("POST", tagsPath("Template"), {
      resourceUuid: CATALOG_IDS.templates.debian12,
      key: "env",
      value: "prod",
    });

    expect((await listTags()).count).toBe(3);
    expect((await listTags(`?resourceUuid=${network.uuid}`)).count).toBe(2);
    expect((await listTags("?resourceType=Template")).svcCreateTagsResponse.map((t) => t.resourceUuid)).toEqual([
      CATALOG_IDS.templates.debian12,
    ]);
    const { uuid } = reply.body.svcCreateTagsResponse[0];
    expect((await listTags(`?uuid=${uuid}`)).svcCreateTagsResponse).toEqual([tag]);
    expect((await call("GET", "/restapi/resourcetags/resourceTagsList?resourceType=Bucket")).status).toBe(400);

    const deleted = await call("DELETE", `/restapi/resourcetags/deleteResourceTag/${uuid}`);
    expect(deleted.body).toEqual({ count: 1, svcCreateTagsResponse: [tag] });
    expect((await listTags()).count).toBe(2);
    expect((await call("DELETE", `/restapi/resourcetags/deleteResourceTag/${uuid}`)).status).toBe(404);
  });

  it.each([
    ["resourceType", "?zoneUuid=" + ZONE, {}, 400, /^resourceType: is required/],
    ["zoneUuid", "?resourceType=Network", {}, 400, /^zoneUuid: is required/],
    ["a resource type outside the enumeration", "?resourceType=Bucket&zoneUuid=" + ZONE, {}, 400, /^resourceType:/],
    ["key", "", { key: undefined }, 400, /^key: is required/],
    ["value", "", { value: undefined }, 400, /^value: is required/],
    ["resourceUuid", "", { resourceUuid: undefined }, 400, /^resourceUuid: is required/],
    ["an unknown zone", "?resourceType=Network&zoneUuid=" + UNKNOWN, {}, 404, /zone/],
    ["a resource that does not exist", "?resourceType=UserVm&zoneUuid=" + ZONE, {}, 404, /instance/],
    [
      "a zone other than the resource's",
      "?resourceType=Network&zoneUuid=" + CATALOG_IDS.zones.singapore,
      {},
      400,
      /^zoneUuid:/,
    ],
    ["an unknown template", "?resourceType=Template&zoneUuid=" + ZONE, { resourceUuid: UNKNOWN }, 404, /template/],
  ])("refuse %s, and a rejected call changes nothing", async (_what, query, overrides, status, message) => {
    const path = `/restapi/resourcetags/createTags${query || `?resourceType=Network&zoneUuid=${ZONE}`}`;
    const body = { resourceUuid: network.uuid, key: "env", value: "prod", ...overrides };
    const reply = await call("POST", path, body);
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toMatch(message);
    expect((await listTags()).count).toBe(0);
  });

  it("accept resources the emulator does not model (ISO, ACL) as opaque, and go with an expunged instance", async () => {
    expect((await call("POST", tagsPath("ISO"), { resourceUuid: "iso-1", key: "os", value: "alpine" })).status).toBe(
      200,
    );
    const created = await call(
      "POST",
      "/restapi/instance/createInstance",
      instanceInput({ networkUuid: network.uuid }),
    );
    const { uuid } = created.body.listInstanceResponse[0];
    expect((await call("POST", tagsPath("UserVm"), { resourceUuid: uuid, key: "role", value: "web" })).status).toBe(
      200,
    );
    await until(
      async () => (await call("GET", `/restapi/instance/vmStatus?uuid=${uuid}`)).body.status,
      (s) => s === "Running",
    );
    await call("GET", `/restapi/instance/destroyInstance?uuid=${uuid}&expunge=true`);
    expect((await listTags("?resourceType=UserVm")).count).toBe(0);
    expect((await listTags()).count).toBe(1);
  });
});
