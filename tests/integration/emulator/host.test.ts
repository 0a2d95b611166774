import { ADMIN, DEMO, useEmulator, type AccountHeaders } from "./helpers";

const emulator = useEmulator();

const hostList = (headers: AccountHeaders, query = "") =>
  emulator.call("GET", `/restapi/host/hostList${query}`, undefined, headers);

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
