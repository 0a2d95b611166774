/**
 * The dynamic-provider runtime: what the serialized shim (shim.ts) `require()`s inside the provider
 * process. It maps Pulumi's dynamic-provider calls onto the engine, for every declared resource.
 * Module state (configuration, client) lives for the provider process, one per `pulumi` operation.
 */
import "../compile-cache";
import type * as pulumi from "@pulumi/pulumi";
import { ResourceInitError, UNKNOWN, structSafe, type PropertyMap } from "../engine/engine";
import { META_KEY, callOf, metaOf, namingOf, withoutMeta } from "./meta";
import { declarationsByType } from "../resources/registry";
import { EngineLog, engineAddress } from "../engine-log";
import { exitWhenEngineGone } from "../engine-watch";
import { ProviderSession, cancelOnInterrupt, type ConfigSource } from "../session";

/** The engine's Log call: how this process tells the user what its operations wait on (engine-log.ts). */
const engineLog = new EngineLog();

const session = new ProviderSession(declarationsByType(), engineLog);
cancelOnInterrupt();
// The SDK's provider process would outlive a killed CLI; ours ends it (engine-watch.ts).
exitWhenEngineGone(engineAddress());

/**
 * Called with the stack's configuration (secrets already decrypted) once per resource type the
 * process serves; the session keeps its client while the configuration is the same.
 */
export async function configure(source: ConfigSource): Promise<void> {
  session.configure(source);
}

const engineFor = (type: string) => session.engine(type);

/** Arguments first; when they are valid, the references the catalog can confirm (engine.checkReferences). */
export async function check(type: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  const engine = engineFor(type);
  const naming = namingOf(olds, news);
  const checked = engine.check(withoutMeta(olds), withoutMeta(news), naming);
  if (checked.failures.length === 0) checked.failures.push(...(await engine.checkReferences(olds, checked.inputs)));
  const meta = { ...metaOf(news) };
  const autoNamed = engine.declaration.autoName;
  if (naming && autoNamed && checked.inputs[autoNamed] !== undefined)
    meta.generatedName = String(checked.inputs[autoNamed]);
  if (news[META_KEY] !== undefined) checked.inputs[META_KEY] = meta;
  return checked;
}

export async function diff(
  type: string,
  _id: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<pulumi.dynamic.DiffResult> {
  const outcome = engineFor(type).diff(withoutMeta(olds), withoutMeta(news));
  return { changes: outcome.changes, replaces: outcome.replaces, deleteBeforeReplace: outcome.deleteBeforeReplace };
}

/** The state with the resource's meta kept (without a create still to finish: this operation finished it). */
function withMeta(state: PropertyMap, props: PropertyMap): PropertyMap {
  if (props[META_KEY] === undefined) return state;
  const { pendingReady: _done, ...meta } = metaOf(props);
  return { ...state, [META_KEY]: meta };
}

/** A failed wait after an accepted create keeps the id in state: Pulumi records it as failed to initialise. */
async function createNow(type: string, inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  try {
    const { id, state } = await engineFor(type).create(withoutMeta(inputs), callOf(inputs, "create"));
    return { id, outs: structSafe(withMeta(state, inputs)) };
  } catch (error) {
    if (error instanceof ResourceInitError) {
      throw Object.assign(new Error(error.message), {
        id: error.id,
        properties: structSafe({ ...error.properties, [META_KEY]: { ...metaOf(inputs), pendingReady: true } }),
        reasons: error.reasons,
      });
    }
    throw error;
  }
}

async function readNow(type: string, id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult> {
  const live = await engineFor(type).read(id, withoutMeta(props), callOf(props, "update"));
  // No id: the record is gone, and refresh drops the resource from the stack.
  if (!live) return { id: undefined as unknown as string, props: {} };
  return {
    id,
    props: structSafe(withMeta(live.state, props)),
    inputs: structSafe(withMeta(live.inputs, props)),
  } as pulumi.dynamic.ReadResult;
}

async function updateNow(
  type: string,
  id: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<pulumi.dynamic.UpdateResult> {
  // The update's timeout and a create still to finish are the old state's; the rest is the new inputs'.
  const call = { ...callOf(news, "update"), ...(metaOf(olds).pendingReady ? { pendingReady: true } : {}) };
  const state = await engineFor(type).update(id, withoutMeta(olds), withoutMeta(news), call);
  return { outs: structSafe(withMeta(state, news)) };
}

async function deleteNow(type: string, id: string, props: PropertyMap): Promise<void> {
  await engineFor(type).delete(id, withoutMeta(props), callOf(props, "delete"));
}
// Each answers only once what the user was told of it has reached the engine (session.answer).
export const create = (type: string, inputs: PropertyMap) => session.answer(() => createNow(type, inputs));
export const read = (type: string, id: string, props: PropertyMap) => session.answer(() => readNow(type, id, props));
export const update = (type: string, id: string, olds: PropertyMap, news: PropertyMap) =>
  session.answer(() => updateNow(type, id, olds, news));
const deleteResource = (type: string, id: string, props: PropertyMap) =>
  session.answer(() => deleteNow(type, id, props));
export { deleteResource as delete };

export { UNKNOWN };
