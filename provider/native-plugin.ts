/**
 * The native plugin's entry point (`pulumi-resource-restcloud`, plugin/): hands the registry of
 * declarations and functions to the generic gRPC server (native/server.ts) and prints its port,
 * as Pulumi expects of a plugin. Its first argument is the engine's address, for Log (progress).
 */
import "./compile-cache";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { EngineLog } from "./engine-log";
import { exitWhenEngineGone } from "./engine-watch";
import { NativeProvider, serve } from "./native/server";
import { DECLARATIONS } from "./resources/registry";
import { FUNCTIONS } from "./functions/registry";
import { cancelOnInterrupt } from "./session";

const packageRoot = path.resolve(__dirname, "..", "..");

async function main(): Promise<void> {
  const engineAddress = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
  const engineLog = new EngineLog(engineAddress);
  const version = (JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string })
    .version;
  const provider = new NativeProvider({
    version,
    schema: () => readFileSync(path.join(packageRoot, "schema.json"), "utf8"),
    declarations: DECLARATIONS,
    functions: FUNCTIONS,
    log: engineLog,
  });
  cancelOnInterrupt();
  exitWhenEngineGone(engineAddress);
  const { port } = await serve(provider);
  process.stdout.write(`${port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-restcloud: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
