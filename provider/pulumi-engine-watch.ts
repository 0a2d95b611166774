// Ends a provider process once Pulumi's engine stops answering its gRPC health check, as Pulumi's Go plugins do: a
// CLI killed with SIGKILL cannot stop its plugins, which would run on (~100 MB each).
import type * as grpcJs from "@grpc/grpc-js";
import { sdkModule } from "./native/sdk-modules";

const HEALTH_CHECK = "/grpc.health.v1.Health/Check";

export interface EngineWatchOptions {
  /** Between two checks while the engine answers. */
  intervalMs?: number;
  /** Between two checks once one failed: a dead engine refuses at once, so the process ends soon after. */
  retryIntervalMs?: number;
  /** Checks in a row that must fail before the process ends: one slow answer on a busy machine is not an engine gone. */
  failuresToExit?: number;
  /** What ending means (a test passes its own). */
  onEngineGone?: (reason: string) => void;
}

/**
 * A check every 10 s; after a failure, every second; exits after 3 failures in a row: about 12 s
 * after the engine's end when its port refuses (a killed engine), 40 s at most when checks time out.
 */
const DEFAULTS = { intervalMs: 10_000, retryIntervalMs: 1_000, failuresToExit: 3 };

const exitProcess = (reason: string): void => {
  process.stderr.write(`restcloud provider: the Pulumi engine is gone (${reason}); exiting\n`);
  process.exit(1);
};

/**
 * Starts polling the engine at `address` (none: nothing to watch, e.g. a process not started by
 * Pulumi); returns a function that stops. The timer never keeps the process alive by itself.
 */
export function exitWhenPulumiEngineGone(address: string | undefined, options: EngineWatchOptions = {}): () => void {
  if (address === undefined) return () => {};
  const { intervalMs, retryIntervalMs, failuresToExit } = { ...DEFAULTS, ...options };
  const onEngineGone = options.onEngineGone ?? exitProcess;
  const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const check = () => {
    client.makeUnaryRequest(
      HEALTH_CHECK,
      () => Buffer.alloc(0),
      (bytes: Buffer) => bytes,
      Buffer.alloc(0),
      new grpc.Metadata(),
      { deadline: Date.now() + Math.min(intervalMs, 10_000) },
      (error: grpcJs.ServiceError | null) => {
        if (stopped) return;
        const alive = !error || error.code === grpc.status.UNIMPLEMENTED;
        failures = alive ? 0 : failures + 1;
        if (failures >= failuresToExit) {
          stop();
          onEngineGone(`${failures} health checks of ${address} failed, the last: ${error?.details || error?.message}`);
          return;
        }
        schedule();
      },
    );
  };
  const schedule = () => {
    timer = setTimeout(check, failures > 0 ? Math.min(retryIntervalMs, intervalMs) : intervalMs);
    timer.unref();
  };
  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    client.close();
  };
  schedule();
  return stop;
}
