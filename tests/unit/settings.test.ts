/**
 * The provider's settings (provider/settings.ts): defaults, config over environment, invalid values
 * reported per setting with how to set it, and the check of a provider resource's typed inputs.
 */
import { UNKNOWN } from "../../provider/wire";
import {
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  PROVIDER_SETTING_KEYS,
  PROVIDER_SETTINGS,
  resolveProviderConfig,
  sameClientConfig,
  settingDescription,
  validateProviderSettings,
} from "../../provider/settings";

const ENV_NAMES = PROVIDER_SETTINGS.map((s) => s.env);
const saved = Object.fromEntries(ENV_NAMES.map((k) => [k, process.env[k]]));
beforeEach(() => {
  for (const key of ENV_NAMES) delete process.env[key];
});
afterAll(() => {
  for (const key of ENV_NAMES) {
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
const typedComplete = { apiUrl: "http://127.0.0.1:8080", apiKey: "k", secretKey: "s" };

describe("the table", () => {
  test("one row per setting, each with its own RESTCLOUD_* variable and a description", () => {
    expect(PROVIDER_SETTING_KEYS).toEqual([
      "apiUrl",
      "apiKey",
      "secretKey",
      "zoneUuid",
      "maxConcurrentRequests",
      "shareReads",
      "requestTimeout",
      "pollInterval",
      "ownerTags",
      "defaultTags",
    ]);
    expect(new Set(ENV_NAMES).size).toBe(ENV_NAMES.length);
    for (const s of PROVIDER_SETTINGS) {
      expect(s.env).toMatch(/^RESTCLOUD_[A-Z_]+$/);
      expect(s.description).not.toEqual("");
      // A required setting has no default; a default has the setting's type.
      if (s.required) expect(s.default).toBeUndefined();
    }
    expect(PROVIDER_SETTINGS.filter((s) => s.secret).map((s) => s.key)).toEqual(["apiKey", "secretKey"]);
  });

  test("the defaults are the exported constants, and the descriptions say them", () => {
    const byKey = Object.fromEntries(PROVIDER_SETTINGS.map((s) => [s.key, s]));
    expect(byKey.maxConcurrentRequests.default).toBe(DEFAULT_MAX_CONCURRENT_REQUESTS);
    expect(byKey.requestTimeout.default).toBe("30s");
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(settingDescription(byKey.maxConcurrentRequests)).toMatch(/ Default: 8\.$/);
    expect(settingDescription(byKey.requestTimeout)).toMatch(/ Default: "30s"\.$/);
    expect(settingDescription(byKey.zoneUuid)).toMatch(/ Default: none\.$/);
    expect(settingDescription(byKey.apiUrl)).toBe(byKey.apiUrl.description);
  });
});

describe("resolveProviderConfig", () => {
  test("by default: at most 8 requests in flight, reads shared, a 30s request timeout", () => {
    const config = resolveProviderConfig(source(complete));
    expect(config.maxConcurrentRequests).toBe(DEFAULT_MAX_CONCURRENT_REQUESTS);
    expect(DEFAULT_MAX_CONCURRENT_REQUESTS).toBe(8);
    expect(config.shareReads).toBe(true);
    expect(config).toMatchObject({ requestTimeout: "30s", requestTimeoutMs: 30_000, zoneUuid: undefined });
    expect(config.pollIntervalMs).toBe(100);
    expect(config.missing()).toEqual([]);
    expect(config.problems()).toEqual([]);
  });

  test("restcloud:* config first, then RESTCLOUD_* variables", () => {
    process.env.RESTCLOUD_MAX_CONCURRENT_REQUESTS = "3";
    process.env.RESTCLOUD_SHARE_READS = "false";
    process.env.RESTCLOUD_REQUEST_TIMEOUT = "2m";
    expect(resolveProviderConfig(source(complete))).toMatchObject({
      maxConcurrentRequests: 3,
      shareReads: false,
      requestTimeout: "2m",
      requestTimeoutMs: 120_000,
    });
    const configured = resolveProviderConfig(
      source({ ...complete, "restcloud:maxConcurrentRequests": "16", "restcloud:shareReads": "true" }),
    );
    expect(configured).toMatchObject({ maxConcurrentRequests: 16, shareReads: true });
    process.env.RESTCLOUD_POLL_INTERVAL = "250ms";
    expect(resolveProviderConfig(source(complete)).pollIntervalMs).toBe(250);
    expect(resolveProviderConfig(source({ ...complete, "restcloud:pollInterval": "1s" })).pollIntervalMs).toBe(1000);
    const slow = resolveProviderConfig(source({ ...complete, "restcloud:pollInterval": "often" }));
    expect(slow.problems().map((p) => p.key)).toEqual(["pollInterval"]);
    expect(slow.pollIntervalMs).toBe(100);
  });

  test("invalid values are reported, each with how to set it", () => {
    const config = resolveProviderConfig(
      source({ ...complete, "restcloud:maxConcurrentRequests": "0", "restcloud:shareReads": "sometimes" }),
    );
    expect(config.missing()).toEqual([
      "maxConcurrentRequests must be a positive integer (pulumi config set restcloud:maxConcurrentRequests <value>, or RESTCLOUD_MAX_CONCURRENT_REQUESTS)",
      "shareReads must be true or false (pulumi config set restcloud:shareReads <value>, or RESTCLOUD_SHARE_READS)",
    ]);
    // An invalid value is reported, and its default applies meanwhile.
    expect(config).toMatchObject({ maxConcurrentRequests: 8, shareReads: true });
  });

  test("problems() names the field of each: a bad integer, boolean and duration, a missing apiUrl", () => {
    const config = resolveProviderConfig(
      source({
        "restcloud:apiKey": "k",
        "restcloud:secretKey": "s",
        "restcloud:maxConcurrentRequests": "many",
        "restcloud:shareReads": "sometimes",
        "restcloud:requestTimeout": "soon",
      }),
    );
    const problems = config.problems();
    expect(problems.map((p) => p.key)).toEqual(["apiUrl", "maxConcurrentRequests", "shareReads", "requestTimeout"]);
    for (const p of problems) expect(p.message.startsWith(`${p.key} `)).toBe(true);
    expect(problems[0].message).toBe(
      "apiUrl is not set (pulumi config set restcloud:apiUrl <value>, or RESTCLOUD_API_URL)",
    );
    expect(problems[3].message).toBe(
      'requestTimeout must be a duration such as "30s", "2m" or "500ms" (pulumi config set restcloud:requestTimeout <value>, or RESTCLOUD_REQUEST_TIMEOUT)',
    );
    expect(config.missing()).toEqual(problems.map((p) => p.message));
    expect(config).toMatchObject({ requestTimeout: "soon", requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS });
  });

  test("a missing secret says to set it as one", () => {
    const config = resolveProviderConfig(source({ "restcloud:apiUrl": "http://127.0.0.1:8080" }));
    expect(config.problems()).toEqual([
      {
        key: "apiKey",
        message: "apiKey is not set (pulumi config set --secret restcloud:apiKey <value>, or RESTCLOUD_API_KEY)",
      },
      {
        key: "secretKey",
        message:
          "secretKey is not set (pulumi config set --secret restcloud:secretKey <value>, or RESTCLOUD_SECRET_KEY)",
      },
    ]);
  });

  test("the same settings make the same client; the zone does not matter to it", () => {
    const a = resolveProviderConfig(source({ ...complete, "restcloud:zoneUuid": "z1" }));
    const b = resolveProviderConfig(source({ ...complete, "restcloud:zoneUuid": "z2" }));
    const c = resolveProviderConfig(source({ ...complete, "restcloud:maxConcurrentRequests": "2" }));
    expect(sameClientConfig(a, b)).toBe(true);
    expect(sameClientConfig(a, c)).toBe(false);
  });
});

describe("validateProviderSettings: a provider resource's inputs, as they arrive", () => {
  const noEnv = {};
  const keysOf = (values: Record<string, unknown>, env: Record<string, string> = noEnv) =>
    validateProviderSettings(values, env).map((p) => p.key);

  test("typed values, and the stack config's texts, pass", () => {
    const typed = {
      ...typedComplete,
      zoneUuid: "z",
      maxConcurrentRequests: 4,
      shareReads: false,
      requestTimeout: "2m",
    };
    expect(validateProviderSettings(typed, noEnv)).toEqual([]);
    const texts = { ...typedComplete, maxConcurrentRequests: "4", shareReads: "false", requestTimeout: "1h30m" };
    expect(validateProviderSettings(texts, noEnv)).toEqual([]);
  });

  test("a bad integer names maxConcurrentRequests", () => {
    for (const bad of [0, -1, 2.5, "many", true]) {
      const problems = validateProviderSettings({ ...typedComplete, maxConcurrentRequests: bad }, noEnv);
      expect(problems).toEqual([
        {
          key: "maxConcurrentRequests",
          message: expect.stringMatching(/^maxConcurrentRequests must be a positive integer \(/),
        },
      ]);
    }
  });

  test("a bad boolean names shareReads", () => {
    for (const bad of ["sometimes", 1, "yes"]) {
      expect(validateProviderSettings({ ...typedComplete, shareReads: bad }, noEnv)).toEqual([
        { key: "shareReads", message: expect.stringMatching(/^shareReads must be true or false \(/) },
      ]);
    }
  });

  test("a bad duration names requestTimeout", () => {
    for (const bad of ["soon", "30", 30, "0s"]) {
      expect(validateProviderSettings({ ...typedComplete, requestTimeout: bad }, noEnv)).toEqual([
        { key: "requestTimeout", message: expect.stringMatching(/^requestTimeout must be a duration such as "30s"/) },
      ]);
    }
  });

  test("a missing apiUrl is named, unless its environment variable has it", () => {
    const { apiUrl: _apiUrl, ...rest } = typedComplete;
    expect(validateProviderSettings(rest, noEnv)).toEqual([
      {
        key: "apiUrl",
        message: "apiUrl is not set (pulumi config set restcloud:apiUrl <value>, or RESTCLOUD_API_URL)",
      },
    ]);
    expect(keysOf({ ...rest, apiUrl: "" })).toEqual(["apiUrl"]);
    expect(keysOf(rest, { RESTCLOUD_API_URL: "http://127.0.0.1:8080" })).toEqual([]);
    expect(keysOf({}, { RESTCLOUD_API_URL: "u", RESTCLOUD_API_KEY: "k", RESTCLOUD_SECRET_KEY: "s" })).toEqual([]);
  });

  test("a setting not given is checked in its environment variable", () => {
    expect(keysOf(typedComplete, { RESTCLOUD_MAX_CONCURRENT_REQUESTS: "zero" })).toEqual(["maxConcurrentRequests"]);
    expect(
      keysOf({ ...typedComplete, maxConcurrentRequests: 2 }, { RESTCLOUD_MAX_CONCURRENT_REQUESTS: "zero" }),
    ).toEqual([]);
  });

  test("values not known yet are not judged; keys that are no setting are ignored", () => {
    expect(keysOf({ ...typedComplete, apiUrl: UNKNOWN, maxConcurrentRequests: UNKNOWN })).toEqual([]);
    expect(keysOf({ ...typedComplete, version: 3, "restcloud:case": "x" })).toEqual([]);
    expect(PROVIDER_SETTING_KEYS.includes("version")).toBe(false);
  });

  test("defaultTags: a map (a provider's argument), or its JSON (config, variable); a bad key or value is named", () => {
    expect(validateProviderSettings({ ...typedComplete, defaultTags: { team: "payments" } }, noEnv)).toEqual([]);
    expect(keysOf({ ...typedComplete, defaultTags: { team: UNKNOWN } })).toEqual([]);
    const message = (defaultTags: unknown, env: Record<string, string> = noEnv) =>
      validateProviderSettings({ ...typedComplete, defaultTags }, env).map((p) => p.message);
    expect(message({ "pulumi-owner": "me" })).toEqual([
      expect.stringMatching(/^defaultTags must not hold the key "pulumi-owner": the provider tags every record/),
    ]);
    expect(message({ "": "x", team: "y".repeat(256) })).toEqual([
      'defaultTags has an empty key: a tag\'s key must not be empty; has a value longer than 255 characters (key "team")',
    ]);
    expect(message(["team"])).toEqual([
      'defaultTags must be a map of tag keys to string values (as JSON in a variable: {"team":"payments"}) (pulumi config set --path restcloud:defaultTags.<key> <value>, or RESTCLOUD_DEFAULT_TAGS as JSON)',
    ]);
    expect(message(undefined, { RESTCLOUD_DEFAULT_TAGS: "team=payments" })).toHaveLength(1);
    const config = resolveProviderConfig(source({ ...complete, "restcloud:defaultTags": '{"team":"payments"}' }));
    expect(config.defaultTags).toEqual({ team: "payments" });
    process.env.RESTCLOUD_DEFAULT_TAGS = '{"env":"dev"}';
    expect(resolveProviderConfig(source(complete)).defaultTags).toEqual({ env: "dev" });
    expect(resolveProviderConfig(source({ ...complete, "restcloud:defaultTags": "{}" })).defaultTags).toEqual({});
  });

  test("null counts as not given", () => {
    expect(keysOf({ ...typedComplete, apiUrl: null, shareReads: null })).toEqual(["apiUrl"]);
  });
});
