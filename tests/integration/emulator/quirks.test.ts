import { startEmulator, type Quirk } from "../../../emulator/index";
import {
  createNetwork,
  createVpc,
  emulatorsOnDemand,
  request,
  sleep,
  tierInput,
  volumeInput,
  ZONE,
  type Json,
} from "./helpers";

const ASYNC_MS = 40;
const LINGER_MS = 1000;

const emulators = emulatorsOnDemand();

/** An emulator with these quirks, and a caller bound to it. */
async function withQuirks(quirks: Quirk[], asyncDelayMs = ASYNC_MS) {
  const emulator = await emulators.start({ asyncDelayMs, quirks });
  const call = (method: string, path: string, input?: Json) => request(emulator, method, path, input);
  return { emulator, call, createVpc: () => createVpc(emulator) };
}

describe("quirks", () => {
  it("rejects an unknown quirk", async () => {
    await expect(startEmulator({ port: 0, quirks: ["no-such-quirk" as Quirk] })).rejects.toThrow(/no-such-quirk/);
  });

  it("cidr-as-cIDR: VPC records carry cIDR instead of getcIDR", async () => {
    const { call, createVpc } = await withQuirks(["cidr-as-cIDR"]);
    const vpc = await createVpc();
    expect(vpc.cIDR).toBe("10.0.0.0/16");
    expect(vpc).not.toHaveProperty("getcIDR");
    const listed = (await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`)).body as Json;
    expect((listed.listVpcResponse as Json[])[0]).toEqual(vpc);
  });

  it("cidr-as-cIDR: network and tier records carry cIDR instead of getcIDR, and updateNetwork takes it", async () => {
    const { emulator, call } = await withQuirks(["cidr-as-cIDR"]);
    const network = await createNetwork(emulator);
    expect(network.cIDR).toMatch(/^10\.1\.\d+\.0\/24$/);
    expect(network).not.toHaveProperty("getcIDR");
    const updated = await call("PUT", "/restapi/network/updateNetwork", { uuid: network.uuid, cIDR: "10.1.200.0/24" });
    expect(updated.status).toBe(202);
    await sleep(ASYNC_MS * 3);
    const got = ((await call("GET", `/restapi/network/networkId?uuid=${String(network.uuid)}`)).body as Json)
      .listNetworkResponse[0] as Json;
    expect(got).toMatchObject({ cIDR: "10.1.200.0/24", gateway: "10.1.200.1" });
    expect(got).not.toHaveProperty("getcIDR");
    const refused = await call("PUT", "/restapi/network/updateNetwork", { uuid: network.uuid, cIDR: "8.8.8.0/24" });
    expect(refused.status).toBe(400);
    expect(refused.body.listErrorResponse.errorMsg).toBe("getcIDR: 8.8.8.0/24 is not a private (RFC 1918) block");

    const vpc = await createVpc(emulator, { getcIDR: "10.20.0.0/16" });
    const tier = await call("POST", "/restapi/vpc/createVpcNetwork", tierInput(vpc.uuid));
    const tierRecord = (tier.body as Json).listNetworkResponse[0] as Json;
    expect(tierRecord).toMatchObject({ cIDR: "10.20.1.0/24", vpcUuid: vpc.uuid });
    expect(tierRecord).not.toHaveProperty("getcIDR");
    const listed = (await call("GET", `/restapi/network/networkList?zoneUuid=${ZONE}`)).body as Json;
    for (const record of listed.listNetworkResponse as Json[]) {
      expect(record.cIDR).toEqual(expect.any(String));
      expect(record).not.toHaveProperty("getcIDR");
    }
  });

  it("cluster-list-object: listCluster answers the first cluster as a bare object", async () => {
    const { emulator, call } = await withQuirks(["cluster-list-object"]);
    const cluster = { uuid: "k-1", name: "k", state: "Running", size: 2 };
    emulator.scope("demo").collection("cluster")["k-1"] = cluster;
    const reply = await call("GET", "/restapi/kubernetes/listCluster");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject(cluster);
    expect(Array.isArray(reply.body)).toBe(false);
  });

  it("duplicate-list-records: volumeList returns every record twice", async () => {
    const { call } = await withQuirks(["duplicate-list-records"]);
    const created = await call("POST", "/restapi/volume/createVolume", volumeInput());
    expect(created.status).toBe(200);
    const listed = (await call("GET", `/restapi/volume/volumeList?zoneUuid=${ZONE}`)).body as Json;
    const records = listed.listVolumeResponse as Json[];
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual(records[1]);
    expect(listed.count).toBe(2);
  });

  it("numbers-as-strings: number fields of records arrive as strings, count stays a number", async () => {
    const { call } = await withQuirks(["numbers-as-strings"]);
    const offerings = (await call("GET", `/restapi/costestimate/vpcoffering-list?zoneUuid=${ZONE}`)).body as Json;
    expect(typeof offerings.count).toBe("number");
    const [first] = offerings.vpcOfferingCost as Json[];
    expect(typeof first.cost).toBe("string");
    expect(Number(first.cost)).toBeGreaterThan(0);
    const ipCost = (await call("GET", `/restapi/costestimate/ip-cost?zoneUuid=${ZONE}`)).body as Json;
    expect(typeof ipCost.ipCost).toBe("string");
  });

  it("delete-returns-object: a delete answers {} instead of true", async () => {
    const { call, createVpc } = await withQuirks(["delete-returns-object"]);
    const vpc = await createVpc();
    expect(await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`)).toEqual({ status: 200, body: {} });
    const failed = await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`);
    expect(failed.status).toBe(404);
    expect(failed.body).toHaveProperty("listErrorResponse");
  });

  it("tags-kong-envelope: the tags envelope key is kongCreateTagsResponse", async () => {
    const { call, createVpc } = await withQuirks(["tags-kong-envelope"]);
    const vpc = await createVpc();
    const reply = await call("POST", `/restapi/resourcetags/createTags?resourceType=Vpc&zoneUuid=${ZONE}`, {
      resourceUuid: vpc.uuid,
      key: "env",
      value: "dev",
    });
    expect(reply.status).toBe(200);
    const body = reply.body as Json;
    expect(body).not.toHaveProperty("svcCreateTagsResponse");
    expect((body.kongCreateTagsResponse as Json[])[0]).toMatchObject({ key: "env", value: "dev" });
  });

  it("lingering-deletes: a deleted VPC or network stays listed for one async delay", async () => {
    // A long delay: the record must still be listed after several requests, even on a loaded machine.
    const { emulator, call, createVpc } = await withQuirks(["lingering-deletes"], LINGER_MS);
    const vpc = await createVpc();
    const network = await createNetwork(emulator, { name: "n" });
    expect((await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`)).body).toBe(true);
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${String(network.uuid)}`)).body).toBe(true);
    const vpcs = async () => ((await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`)).body as Json).count;
    const networks = async () =>
      ((await call("GET", `/restapi/network/networkList?zoneUuid=${ZONE}`)).body as Json).count;
    expect([await vpcs(), await networks()]).toEqual([1, 1]);
    await sleep(LINGER_MS * 1.5);
    expect([await vpcs(), await networks()]).toEqual([0, 0]);
  });

  it("does nothing when no quirk is on", async () => {
    const { call, createVpc } = await withQuirks([]);
    const vpc = await createVpc();
    expect(vpc.getcIDR).toBe("10.0.0.0/16");
    expect((await call("DELETE", `/restapi/vpc/deleteVpc/${String(vpc.uuid)}`)).body).toBe(true);
    expect(((await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`)).body as Json).count).toBe(0);
  });
});
