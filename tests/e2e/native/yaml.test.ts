/**
 * The native plugin from Pulumi YAML (programs/yaml): a VPC, a tier and an instance typed
 * `restcloud:index:*`, the catalog's ids looked up with `fn::invoke` of the provider's functions,
 * the plugin found through `plugins.providers`, and the provider's settings from stack config
 * (`restcloud:apiUrl`, and the keys as secrets). Its lifecycle against the emulator: up, outputs, a
 * preview without changes, an update in place, destroy.
 *
 * The YAML language host (`pulumi-language-yaml`) sits beside `pulumi` (scripts/install-pulumi-cli.sh),
 * which the offline stack puts on PATH.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { DEMO_KEYS, discoverCatalog, providerConfig, type CatalogIds } from "../catalog-ids";
import { TestStack, pulumiCliRoot } from "../harness";
import { EMPTY_ACCOUNT, NATIVE_PREFIX, accountResources, auditAccount, stateOf } from "../reliability/helpers";
import { YAML_PROGRAM } from "./native-helpers";

jest.setTimeout(120_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The type of every resource in the stack's state, sorted. */
async function stateTypes(stack: TestStack): Promise<string[]> {
  return (await stateOf(stack)).resources.map((r) => r.type).sort();
}

describe("native mode: a Pulumi YAML program", () => {
  let emulator: RunningEmulator;
  let catalog: CatalogIds;
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    catalog = await discoverCatalog(emulator.url);
    stack = await TestStack.create({ programDir: YAML_PROGRAM, config: providerConfig(emulator.url) });
  });

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
  });

  test("the YAML language host is installed beside pulumi", () => {
    expect(fs.existsSync(path.join(pulumiCliRoot(), "bin", "pulumi-language-yaml"))).toBe(true);
  });

  test("up creates the VPC, the tier and the instance, with the catalog's ids the functions found", async () => {
    const { changes, operations, outputs } = await stack.up();
    // The stack and the three resources (the default provider is not counted).
    expect(changes).toEqual({ create: 4 });
    expect(operations).toEqual({ net: "create", tier: "create", vm: "create" });
    expect(await stateTypes(stack)).toEqual(
      [
        "pulumi:pulumi:Stack",
        "pulumi:providers:restcloud",
        `${NATIVE_PREFIX}Instance`,
        `${NATIVE_PREFIX}Vpc`,
        `${NATIVE_PREFIX}VpcTier`,
      ].sort(),
    );

    expect(outputs).toEqual({
      zoneUuid: catalog.zoneUuid,
      vpcId: expect.stringMatching(UUID),
      vpcDescription: "the YAML program's VPC",
      vpcOfferingUuid: catalog.vpcOfferingUuid,
      tierId: expect.stringMatching(UUID),
      tierOfferingUuid: catalog.tierOfferingUuid,
      instanceId: expect.stringMatching(UUID),
      instanceState: "Running",
      templateUuid: catalog.ubuntuTemplateUuid,
      planName: expect.stringMatching(/^gp\.2c/),
    });

    const account = await accountResources(emulator.url);
    expect(Object.keys(account.vpc ?? {})).toEqual([outputs.vpcId]);
    expect(account.instance?.[outputs.instanceId as string]?.state).toBe("Running");
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 3 });
    // The keys came in as secrets and stay so.
    expect(stack.stateFileText()).not.toContain(DEMO_KEYS.secretKey);
  });

  test("a preview then finds no change", async () => {
    const preview = await stack.preview({ expectNoChanges: true });
    expect(preview.operations).toEqual({ net: "same", tier: "same", vm: "same" });
  });

  test("a new description updates the VPC in place", async () => {
    const before = await stack.outputs();
    await stack.setConfig("vpcDescription", "changed by the YAML test");
    const up = await stack.up();
    expect(up.operations).toEqual({ net: "update", tier: "same", vm: "same" });
    expect(up.outputs).toEqual({ ...before, vpcDescription: "changed by the YAML test" });
    const vpcs = (await accountResources(emulator.url)).vpc;
    expect(vpcs?.[before.vpcId as string]?.description).toBe("changed by the YAML test");
    await stack.preview({ expectNoChanges: true });
  });

  test("destroy empties the account", async () => {
    const destroyed = await stack.destroy();
    expect(destroyed.operations).toEqual({ net: "delete", tier: "delete", vm: "delete" });
    expect(await stateTypes(stack)).toEqual([]);
    expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  });
});
