/**
 * The dynamic provider process's entry: what the shim in every dynamic resource's state (shim.ts)
 * `require()`s, by this path (so it stays). It starts the process's services and hands the registry
 * of declarations to the dynamic front end (adapter.ts), as native-plugin.ts does for the native
 * plugin; the front end itself imports no resource.
 */
import "../compile-cache";
import type * as pulumi from "@pulumi/pulumi";
import { dynamicAdapter } from "./adapter";
import { BY_TYPE } from "../resources/registry";
import { EngineLog, engineAddress } from "../engine-log";
import { exitWhenEngineGone } from "../engine-watch";
import { cancelOnInterrupt } from "../session";

/** The engine's Log call: how this process tells the user what its operations wait on (engine-log.ts). */
const engineLog = new EngineLog();

const adapter = dynamicAdapter(BY_TYPE, engineLog);
cancelOnInterrupt();
// The SDK's provider process would outlive a killed CLI; ours ends it (engine-watch.ts).
exitWhenEngineGone(engineAddress());

/** What the shim's `handler()` answers: the provider of one resource type (`Vpc`). */
export function provider(type: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: (request) => adapter.configure(request.config),
    check: (olds, news) => adapter.check(type, olds, news),
    diff: (id, olds, news) => adapter.diff(type, id, olds, news),
    create: (inputs) => adapter.create(type, inputs),
    read: (id, props) => adapter.read(type, id, props),
    update: (id, olds, news) => adapter.update(type, id, olds, news),
    delete: (id, props) => adapter.delete(type, id, props),
  };
}

// What the serialized shims of earlier versions call, with the type first (shim.ts).
export const { configure, check, diff, create, read, update } = adapter;
const deleteResource = adapter.delete;
export { deleteResource as delete };
export { UNKNOWN } from "../wire";
