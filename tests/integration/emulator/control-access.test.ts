/**
 * Who may use the `/_emulator` control endpoints: open on loopback; beyond it (bound to 0.0.0.0)
 * only with the control token, as a header, a bearer token, or the console's cookie.
 */
import { once } from "node:events";
import { CONTROL_TOKEN_ENV, isLoopbackHost } from "../../../emulator/control/access";
import type { RunningEmulator } from "../../../emulator/index";
import { DEMO, emulatorsOnDemand, spawnEmulatorCli, ZONE } from "./helpers";

const emulators = emulatorsOnDemand();

// A token set in the shell running the tests would stand in for the generated one.
const outerToken = process.env[CONTROL_TOKEN_ENV];
beforeAll(() => {
  delete process.env[CONTROL_TOKEN_ENV];
});
afterAll(() => {
  if (outerToken !== undefined) process.env[CONTROL_TOKEN_ENV] = outerToken;
});

/** The emulator's address through loopback (it listens on every interface). */
const local = (emulator: RunningEmulator) => `http://127.0.0.1:${emulator.port}`;

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { redirect: "manual", ...init });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // The console's HTML stays text.
  }
  return { status: response.status, body, headers: response.headers };
}

const withToken = (token: string): RequestInit => ({ headers: { "x-emulator-control-token": token } });

