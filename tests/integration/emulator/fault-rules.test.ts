/**
 * Fault rules over real HTTP: a chosen failure (an error status, a hang, a connection reset) for
 * chosen operations, before processing (nothing changes) or after (the change is applied and the
 * answer lost); counts, seeded probabilities, filters, validation, the fault log, stats, a prompt
 * stop during a hang, and the CLI's `--fault` flag.
 */
import { spawn } from "node:child_process";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { parseCli } from "../../../emulator/cli";
import { parseFaultSpec, type FaultRule } from "../../../emulator/faults";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import { DEMO, emulatorsOnDemand, networkInput, vpcInput, ZONE, type Json } from "./helpers";

const { start } = emulatorsOnDemand();

/** What a client sees: an answer, or a socket error / its own timeout (`error`). */
interface Outcome {
  status?: number;
  body?: Json;
  headers?: IncomingHttpHeaders;
  /** "TIMEOUT" when the client gave up, else the socket error's code (ECONNRESET). */
  error?: string;
  message?: string;
}

/**
 * One request on a fresh connection (no keep-alive), as the demo account. GET and DELETE carry
 * `input` in the query, POST and PUT as JSON. The client gives up after `timeoutMs`.
 */
function send(on: { url: string }, method: string, path: string, input?: unknown, timeoutMs = 5000): Promise<Outcome> {
  let url = `${on.url}${path}`;
  let body: string | undefined;
  const headers: Record<string, string> = path.startsWith("/restapi/") ? { ...DEMO } : {};
  if (input !== undefined && (method === "GET" || method === "DELETE")) {
    url += `?${new URLSearchParams(input as Record<string, string>)}`;
  } else if (input !== undefined) {
    body = JSON.stringify(input);
    headers["content-type"] = "application/json";
  }
  return new Promise((resolve) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode, headers: res.headers, body: text ? (JSON.parse(text) as Json) : undefined }),
      );
      res.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? "ERROR", message: err.message }));
    });
    req.setTimeout(timeoutMs, () => {
      resolve({ error: "TIMEOUT" });
      req.destroy();
    });
    req.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? "ERROR", message: err.message }));
    req.end(body);
  });
}

const control = async (on: { url: string }, method: string, path: string, input?: unknown) => {
  const outcome = await send(on, method, `/_emulator${path}`, input);
  return { status: outcome.status, body: outcome.body as Json };
};
const resources = async (on: { url: string }) => (await control(on, "GET", "/resources?account=demo")).body;
const vpcs = async (on: { url: string }) => Object.values((await resources(on)).vpc ?? {}) as Json[];
const faultLog = async (on: { url: string }) => (await control(on, "GET", "/faults/log")).body.entries as Json[];
const stats = async (on: { url: string }) => (await control(on, "GET", "/stats")).body;
const addRules = (on: { url: string }, rules: Json | Json[]) => control(on, "POST", "/faults/rules", rules);

const createVpc = (on: { url: string }, overrides: Json = {}, timeoutMs?: number) =>
  send(on, "POST", "/restapi/vpc/createVpc", vpcInput(overrides), timeoutMs);
const listVpcs = (on: { url: string }) => send(on, "GET", "/restapi/vpc/vpcList", { zoneUuid: ZONE });

const SERVICE_UNAVAILABLE = {
  listErrorResponse: { errorCode: "SERVICE_UNAVAILABLE", errorMsg: expect.any(String) },
};
const SOCKET_ERROR = { error: "ECONNRESET", message: expect.stringMatching(/ECONNRESET|socket hang up/) };

/** The uuid of the one record of an envelope answer. */
const firstUuid = (outcome: Outcome): string =>
  (Object.values(outcome.body ?? {}).find(Array.isArray) as Json[])[0].uuid as string;

/** A public IP of a fresh isolated network: what firewall rules are created on. */
async function publicIp(on: { url: string }): Promise<string> {
  const network = await send(on, "POST", "/restapi/network/createNetwork", networkInput());
  const ip = await send(on, "GET", "/restapi/ipaddress/acquireIpAddress", {
    networkUuid: firstUuid(network),
    networkType: "NETWORK",
  });
  return firstUuid(ip);
}

