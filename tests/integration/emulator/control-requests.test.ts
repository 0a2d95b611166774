/**
 * The request log (`GET` / `DELETE /_emulator/requests`): what each entry says, the filters and
 * paging, the faults it names, the bounded ring, bad queries, and credentials that never appear in it
 * nor in the emulator's own log lines.
 */
import { once } from "node:events";
import { spawnEmulatorCli } from "./helpers";
import { RequestLog } from "../../../emulator/control/requestlog";
import {
  ADMIN,
  createVpc,
  DEMO,
  gatewayInput,
  request,
  until,
  useEmulator,
  vpcInput,
  ZONE,
  type Json,
} from "./helpers";

const emulator = useEmulator();
const { call } = emulator;

const log = async (query = ""): Promise<{ entries: Json[]; next: number }> => {
  const reply = await call("GET", `/_emulator/requests${query}`);
  expect(reply.status).toBe(200);
  return reply.body as { entries: Json[]; next: number };
};

beforeEach(async () => {
  await call("DELETE", "/_emulator/requests");
  await call("DELETE", "/_emulator/faults/rules");
});

describe("the request log", () => {
  it("records each API request, newest last, with its account, operation, status and duration", async () => {
    const vpc = await createVpc(emulator, { name: "logged" });
    await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`, undefined, ADMIN);
    await call("GET", "/restapi/vpc/vpcList?zoneUuid=x", undefined, { apikey: "nope", secretkey: "nope" });
    await call("GET", "/restapi/costestimate/getpublickey", undefined, {});
    await call("GET", "/restapi/nothing/here");
    await call("GET", "/_emulator/health");
    await call("GET", "/_emulator/stats");

    const { entries, next } = await log();
    expect(entries).toEqual([
      {
        seq: expect.any(Number),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        account: "demo",
        method: "POST",
        path: "/restapi/vpc/createVpc",
        operation: "createVpc",
        status: 200,
        fault: null,
        durationMs: expect.any(Number),
      },
      expect.objectContaining({
        account: "admin",
        method: "GET",
        path: `/restapi/vpc/vpcList?zoneUuid=${ZONE}`,
        operation: "vpcList",
        status: 200,
      }),
      expect.objectContaining({ account: null, operation: "vpcList", status: 401, fault: null }),
      expect.objectContaining({ account: null, operation: "getpublickey", status: 200 }),
      expect.objectContaining({ account: "demo", path: "/restapi/nothing/here", operation: null, status: 404 }),
    ]);
    // seq grows by one per entry; the /_emulator calls are not in it.
    expect(entries.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4].map((i) => entries[0].seq + i));
    expect(next).toBe(entries[4].seq);
    expect(entries.every((e) => e.durationMs >= 0)).toBe(true);
    expect(vpc.uuid).toEqual(expect.any(String));
  });

  it("pages with since (nothing missed), filters by operation, and limits", async () => {
    for (let i = 0; i < 5; i++) await createVpc(emulator, { name: `v${i}`, getcIDR: `10.${i}.0.0/16` });
    for (let i = 0; i < 3; i++) await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`);
    const all = await log();
    expect(all.entries).toHaveLength(8);
    const first = all.entries[0].seq as number;

    // since: the entries after it; with a limit, the oldest ones after it, and next continues from there.
    const page1 = await log(`?since=${first - 1}&limit=3`);
    expect(page1.entries.map((e) => e.seq)).toEqual([first, first + 1, first + 2]);
    expect(page1.next).toBe(first + 2);
    const page2 = await log(`?since=${page1.next}&limit=3`);
    expect(page2.entries.map((e) => e.seq)).toEqual([first + 3, first + 4, first + 5]);
    const page3 = await log(`?since=${page2.next}&limit=3`);
    expect(page3.entries.map((e) => e.seq)).toEqual([first + 6, first + 7]);
    expect(page3.next).toBe(first + 7);
    expect(await log(`?since=${page3.next}`)).toEqual({ entries: [], next: first + 7 });

    // Without since, a limit keeps the newest.
    expect((await log("?limit=2")).entries.map((e) => e.seq)).toEqual([first + 6, first + 7]);
    // operation filters; next then says how far the log was read.
    const lists = await log("?operation=vpcList");
    expect(lists.entries.map((e) => e.operation)).toEqual(["vpcList", "vpcList", "vpcList"]);
    expect(lists.next).toBe(first + 7);
    const creates = await log(`?operation=createVpc&since=${first}&limit=2`);
    expect(creates.entries.map((e) => e.seq)).toEqual([first + 1, first + 2]);
    expect(creates.next).toBe(first + 2);
  });

  it("names the fault injected into a request", async () => {
    await call("POST", "/_emulator/faults/rules", [
      { operation: "createVpc", effect: "status", status: 503, when: "before", count: 1 },
      { operation: "vpcList", effect: "status", status: 502, when: "after", count: 1 },
    ]);
    const refused = await call("POST", "/restapi/vpc/createVpc", vpcInput());
    expect(refused.status).toBe(503);
    expect((await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`)).status).toBe(502);
    expect((await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`)).status).toBe(200);
    const rules = (await call("GET", "/_emulator/faults")).body.rules as Json[];
    const [before, after] = rules.map((r) => r.id as string);
    expect((await log()).entries).toEqual([
      expect.objectContaining({
        operation: "createVpc",
        account: "demo",
        status: 503,
        fault: `status 503 before (rule ${before})`,
      }),
      expect.objectContaining({ operation: "vpcList", status: 502, fault: `status 502 after (rule ${after})` }),
      expect.objectContaining({ operation: "vpcList", status: 200, fault: null }),
    ]);
  });

  it("records a request that got no answer with status null", async () => {
    await call("POST", "/_emulator/faults/rules", { operation: "vpcList", effect: "reset", when: "before", count: 1 });
    await expect(fetch(`${emulator.url}/restapi/vpc/vpcList?zoneUuid=${ZONE}`, { headers: DEMO })).rejects.toThrow();
    const { entries } = await until(
      () => log(),
      (l) => l.entries.length > 0,
    );
    expect(entries).toEqual([
      expect.objectContaining({
        operation: "vpcList",
        account: "demo",
        status: null,
        fault: expect.stringMatching(/^reset before/),
      }),
    ]);
  });

  it("is emptied by DELETE; seq goes on", async () => {
    await createVpc(emulator, { name: "a" });
    const before = await log();
    const cleared = await call("DELETE", "/_emulator/requests");
    expect(cleared).toMatchObject({ status: 200, body: { entries: [], next: before.next } });
    expect((await log()).entries).toEqual([]);
    await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`);
    expect((await log()).entries.map((e) => e.seq)).toEqual([before.next + 1]);
  });

  it.each([
    ["since=abc", /^since: must be an integer/],
    ["since=-1", /^since: must be an integer/],
    ["since=1.5", /^since: must be an integer/],
    ["limit=0", /^limit: must be an integer from 1 to 5000/],
    ["limit=5001", /^limit: must be an integer from 1 to 5000/],
    ["limit=ten", /^limit: must be an integer from 1 to 5000/],
    ["operation=createUnicorn", /^operation: unknown operation "createUnicorn"/],
    ["since=1&since=2", /^since: must be given once/],
    ["sinse=1", /^sinse: unknown query parameter/],
  ])("answers 400 with a message for ?%s, and changes nothing", async (query, message) => {
    await createVpc(emulator, { name: "kept" });
    const before = await log();
    const reply = await call("GET", `/_emulator/requests?${query}`);
    expect(reply).toEqual({ status: 400, body: { error: expect.stringMatching(message) } });
    expect(await log()).toEqual(before);
  });

  it("keeps the newest entries of a bounded ring", () => {
    const ring = new RequestLog(3);
    const entry = (path: string) => ({
      time: new Date(0).toISOString(),
      account: null,
      method: "GET",
      path,
      operation: null,
      status: 200,
      fault: null,
      durationMs: 0,
    });
    for (const path of ["/a", "/b", "/c", "/d", "/e"]) ring.add(entry(path));
    expect(ring.query({ limit: 10 }).entries.map((e) => [e.seq, e.path])).toEqual([
      [3, "/c"],
      [4, "/d"],
      [5, "/e"],
    ]);
    expect(ring.query({ limit: 10, since: 0 }).entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(ring.query({ limit: 10, since: 4 })).toMatchObject({ entries: [{ seq: 5 }], next: 5 });
    ring.clear();
    ring.add(entry("/f"));
    expect(ring.query({ limit: 10 }).entries.map((e) => [e.seq, e.path])).toEqual([[6, "/f"]]);
  });
});

describe("credentials", () => {
  it("never appear in the request log, the fault log, the stats or the emulator's own log lines", async () => {
    const secrets = {
      demoKey: "DEMO-APIKEY-7c1e55",
      demoSecret: "DEMO-SECRETKEY-2b9f41",
      ciKey: "CI-APIKEY-93aa07",
      ciSecret: "CI-SECRETKEY-e4d218",
      wrongSecret: "WRONG-SECRETKEY-5d6c3a",
      queryKey: "QUERY-APIKEY-0f9e8d",
      querySecret: "QUERY-SECRET-71b2c4",
      psk: "PSK-SECRET-aa41f0",
      registryPassword: "REGISTRY-PASSWORD-6e0b9d",
      badJsonSecret: "BADJSON-SECRET-3c7a19",
    };
    const child = spawnEmulatorCli([
      "--port",
      "0",
      "--logger",
      "--api-key",
      secrets.demoKey,
      "--secret-key",
      secrets.demoSecret,
      "--account",
      `ci:${secrets.ciKey}:${secrets.ciSecret}`,
    ]);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (stdout += chunk));
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    try {
      while (!stdout.includes("\n")) await once(child.stdout, "data");
      const target = { url: /^listening on (\S+)$/m.exec(stdout)?.[1] as string };
      const demo = { apikey: secrets.demoKey, secretkey: secrets.demoSecret };
      const ci = { apikey: secrets.ciKey, secretkey: secrets.ciSecret };
      await request(target, "POST", "/_emulator/faults/rules", {
        operation: "vpnCustomerGatewayList",
        effect: "status",
        status: 503,
        when: "before",
        count: 1,
      });

      expect((await request(target, "POST", "/restapi/vpc/createVpc", vpcInput(), demo)).status).toBe(200);
      expect((await request(target, "POST", "/restapi/vpc/createVpc", vpcInput(), ci)).status).toBe(200);
      const wrong = { apikey: secrets.demoKey, secretkey: secrets.wrongSecret };
      expect((await request(target, "GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`, undefined, wrong)).status).toBe(
        401,
      );
      const inQuery = `/restapi/vpc/vpcList?zoneUuid=${ZONE}&apikey=${secrets.queryKey}&secretkey=${secrets.querySecret}`;
      expect((await request(target, "GET", inQuery, undefined, demo)).status).toBe(200);
      const gateway = gatewayInput({ ipsecpsk: secrets.psk });
      expect(
        (await request(target, "POST", "/restapi/vpncustomergateway/addVpnCustomerGateway", gateway, demo)).status,
      ).toBe(200);
      const cluster = await request(
        target,
        "POST",
        "/restapi/kubernetes/createKubernetes",
        { name: "k", dockerRegistryPassword: secrets.registryPassword },
        demo,
      );
      expect(cluster.status).toBe(400);
      const badJson = await fetch(`${target.url}/restapi/vpc/createVpc`, {
        method: "POST",
        headers: { ...demo, "content-type": "application/json" },
        body: `{"secretkey": "${secrets.badJsonSecret}", `,
      });
      expect(badJson.status).toBe(400);
      expect(
        (await request(target, "GET", "/restapi/vpncustomergateway/vpnCustomerGatewayList", undefined, ci)).status,
      ).toBe(503);

      const logged = await request(target, "GET", "/_emulator/requests");
      expect(logged.body.entries).toHaveLength(8);
      expect(logged.body.entries[3].path).toBe(`/restapi/vpc/vpcList?zoneUuid=${ZONE}&apikey=***&secretkey=***`);
      expect(logged.body.entries.map((e: Json) => e.account)).toEqual([
        "demo",
        "ci",
        null, // wrong keys: nobody's
        "demo",
        "demo",
        "demo",
        "demo",
        "ci", // faulted before authentication: still the keys' account
      ]);
      const controlAnswers = [
        JSON.stringify(logged.body),
        JSON.stringify((await request(target, "GET", "/_emulator/faults/log")).body),
        JSON.stringify((await request(target, "GET", "/_emulator/stats")).body),
        JSON.stringify((await request(target, "GET", "/_emulator/accounts")).body),
        JSON.stringify((await request(target, "GET", "/_emulator/jobs")).body),
      ].join("\n");
      expect((await request(target, "GET", "/_emulator/accounts")).body).toEqual({
        accounts: [
          { name: "demo", role: "user" },
          { name: "admin", role: "admin" },
          { name: "ci", role: "user" },
        ],
      });
      const keys = [
        secrets.demoKey,
        secrets.demoSecret,
        secrets.ciKey,
        secrets.ciSecret,
        secrets.wrongSecret,
        secrets.queryKey,
        secrets.querySecret,
      ];
      const bodySecrets = [secrets.psk, secrets.registryPassword, secrets.badJsonSecret];
      for (const secret of [...keys, ...bodySecrets]) expect(controlAnswers).not.toContain(secret);
      // The request log is on: the logger wrote lines for these requests.
      await until(
        async () => stderr,
        (text) => text.includes("/restapi/vpncustomergateway/vpnCustomerGatewayList"),
      );
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
    expect(stderr).toContain("apikey=***");
    for (const secret of Object.values(secrets)) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
  }, 30_000);
});
