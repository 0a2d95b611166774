/**
 * What the resource tests share: an emulator with short jobs (40 ms), a client of its demo account,
 * the catalog, and a stack of one program configured with the provider's settings and the catalog's
 * ids; and the comparison of the operations the engine reported per resource.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { RestCloudClient } from "../../provider/client";
import { DEMO_KEYS, discoverCatalog, providerConfig, type CatalogIds } from "./catalog-ids";
import { TestStack } from "./harness";

export interface ResourceStack {
  emulator: RunningEmulator;
  client: RestCloudClient;
  catalog: CatalogIds;
  stack: TestStack;
}

/** Starts the emulator and creates a stack of `programs/<program>` (config `step` "0", plus `config`). */
export async function resourceStack(
  program: string,
  config: Record<string, string | { value: string; secret: boolean }> = {},
): Promise<ResourceStack> {
  const emulator = await startEmulator({ port: 0, asyncDelayMs: 40 });
  try {
    const catalog = await discoverCatalog(emulator.url);
    const { zoneUuid, ...ids } = catalog;
    const stack = await TestStack.create({
      programDir: path.join(__dirname, "programs", program),
      config: { ...providerConfig(emulator.url, zoneUuid), ...ids, step: "0", ...config },
    });
    return { emulator, client: new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS }), catalog, stack };
  } catch (error) {
    await emulator.stop();
    throw error;
  }
}

/** The operation the engine reported for each named resource ("(none)" when none), to compare with `expected`. */
export const operationsOf = (operations: Record<string, string>, names: readonly string[]): Record<string, string> =>
  Object.fromEntries(names.map((n) => [n, operations[n] ?? "(none)"]));

/** `op` for each named resource. */
export const expected = (op: string, names: readonly string[]): Record<string, string> =>
  Object.fromEntries(names.map((n) => [n, op]));