const firewallRules = async (on: { url: string }) => {
  const all = await resources(on);
  return Object.entries(all)
    .filter(([collection]) => /firewall/i.test(collection))
    .flatMap(([, records]) => Object.values(records as Json)) as Json[];
};

describe("fault rules: count and moment", () => {
  it("count 1 fires exactly once, then the operation works", async () => {
    const emulator = await start();
    await addRules(emulator, { operation: "createVpc", effect: "status", when: "before", count: 1 });
    expect(await createVpc(emulator, { name: "a" })).toMatchObject({ status: 503, body: SERVICE_UNAVAILABLE });
    expect(await createVpc(emulator, { name: "b" })).toMatchObject({ status: 200 });
    expect(await createVpc(emulator, { name: "c" })).toMatchObject({ status: 200 });
    expect((await vpcs(emulator)).map((v) => v.name).sort()).toEqual(["b", "c"]);
    expect((await control(emulator, "GET", "/faults")).body.rules).toEqual([
      {
        id: "r1",
        operation: "createVpc",
        effect: "status",
        when: "before",
        status: 503,
        probability: 1,
        count: 1,
        fired: 1,
        remaining: 0,
      },
    ]);
  });

  it("count 1 on an after rule fires once even for concurrent requests", async () => {
    const emulator = await start();
    await addRules(emulator, { operation: "createVpc", effect: "status", when: "after", count: 1 });
    const statuses = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => (await createVpc(emulator, { name: `v${i}` })).status),
    );
    expect(statuses.filter((s) => s === 503)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(await vpcs(emulator)).toHaveLength(6);
    expect(await faultLog(emulator)).toHaveLength(1);
  });

  it("status after: the next createFirewallRule is applied, yet the client gets 503; the log names the record", async () => {
    const emulator = await start();
    const ipAddressUuid = await publicIp(emulator);
    await addRules(emulator, {
      operation: "createFirewallRule",
      effect: "status",
      status: 503,
      when: "after",
      count: 1,
    });
    const reply = await send(emulator, "POST", "/restapi/firewallrule/createFirewallRule", {
      ipAddressUuid,
      protocol: "TCP",
      startPort: "443",
    });
    expect(reply).toMatchObject({ status: 503, body: SERVICE_UNAVAILABLE });
    const created = await firewallRules(emulator);
    expect(created).toEqual([expect.objectContaining({ ipAddressUuid, startPort: "443" })]);
    expect(await faultLog(emulator)).toEqual([
      {
        seq: 1,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        operation: "createFirewallRule",
        method: "POST",
        path: "/restapi/firewallrule/createFirewallRule",
        effect: "status",
        when: "after",
        status: 503,
        rule: "r1",
        applied: true,
        recordUuid: created[0].uuid,
      },
    ]);
    // Used up: the next create answers normally.
    const next = await send(emulator, "POST", "/restapi/firewallrule/createFirewallRule", {
      ipAddressUuid,
      protocol: "UDP",
    });
    expect(next.status).toBe(200);
  });

  it("status before changes nothing, and a 429 carries Retry-After", async () => {
    const emulator = await start();
    await addRules(emulator, [
      { operation: "createVpc", effect: "status", when: "before", count: 1 },
      { operation: "createVpc", effect: "status", status: 429, when: "before", count: 1 },
    ]);
    expect(await createVpc(emulator)).toMatchObject({ status: 503, body: SERVICE_UNAVAILABLE });
    const throttled = await createVpc(emulator);
    expect(throttled).toMatchObject({
      status: 429,
      headers: { "retry-after": "1" },
      body: { listErrorResponse: { errorCode: "TOO_MANY_REQUESTS" } },
    });
    expect(await vpcs(emulator)).toEqual([]);
    expect(await faultLog(emulator)).toEqual([
      expect.objectContaining({ seq: 1, rule: "r1", effect: "status", status: 503, when: "before", applied: false }),
      expect.objectContaining({ seq: 2, rule: "r2", effect: "status", status: 429, when: "before", applied: false }),
    ]);
    expect((await faultLog(emulator))[0]).not.toHaveProperty("recordUuid");
  });

  it("an after rule is not consumed when the handler itself answers an error", async () => {
    const emulator = await start();
    await addRules(emulator, { operation: "createVpc", effect: "status", status: 500, when: "after", count: 1 });
    const refused = await createVpc(emulator, { getcIDR: "not-a-cidr" });
    expect(refused).toMatchObject({ status: 400, body: { listErrorResponse: { errorCode: "INVALID_PARAMETER" } } });
    expect((await control(emulator, "GET", "/faults")).body.rules[0]).toMatchObject({ fired: 0, remaining: 1 });
    expect(await faultLog(emulator)).toEqual([]);
    expect(await createVpc(emulator)).toMatchObject({
      status: 500,
      body: { listErrorResponse: { errorCode: "INTERNAL_ERROR" } },
    });
    expect(await vpcs(emulator)).toHaveLength(1);
    expect(await createVpc(emulator)).toMatchObject({ status: 200 });
  });

  it("hang after: the client times out, the record exists", async () => {
    const emulator = await start();
    await addRules(emulator, { operation: "createVpc", effect: "hang", when: "after", hangMs: 2000 });
    const started = Date.now();
    expect(await createVpc(emulator, {}, 300)).toEqual({ error: "TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(1500);
    const [vpc] = await vpcs(emulator);
    expect(vpc).toMatchObject({ name: "v" });
    expect(await faultLog(emulator)).toEqual([
      expect.objectContaining({
        operation: "createVpc",
        effect: "hang",
        when: "after",
        rule: "r1",
        applied: true,
        recordUuid: vpc.uuid,
      }),
    ]);
    expect((await faultLog(emulator))[0]).not.toHaveProperty("status");
  });

  it("hang after with a short hangMs closes the connection with no answer", async () => {
    const emulator = await start();
    await addRules(emulator, { operation: "createVpc", effect: "hang", when: "after", hangMs: 200 });
    const started = Date.now();
    expect(await createVpc(emulator, {}, 3000)).toEqual(SOCKET_ERROR);
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    expect(await vpcs(emulator)).toHaveLength(1);
  });

  it("hang before: the client times out, nothing is created", async () => {
    const emulator = await start();
    await addRules(emulator, { operation: "createVpc", effect: "hang", when: "before", hangMs: 2000 });
    expect(await createVpc(emulator, {}, 300)).toEqual({ error: "TIMEOUT" });
    expect(await vpcs(emulator)).toEqual([]);
    expect(await faultLog(emulator)).toEqual([
      expect.objectContaining({ operation: "createVpc", effect: "hang", when: "before", applied: false }),
    ]);
    // Other operations are untouched.
    expect(await listVpcs(emulator)).toMatchObject({ status: 200 });
  });

  it("reset before: a socket error, nothing processed", async () => {
    const emulator = await start();
    await addRules(emulator, { operation: "createVpc", effect: "reset", when: "before" });
    expect(await createVpc(emulator)).toEqual(SOCKET_ERROR);
    expect(await vpcs(emulator)).toEqual([]);
    expect(await faultLog(emulator)).toEqual([
      expect.objectContaining({ effect: "reset", when: "before", applied: false, rule: "r1" }),
    ]);
  });

  it("reset after: a socket error, the change applied", async () => {
    const emulator = await start();
    await addRules(emulator, { operation: "createVpc", effect: "reset", when: "after", count: 1 });
    expect(await createVpc(emulator)).toEqual(SOCKET_ERROR);
    const [vpc] = await vpcs(emulator);
    expect(vpc).toMatchObject({ name: "v" });
    expect(await faultLog(emulator)).toEqual([
      expect.objectContaining({ effect: "reset", when: "after", applied: true, recordUuid: vpc.uuid }),
    ]);
    expect(await createVpc(emulator, { name: "w" })).toMatchObject({ status: 200 });
  });
});

describe("fault rules: matching", () => {
  it("draws probabilities from the seeded fault stream: the same seed gives the same sequence", async () => {
    const run = async () => {
      const emulator = await start({
        seed: 42,
        faultRules: [{ operation: "createVpc", effect: "status", when: "before", probability: 0.5 }],
      });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await createVpc(emulator, { name: `v${i}` })).status ?? 0);
      const log = (await faultLog(emulator)).map(({ at: _at, ...entry }) => entry);
      return { statuses, log, vpcs: (await vpcs(emulator)).map((v) => v.uuid).sort() };
    };
    const first = await run();
    expect(new Set(first.statuses)).toEqual(new Set([200, 503]));
    expect(first.log).toHaveLength(first.statuses.filter((s) => s === 503).length);
    expect(await run()).toEqual(first);
  });

  it("filters by operation (one or several), method and mutating; the first matching rule fires", async () => {
    const emulator = await start();
    const network = await send(emulator, "POST", "/restapi/network/createNetwork", networkInput());
    await control(emulator, "PUT", "/faults", {
      rules: [
        { operation: ["vpcList", "createVpc"], method: "GET", effect: "status", status: 502, when: "before" },
        { mutating: true, method: "POST", effect: "status", status: 500, when: "before" },
        { operation: "acquireIpAddress", mutating: false, effect: "reset", when: "before" },
      ],
    });
    expect(await listVpcs(emulator)).toMatchObject({
      status: 502,
      body: { listErrorResponse: { errorCode: "BAD_GATEWAY" } },
    });
    expect(await createVpc(emulator)).toMatchObject({ status: 500 });
    // acquireIpAddress is a mutating GET: neither the POST rule nor the non-mutating one matches it.
    const ip = await send(emulator, "GET", "/restapi/ipaddress/acquireIpAddress", {
      networkUuid: firstUuid(network),
      networkType: "NETWORK",
    });
    expect(ip.status).toBe(200);
    expect((await send(emulator, "GET", "/restapi/network/networkList", { zoneUuid: ZONE })).status).toBe(200);
    const { body } = await control(emulator, "GET", "/faults");
    expect(body.rules.map((r: Json) => [r.id, r.fired])).toEqual([
      ["r1", 1],
      ["r2", 1],
      ["r3", 0],
    ]);
    expect(body.rules[0]).not.toHaveProperty("remaining");
  });

  it("spares the control endpoints and getpublickey; a rule with no filter hits every operation", async () => {
    const emulator = await start({ faultRules: [{ effect: "status", when: "before" }] });
    expect(await listVpcs(emulator)).toMatchObject({ status: 503 });
    expect((await send(emulator, "GET", "/restapi/costestimate/getpublickey")).status).toBe(200);
    expect((await control(emulator, "GET", "/health")).status).toBe(200);
  });

  it("checks rules before the random rates, and logs random-rate faults without a rule id", async () => {
    const emulator = await start({ failRate: 1 });
    await addRules(emulator, { operation: "vpcList", effect: "status", status: 504, when: "before", count: 1 });
    expect((await listVpcs(emulator)).status).toBe(504);
    expect((await listVpcs(emulator)).status).toBe(503);
    await control(emulator, "PUT", "/faults", { failRate: 0, throttleRate: 1 });
    expect((await listVpcs(emulator)).status).toBe(429);
    await control(emulator, "PUT", "/faults", { throttleRate: 0, failAfterRate: 1 });
    const lost = await createVpc(emulator);
    expect(lost.status).toBe(503);
    const [vpc] = await vpcs(emulator);
    const log = await faultLog(emulator);
    expect(log.map((e) => [e.seq, e.rule, e.status, e.when, e.applied])).toEqual([
      [1, "r1", 504, "before", false],
      [2, undefined, 503, "before", false],
      [3, undefined, 429, "before", false],
      [4, undefined, 503, "after", true],
    ]);
    expect(log[3].recordUuid).toBe(vpc.uuid);
    expect(log[1]).not.toHaveProperty("rule");
  });
});

