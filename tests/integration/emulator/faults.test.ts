import { emulatorsOnDemand, request, vpcInput, ZONE, type AccountHeaders, type Json } from "./helpers";

const VPC = vpcInput();

const { start } = emulatorsOnDemand();
const call = (url: string, method: string, path: string, input?: Json, headers?: AccountHeaders) =>
  request({ url }, method, path, input, headers);

const vpcsOf = async (url: string) => (await call(url, "GET", "/_emulator/resources?account=demo")).body.vpc ?? {};

describe("fault injection", () => {
  it("answers 503 at failRate 1 and changes nothing; control endpoints and getpublickey are spared", async () => {
    const { url } = await start({ failRate: 1 });
    const reply = await call(url, "POST", "/restapi/vpc/createVpc", VPC);
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({
      listErrorResponse: { errorCode: "SERVICE_UNAVAILABLE", errorMsg: expect.any(String) },
    });
    expect(await vpcsOf(url)).toEqual({});
    expect((await call(url, "GET", "/_emulator/health")).status).toBe(200);
    expect((await call(url, "GET", "/restapi/costestimate/getpublickey", undefined, {})).status).toBe(200);
  });

  it("answers 429 with Retry-After at throttleRate 1 and changes nothing", async () => {
    const { url } = await start({ throttleRate: 1 });
    const reply = await call(url, "POST", "/restapi/vpc/createVpc", VPC);
    expect(reply.status).toBe(429);
    expect(reply.headers.get("retry-after")).toBe("1");
    expect(reply.body).toMatchObject({ listErrorResponse: { errorCode: "TOO_MANY_REQUESTS" } });
    expect(await vpcsOf(url)).toEqual({});
  });

  it("applies the change and then answers 503 at failAfterRate 1", async () => {
    const { url } = await start({ failAfterRate: 1 });
    const reply = await call(url, "POST", "/restapi/vpc/createVpc", VPC);
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({ listErrorResponse: { errorCode: "SERVICE_UNAVAILABLE" } });
    expect(Object.values(await vpcsOf(url))).toEqual([expect.objectContaining({ name: "v" })]);
  });

  it("changes rates and latency at run time through /_emulator/faults", async () => {
    const { url } = await start({});
    expect((await call(url, "GET", "/_emulator/faults")).body).toEqual({
      failRate: 0,
      throttleRate: 0,
      failAfterRate: 0,
      latencyMs: 0,
      rules: [],
    });
    expect((await call(url, "PUT", "/_emulator/faults", { failRate: 1 })).body).toMatchObject({ failRate: 1 });
    expect((await call(url, "GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`)).status).toBe(503);
    await call(url, "PUT", "/_emulator/faults", { failRate: 0, latencyMs: 150 });
    const started = Date.now();
    expect((await call(url, "GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const bad = await call(url, "PUT", "/_emulator/faults", { throttleRate: 2 });
    expect([bad.status, bad.body]).toEqual([
      400,
      { listErrorResponse: { errorCode: "INVALID_PARAMETER", errorMsg: "throttleRate: must be a number from 0 to 1" } },
    ]);
  });

  it("draws the same faults and uuids under the same seed", async () => {
    const outcomes = async () => {
      const { url } = await start({ seed: 7, failRate: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await call(url, "POST", "/restapi/vpc/createVpc", VPC)).status);
      return { statuses, uuids: Object.keys(await vpcsOf(url)) };
    };
    const first = await outcomes();
    expect(new Set(first.statuses)).toEqual(new Set([200, 503]));
    expect(await outcomes()).toEqual(first);
  });
});

describe("stats", () => {
  it("counts every API request by operation and status, faulted ones too, and resets", async () => {
    const { url } = await start({});
    await call(url, "POST", "/restapi/vpc/createVpc", VPC);
    await call(url, "GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`);
    await call(url, "GET", "/restapi/vpc/vpcList");
    await call(url, "GET", "/restapi/vpc/vpcList", undefined, {});
    await call(url, "PUT", "/_emulator/faults", { throttleRate: 1 });
    await call(url, "POST", "/restapi/vpc/createVpc", VPC);
    await call(url, "GET", "/_emulator/health");
    expect((await call(url, "GET", "/_emulator/stats")).body).toEqual({
      total: 5,
      mutating: 2,
      byOperation: { createVpc: 2, vpcList: 3 },
      byStatus: { "200": 2, "400": 1, "401": 1, "429": 1 },
    });
    expect((await call(url, "DELETE", "/_emulator/stats")).body).toEqual({
      total: 0,
      mutating: 0,
      byOperation: {},
      byStatus: {},
    });
  });
});
