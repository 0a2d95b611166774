/* eslint-disable @typescript-eslint/no-require-imports -- the provider's code loads once the port is out */
/**
 * The native plugin's entry point (`pulumi-resource-restcloud`, plugin/): serves the gRPC service
 * (native/service.ts) and prints its port, as Pulumi expects of a plugin, then hands the registry
 * of declarations and functions to the generic provider (native/server.ts). Its first argument is
 * the engine's address, for Log (progress).
 *
 * The engine waits for the port before it connects: the port goes out first, with the gRPC library
 * and the protocol's stubs alone loaded, as a plugin that does nothing would (bench/noop-plugin.ts);
 * the provider (declarations, engine, client: most of the start-up) loads while the engine connects,
 * and the functions on the first Invoke.
 */
import "./compile-cache";
import { EngineLog } from "./engine-log";
import { exitWhenEngineGone } from "./engine-watch";
import { listen, type ServiceHandlers } from "./native/service";
import { packageFileText, packageVersion } from "./package-files";
import type * as NativeServer from "./native/server";
import type * as Resources from "./resources/registry";
import type * as Functions from "./functions/registry";
import type * as Session from "./session";

function fail(error: unknown): never {
  process.stderr.write(`pulumi-resource-restcloud: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

/** The provider's handlers, loaded on first use. */
function startProvider(engineLog: EngineLog): ServiceHandlers {
  const { NativeProvider } = require("./native/server") as typeof NativeServer;
  const { DECLARATIONS } = require("./resources/registry") as typeof Resources;
  const { cancelOnInterrupt } = require("./session") as typeof Session;
  const provider = new NativeProvider({
    version: packageVersion(),
    schema: () => packageFileText("schema.json"),
    declarations: DECLARATIONS,
    functions: () => (require("./functions/registry") as typeof Functions).FUNCTIONS,
    log: engineLog,
  });
  cancelOnInterrupt();
  return provider.service();
}

async function main(): Promise<void> {
  const engineAddress = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
  const engineLog = new EngineLog(engineAddress);
  exitWhenEngineGone(engineAddress);
  let handlers: ServiceHandlers | undefined;
  const provider = () => (handlers ??= startProvider(engineLog));
  const { port } = await listen(provider);
  process.stdout.write(`${port}\n`);
  setImmediate(() => {
    try {
      provider();
    } catch (error) {
      fail(error);
    }
  });
}

main().catch(fail);
