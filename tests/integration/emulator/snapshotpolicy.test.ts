import { createVolume, errorOf, UNKNOWN, useEmulator, type Json } from "./helpers";

const emulator = useEmulator();
const { call } = emulator;

let volumeUuid: string;
const policyInput = (overrides: Json = {}): Json => ({
  volumeUuid,
  intervalType: "DAILY",
  timer: "02:30",
  timeZone: "Etc/GMT+12",
  ...overrides,
});
const createPolicy = (overrides: Json = {}) =>
  call("POST", "/restapi/snapshotPolicy/createSnapshotPolicy", policyInput(overrides));
const listPolicies = async (query = "") =>
  (await call("GET", `/restapi/snapshotPolicy/snapshotPolicyList?volumeUuid=${volumeUuid}${query}`)).body as {
    count: number;
    listSnapShotPoliciesResponse: Json[];
  };

beforeEach(async () => {
  await emulator.reset();
  volumeUuid = (await createVolume(emulator)).uuid;
});

describe("snapshot policies", () => {
  it("record the schedule with every field of the spec; one per interval type and volume; delete answers true", async () => {
    const reply = await createPolicy();
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      count: 1,
      listSnapShotPoliciesResponse: [
        {
          uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          volumeUuid,
          intervalType: "DAILY",
          scheduleTime: "02:30",
          dayOfWeek: "",
          dayOfMonth: "",
          timeZone: "Etc/GMT+12",
          maximumSnapshots: "8",
          status: "Active",
          isActive: true,
        },
      ],
    });
    const again = await createPolicy({ timer: "04:00" });
    expect(again.status).toBe(409);

    const weekly = await createPolicy({ intervalType: "WEEKLY", dayOfWeek: "3", maximumSnapshots: "4" });
    expect(weekly.body.listSnapShotPoliciesResponse[0]).toMatchObject({ dayOfWeek: "3", maximumSnapshots: "4" });
    const monthly = await createPolicy({ intervalType: "MONTHLY", dayOfMonth: 28, timeZone: "Europe/Berlin" });
    expect(monthly.body.listSnapShotPoliciesResponse[0]).toMatchObject({ dayOfMonth: "28", dayOfWeek: "" });
    const hourly = await createPolicy({ intervalType: "HOURLY", timer: "15" });
    expect(hourly.body.listSnapShotPoliciesResponse[0].scheduleTime).toBe("15");
    expect((await listPolicies()).count).toBe(4);

    const uuid = reply.body.listSnapShotPoliciesResponse[0].uuid;
    expect((await listPolicies(`&uuid=${uuid}`)).listSnapShotPoliciesResponse.map((p) => p.uuid)).toEqual([uuid]);
    const deleted = await call("DELETE", `/restapi/snapshotPolicy/deleteSnapshotPolicy/${uuid}`);
    expect(deleted.body).toBe(true);
    expect((await listPolicies()).count).toBe(3);
    expect((await call("DELETE", `/restapi/snapshotPolicy/deleteSnapshotPolicy/${uuid}`)).status).toBe(404);
  });

  it.each([
    ["timer", { timer: undefined }, 400, /^timer: is required/],
    ["intervalType", { intervalType: undefined }, 400, /^intervalType: is required/],
    ["timeZone", { timeZone: undefined }, 400, /^timeZone: is required/],
    ["an interval type outside the enumeration", { intervalType: "YEARLY" }, 400, /^intervalType:/],
    ["a time of day past 23:59", { timer: "24:00" }, 400, /^timer:/],
    ["a minute past 59 for HOURLY", { intervalType: "HOURLY", timer: "60" }, 400, /^timer:/],
    ["a time of day for HOURLY", { intervalType: "HOURLY", timer: "02:30" }, 400, /^timer:/],
    ["WEEKLY without dayOfWeek", { intervalType: "WEEKLY" }, 400, /^dayOfWeek: is required/],
    ["a day of week 8", { intervalType: "WEEKLY", dayOfWeek: 8 }, 400, /^dayOfWeek:/],
    ["a day of month 29", { intervalType: "MONTHLY", dayOfMonth: 29 }, 400, /^dayOfMonth:/],
    ["zero snapshots kept", { maximumSnapshots: "0" }, 400, /^maximumSnapshots:/],
    ["an unknown time zone", { timeZone: "Mars/Olympus" }, 400, /^timeZone:/],
    ["an unknown volume", { volumeUuid: UNKNOWN }, 404, /volume/],
  ])("refuses %s, and a rejected call changes nothing", async (_what, overrides, status, message) => {
    const reply = await createPolicy(overrides);
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toMatch(message);
    expect((await listPolicies()).count).toBe(0);
  });

  it("are listed per volume (required); a volume without policies has none", async () => {
    expect((await call("GET", "/restapi/snapshotPolicy/snapshotPolicyList")).status).toBe(400);
    const none = await call("GET", `/restapi/snapshotPolicy/snapshotPolicyList?volumeUuid=${UNKNOWN}`);
    expect(none.body).toEqual({ count: 0, listSnapShotPoliciesResponse: [] });
  });
});