describe("fault rules: control endpoints", () => {
  it("lists, appends, replaces, removes and clears rules; reset leaves rules and log alone", async () => {
    const emulator = await start();
    const empty = await control(emulator, "GET", "/faults");
    expect(empty.body).toEqual({ failRate: 0, throttleRate: 0, failAfterRate: 0, latencyMs: 0, rules: [] });

    const added = await addRules(emulator, { operation: "createVpc", effect: "hang", when: "before", count: 2 });
    expect(added.body.rules).toEqual([
      {
        id: "r1",
        operation: "createVpc",
        effect: "hang",
        when: "before",
        hangMs: 120000,
        probability: 1,
        count: 2,
        fired: 0,
        remaining: 2,
      },
    ]);
    await addRules(emulator, [
      { operation: "vpcList", effect: "reset", when: "after", probability: 0.25 },
      { effect: "status", when: "after", status: 429, method: "DELETE" },
    ]);
    expect((await control(emulator, "GET", "/faults")).body.rules.map((r: Json) => r.id)).toEqual(["r1", "r2", "r3"]);

    expect((await control(emulator, "DELETE", "/faults/rules/r2")).body.rules.map((r: Json) => r.id)).toEqual([
      "r1",
      "r3",
    ]);
    expect((await control(emulator, "DELETE", "/faults/rules/r2")).status).toBe(404);

    const replaced = await control(emulator, "PUT", "/faults", {
      latencyMs: 5,
      rules: [{ operation: "createVpc", effect: "status", when: "before" }],
    });
    expect(replaced.body).toMatchObject({ latencyMs: 5, rules: [{ id: "r4", fired: 0 }] });
    // Without `rules`, a PUT leaves them as they are.
    expect((await control(emulator, "PUT", "/faults", { latencyMs: 0 })).body.rules).toHaveLength(1);

    expect((await createVpc(emulator)).status).toBe(503);
    await control(emulator, "POST", "/reset");
    expect((await control(emulator, "GET", "/faults")).body.rules).toEqual([expect.objectContaining({ fired: 1 })]);
    expect(await faultLog(emulator)).toHaveLength(1);

    expect((await control(emulator, "DELETE", "/faults/rules")).body.rules).toEqual([]);
    expect((await createVpc(emulator)).status).toBe(200);
  });

  it("clears the log with DELETE; sequence numbers go on", async () => {
    const emulator = await start({ faultRules: [{ operation: "vpcList", effect: "status", when: "before" }] });
    await listVpcs(emulator);
    await listVpcs(emulator);
    expect((await faultLog(emulator)).map((e) => e.seq)).toEqual([1, 2]);
    expect(await control(emulator, "DELETE", "/faults/log")).toEqual({ status: 200, body: { entries: [] } });
    expect(await faultLog(emulator)).toEqual([]);
    await listVpcs(emulator);
    expect((await faultLog(emulator)).map((e) => e.seq)).toEqual([3]);
  });

  it.each([
    [{ rules: [{ effect: "explode", when: "before" }] }, "rules[0].effect: must be one of status, hang, reset"],
    [
      {
        rules: [
          { effect: "status", when: "before" },
          { operation: "createUnicorn", effect: "reset", when: "before" },
        ],
      },
      "rules[1].operation: unknown operation createUnicorn",
    ],
    [{ rules: [{ effect: "status", when: "later" }] }, "rules[0].when: must be one of before, after"],
    [{ rules: [{ effect: "hang", when: "before", status: 503 }] }, "rules[0].status: only applies to effect status"],
    [
      { rules: [{ effect: "status", when: "before", status: 200 }] },
      "rules[0].status: must be an integer from 400 to 599",
    ],
    [{ rules: [{ effect: "status", when: "before", hangMs: 5 }] }, "rules[0].hangMs: only applies to effect hang"],
    [
      { rules: [{ effect: "hang", when: "before", hangMs: -1 }] },
      "rules[0].hangMs: must be an integer from 0 to 2147483647",
    ],
    [
      { rules: [{ effect: "reset", when: "before", probability: 1.5 }] },
      "rules[0].probability: must be a number from 0 to 1",
    ],
    [{ rules: [{ effect: "reset", when: "before", count: 0 }] }, "rules[0].count: must be a positive integer"],
    [{ rules: [{ effect: "reset", when: "before", count: 1.5 }] }, "rules[0].count: must be a positive integer"],
    [
      { rules: [{ effect: "reset", when: "before", method: "PATCH" }] },
      "rules[0].method: must be one of GET, POST, PUT, DELETE",
    ],
    [{ rules: [{ effect: "reset", when: "before", mutating: "yes" }] }, "rules[0].mutating: must be true or false"],
    [
      { rules: [{ effect: "reset", when: "before", operation: [] }] },
      "rules[0].operation: must be an operation name or a non-empty list of them",
    ],
    [
      { rules: [{ effect: "reset", when: "before", operations: "createVpc" }] },
      expect.stringMatching(/^rules\[0\]\.operations: unknown field/),
    ],
    [{ rules: "all" }, "rules: must be a list of rules"],
  ])("PUT /_emulator/faults refuses %j, naming the field, and changes nothing", async (body, message) => {
    const emulator = await start();
    await addRules(emulator, { operation: "vpcList", effect: "reset", when: "before" });
    const before = (await control(emulator, "GET", "/faults")).body;
    const reply = await control(emulator, "PUT", "/faults", { failRate: 0.5, ...body });
    expect(reply).toEqual({
      status: 400,
      body: { listErrorResponse: { errorCode: "INVALID_PARAMETER", errorMsg: message } },
    });
    expect((await control(emulator, "GET", "/faults")).body).toEqual(before);
  });

  it("names missing fields, and the fields of an appended rule", async () => {
    const emulator = await start();
    expect(await control(emulator, "PUT", "/faults", { rules: [{ effect: "reset" }] })).toEqual({
      status: 400,
      body: { listErrorResponse: { errorCode: "MISSING_PARAMETER", errorMsg: "rules[0].when: is required" } },
    });
    expect((await addRules(emulator, { effect: "bounce", when: "after" })).body).toEqual({
      listErrorResponse: { errorCode: "INVALID_PARAMETER", errorMsg: "effect: must be one of status, hang, reset" },
    });
    expect((await addRules(emulator, [{ effect: "reset", when: "after" }, { when: "after" }])).body).toEqual({
      listErrorResponse: { errorCode: "MISSING_PARAMETER", errorMsg: "rules[1].effect: is required" },
    });
    expect((await control(emulator, "GET", "/faults")).body.rules).toEqual([]);
  });

  it("refuses bad faultRules options at start", async () => {
    await expect(
      startEmulator({ port: 0, faultRules: [{ operation: "nope", effect: "reset", when: "before" }] }),
    ).rejects.toThrow("faultRules[0].operation: unknown operation nope");
    await expect(startEmulator({ port: 0, faultRules: [{ effect: "reset" } as unknown as FaultRule] })).rejects.toThrow(
      "faultRules[0].when: is required",
    );
  });
});

