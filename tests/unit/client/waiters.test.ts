/** Waiters on a fake clock: the poll schedule, the timeout error, progress, gone, visible, jobs. */
import {
  ApiError,
  JobFailedError,
  WaitTimeoutError,
  waitFor,
  waitForGone,
  waitForJob,
  waitForVisible,
  type AsyncJob,
  type WaitProgress,
} from "../../../provider/client";

/** A clock whose sleeps advance time at once, recording the poll times. */
function fakeClock() {
  let now = 0;
  return {
    clock: { now: () => now, sleep: async (ms: number) => void (now += ms) },
    at: () => now,
  };
}

/** A poll that reads `states` in turn, at the times it is called, and keeps the last one. */
function scripted<T>(states: Array<T | undefined>, at: () => number) {
  const times: number[] = [];
  let i = 0;
  const poll = async (): Promise<T | undefined> => {
    times.push(at());
    return states[Math.min(i++, states.length - 1)];
  };
  return { poll, times };
}

test("polls at once, then every 100 ms: a change is seen within one pace", async () => {
  const { clock, at } = fakeClock();
  const states = [...Array<string>(10).fill("Starting"), "Running"].map((state) => ({ state }));
  const { poll, times } = scripted(states, at);
  const value = await waitFor({ awaited: "instance i1 Running", poll, until: (v) => v.state === "Running" }, { clock });
  expect(value).toEqual({ state: "Running" });
  expect(times).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
});

test("the pace runs from the start of a poll; with a growth factor it backs off to its cap", async () => {
  const { clock, at } = fakeClock();
  const states = [...Array<string>(7).fill("Starting"), "Running"].map((state) => ({ state }));
  const { poll: scriptedPoll, times } = scripted(states, at);
  // Each answer takes 30 ms: the next poll still starts a pace after the last one started.
  const slowPoll = async () => {
    const value = await scriptedPoll();
    await clock.sleep(30);
    return value;
  };
  await waitFor({ awaited: "x", poll: slowPoll, until: (v) => v.state === "Running" }, { clock });
  expect(times).toEqual([0, 100, 200, 300, 400, 500, 600, 700]);

  const backoff = fakeClock();
  const { poll, times: backoffTimes } = scripted(states, backoff.at);
  const options = { clock: backoff.clock, initialDelayMs: 500, maxDelayMs: 5000, factor: 2 };
  await waitFor({ awaited: "job", poll, until: (v) => v.state === "Running" }, options);
  expect(backoffTimes).toEqual([0, 500, 1500, 3500, 7500, 12500, 17500, 22500]);
});

test("a pause that ends early (a job's record changed) brings the next poll forward", async () => {
  const { clock, at } = fakeClock();
  const { poll, times } = scripted([{ state: "Starting" }, { state: "Running" }], at);
  const pauses: number[] = [];
  const pause = async (ms: number) => {
    pauses.push(ms);
    await clock.sleep(20); // the watch saw a change after 20 ms
  };
  await waitFor({ awaited: "x", poll, until: (v) => v.state === "Running" }, { clock, initialDelayMs: 500, pause });
  expect(pauses).toEqual([500]);
  expect(times).toEqual([0, 20]);
});

