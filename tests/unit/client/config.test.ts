/** Configuration: options, environment fallbacks, clear errors; and redaction of credentials. */
import { inspect } from "node:util";
import { ConfigError, REDACTED, Redactor, RestCloudClient, resolveConfig } from "../../../provider/client";

describe("resolveConfig", () => {
  test("explicit options win over the environment", () => {
    const config = resolveConfig({
      apiUrl: "https://cloud.example.com/",
      apiKey: "k",
      secretKey: "s",
      env: { RESTCLOUD_API_URL: "https://other.example.com", RESTCLOUD_API_KEY: "ek", RESTCLOUD_SECRET_KEY: "es" },
    });
    expect(config).toMatchObject({ apiUrl: "https://cloud.example.com", apiKey: "k", secretKey: "s" });
  });

  test("falls back to RESTCLOUD_API_URL, RESTCLOUD_API_KEY and RESTCLOUD_SECRET_KEY", () => {
    const config = resolveConfig({
      env: { RESTCLOUD_API_URL: "http://127.0.0.1:8080/restapi/", RESTCLOUD_API_KEY: "ek", RESTCLOUD_SECRET_KEY: "es" },
    });
    expect(config).toMatchObject({ apiUrl: "http://127.0.0.1:8080", apiKey: "ek", secretKey: "es" });
    expect(config.timeoutMs).toBe(30_000);
    expect(config.retry).toEqual({ maxAttempts: 8, baseDelayMs: 1000, maxDelayMs: 8000, maxRetryAfterMs: 60_000 });
  });

  test("names everything that is missing, with its environment variable", () => {
    expect(() => resolveConfig({ apiKey: "k", env: {} })).toThrow(
      new ConfigError(
        "RestCloud client: missing apiUrl (or the environment variable RESTCLOUD_API_URL), " +
          "secretKey (or the environment variable RESTCLOUD_SECRET_KEY)",
      ),
    );
  });

  test("refuses a malformed URL, a non-HTTP URL and invalid numbers", () => {
    const base = { apiKey: "k", secretKey: "s", env: {} };
    expect(() => resolveConfig({ ...base, apiUrl: "not a url" })).toThrow(/apiUrl is not a valid URL/);
    expect(() => resolveConfig({ ...base, apiUrl: "ftp://x" })).toThrow(/http or https/);
    expect(() => resolveConfig({ ...base, apiUrl: "http://x", timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => resolveConfig({ ...base, apiUrl: "http://x", maxConcurrentRequests: 1.5 })).toThrow(
      /maxConcurrentRequests must be a positive integer/,
    );
  });

  test("retry: false means one attempt", () => {
    expect(resolveConfig({ apiUrl: "http://x", apiKey: "k", secretKey: "s", retry: false }).retry.maxAttempts).toBe(1);
  });

  test("a missing-setting error never shows the values that were given", () => {
    try {
      resolveConfig({ apiKey: "very-secret-key", env: {} });
    } catch (error) {
      expect(String(error)).not.toContain("very-secret-key");
    }
  });
});

describe("redaction", () => {
  const redactor = new Redactor(["api-KEY-123", "sec/ret+456"]);

  test("scrubs the credential values, plain and URL-encoded, from any text", () => {
    expect(redactor.text("key api-KEY-123 and sec/ret+456 and sec%2Fret%2B456")).toBe(
      `key ${REDACTED} and ${REDACTED} and ${REDACTED}`,
    );
  });

  test("redacts secret headers whatever their value", () => {
    expect(redactor.headers({ apikey: "x", SecretKey: "y", accept: "application/json" })).toEqual({
      apikey: REDACTED,
      SecretKey: REDACTED,
      accept: "application/json",
    });
  });

  test("redacts secret fields of a body, deeply", () => {
    expect(
      redactor.value({ name: "gw", ipsecpsk: "psk", nested: [{ dockerRegistryPassword: "pw", ok: "api-KEY-123" }] }),
    ).toEqual({ name: "gw", ipsecpsk: REDACTED, nested: [{ dockerRegistryPassword: REDACTED, ok: REDACTED }] });
  });

  test("a dump of the client shows no credential", () => {
    const client = new RestCloudClient({ apiUrl: "http://x", apiKey: "api-KEY-123", secretKey: "sec/ret+456" });
    for (const dump of [inspect(client, { depth: 10, showHidden: true }), JSON.stringify(client), String(client)]) {
      expect(dump).not.toContain("api-KEY-123");
      expect(dump).not.toContain("sec/ret+456");
    }
    expect(inspect(client.transport, { depth: 10, showHidden: true })).not.toContain("api-KEY-123");
  });
});
