import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { ADMIN, RawBody, until, useEmulator } from "./helpers";

/** Long enough that a job is still in progress at the first look, even on a loaded machine. */
const JOB_MS = 1000;

const emulator = useEmulator({ asyncDelayMs: JOB_MS });
const { call } = emulator;

/** The job once it is no longer in progress. */
const finished = (jobId: string) =>
  until(
    async () => (await call("GET", `/restapi/asyncjob/resourceStatus?jobId=${jobId}`)).body,
    (job) => job.status !== "IN_PROGRESS",
  );

describe("the emulator server", () => {
  it("listens on 127.0.0.1 and reports its health", async () => {
    expect(emulator.url).toBe(`http://127.0.0.1:${emulator.running.port}`);
    expect(await call("GET", "/_emulator/health")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("answers an unknown route with 404 and the error envelope", async () => {
    const reply = await call("GET", "/restapi/nothing/here");
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ listErrorResponse: { errorCode: "NOT_FOUND", errorMsg: expect.any(String) } });
  });

  it.each([
    ["missing headers", {}],
    ["a wrong secret", { apikey: "demo-api-key", secretkey: "nope" }],
    ["only the apikey", { apikey: "demo-api-key" }],
  ])("answers 401 with the envelope for %s", async (_label, headers) => {
    const reply = await call("GET", "/restapi/vpc/vpcList?zoneUuid=x", undefined, headers);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ listErrorResponse: { errorCode: "UNAUTHORIZED", errorMsg: expect.any(String) } });
  });

  it("serves getpublickey without authentication headers", async () => {
    const reply = await call("GET", "/restapi/costestimate/getpublickey", undefined, {});
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ apiKey: expect.any(String), secretKey: expect.any(String) });
  });

  it("answers malformed JSON with 400 and the envelope", async () => {
    const reply = await call("POST", "/restapi/vpc/createVpc", new RawBody('{"name": ', "application/json"));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ listErrorResponse: { errorCode: "INVALID_JSON", errorMsg: expect.any(String) } });
  });

  it("answers an unsupported content type with 400 and the envelope", async () => {
    const reply = await call("POST", "/restapi/vpc/createVpc", new RawBody("<vpc/>", "application/xml"));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ listErrorResponse: { errorCode: "INVALID_REQUEST", errorMsg: expect.any(String) } });
  });

  it("accepts an empty JSON body and reports what is missing", async () => {
    const reply = await call("POST", "/restapi/vpc/createVpc", new RawBody("", "application/json"));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ listErrorResponse: { errorCode: "MISSING_PARAMETER" } });
  });

  it("answers an unknown job with 404", async () => {
    const reply = await call("GET", "/restapi/asyncjob/resourceStatus?jobId=no-such-job");
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ listErrorResponse: { errorCode: "NOT_FOUND" } });
  });

  it("reports a job's progress to its own account only", async () => {
    const jobId = emulator.context.startJob(emulator.scope("demo"), "createVolume", "Volume", "v-1", [
      { collection: "volume", uuid: "v-1", set: { uuid: "v-1", status: "Ready" } },
    ]);
    const url = `/restapi/asyncjob/resourceStatus?jobId=${jobId}`;
    expect((await call("GET", url)).body).toEqual({
      jobId,
      resourceId: "v-1",
      resourceType: "Volume",
      status: "IN_PROGRESS",
      errorCode: "",
      errorMessage: "",
    });
    expect((await call("GET", url, undefined, ADMIN)).status).toBe(404);
    expect(await finished(jobId)).toMatchObject({ status: "SUCCEEDED" });
  });

  it("fails a job whose record was deleted meanwhile", async () => {
    const scope = emulator.scope("demo");
    scope.collection("volume")["v-2"] = { uuid: "v-2", status: "Ready", isActive: true };
    const jobId = emulator.context.startJob(scope, "resizeVolume", "Volume", "v-2", [
      { collection: "volume", uuid: "v-2", set: { status: "Resized" } },
    ]);
    delete scope.collection("volume")["v-2"];
    expect(await finished(jobId)).toMatchObject({ status: "FAILED", errorCode: "NOT_FOUND" });
    expect(scope.collection("volume")["v-2"]).toBeUndefined();
  });

  it("resets every account's resources", async () => {
    emulator.scope("admin").collection("vpc").x = { uuid: "x", status: "Active", isActive: true };
    expect((await call("GET", "/_emulator/resources?account=admin")).body).toMatchObject({ vpc: { x: {} } });
    expect((await call("POST", "/_emulator/reset")).body).toEqual({ status: "ok" });
    expect((await call("GET", "/_emulator/resources?account=demo")).body).toEqual({});
    expect((await call("GET", "/_emulator/resources?account=admin")).body).toEqual({});
    expect((await call("GET", "/_emulator/resources?account=nobody")).status).toBe(404);
  });
});

describe("the command line", () => {
  it("prints the listening line first and stops cleanly on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", join(__dirname, "../../../emulator/cli.ts"), "--port", "0"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (output += chunk));
    while (!output.includes("\n")) await once(child.stdout, "data");
    const [firstLine] = output.split("\n");
    expect(firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = firstLine.slice("listening on ".length);
    const health = await fetch(`${url}/_emulator/health`);
    expect(health.status).toBe(200);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  }, 30_000);

  it("prints its help", async () => {
    const child = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", join(__dirname, "../../../emulator/cli.ts"), "--help"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (output += chunk));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(output).toContain("--async-delay-ms");
  }, 30_000);
});
