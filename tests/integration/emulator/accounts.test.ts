import { startEmulator } from "../../../emulator/index";
import {
  ADMIN,
  createVpc,
  DEMO,
  request,
  tierInput,
  useEmulator,
  ZONE,
  type AccountHeaders,
  type Json,
} from "./helpers";

const emulator = useEmulator();
const { call } = emulator;

const vpcOf = async (headers: AccountHeaders, name: string): Promise<string> =>
  String((await createVpc(emulator, { name }, headers)).uuid);

const namesListed = async (headers: AccountHeaders) =>
  ((await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`, undefined, headers)).body.listVpcResponse as Json[])
    .map((v) => v.name)
    .sort();

describe("accounts", () => {
  it("keep their resources apart, both ways", async () => {
    const demoVpc = await vpcOf(DEMO, "demo-vpc");
    const adminVpc = await vpcOf(ADMIN, "admin-vpc");
    expect(await namesListed(DEMO)).toEqual(["demo-vpc"]);
    expect(await namesListed(ADMIN)).toEqual(["admin-vpc"]);

    for (const [headers, foreign] of [
      [ADMIN, demoVpc],
      [DEMO, adminVpc],
    ] as const) {
      expect((await call("GET", `/restapi/vpc/vpcId?uuid=${foreign}`, undefined, headers)).status).toBe(404);
      const update = await call("PUT", "/restapi/vpc/updateVpc", { uuid: foreign, name: "x" }, headers);
      expect(update.status).toBe(404);
      const tier = await call(
        "POST",
        "/restapi/vpc/createVpcNetwork",
        tierInput(foreign, { gateway: "10.0.1.1" }),
        headers,
      );
      expect(tier.status).toBe(404);
      expect((await call("DELETE", `/restapi/vpc/deleteVpc/${foreign}`, undefined, headers)).status).toBe(404);
    }
    // Nothing the other account tried changed anything.
    expect(await namesListed(DEMO)).toEqual(["demo-vpc"]);
    expect(await namesListed(ADMIN)).toEqual(["admin-vpc"]);
    expect(Object.keys((await emulator.resources("admin")).vpc as Json)).toEqual([adminVpc]);
  });

  it("can use other keys, given by option", async () => {
    const custom = await startEmulator({
      port: 0,
      accounts: { demo: { apiKey: "k1", secretKey: "s1" }, admin: { apiKey: "k2", secretKey: "s2" } },
    });
    try {
      const list = (headers: AccountHeaders) =>
        request(custom, "GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`, undefined, headers);
      expect((await list(DEMO)).status).toBe(401);
      expect((await list(ADMIN)).status).toBe(401);
      expect((await list({ apikey: "k1", secretkey: "s1" })).status).toBe(200);
      expect((await list({ apikey: "k2", secretkey: "s2" })).status).toBe(200);
      expect((await list({ apikey: "k1", secretkey: "s2" })).status).toBe(401);
    } finally {
      await custom.stop();
    }
  });
});
