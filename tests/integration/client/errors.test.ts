/**
 * Errors over HTTP: the API's error answers become one ApiError; bad input never leaves; and the
 * credentials appear nowhere (error messages, error properties, log lines, debug events).
 *
 * A few shapes the emulator never answers (an HTML gateway page, an error that echoes the request's
 * headers, a connection reset) come from a small raw HTTP server of this file.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import type { RunningEmulator } from "../../../emulator/index";
import { ApiError, ApiInputError, RestCloudClient } from "../../../provider/client";
import {
  FAST_RETRY,
  clientFor,
  customerGatewayInput,
  discoverCatalog,
  resetStats,
  start,
  stats,
  type CatalogIds,
} from "./helpers";

// Distinctive credentials, so that any leak is found by a plain substring search.
const KEYS = { apiKey: "K3Y-fa11-7e57-api", secretKey: "S3CR37-c0ffee-secret" };

let emulator: RunningEmulator;
let ids: CatalogIds;
let raw: Server;
let rawUrl: string;

beforeAll(async () => {
  emulator = await start({ accounts: { demo: KEYS } });
  ids = await discoverCatalog(clientFor(emulator, KEYS).client);
  raw = createServer((request, response) => {
    const path = request.url ?? "";
    if (path.includes("echo")) {
      // A careless gateway that echoes the request headers in its error.
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ errorCode: "ECHO", errorMsg: `bad request: ${JSON.stringify(request.headers)}` }));
    } else if (path.includes("html")) {
      response.writeHead(502, { "content-type": "text/html" });
      response.end(`<html><body><h1>502 Bad Gateway</h1>${"<p>padding</p>".repeat(200)}</body></html>`);
    } else {
      request.socket.destroy(); // connection reset, no answer at all
    }
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emulator.stop();
  await new Promise((resolve) => raw.close(resolve));
});
beforeEach(() => resetStats(emulator));

/** The rejection of `promise`, which must reject. */
async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected a failure");
}

describe("error answers", () => {
  test("401: wrong credentials, not retried", async () => {
    const { client, events } = clientFor(emulator, { apiKey: "wrong", secretKey: "wrong" });
    const error = await failureOf(client.vpc.list({ zoneUuid: ids.zoneUuid }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, errorCode: "UNAUTHORIZED", operation: "vpcList", retryable: false });
    expect(events).toHaveLength(1);
  });

  test("550: permission denied (hosts are for administrators), never retried", async () => {
    const { client, events } = clientFor(emulator, KEYS);
    const error = await failureOf(client.host.list());
    expect(error).toMatchObject({ status: 550, errorCode: "PERMISSION_DENIED", retryable: false, ambiguous: false });
    expect(events).toHaveLength(1);
  });

  test("404: an unknown record; a get by uuid answers undefined instead", async () => {
    const { client } = clientFor(emulator, KEYS);
    const error = await failureOf(client.vpc.delete({ uuid: "00000000-0000-4000-8000-00000000dead" }));
    expect(error).toMatchObject({ status: 404, errorCode: "NOT_FOUND", operation: "deleteVpc", ambiguous: false });
    expect(error.serverMessage).toContain("00000000-0000-4000-8000-00000000dead");
    expect(await client.vpc.get({ uuid: "00000000-0000-4000-8000-00000000dead" })).toBeUndefined();
  });

  test("400 and 409: the service's own validation and state conflicts come through as is", async () => {
    const { client } = clientFor(emulator, KEYS);
    const vpc = await client.vpc.create({
      name: "errors",
      zoneUuid: ids.zoneUuid,
      vpcOfferingUuid: ids.vpcOfferingUuid,
      getcIDR: "10.40.0.0/16",
    });
    const outside = await failureOf(
      client.vpc.createTier({
        name: "outside",
        zoneUuid: ids.zoneUuid,
        networkOfferingUuid: ids.tierOfferingUuid,
        vpcUuid: vpc.uuid,
        gateway: "192.168.1.1",
        netmask: "255.255.255.0",
      }),
    );
    expect(outside).toMatchObject({ status: 400, retryable: false });
    await client.vpc.createTier({
      name: "inside",
      zoneUuid: ids.zoneUuid,
      networkOfferingUuid: ids.tierOfferingUuid,
      vpcUuid: vpc.uuid,
      gateway: "10.40.1.1",
      netmask: "255.255.255.0",
    });
    const inUse = await failureOf(client.vpc.delete({ uuid: vpc.uuid }));
    expect(inUse).toMatchObject({ status: 409, errorCode: "CONFLICT", ambiguous: false });
  });

  test("invalid input is refused before any request leaves", async () => {
    const { client, events } = clientFor(emulator, KEYS);
    const error = await failureOf(
      client.vpc.create({
        name: "bad",
        zoneUuid: ids.zoneUuid,
        vpcOfferingUuid: ids.vpcOfferingUuid,
        getcIDR: "10.0.0.0",
      }),
    );
    expect(error).toBeInstanceOf(ApiInputError);
    expect(error).toMatchObject({ operation: "createVpc", field: "getcIDR" });
    expect(events).toHaveLength(0);
    expect((await stats(emulator)).total).toBe(0);
  });

  test("an HTML gateway page is cut to a short message and retried as a 502 for reads", async () => {
    const { client, events } = clientFor(emulator, { ...KEYS, apiUrl: `${rawUrl}/html` });
    const error = await failureOf(client.vpc.list({ zoneUuid: "z" }));
    expect(error).toMatchObject({ status: 502, errorCode: "HTTP_502", retryable: true });
    expect(error.serverMessage.length).toBeLessThan(400);
    expect(error.serverMessage).toMatch(/^<html><body><h1>502 Bad Gateway<\/h1>/);
    expect(events).toHaveLength(FAST_RETRY.maxAttempts);
  });

  test("a connection reset is retried for reads, and is ambiguous for a mutation", async () => {
    const { client, events } = clientFor(emulator, { ...KEYS, apiUrl: `${rawUrl}/reset` });
    const read = await failureOf(client.vpc.list({ zoneUuid: "z" }));
    expect(read).toMatchObject({ status: undefined, errorCode: "ECONNRESET", retryable: true, ambiguous: false });
    expect(events).toHaveLength(FAST_RETRY.maxAttempts);
    events.length = 0;
    const write = await failureOf(client.securityGroup.create({ name: "x" }));
    expect(write).toMatchObject({ errorCode: "ECONNRESET", ambiguous: true });
    expect(events).toHaveLength(1);
  });
});

