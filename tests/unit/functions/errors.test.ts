/**
 * What a failed function call throws: the error of its kind (ApiError, ConfigError...), its message
 * naming the function, and nothing a terminal would show as noise: no stack frames (which would point
 * into compiled files, or through source maps into sources the package does not ship), no ANSI codes.
 * Pulumi prints such an error's message alone (it counts as a RunError).
 */
import { RunError } from "@pulumi/pulumi";
import { ApiError, ConfigError, type RestCloudClient } from "../../../provider/client";
import { getZone, getZones } from "../../../provider/functions";

const unauthorized = new ApiError({
  operation: "listZones",
  method: "GET",
  path: "/restapi/costestimate/zone-list",
  status: 401,
  errorCode: "UNAUTHORIZED",
  message: "wrong apikey or secretkey",
  retryable: false,
});
const failing = { costEstimate: { zones: async () => Promise.reject(unauthorized) } } as unknown as RestCloudClient;
const answering = {
  costEstimate: { zones: async () => [{ uuid: "z1", name: "Frankfurt 1" }] },
} as unknown as RestCloudClient;

const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: Error) => error,
  );

describe("errors of functions", () => {
  test("an API error keeps its kind and fields, names the function, and carries no stack", async () => {
    const error = await thrown(getZones({}, { client: failing }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(error.message).toBe(`restcloud.getZones: ${unauthorized.message}`);
    expect(error.stack).toBe(`ApiError: ${error.message}`);
    expect(RunError.isInstance(error)).toBe(true);
    // Pulumi prints a RunError's message alone (not util.inspect of it, which colors every field).
    // eslint-disable-next-line no-control-regex
    expect(`${error.message}\n${error.stack}`).not.toMatch(/\u001b\[|\n\s+at /);
    // The client's error is left as it was: one error object may answer several callers.
    expect(unauthorized.message).toMatch(/^listZones failed/);
  });

  test("a function's own failure and a configuration error read the same way", async () => {
    const none = await thrown(getZone({ nameRegex: "atlantis" }, { client: answering }));
    expect(none.message).toBe('restcloud.getZone: no zone matches {"nameRegex":"atlantis"}');
    expect(none.stack).toBe(`Error: ${none.message}`);
    expect(RunError.isInstance(none)).toBe(true);

    const saved = { ...process.env };
    try {
      delete process.env.RESTCLOUD_API_URL;
      delete process.env.RESTCLOUD_API_KEY;
      delete process.env.RESTCLOUD_SECRET_KEY;
      const missing = await thrown(getZones());
      expect(missing).toBeInstanceOf(ConfigError);
      expect(missing.message).toMatch(/^restcloud\.getZones: missing apiUrl \(pulumi config set restcloud:apiUrl/);
      expect(missing.message).not.toMatch(/restcloud\.getZones: restcloud\.getZones/);
      expect(missing.stack).not.toMatch(/\n\s+at /);
    } finally {
      process.env = saved;
    }
  });

  test("invalid arguments name each field and what it allows", async () => {
    const error = await thrown(
      getZone({ nameRegex: "(" as string, countryName: 7 as unknown as string }, { client: answering }),
    );
    expect(error.message).toBe(
      "restcloud.getZone: invalid arguments: nameRegex: must be a valid regular expression; countryName: must be a string, not a number",
    );
  });
});
