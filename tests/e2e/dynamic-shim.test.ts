/**
 * What the dynamic mode keeps in every resource's state, through the real Pulumi CLI: the
 * `__provider` shim (provider/dynamic/shim.ts) is a line of text that names the type and loads the
 * installed package, the recorded stack traces hold no frame of this package, and stacks made by
 * earlier versions, whose state carries the serialized closures those wrote (legacy-dynamic-shim.ts),
 * still preview with no change, refresh and destroy. One fleet serves both: its state as this
 * version wrote it, then rewritten as the earlier versions wrote theirs.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { dynamicShim } from "../../provider/dynamic/shim";
import { discoverCatalog, type CatalogIds } from "./catalog-ids";
import { TestStack } from "./harness";
import { legacyDynamicShim } from "./legacy-dynamic-shim";
import {
  DYNAMIC_PREFIX,
  EMPTY_ACCOUNT,
  FLEET_PROGRAM,
  auditAccount,
  fleetConfig,
  type DeploymentResource,
} from "./reliability/helpers";

jest.setTimeout(600_000);

/** A fleet of ten: every kind of the fleet program (VPC, tiers, network, instances, volume, IP, rules). */
const SIZE = 10;

interface ExportedResource extends DeploymentResource {
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  sourcePosition?: string;
  stackTrace?: { frames?: { sourcePosition?: string }[] };
}

async function restcloudResources(stack: TestStack): Promise<ExportedResource[]> {
  const { deployment } = (await stack.stack.exportStack()) as { deployment: { resources?: ExportedResource[] } };
  return (deployment.resources ?? []).filter((r) => r.type.startsWith(DYNAMIC_PREFIX));
}

describe("the dynamic mode's state", () => {
  let emulator: RunningEmulator;
  let catalog: CatalogIds;
  /** One fleet for both tests: the first ups it, the second rewrites its state as earlier versions wrote it. */
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 0 });
    catalog = await discoverCatalog(emulator.url);
    stack = await TestStack.create({
      programDir: FLEET_PROGRAM,
      config: fleetConfig(emulator.url, catalog, SIZE),
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
  });

  test("each resource's __provider is the shim of its type, and no stack frame of this package is kept", async () => {
    expect((await stack.up()).changes).toEqual({ create: SIZE + 1 });
    const resources = await restcloudResources(stack);
    expect(resources).toHaveLength(SIZE);
    for (const r of resources) {
      const type = r.type.slice(DYNAMIC_PREFIX.length);
      expect([r.inputs?.__provider, r.outputs?.__provider]).toEqual([dynamicShim(type), dynamicShim(type)]);
      const positions = [r.sourcePosition, ...(r.stackTrace?.frames ?? []).map((f) => f.sourcePosition)];
      expect(positions.filter((p) => p !== undefined && /\/provider\/|\/dist\//.test(p))).toEqual([]);
    }
    // Not destroyed here: the next test takes this fleet over (a destroy through today's shim is every
    // dynamic-mode test's, e.g. core-resources.test.ts "destroy leaves the account with none...").
  });

  test("a stack whose state holds the serialized shim of earlier versions previews no change, refreshes and destroys", async () => {
    // The fleet the first test made (made again if that test failed before its up).
    if ((await restcloudResources(stack)).length === 0) await stack.up();
    // The state as earlier versions wrote it: their shim in every resource's inputs and outputs.
    const exported = await stack.stack.exportStack();
    const { resources } = exported.deployment as { resources: ExportedResource[] };
    for (const r of resources.filter((r) => r.type.startsWith(DYNAMIC_PREFIX))) {
      const legacy = legacyDynamicShim(r.type.slice(DYNAMIC_PREFIX.length));
      r.inputs!.__provider = legacy;
      r.outputs!.__provider = legacy;
    }
    await stack.stack.importStack(exported);
    const legacyShims = async () =>
      (await restcloudResources(stack)).map(
        (r) => r.outputs?.__provider === legacyDynamicShim(r.type.slice(DYNAMIC_PREFIX.length)),
      );
    expect(await legacyShims()).toEqual(Array(SIZE).fill(true));

    expect((await stack.preview({ expectNoChanges: true })).changes).toEqual({ same: SIZE + 1 });
    // Refresh reads, and destroy deletes, through the shim in the outputs: the earlier versions' one,
    // which refresh keeps there.
    expect((await stack.refresh()).changes).toEqual({ same: SIZE + 1 });
    expect(await legacyShims()).toEqual(Array(SIZE).fill(true));
    expect((await auditAccount(emulator.url, stack)).records).toBe(SIZE);

    expect((await stack.destroy()).changes).toEqual({ delete: SIZE + 1 });
    expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  });
});