describe("fault rules: stats and stopping", () => {
  it("counts hangs and resets under byStatus hang and reset, and status faults under their status", async () => {
    const emulator = await start({
      faultRules: [
        { operation: "createVpc", effect: "reset", when: "before", count: 1 },
        { operation: "createVpc", effect: "hang", when: "after", hangMs: 100, count: 1 },
        { operation: "createVpc", effect: "status", when: "after", status: 503, count: 1 },
      ],
    });
    expect((await createVpc(emulator, { name: "a" })).error).toBe("ECONNRESET");
    expect((await createVpc(emulator, { name: "b" })).error).toBe("ECONNRESET");
    expect((await createVpc(emulator, { name: "c" })).status).toBe(503);
    expect((await createVpc(emulator, { name: "d" })).status).toBe(200);
    expect(await stats(emulator)).toEqual({
      total: 4,
      mutating: 4,
      byOperation: { createVpc: 4 },
      byStatus: { reset: 1, hang: 1, "503": 1, "200": 1 },
    });
    expect((await vpcs(emulator)).map((v) => v.name).sort()).toEqual(["b", "c", "d"]);
  });

  it("stops promptly while requests hang, before and after processing", async () => {
    const emulator: RunningEmulator = await startEmulator({
      port: 0,
      asyncDelayMs: 30,
      faultRules: [
        { operation: "createVpc", effect: "hang", when: "before", hangMs: 60_000 },
        { operation: "vpcList", effect: "hang", when: "after", hangMs: 60_000 },
      ],
    });
    const hungBefore = createVpc(emulator, {}, 30_000);
    const hungAfter = listVpcs(emulator);
    for (let i = 0; i < 100 && (await faultLog(emulator)).length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await faultLog(emulator)).toHaveLength(2);
    const started = Date.now();
    await emulator.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await hungBefore).toMatchObject({ error: "ECONNRESET" });
    expect(await hungAfter).toMatchObject({ error: "ECONNRESET" });
  });
});

