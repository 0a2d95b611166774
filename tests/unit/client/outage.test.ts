/**
 * Outages on a fake clock: inside an operation's scope, calls whose API does not answer are retried
 * until the operation's deadline (not for a number of attempts), waits end at that deadline, and
 * what fails then names the resource, the timeout, what it was doing and the outage. Outside a
 * scope the attempt count still bounds a call.
 */
import {
  ApiError,
  WaitTimeoutError,
  OperationTimeoutError,
  type ApiErrorDetails,
} from "../../../provider/client/errors";
import { ApiHealth, describeOutage, isNoAnswer } from "../../../provider/client/health";
import { withRetries } from "../../../provider/client/retry";
import { runInScope, type CallScope } from "../../../provider/client/scope";
import { waitFor } from "../../../provider/client/waiters";

const policy = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };
/** 12:00:00 local time on some day: the texts show times of day. */
const T0 = new Date(2030, 0, 1, 12, 0, 0).getTime();

const refused = (operation = "instanceList", mutating = false): ApiError =>
  new ApiError({
    operation,
    method: mutating ? "POST" : "GET",
    path: `/restapi/x/${operation}`,
    errorCode: "ECONNREFUSED",
    message: "connect ECONNREFUSED 127.0.0.1:41234",
    retryable: true,
    ambiguous: false,
  });

const failure = (details: Partial<ApiErrorDetails>): ApiError =>
  new ApiError({
    operation: "instanceList",
    method: "GET",
    path: "/restapi/x/instanceList",
    status: 503,
    errorCode: "SERVICE_UNAVAILABLE",
    message: "unavailable",
    retryable: true,
    ...details,
  });

/** A clock shared by the scope, the health and the sleeps: sleeping advances it at once. */
function fakeTime() {
  let now = T0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    advance: (ms: number) => void (now += ms),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
      },
    },
    sleeps,
  };
}

function scopeOf(time: ReturnType<typeof fakeTime>, health: ApiHealth, timeoutMs: number): CallScope {
  return {
    subject: "restcloud:Instance web-1",
    timeoutName: "create",
    timeoutMs,
    started: time.now(),
    deadline: time.now() + timeoutMs,
    health,
    activities: [],
    now: time.now,
  };
}

/** An attempt that fails (and tells the health, as the transport does) while `down()` holds. */
function flakyApi<T>(time: ReturnType<typeof fakeTime>, health: ApiHealth, down: () => boolean, answer: T) {
  const attempts: number[] = [];
  const attempt = async (): Promise<T> => {
    attempts.push(time.now() - T0);
    if (down()) {
      const error = refused();
      health.unanswered(error);
      throw error;
    }
    health.answered();
    return answer;
  };
  return { attempt, attempts };
}

describe("the API's health", () => {
  test("no connection, a reset, a timeout, 502/503/504 are no answer; any other status is one", () => {
    expect(isNoAnswer(refused())).toBe(true);
    expect(isNoAnswer(failure({ status: undefined, errorCode: "ECONNRESET" }))).toBe(true);
    for (const status of [502, 503, 504]) expect(isNoAnswer(failure({ status }))).toBe(true);
    for (const status of [400, 404, 409, 429, 500])
      expect(isNoAnswer(failure({ status, retryable: status === 429 }))).toBe(false);
  });

  test("keeps since when the API has not answered and its last error, until it answers again", () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    health.answered();
    time.advance(1000);
    health.record({ failure: refused() });
    time.advance(4000);
    health.record({ status: 503, failure: failure({}) });
    expect(health.snapshot().outage).toEqual({
      since: T0 + 1000,
      lastError: "HTTP 503 SERVICE_UNAVAILABLE",
      failures: 2,
    });
    expect(health.silentFor()).toBe(4000);
    expect(describeOutage(health.snapshot().outage!, time.now())).toBe(
      "the API has not answered for 4s (since 12:00:01: HTTP 503 SERVICE_UNAVAILABLE)",
    );
    time.advance(2000);
    health.record({ status: 404, failure: failure({ status: 404, retryable: false }) });
    expect(health.snapshot()).toMatchObject({
      lastAnswer: T0 + 7000,
      lastOutage: { since: T0 + 1000, until: T0 + 7000, failures: 2 },
    });
    expect(health.snapshot().outage).toBeUndefined();
  });
});

