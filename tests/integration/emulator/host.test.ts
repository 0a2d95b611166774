import { startEmulator, type RunningEmulator } from "../../../emulator/index";

const DEMO = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
const ADMIN = { apikey: "admin-api-key", secretkey: "admin-secret-key" };

let emulator: RunningEmulator;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function hostList(headers: Record<string, string>, query = ""): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${emulator.url}/restapi/host/hostList${query}`, { headers });
  return { status: response.status, body: (await response.json()) as Json };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
});
afterAll(async () => {
  await emulator.stop();
});

describe("hostList", () => {
  it("lists the seeded hypervisor hosts to an administrator, every field a string but isActive", async () => {
    const reply = await hostList(ADMIN);
    expect(reply.status).toBe(200);
    expect(reply.body.count).toBe(reply.body.listHostResponse.length);
    expect(reply.body.count).toBeGreaterThan(1);
    for (const host of reply.body.listHostResponse) {
      expect(Object.keys(host).sort()).toEqual(
        [
          "cpuAllocated",
          "memoryUsedPercentage",
          "cpuUsed",
          "memoryAllocatedPercentage",
          "isActive",
          "uuid",
          "cpuCores",
          "memoryTotal",
          "hypervisor",
          "name",
          "podName",
          "vmCount",
          "status",
        ].sort(),
      );
      for (const [field, value] of Object.entries(host)) {
        expect(typeof value).toBe(field === "isActive" ? "boolean" : "string");
      }
      expect(host.hypervisor).toBe("KVM");
    }
  });

  it("filters by uuid (an unknown one lists nothing)", async () => {
    const all = await hostList(ADMIN);
    const { uuid } = all.body.listHostResponse[1];
    const one = await hostList(ADMIN, `?uuid=${uuid}`);
    expect(one.body.listHostResponse.map((h: { uuid: string }) => h.uuid)).toEqual([uuid]);
    const none = await hostList(ADMIN, "?uuid=00000000-0000-4000-8000-000000000000");
    expect(none.body).toEqual({ count: 0, listHostResponse: [] });
  });

  it("answers 550 with the error envelope to a regular account, and 401 without credentials", async () => {
    const denied = await hostList(DEMO);
    expect(denied.status).toBe(550);
    expect(denied.body).toEqual({
      listErrorResponse: { errorCode: "PERMISSION_DENIED", errorMsg: expect.stringMatching(/administrator/) },
    });
    expect((await hostList({})).status).toBe(401);
  });
});
