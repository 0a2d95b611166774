// The dynamic provider process's entry, `require()`d by path from every dynamic resource's state (so the path
// stays): it hands the registry to the dynamic front end (adapter.ts).
import "../compile-cache";
import { collectAfterLoad } from "./heap-size"; // on import, holds the young generation's size
import type * as pulumi from "@pulumi/pulumi";
import { dynamicAdapter } from "./adapter";
import { BY_TYPE } from "../resources/registry";
import { PulumiEngineLog, pulumiEngineAddress } from "../pulumi-engine-log";
import { exitWhenPulumiEngineGone } from "../pulumi-engine-watch";
import { cancelOnInterrupt } from "../session";

/** The engine's Log call: how this process tells the user what its operations wait on (pulumi-pulumi-engine-log.ts). */
const engineLog = new PulumiEngineLog();

const adapter = dynamicAdapter(BY_TYPE, engineLog);
cancelOnInterrupt();
// The SDK's provider process would outlive a killed CLI; ours ends it (pulumi-engine-watch.ts).
exitWhenPulumiEngineGone(pulumiEngineAddress());
collectAfterLoad();

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
