/**
 * The dynamic-provider runtime: what the serialized shim (shim.ts) `require()`s inside the provider
 * process. It maps Pulumi's dynamic-provider calls onto the engine, for every declared resource.
 * Module state (configuration, client) lives for the provider process, one per `pulumi` operation.
 */
import type * as pulumi from "@pulumi/pulumi";
import { RestCloudClient } from "../client";
import type { ProviderSettings } from "../engine/declaration";
import { Engine, ResourceInitError, UNKNOWN, type PropertyMap } from "../engine/engine";
import { resolveProviderConfig, type ProviderConfig } from "./config";
import { declarationsByType } from "../resources/registry";

interface ConfigSource {
  get(key: string): string | undefined;
}

let config: ProviderConfig = resolveProviderConfig({ get: () => undefined });
let client: RestCloudClient | undefined;
const engines = new Map<string, Engine>();

/** Called once per provider process with the stack's configuration (secrets already decrypted). */
export async function configure(source: ConfigSource): Promise<void> {
  config = resolveProviderConfig(source);
  client = undefined;
}

function clientFromConfig(): RestCloudClient {
  if (!client) {
    const missing = config.missing();
    if (missing.length > 0) throw new Error(`restcloud provider configuration: ${missing.join("; ")}`);
    client = new RestCloudClient({ apiUrl: config.apiUrl, apiKey: config.apiKey, secretKey: config.secretKey });
  }
  return client;
}

function engineFor(type: string): Engine {
  let engine = engines.get(type);
  if (!engine) {
    const declaration = declarationsByType().get(type);
    if (!declaration) throw new Error(`restcloud: unknown resource type ${type}`);
    engine = new Engine(declaration, {
      client: clientFromConfig,
      settings: (): ProviderSettings => ({ zoneUuid: config.zoneUuid }),
    });
    engines.set(type, engine);
  }
  return engine;
}

export async function check(type: string, olds: PropertyMap, news: PropertyMap): Promise<pulumi.dynamic.CheckResult> {
  return engineFor(type).check(olds, news);
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
    return { id, outs: state };
  } catch (error) {
    if (error instanceof ResourceInitError) {
      throw Object.assign(new Error(error.message), {
        id: error.id,
        properties: error.properties,
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
  return { id, props: live.state, inputs: live.inputs } as pulumi.dynamic.ReadResult;
}

export async function update(
  type: string,
  id: string,
  olds: PropertyMap,
  news: PropertyMap,
): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: await engineFor(type).update(id, olds, news) };
}

async function deleteResource(type: string, id: string, props: PropertyMap): Promise<void> {
  await engineFor(type).delete(id, props);
}
export { deleteResource as delete };

export { UNKNOWN };
