/**
 * The dynamic-provider process's line to the user: the engine's Log call, served here by a local
 * gRPC server built from the SDK's own stubs, as the Pulumi engine serves it.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's stubs, as engine-log.ts loads them */
import * as grpc from "@grpc/grpc-js";
import { PulumiEngineLog, pulumiEngineAddress } from "../../../provider/pulumi-engine-log";

const stubs = require("@pulumi/pulumi/proto/engine_grpc_pb") as { EngineService: grpc.ServiceDefinition };
const empty = require("google-protobuf/google/protobuf/empty_pb") as { Empty: new () => unknown };

interface Logged {
  severity: number;
  message: string;
  urn: string;
  ephemeral: boolean;
}

test("the engine's address is the provider process's last argument", () => {
  expect(pulumiEngineAddress(["node", "dynamic-provider/index.js", "127.0.0.1:41234"])).toBe("127.0.0.1:41234");
  expect(pulumiEngineAddress(["node", "dynamic-provider/index.js", "-v=9", "--logtostderr", "localhost:5"])).toBe(
    "localhost:5",
  );
  expect(pulumiEngineAddress(["node", "index.js", "[::1]:41234"])).toBe("[::1]:41234");
  expect(pulumiEngineAddress(["node", "jest", "tests/unit/engine-log.test.ts"])).toBeUndefined();
  expect(pulumiEngineAddress(["node"])).toBeUndefined();
});

test("without an engine, messages are dropped quietly", async () => {
  const log = new PulumiEngineLog(undefined);
  expect(log.connected).toBe(false);
  await expect(log.warn(undefined, "nobody listens")).resolves.toBeUndefined();
});

test("status is ephemeral, warn and info are kept; each names its resource's URN (or none)", async () => {
  const logged: Logged[] = [];
  const server = new grpc.Server();
  server.addService(stubs.EngineService, {
    log: (
      call: {
        request: {
          getSeverity(): number;
          getMessage(): string;
          getUrn(): string;
          getEphemeral(): boolean;
        };
      },
      callback: (error: null, response: unknown) => void,
    ) => {
      const r = call.request;
      logged.push({ severity: r.getSeverity(), message: r.getMessage(), urn: r.getUrn(), ephemeral: r.getEphemeral() });
      callback(null, new empty.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  const log = new PulumiEngineLog(`127.0.0.1:${port}`);
  try {
    const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/restcloud:Instance::web-1";
    await log.status(urn, "waiting for instance i-1 to be Running");
    await log.warn(undefined, "the API has not answered for 4s");
    await log.info(undefined, "the API answered again");
    expect(logged).toEqual([
      { severity: 1, message: "waiting for instance i-1 to be Running", urn, ephemeral: true },
      { severity: 2, message: "the API has not answered for 4s", urn: "", ephemeral: false },
      { severity: 1, message: "the API answered again", urn: "", ephemeral: false },
    ]);
  } finally {
    log.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }
});