describe("--fault", () => {
  it("parses specs into rules", () => {
    expect(parseFaultSpec("operation=createFirewallRule,effect=status,status=503,when=after,count=1")).toEqual({
      operation: "createFirewallRule",
      effect: "status",
      status: 503,
      when: "after",
      count: 1,
      probability: 1,
    });
    expect(
      parseFaultSpec("operation=acquireIpAddress|createVpc,effect=hang,when=after,probability=0.3,hangMs=5000"),
    ).toEqual({
      operation: ["acquireIpAddress", "createVpc"],
      effect: "hang",
      when: "after",
      probability: 0.3,
      hangMs: 5000,
    });
    expect(parseFaultSpec("effect=reset,when=before,method=post,mutating=true")).toEqual({
      effect: "reset",
      when: "before",
      method: "POST",
      mutating: true,
      probability: 1,
    });
  });

  it.each([
    ["effect=status,when=after,colour=red", "--fault effect=status,when=after,colour=red: colour: unknown key"],
    ["effect=status,when=after,status=abc", "--fault effect=status,when=after,status=abc: status: not a number: abc"],
    ["effect=status,when=after,status=700", "status: must be an integer from 400 to 599"],
    ["effect=hang,when=soon", "when: must be one of before, after"],
    ["effect=reset", "when: is required"],
    ["effect=reset,when=before,mutating=maybe", "mutating: must be true or false"],
    ["effect=reset,when=before,count", "count: expected key=value"],
    ["effect=reset,when=before,effect=hang", "effect: given twice"],
  ])("refuses %s in one line naming the key", (spec, message) => {
    let error: Error | undefined;
    try {
      parseFaultSpec(spec);
    } catch (err) {
      error = err as Error;
    }
    expect(error?.message).toContain(message);
    expect(error?.message).toMatch(/^--fault [^\n]+$/);
  });

  it("is repeatable on the command line, in order", () => {
    const options = parseCli([
      "--port",
      "0",
      "--fault",
      "operation=createVpc,effect=reset,when=before",
      "--fault",
      "effect=status,when=after,status=429",
    ]);
    expect(options).toMatchObject({
      faultRules: [
        { operation: "createVpc", effect: "reset", when: "before" },
        { effect: "status", when: "after", status: 429 },
      ],
    });
  });

  const cli = (args: string[]) =>
    spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", join(__dirname, "../../../emulator/cli.ts"), ...args],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TS_NODE_PROJECT: "tsconfig.json" } },
    );

  it("runs the emulator with --fault rules", async () => {
    const child = cli(["--port", "0", "--fault", "operation=createVpc,effect=status,status=503,when=after,count=1"]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (\S+)\n/.exec(out);
          if (match) resolve(match[1]);
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      expect(await createVpc({ url })).toMatchObject({ status: 503 });
      expect(await createVpc({ url }, { name: "w" })).toMatchObject({ status: 200 });
      expect((await vpcs({ url })).map((v) => v.name).sort()).toEqual(["v", "w"]);
      expect((await faultLog({ url })).map((e) => [e.rule, e.applied])).toEqual([["r1", true]]);
    } finally {
      child.kill("SIGTERM");
    }
  }, 30_000);

  it("exits 2 with one line on a bad spec or an unknown operation", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = cli(args);
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("exit", (code) => resolve({ code, stderr }));
      });
    expect(await run(["--port", "0", "--fault", "effect=status,when=after,status=1"])).toEqual({
      code: 2,
      stderr: "--fault effect=status,when=after,status=1: status: must be an integer from 400 to 599\n",
    });
    expect(
      await run([
        "--port",
        "0",
        "--fault",
        "effect=reset,when=before",
        "--fault",
        "operation=nope,effect=reset,when=before",
      ]),
    ).toEqual({
      code: 2,
      stderr: "--fault #2: operation: unknown operation nope\n",
    });
  }, 30_000);
});
