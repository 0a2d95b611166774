/** Backoff maths, Retry-After, the retry decisions (reads, mutations, verification) and the semaphore. */
import { ApiError, type ApiErrorDetails } from "../../../provider/client/errors";
import { backoffDelay, jittered, parseRetryAfter } from "../../../provider/client/backoff";
import { retryDelay, withRetries } from "../../../provider/client/retry";
import { Semaphore } from "../../../provider/client/http";

const policy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

const failure = (details: Partial<ApiErrorDetails>): ApiError =>
  new ApiError({
    operation: "op",
    method: "GET",
    path: "/restapi/x/op",
    status: 503,
    errorCode: "SERVICE_UNAVAILABLE",
    message: "unavailable",
    retryable: true,
    ...details,
  });

describe("backoff", () => {
  test("doubles from the initial delay up to the cap", () => {
    const steps = [0, 1, 2, 3, 4, 5, 6].map((step) => backoffDelay(step, { initialMs: 100, maxMs: 5000 }));
    expect(steps).toEqual([100, 200, 400, 800, 1600, 3200, 5000]);
  });

  test("equal jitter keeps half the delay and randomises the other half", () => {
    expect(jittered(1000, () => 0)).toBe(500);
    expect(jittered(1000, () => 0.999999)).toBe(1000);
    expect(jittered(1000, () => 0.5)).toBe(750);
  });

  test("Retry-After in seconds or as an HTTP date", () => {
    expect(parseRetryAfter("1")).toBe(1000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter(["2"])).toBe(2000);
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("Mon, 31 Dec 2029 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  test("retryDelay honours Retry-After within the limit, and gives up beyond it", () => {
    expect(retryDelay(failure({ status: 429, retryAfterMs: 1000 }), 1, policy)).toBe(1000);
    expect(retryDelay(failure({ status: 429, retryAfterMs: 60_000 }), 1, policy)).toBeUndefined();
    expect(retryDelay(failure({}), 3, policy, () => 0)).toBe(200); // 100 * 2^2 = 400, half of it fixed
  });
});

describe("withRetries", () => {
  const noSleep = async (): Promise<void> => undefined;

  const run = async <T>(
    outcomes: Array<ApiError | T>,
    context: { mutating: boolean; verify?: () => Promise<T | undefined> },
  ): Promise<{ result?: T; error?: unknown; attempts: number; sleeps: number[] }> => {
    let attempts = 0;
    const sleeps: number[] = [];
    try {
      const result = await withRetries(
        async () => {
          const outcome = outcomes[attempts++];
          if (outcome instanceof ApiError) throw outcome;
          return outcome as T;
        },
        {
          ...context,
          policy,
          random: () => 0,
          sleep: async (ms) => {
            sleeps.push(ms);
            await noSleep();
          },
        },
      );
      return { result, attempts, sleeps };
    } catch (error) {
      return { error, attempts, sleeps };
    }
  };

  test("a read is retried on 503 with growing delays, then succeeds", async () => {
    const outcome = await run([failure({}), failure({ status: 502 }), "ok"], { mutating: false });
    expect(outcome).toMatchObject({ result: "ok", attempts: 3, sleeps: [50, 100] });
  });

  test("a read gives up after maxAttempts and reports how many attempts were made", async () => {
    const outcome = await run([failure({}), failure({}), failure({}), failure({}), "never"], { mutating: false });
    expect(outcome.attempts).toBe(4);
    expect((outcome.error as ApiError).attempts).toBe(4);
  });

  test.each([
    ["400", failure({ status: 400, retryable: false })],
    ["404", failure({ status: 404, retryable: false })],
    ["550 (permission denied)", failure({ status: 550, retryable: false })],
    ["500", failure({ status: 500, retryable: false })],
  ])("%s is never retried", async (_name, error) => {
    const outcome = await run([error, "never"], { mutating: false });
    expect(outcome).toMatchObject({ error, attempts: 1 });
  });

  test("a 429 honours Retry-After, for reads and for mutations (it was not processed)", async () => {
    const throttled = failure({ status: 429, retryAfterMs: 1000 });
    expect(await run([throttled, "ok"], { mutating: false })).toMatchObject({ result: "ok", sleeps: [1000] });
    expect(await run([throttled, "ok"], { mutating: true })).toMatchObject({ result: "ok", sleeps: [1000] });
  });

  test("a mutation whose connection was refused (never sent) is retried", async () => {
    const refused = failure({ status: undefined, errorCode: "ECONNREFUSED", ambiguous: false });
    expect(await run([refused, "ok"], { mutating: true })).toMatchObject({ result: "ok", attempts: 2 });
  });

  test("an ambiguous mutation failure without verify is thrown as is, never repeated", async () => {
    const ambiguous = failure({ ambiguous: true });
    const outcome = await run([ambiguous, "never"], { mutating: true });
    expect(outcome).toMatchObject({ error: ambiguous, attempts: 1 });
    expect((outcome.error as ApiError).ambiguous).toBe(true);
  });

  test("an ambiguous failure whose effect verify finds is a success, not repeated", async () => {
    const verify = jest.fn(async () => "found");
    const outcome = await run([failure({ ambiguous: true }), "never"], { mutating: true, verify });
    expect(outcome).toMatchObject({ result: "found", attempts: 1 });
    expect(verify).toHaveBeenCalledTimes(1);
  });

  test("an ambiguous failure whose effect verify does not find is sent again", async () => {
    const verify = jest.fn(async () => undefined);
    const outcome = await run([failure({ ambiguous: true }), "created"], { mutating: true, verify });
    expect(outcome).toMatchObject({ result: "created", attempts: 2 });
  });

  test("an ambiguous 500 (not transient) is verified but not sent again", async () => {
    const error = failure({ status: 500, retryable: false, ambiguous: true });
    const outcome = await run([error, "never"], { mutating: true, verify: async () => undefined });
    expect(outcome).toMatchObject({ error, attempts: 1 });
  });

  test("a failing verify leaves the original error", async () => {
    const error = failure({ ambiguous: true });
    const outcome = await run([error], {
      mutating: true,
      verify: async () => {
        throw new Error("list failed");
      },
    });
    expect(outcome.error).toBe(error);
  });
});

test("the semaphore lets `limit` holders in and queues the rest in order", async () => {
  const semaphore = new Semaphore(2);
  const order: string[] = [];
  const a = await semaphore.acquire();
  const b = await semaphore.acquire();
  expect(semaphore.inFlight).toBe(2);
  const c = semaphore.acquire().then((release) => (order.push("c"), release));
  const d = semaphore.acquire().then((release) => (order.push("d"), release));
  await Promise.resolve();
  expect(order).toEqual([]);
  a();
  a(); // releasing twice is harmless
  const releaseC = await c;
  expect(order).toEqual(["c"]);
  b();
  const releaseD = await d;
  expect(order).toEqual(["c", "d"]);
  releaseC();
  releaseD();
  expect(semaphore.inFlight).toBe(0);
});