describe("bound beyond loopback (0.0.0.0)", () => {
  let emulator: RunningEmulator;
  let token: string;
  beforeAll(async () => {
    emulator = await emulators.start({ host: "0.0.0.0" });
    token = emulator.controlAccess?.token ?? "";
  });

  it("generates a control token when none is given", () => {
    expect(emulator.controlAccess).toEqual({ token: expect.stringMatching(/^[\w-]{32}$/), source: "generated" });
  });

  it.each([
    ["GET", "/_emulator/state"],
    ["GET", "/_emulator/resources?account=demo"],
    ["POST", "/_emulator/reset"],
    ["GET", "/_emulator/faults"],
    ["GET", "/_emulator/requests"],
    ["GET", "/_emulator/timeline"],
    ["DELETE", "/_emulator/timeline"],
    ["GET", "/_emulator/job-durations"],
    ["PUT", "/_emulator/job-durations"],
    ["GET", "/_emulator/"],
  ])("%s %s: 401 without the token, 403 with a wrong one", async (method, path) => {
    const missing = await send(`${local(emulator)}${path}`, { method });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(missing.body).toEqual({ error: expect.stringContaining("x-emulator-control-token") });
    const wrong = await send(`${local(emulator)}${path}`, { method, ...withToken(`${token}x`) });
    expect([wrong.status, wrong.body]).toEqual([403, { error: "wrong control token" }]);
  });

  it("answers with the token, as the header or as a bearer token", async () => {
    const state = await send(`${local(emulator)}/_emulator/state`, withToken(token));
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ format: "restcloud-emulator-state" });
    const bearer = await send(`${local(emulator)}/_emulator/stats`, { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(200);
  });

  it("refused, a control request changes nothing", async () => {
    const faults = await send(`${local(emulator)}/_emulator/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ failRate: 1 }),
    });
    expect(faults.status).toBe(401);
    const now = await send(`${local(emulator)}/_emulator/faults`, withToken(token));
    expect(now.body).toMatchObject({ failRate: 0 });
  });

  it("keeps the health check open, and the API needs its own keys only", async () => {
    expect((await send(`${local(emulator)}/_emulator/health`)).status).toBe(200);
    const vpcs = await send(`${local(emulator)}/restapi/vpc/vpcList?zoneUuid=${ZONE}`, { headers: { ...DEMO } });
    expect([vpcs.status, vpcs.body]).toEqual([200, { count: 0, listVpcResponse: [] }]);
  });

  it("lets the console in: ?token= once sets a cookie its own requests carry", async () => {
    const wrong = await send(`${local(emulator)}/_emulator/?token=nope`);
    expect([wrong.status, wrong.headers.get("set-cookie")]).toEqual([403, null]);

    const entry = await send(`${local(emulator)}/_emulator/?token=${encodeURIComponent(token)}`);
    expect(entry.status).toBe(302);
    expect(entry.headers.get("location")).toBe("/_emulator/");
    const cookie = entry.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/; Path=\/_emulator; HttpOnly; SameSite=Strict$/);
    const sent = { headers: { cookie: cookie.split(";")[0] } };

    const page = await send(`${local(emulator)}/_emulator/`, sent);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain("<html");
    expect((await send(`${local(emulator)}/_emulator/resources?account=demo`, sent)).status).toBe(200);
    expect((await send(`${local(emulator)}/_emulator/owners?account=demo`, sent)).status).toBe(200);
  });
});

describe("where the token comes from", () => {
  afterEach(() => {
    delete process.env[CONTROL_TOKEN_ENV];
  });

  it("takes the controlToken option first, then the environment", async () => {
    process.env[CONTROL_TOKEN_ENV] = "from-the-environment";
    const given = await emulators.start({ host: "0.0.0.0", controlToken: "from-the-option" });
    expect(given.controlAccess).toEqual({ token: "from-the-option", source: "option" });
    expect((await send(`${local(given)}/_emulator/state`, withToken("from-the-option"))).status).toBe(200);
    expect((await send(`${local(given)}/_emulator/state`, withToken("from-the-environment"))).status).toBe(403);

    const fromEnv = await emulators.start({ host: "0.0.0.0" });
    expect(fromEnv.controlAccess).toEqual({ token: "from-the-environment", source: "environment" });
    expect((await send(`${local(fromEnv)}/_emulator/state`, withToken("from-the-environment"))).status).toBe(200);
  });

  it("refuses an empty token", async () => {
    await expect(emulators.start({ host: "0.0.0.0", controlToken: "" })).rejects.toThrow(
      "controlToken: must not be empty",
    );
  });
});

describe("on loopback", () => {
  it("keeps the control endpoints open, even with a token set", async () => {
    process.env[CONTROL_TOKEN_ENV] = "unused-on-loopback";
    try {
      const emulator = await emulators.start({ controlToken: "unused-too" });
      expect(emulator.controlAccess).toBeUndefined();
      expect((await send(`${emulator.url}/_emulator/state`)).status).toBe(200);
      expect((await send(`${emulator.url}/_emulator/`)).status).toBe(200);
      expect((await send(`${emulator.url}/_emulator/reset`, { method: "POST" })).status).toBe(200);
    } finally {
      delete process.env[CONTROL_TOKEN_ENV];
    }
  });

  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.20", false],
    ["example.internal", false],
  ])("%s is loopback: %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe("the CLI", () => {
  it("bound to 0.0.0.0, prints that control endpoints need the token and how to pass it", async () => {
    const child = spawnEmulatorCli(["--port", "0", "--host", "0.0.0.0"]);
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (output += chunk));
    while (!output.includes("/_emulator/?token=")) await once(child.stdout, "data");
    while (!output.endsWith("\n")) await once(child.stdout, "data");
    const lines = output.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^listening on http:\/\/0\.0\.0\.0:\d+$/);
    const token = /"x-emulator-control-token: ([\w-]+)"/.exec(output)?.[1] ?? "";
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^control endpoints \(http:\/\/0\.0\.0\.0:\d+\/_emulator\/\.\.\.\) need a token generated/),
      `  send the header "x-emulator-control-token: ${token}" or "Authorization: Bearer ${token}"`,
      expect.stringMatching(new RegExp(`^  console: http://0\\.0\\.0\\.0:\\d+/_emulator/\\?token=${token}$`)),
    ]);
    const port = lines[0].split(":").pop();
    expect((await fetch(`http://127.0.0.1:${port}/_emulator/state`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/_emulator/state`, withToken(token))).status).toBe(200);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  }, 30_000);
});