describe("retries inside an operation", () => {
  test("a call keeps retrying while the API does not answer, with capped backoff, and succeeds when it is back", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const api = flakyApi(time, health, () => time.now() < T0 + 60_000, "listed");
    const result = await runInScope(scopeOf(time, health, 600_000), () =>
      withRetries(api.attempt, { mutating: false, policy, sleep: time.sleep, random: () => 0 }),
    );
    expect(result).toBe("listed");
    // Far more than maxAttempts (4), each pause at most maxDelayMs.
    expect(api.attempts.length).toBeGreaterThan(10);
    expect(Math.max(...time.sleeps)).toBeLessThanOrEqual(policy.maxDelayMs);
    expect(time.sleeps.slice(0, 5)).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(health.snapshot().lastOutage).toMatchObject({ since: T0 });
  });

  test("at the operation's deadline it fails, naming the resource, the timeout, the call and the outage", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const api = flakyApi(time, health, () => true, "never");
    const running = runInScope(scopeOf(time, health, 40_000), () =>
      withRetries(api.attempt, { mutating: false, policy, sleep: time.sleep, random: () => 0 }),
    );
    await expect(running).rejects.toThrow(OperationTimeoutError);
    await expect(running).rejects.toThrow(
      "restcloud:Instance web-1: the create timeout (40s) ran out while calling instanceList; " +
        "the API has not answered for 40s (since 12:00:00: connect ECONNREFUSED 127.0.0.1:41234). " +
        'customTimeouts on the resource lengthens the wait (e.g. customTimeouts: { create: "30m" }).',
    );
    // The last attempt is made at the deadline, not later.
    expect(api.attempts[api.attempts.length - 1]).toBe(40_000);
    expect(time.now() - T0).toBe(40_000);
  });

  test("a mutation that never left (connection refused) is sent again until the API takes it", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const api = flakyApi(time, health, () => time.now() < T0 + 90_000, "created");
    const result = await runInScope(scopeOf(time, health, 600_000), () =>
      withRetries(api.attempt, { mutating: true, policy, sleep: time.sleep, random: () => 0 }),
    );
    expect(result).toBe("created");
  });

  test("the check of an ambiguous failure waits for the API until the deadline, then says what it was checking", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const reset = failure({ status: undefined, errorCode: "ECONNRESET", message: "socket hang up", ambiguous: true });
    let sent = 0;
    const running = runInScope(scopeOf(time, health, 30_000), () =>
      withRetries(
        async () => {
          sent++;
          health.unanswered(reset);
          throw reset;
        },
        {
          mutating: true,
          verify: async () => {
            const error = refused("instanceList");
            health.unanswered(error);
            throw error;
          },
          policy,
          sleep: time.sleep,
          random: () => 0,
        },
      ),
    );
    await expect(running).rejects.toThrow(
      "restcloud:Instance web-1: the create timeout (30s) ran out while checking whether instanceList took effect " +
        "(its answer was lost: ECONNRESET); the API has not answered for 30s (since 12:00:00: connect ECONNREFUSED 127.0.0.1:41234)",
    );
    // Never sent again blindly: the first request may have been applied.
    expect(sent).toBe(1);
  });

  test("an API that answers with errors keeps the attempt count, in a scope too", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    let attempts = 0;
    const throttled = failure({ status: 429, retryAfterMs: 1000, errorCode: "TOO_MANY_REQUESTS" });
    const running = runInScope(scopeOf(time, health, 600_000), () =>
      withRetries(
        async () => {
          attempts++;
          throw throttled;
        },
        { mutating: false, policy, sleep: time.sleep, random: () => 0 },
      ),
    );
    await expect(running).rejects.toBe(throttled);
    expect(attempts).toBe(policy.maxAttempts);
  });

  test("the attempts an outage took do not use up those of answered failures: a 429 after it is still retried", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const throttled = failure({ status: 429, retryAfterMs: 1000, errorCode: "TOO_MANY_REQUESTS" });
    let attempts = 0;
    const running = runInScope(scopeOf(time, health, 600_000), () =>
      withRetries(
        async () => {
          attempts++;
          if (attempts <= 2 * policy.maxAttempts) {
            const error = refused();
            health.unanswered(error);
            throw error;
          }
          health.answered();
          if (attempts <= 2 * policy.maxAttempts + policy.maxAttempts - 1) throw throttled;
          return "listed";
        },
        { mutating: false, policy, sleep: time.sleep, random: () => 0 },
      ),
    );
    await expect(running).resolves.toBe("listed");
    expect(attempts).toBe(3 * policy.maxAttempts);
  });

  test("outside an operation, a call gives up after maxAttempts as before", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const api = flakyApi(time, health, () => true, "never");
    const running = withRetries(api.attempt, { mutating: false, policy, sleep: time.sleep, random: () => 0 });
    await expect(running).rejects.toMatchObject({ errorCode: "ECONNREFUSED", attempts: policy.maxAttempts });
    expect(api.attempts).toHaveLength(policy.maxAttempts);
  });
});

