/**
 * The dynamic-provider runtime: what the serialized shim (shim.ts) `require()`s inside the provider
 * process. It maps Pulumi's dynamic-provider calls onto the engine, for every declared resource.
 * Module state (configuration, client) lives for the provider process, one per `pulumi` operation.
 */
import type * as pulumi from "@pulumi/pulumi";
import { RestCloudClient } from "../client";
import type { ProviderSettings } from "../engine/declaration";
import { Engine, ResourceInitError, UNKNOWN, type PropertyMap } from "../engine/engine";
import { resolveProviderConfig, sameClientConfig, type ProviderConfig } from "./config";
import { declarationsByType } from "../resources/registry";
import type { Notice } from "../engine/operation";
import { EngineLog } from "./engine-log";

interface ConfigSource {
  get(key: string): string | undefined;
}

let config: ProviderConfig = resolveProviderConfig({ get: () => undefined });
let client: RestCloudClient | undefined;
const engines = new Map<string, Engine>();
/** The engine's Log call: how this process tells the user what its operations wait on (engine-log.ts). */
const engineLog = new EngineLog();

function notify(notice: Notice): void {
  if (notice.kind === "status") void engineLog.status(notice.urn, notice.message);
  else if (notice.kind === "warning") void engineLog.warn(notice.urn, notice.message);
  else void engineLog.info(notice.urn, notice.message);
}

/**
 * Called with the stack's configuration (secrets already decrypted) once per resource type the
 * process serves. The client is kept while the configuration is the same: one client, hence one
 * request limit and one set of shared reads, for every resource of the operation.
 */
export async function configure(source: ConfigSource): Promise<void> {
  const next = resolveProviderConfig(source);
  if (!sameClientConfig(config, next)) client = undefined;
  config = next;
}

function clientFromConfig(): RestCloudClient {
  if (!client) {
    const missing = config.missing();
    if (missing.length > 0) throw new Error(`restcloud provider configuration: ${missing.join("; ")}`);
    client = new RestCloudClient({
      apiUrl: config.apiUrl,
      apiKey: config.apiKey,
      secretKey: config.secretKey,
      maxConcurrentRequests: config.maxConcurrentRequests,
      shareReads: config.shareReads,
      timeoutMs: config.requestTimeoutMs,
    });
  }
  return client;
}

/**
 * Properties as Pulumi's protobuf Struct can carry them: without undefined values (a declaration's
 * optional output the API left out), which would fail the whole call with "Unexpected struct type".
 */
function structSafe(props: PropertyMap): PropertyMap {
  const clean = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(clean);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => [key, clean(item)]),
    );
  };
  return clean(props) as PropertyMap;
}

function engineFor(type: string): Engine {
  let engine = engines.get(type);
  if (!engine) {
    const declaration = declarationsByType().get(type);
    if (!declaration) throw new Error(`restcloud: unknown resource type ${type}`);
    engine = new Engine(declaration, {
      client: clientFromConfig,
      settings: (): ProviderSettings => ({ zoneUuid: config.zoneUuid }),
      notify,
    });
    engines.set(type, engine);
  }
  return engine;
}

/** Arguments first; when they are valid, the references the catalog can confirm (engine.checkReferences). */
export async function check(type: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  const engine = engineFor(type);
  const checked = engine.check(olds, news);
  if (checked.failures.length === 0) checked.failures.push(...(await engine.checkReferences(olds, checked.inputs)));
  return checked;
}

export async function diff(
  type: string,
  _id: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<pulumi.dynamic.DiffResult> {
  const outcome = engineFor(type).diff(olds, news);
  return { changes: outcome.changes, replaces: outcome.replaces, deleteBeforeReplace: outcome.deleteBeforeReplace };
}

/** A failed wait after an accepted create keeps the id in state: Pulumi records it as failed to initialise. */
export async function create(type: string, inputs: PropertyMap): Promise<pulumi.dynamic.CreateResult> {
  try {
    const { id, state } = await engineFor(type).create(inputs);
    return { id, outs: structSafe(state) };
  } catch (error) {
    if (error instanceof ResourceInitError) {
      throw Object.assign(new Error(error.message), {
        id: error.id,
        properties: structSafe(error.properties),
        reasons: error.reasons,
      });
    }
    throw error;
  }
}

export async function read(type: string, id: string, props: PropertyMap): Promise<pulumi.dynamic.ReadResult> {
  const live = await engineFor(type).read(id, props);
  // No id: the record is gone, and refresh drops the resource from the stack.
  if (!live) return { id: undefined as unknown as string, props: {} };
  return { id, props: structSafe(live.state), inputs: structSafe(live.inputs) } as pulumi.dynamic.ReadResult;
}

export async function update(
  type: string,
  id: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: structSafe(await engineFor(type).update(id, olds, news)) };
}

async function deleteResource(type: string, id: string, props: PropertyMap): Promise<void> {
  await engineFor(type).delete(id, props);
}
export { deleteResource as delete };

export { UNKNOWN };
