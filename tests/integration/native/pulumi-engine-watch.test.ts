/**
 * engine-watch.ts against a real gRPC server on 127.0.0.1: a server that answers (here with
 * UNIMPLEMENTED, as a server without the health service does) keeps the watch quiet; once it is
 * gone, the watch reports the engine gone after the configured number of failed checks, once.
 */
import type * as grpcJs from "@grpc/grpc-js";
import { exitWhenPulumiEngineGone } from "../../../provider/pulumi-engine-watch";
import { sdkModule } from "../../../provider/native/sdk-modules";

const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");

async function startServer(): Promise<{ server: grpcJs.Server; address: string }> {
  const server = new grpc.Server();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { server, address: `127.0.0.1:${port}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a live engine keeps the watch quiet; a gone one is reported once, after the failures in a row", async () => {
  const { server, address } = await startServer();
  const reasons: string[] = [];
  const stop = exitWhenPulumiEngineGone(address, {
    intervalMs: 50,
    failuresToExit: 3,
    onEngineGone: (r) => reasons.push(r),
  });
  try {
    await sleep(400); // about 8 checks, each answered UNIMPLEMENTED
    expect(reasons).toEqual([]);

    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    server.forceShutdown();
    const goneAt = Date.now();
    while (reasons.length === 0 && Date.now() - goneAt < 5_000) await sleep(20);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(new RegExp(`^3 health checks of ${address} failed, the last: `));
    await sleep(300);
    expect(reasons).toHaveLength(1);
  } finally {
    stop();
  }
});

test("no address (a process Pulumi did not start): nothing is watched", () => {
  const stop = exitWhenPulumiEngineGone(undefined, {
    onEngineGone: () => {
      throw new Error("must not be called");
    },
  });
  stop();
});