describe("waits inside an operation", () => {
  test("end at the operation's deadline, naming what was awaited, the last state and the outage", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const scope = scopeOf(time, health, 60_000);
    let polls = 0;
    const running = runInScope(scope, async () => {
      time.advance(20_000); // the create itself took 20 s of the 60
      return waitFor(
        {
          awaited: "instance i-1 to be Running",
          poll: async () => {
            if (++polls <= 2) return { state: "Starting" };
            health.unanswered(refused());
            throw refused();
          },
          until: (v: { state: string }) => v.state === "Running",
        },
        { timeoutMs: 600_000, clock: time.clock },
      );
    });
    await expect(running).rejects.toThrow(OperationTimeoutError);
    await expect(running).rejects.toThrow(
      /^restcloud:Instance web-1: the create timeout \(1m\) ran out while waiting for instance i-1 to be Running \(last state seen: poll failed: ECONNREFUSED\); the API has not answered for 40s \(since 12:00:20: connect ECONNREFUSED 127\.0\.0\.1:41234\)\./,
    );
    expect(time.now() - T0).toBe(60_000);
    expect(scope.activities).toEqual([]);
  });

  test("a wait's own shorter timeout still ends it, and its error names the outage", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const running = runInScope(scopeOf(time, health, 600_000), () =>
      waitFor(
        {
          awaited: "volume v-1 to be gone",
          poll: async () => {
            health.unanswered(refused());
            throw refused();
          },
          until: () => false,
        },
        { timeoutMs: 10_000, clock: time.clock },
      ),
    );
    await expect(running).rejects.toThrow(WaitTimeoutError);
    await expect(running).rejects.not.toThrow(OperationTimeoutError);
    await expect(running).rejects.toThrow(
      "waiting for volume v-1 to be gone; last state seen: poll failed: ECONNREFUSED (101 polls); the API has not answered for 10s",
    );
  });

  test("say what they await while they run (the operation's current activity)", async () => {
    const time = fakeTime();
    const health = new ApiHealth("http://127.0.0.1:41234", time.now);
    const scope = scopeOf(time, health, 600_000);
    const seen: string[] = [];
    await runInScope(scope, () =>
      waitFor(
        {
          awaited: "instance i-1 to be Running",
          poll: async () => {
            const activity = scope.activities[scope.activities.length - 1];
            seen.push(`${activity?.what} [${activity?.state}]`);
            return { state: seen.length < 3 ? "Starting" : "Running" };
          },
          until: (v: { state: string }) => v.state === "Running",
        },
        { clock: time.clock },
      ),
    );
    expect(seen).toEqual([
      "waiting for instance i-1 to be Running [undefined]",
      "waiting for instance i-1 to be Running [state=Starting]",
      "waiting for instance i-1 to be Running [state=Starting]",
    ]);
    expect(scope.activities).toEqual([]);
  });
});
