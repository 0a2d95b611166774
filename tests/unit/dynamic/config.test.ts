/** The provider's settings: defaults, config over environment, and invalid values reported with how to set them. */
import {
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  resolveProviderConfig,
  sameClientConfig,
} from "../../../provider/dynamic/config";

const KEYS = ["RESTCLOUD_MAX_CONCURRENT_REQUESTS", "RESTCLOUD_SHARE_READS"] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const key of KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

const source = (values: Record<string, string>) => ({ get: (key: string) => values[key] });
const complete = {
  "restcloud:apiUrl": "http://127.0.0.1:8080",
  "restcloud:apiKey": "k",
  "restcloud:secretKey": "s",
};

test("by default: at most 8 requests in flight, reads shared", () => {
  for (const key of KEYS) delete process.env[key];
  const config = resolveProviderConfig(source(complete));
  expect(config.maxConcurrentRequests).toBe(DEFAULT_MAX_CONCURRENT_REQUESTS);
  expect(DEFAULT_MAX_CONCURRENT_REQUESTS).toBe(8);
  expect(config.shareReads).toBe(true);
  expect(config.missing()).toEqual([]);
});

test("restcloud:* config first, then RESTCLOUD_* variables", () => {
  process.env.RESTCLOUD_MAX_CONCURRENT_REQUESTS = "3";
  process.env.RESTCLOUD_SHARE_READS = "false";
  expect(resolveProviderConfig(source(complete))).toMatchObject({ maxConcurrentRequests: 3, shareReads: false });
  const configured = resolveProviderConfig(
    source({ ...complete, "restcloud:maxConcurrentRequests": "16", "restcloud:shareReads": "true" }),
  );
  expect(configured).toMatchObject({ maxConcurrentRequests: 16, shareReads: true });
});

test("invalid values are reported, each with how to set it", () => {
  const config = resolveProviderConfig(
    source({ ...complete, "restcloud:maxConcurrentRequests": "0", "restcloud:shareReads": "sometimes" }),
  );
  expect(config.missing()).toEqual([
    "maxConcurrentRequests must be a positive integer (pulumi config set restcloud:maxConcurrentRequests <value>, or RESTCLOUD_MAX_CONCURRENT_REQUESTS)",
    "shareReads must be true or false (pulumi config set restcloud:shareReads <value>, or RESTCLOUD_SHARE_READS)",
  ]);
});

test("the same settings make the same client; the zone does not matter to it", () => {
  const a = resolveProviderConfig(source({ ...complete, "restcloud:zoneUuid": "z1" }));
  const b = resolveProviderConfig(source({ ...complete, "restcloud:zoneUuid": "z2" }));
  const c = resolveProviderConfig(source({ ...complete, "restcloud:maxConcurrentRequests": "2" }));
  expect(sameClientConfig(a, b)).toBe(true);
  expect(sameClientConfig(a, c)).toBe(false);
});
