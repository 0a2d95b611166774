/* eslint-disable @typescript-eslint/no-require-imports -- the provider's code loads once the port is out */
// The native plugin's entry (`pulumi-resource-restcloud`). It prints its port with only gRPC and the protocol stubs
// loaded, as the engine waits for the port; the provider loads while the engine connects. The release's executable
// starts from a startup snapshot taken after the provider loaded (tools/release/executables.ts): gRPC alone is left to
// load, as it needs node:http2, which a snapshot cannot hold.
import "./compile-cache";
import { startupSnapshot } from "node:v8";
import { PulumiEngineLog } from "./pulumi-engine-log";
import { exitWhenPulumiEngineGone } from "./pulumi-engine-watch";
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

/** The provider's modules; the functions' only on the first invoke, but for the snapshot. */
function loadProvider() {
  return {
    ...(require("./native/server") as typeof NativeServer),
    ...(require("./resources/registry") as typeof Resources),
    ...(require("./session") as typeof Session),
    functions: () => (require("./functions/registry") as typeof Functions).FUNCTIONS,
  };
}

/** The provider's handlers, loaded on first use. */
function startProvider(engineLog: PulumiEngineLog): ServiceHandlers {
  const { NativeProvider, DECLARATIONS, cancelOnInterrupt, functions } = loadProvider();
  const provider = new NativeProvider({
    version: packageVersion(),
    schema: () => packageFileText("schema.json"),
    declarations: DECLARATIONS,
    functions,
    log: engineLog,
  });
  cancelOnInterrupt();
  return provider.service();
}

async function main(): Promise<void> {
  const pulumiEngineAddress = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
  const engineLog = new PulumiEngineLog(pulumiEngineAddress);
  exitWhenPulumiEngineGone(pulumiEngineAddress);
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

if (startupSnapshot.isBuildingSnapshot()) {
  loadProvider().functions();
  startupSnapshot.setDeserializeMainFunction(() => void main().catch(fail));
} else {
  main().catch(fail);
}