describe("credentials never leak", () => {
  test("not in errors, error properties, log lines or debug events, whatever fails", async () => {
    const lines: string[] = [];
    const dumps: string[] = [];
    const events: unknown[] = [];
    const make = (apiUrl: string, keys = KEYS) =>
      new RestCloudClient({
        apiUrl,
        ...keys,
        retry: { ...FAST_RETRY, maxAttempts: 2 },
        timeoutMs: 2000,
        log: (line) => lines.push(line),
        onRequest: (event) => events.push(event),
      });
    const good = make(emulator.url);
    const failures = await Promise.all([
      failureOf(make(`${rawUrl}/echo`).vpc.list({ zoneUuid: "z" })), // the server echoes the headers back
      failureOf(make(`${rawUrl}/reset`).vpc.list({ zoneUuid: "z" })),
      failureOf(make("http://127.0.0.1:1").vpc.list({ zoneUuid: "z" })), // connection refused
      failureOf(make(emulator.url, { apiKey: KEYS.apiKey, secretKey: "wrong" }).vpc.list({ zoneUuid: "z" })),
      failureOf(good.host.list()),
      failureOf(good.vpc.delete({ uuid: "missing" })),
      failureOf(good.vpc.create({ name: "x", zoneUuid: "z", vpcOfferingUuid: "o", getcIDR: "bad" })),
    ]);
    await good.vpnCustomerGateway.create(
      customerGatewayInput("psk", "198.51.100.9", "192.168.9.0/24", "my-pre-shared-key"),
    );
    for (const error of failures) {
      dumps.push(
        error.message,
        String(error.stack),
        JSON.stringify(error),
        inspect(error, { showHidden: true, depth: 10 }),
      );
    }
    // The echo reached the client: the secret was in the body, and was scrubbed.
    expect(failures[0]!.serverMessage).toContain("[REDACTED]");
    const everything = [
      ...dumps,
      ...lines,
      JSON.stringify(events),
      inspect(good, { showHidden: true, depth: 10 }),
    ].join("\n");
    expect(everything).not.toContain(KEYS.apiKey);
    expect(everything).not.toContain(KEYS.secretKey);
    expect(everything).not.toContain("my-pre-shared-key");
    // The debug events do show that the headers were sent, redacted.
    expect(JSON.stringify(events)).toContain('"apikey":"[REDACTED]"');
    expect(JSON.stringify(events)).toContain('"ipsecpsk":"[REDACTED]"');
    expect(JSON.stringify(events)).toContain('"content-type":"application/json"');
  });
});
