/**
 * The dynamic provider process's entry: what the serialized shim (shim.ts) `require()`s, by this
 * path, which every dynamic resource's state records (so it stays). It starts the process's
 * services and hands the registry of declarations to the dynamic front end (adapter.ts), as
 * native-plugin.ts does for the native plugin; the front end itself imports no resource.
 */
import "../compile-cache";
import { dynamicAdapter } from "./adapter";
import { declarationsByType } from "../resources/registry";
import { EngineLog, engineAddress } from "../engine-log";
import { exitWhenEngineGone } from "../engine-watch";
import { cancelOnInterrupt } from "../session";

/** The engine's Log call: how this process tells the user what its operations wait on (engine-log.ts). */
const engineLog = new EngineLog();

const adapter = dynamicAdapter(declarationsByType(), engineLog);
cancelOnInterrupt();
// The SDK's provider process would outlive a killed CLI; ours ends it (engine-watch.ts).
exitWhenEngineGone(engineAddress());

export const { configure, check, diff, create, read, update } = adapter;
const deleteResource = adapter.delete;
export { deleteResource as delete };
export { UNKNOWN } from "../wire";
