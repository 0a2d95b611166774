// The dynamic front end in the provider process: maps Pulumi's dynamic-provider calls onto the engine, with one
// session (configuration, client) for the life of the process; runtime.ts hands it the registry.
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceDeclaration } from "../engine/declaration";
import { ResourceInitError, type PropertyMap } from "../engine/engine";
import type { Notice } from "../engine/operation";
import { META_KEY, callOf, metaOf, namingOf, withoutMeta } from "./meta";
import { ProviderSession, type ConfigSource } from "../session";
import { structSafe } from "../wire";

/** What the serialized shim (shim.ts) calls, by the names it calls them. */
export interface DynamicAdapter {
  configure(source: ConfigSource): Promise<void>;
  check(type: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult>;
  diff(type: string, id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.DiffResult>;
  create(type: string, inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult>;
  read(type: string, id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult>;
  update(type: string, id: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.UpdateResult>;
  delete(type: string, id: string, props: PropertyMap): Promise<void>;
}

export function dynamicAdapter(
  declarations: ReadonlyMap<string, ResourceDeclaration>,
  log?: { notify(notice: Notice): void; flush(): Promise<void> },
): DynamicAdapter {
  const session = new ProviderSession(declarations, log);
  // Each answers only once what the user was told of it has reached the engine (session.answer).
  return {
    /**
     * Called with the stack's configuration (secrets already decrypted) once per resource type the
     * process serves; the session keeps its client while the configuration is the same.
     */
    async configure(source: ConfigSource): Promise<void> {
      session.configure(source);
    },
    check: (type, olds, news) => check(session, type, olds, news),
    diff: (type, id, olds, news) => diff(session, type, id, olds, news),
    create: (type, inputs) => session.answer(() => dynamicCreate(session, type, inputs)),
    read: (type, id, props) => session.answer(() => dynamicRead(session, type, id, props)),
    update: (type, id, olds, news) => session.answer(() => dynamicUpdate(session, type, id, olds, news)),
    delete: (type, id, props) => session.answer(() => dynamicDelete(session, type, id, props)),
  };
}

/** Arguments first; when they are valid, the references the catalog can confirm (engine.checkReferences). */
async function check(
  session: ProviderSession,
  type: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<pulumi.dynamic.CheckResult> {
  const engine = session.engine(type);
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

async function diff(
  session: ProviderSession,
  type: string,
  _id: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<pulumi.dynamic.DiffResult> {
  const outcome = session.engine(type).diff(withoutMeta(olds), withoutMeta(news));
  return { changes: outcome.changes, replaces: outcome.replaces, deleteBeforeReplace: outcome.deleteBeforeReplace };
}

/** The state with the resource's meta kept (without a create still to finish: this operation finished it). */
function withMeta(state: PropertyMap, props: PropertyMap): PropertyMap {
  if (props[META_KEY] === undefined) return state;
  const { pendingReady: _done, ...meta } = metaOf(props);
  return { ...state, [META_KEY]: meta };
}

/** A failed wait after an accepted create keeps the id in state: Pulumi records it as failed to initialise. */
async function dynamicCreate(
  session: ProviderSession,
  type: string,
  inputs: PropertyMap,
): Promise<pulumi.dynamic.CreateResult> {
  try {
    const { id, state } = await session.engine(type).create(withoutMeta(inputs), callOf(inputs, "create"));
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

async function dynamicRead(
  session: ProviderSession,
  type: string,
  id: string,
  props: PropertyMap,
): Promise<pulumi.dynamic.ReadResult> {
  const live = await session.engine(type).read(id, withoutMeta(props), callOf(props, "update"));
  // No id: the record is gone, and refresh drops the resource from the stack.
  if (!live) return { id: undefined as unknown as string, props: {} };
  return {
    id,
    props: structSafe(withMeta(live.state, props)),
    inputs: structSafe(withMeta(live.inputs, props)),
  } as pulumi.dynamic.ReadResult;
}

async function dynamicUpdate(
  session: ProviderSession,
  type: string,
  id: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<pulumi.dynamic.UpdateResult> {
  // The update's timeout and a create still to finish are the old state's; the rest is the new inputs'.
  const call = { ...callOf(news, "update"), ...(metaOf(olds).pendingReady ? { pendingReady: true } : {}) };
  const state = await session.engine(type).update(id, withoutMeta(olds), withoutMeta(news), call);
  return { outs: structSafe(withMeta(state, news)) };
}

async function dynamicDelete(session: ProviderSession, type: string, id: string, props: PropertyMap): Promise<void> {
  await session.engine(type).delete(id, withoutMeta(props), callOf(props, "delete"));
}