test("the timeout error says what was awaited and the last state; progress reports each poll", async () => {
  const { clock, at } = fakeClock();
  const { poll } = scripted([{ state: "Starting", status: "Active", secret: "never shown" }], at);
  const progress: Array<WaitProgress<unknown>> = [];
  const waiting = waitFor(
    { awaited: "instance i1 to be Running", poll, until: (v) => v.state === "Running" },
    { clock, timeoutMs: 1000, onProgress: (p) => progress.push(p) },
  );
  await expect(waiting).rejects.toThrow(WaitTimeoutError);
  await expect(waiting).rejects.toThrow(
    "timed out after 1000 ms waiting for instance i1 to be Running; last state seen: state=Starting status=Active (11 polls)",
  );
  expect(progress.map((p) => p.elapsedMs)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  expect(progress.every((p) => p.state === "state=Starting status=Active")).toBe(true);
});

test("a record that does not exist yet counts as not ready", async () => {
  const { clock, at } = fakeClock();
  const { poll } = scripted([undefined, undefined, { status: "Active" }], at);
  await expect(waitFor({ awaited: "x", poll, until: (v) => v.status === "Active" }, { clock })).resolves.toEqual({
    status: "Active",
  });
});

test("a transient poll failure is another poll; any other failure ends the wait", async () => {
  const { clock } = fakeClock();
  const transient = new ApiError({
    operation: "vpcList",
    method: "GET",
    path: "/",
    status: 503,
    errorCode: "SERVICE_UNAVAILABLE",
    message: "x",
    retryable: true,
  });
  let calls = 0;
  const flaky = async () => {
    if (calls++ === 0) throw transient;
    return { status: "Active" };
  };
  await expect(waitFor({ awaited: "x", poll: flaky, until: () => true }, { clock })).resolves.toEqual({
    status: "Active",
  });
  const fatal = new ApiError({ ...transient, status: 550, errorCode: "PERMISSION_DENIED", retryable: false });
  await expect(
    waitFor(
      {
        awaited: "x",
        poll: async () => {
          throw fatal;
        },
        until: () => true,
      },
      { clock },
    ),
  ).rejects.toBe(fatal);
});

test("waitForVisible waits until every expected field reads back", async () => {
  const { clock, at } = fakeClock();
  const { poll, times } = scripted(
    [
      { name: "old", description: "d" },
      { name: "new", description: "d" },
      { name: "new", description: "d2" },
    ],
    at,
  );
  const progress: string[] = [];
  const value = await waitForVisible(
    { awaited: "VPC update", poll, expected: { name: "new", description: "d2" } },
    { clock, onProgress: (p) => progress.push(p.state) },
  );
  expect(value).toEqual({ name: "new", description: "d2" });
  expect(times).toHaveLength(3);
  expect(progress).toEqual([
    "name not yet updated, description not yet updated",
    "description not yet updated",
    "updated",
  ]);
});

test("waitForGone ends when the record is absent, or on a 404", async () => {
  const { clock, at } = fakeClock();
  const { poll, times } = scripted([{ uuid: "v" }, { uuid: "v" }, undefined], at);
  await waitForGone({ awaited: "VPC v gone", poll }, { clock });
  expect(times).toEqual([0, 100, 200]);
  const notFound = new ApiError({
    operation: "vpcId",
    method: "GET",
    path: "/",
    status: 404,
    errorCode: "NOT_FOUND",
    message: "x",
    retryable: false,
  });
  await expect(
    waitForGone(
      {
        awaited: "VPC v gone",
        poll: async () => {
          throw notFound;
        },
      },
      { clock },
    ),
  ).resolves.toBeUndefined();
  await expect(
    waitForGone({ awaited: "VPC v gone", poll: async () => ({ uuid: "v" }) }, { clock, timeoutMs: 50 }),
  ).rejects.toThrow("waiting for VPC v gone; last state seen: still listed (present)");
});

describe("waitForJob", () => {
  const job = (status: string, extra: Partial<AsyncJob> = {}): AsyncJob => ({ jobId: "j1", status, ...extra });

  test.each([
    ["IN_PROGRESS -> SUCCEEDED", ["IN_PROGRESS", "IN_PROGRESS", "SUCCEEDED"]],
    ["PENDING -> COMPLETE (other clients)", ["PENDING", "COMPLETE"]],
  ])("%s", async (_name, statuses) => {
    const { clock, at } = fakeClock();
    const { poll, times } = scripted(
      statuses.map((s) => job(s)),
      at,
    );
    const done = await waitForJob({ jobId: "j1", poll }, { clock });
    expect(done.status).toBe(statuses[statuses.length - 1]);
    expect(times).toHaveLength(statuses.length);
  });

  test("FAILED throws a JobFailedError with the job's code and message", async () => {
    const { clock, at } = fakeClock();
    const failed = job("FAILED", { resourceId: "vol1", errorCode: "NOT_FOUND", errorMessage: "volume vanished" });
    const { poll } = scripted([job("IN_PROGRESS"), failed], at);
    const waiting = waitForJob({ jobId: "j1", poll }, { clock });
    await expect(waiting).rejects.toThrow(JobFailedError);
    await expect(waiting).rejects.toMatchObject({
      jobId: "j1",
      resourceId: "vol1",
      errorCode: "NOT_FOUND",
      message: expect.stringContaining("job j1 (resource vol1) failed: volume vanished"),
    });
  });

  test("a job that never finishes times out naming the job and its status", async () => {
    const { clock, at } = fakeClock();
    const { poll } = scripted([job("IN_PROGRESS")], at);
    await expect(waitForJob({ jobId: "j1", poll }, { clock, timeoutMs: 500 })).rejects.toThrow(
      "waiting for job j1 to finish; last state seen: status=IN_PROGRESS",
    );
  });
});
