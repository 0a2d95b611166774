/**
 * The stack's autonaming (`pulumi:autonaming`, docs/autonaming.md) with the real CLI: one stack of
 * programs/autonaming (a VPC `web`, a security group `fw`), each step under a new setting.
 *
 * 1. Dynamic mode: nothing follows the setting. The CLI warns of its enforced pattern, and the
 *    program warns once. The names are ours, `<name>-<7 hex>`, and `restcloud`'s `disabled` does not
 *    reach the `pulumi-nodejs:` types.
 * 2. Native mode: an enforced pattern for the provider, and `default` for one type.
 * 3. Disabled for the provider, verbatim for one type. The preview fails, naming the VPC's `name`;
 *    `up` passes once the program names the VPC.
 * 4. A pattern with no random part, and the VPC's cidr changed. The names given before are kept;
 *    the replacement takes the pattern's name, and the engine deletes before it creates.
 *
 * The engine-level rules (previous names, ENFORCE, a pattern whose result is no valid name) are in
 * tests/unit/engine/engine.test.ts and tests/integration/native/server.test.ts.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog, providerConfig } from "../catalog-ids";
import { TestStack } from "../harness";
import { accountResources } from "../reliability/helpers";
import { NATIVE_MODE, NATIVE_PROGRAMS, warningsOf, withEvents, type Events } from "./native-helpers";

jest.setTimeout(120_000);

const PROGRAM = path.join(NATIVE_PROGRAMS, "autonaming");
const PROJECT = "restcloud-e2e-autonaming";
const SECURITY_GROUP = "restcloud:index:SecurityGroup";

let emulator: RunningEmulator;
let stack: TestStack;

/** Writes the stack's `pulumi:autonaming` into Pulumi.<stack>.yaml, as a user would. */
async function setAutonaming(value: object): Promise<void> {
  const { workspace, name } = stack.stack;
  const settings = await workspace.stackSettings(name);
  await workspace.saveStackSettings(name, { ...settings, config: { ...settings.config, "pulumi:autonaming": value } });
}

/** The name each resource's Check gave it (its first step's inputs), by logical name. */
function namesOf(events: Events): Record<string, unknown> {
  return Object.fromEntries(Object.entries(events.steps()).map(([name, steps]) => [name, steps.newInputs.name]));
}

/** The inputs of the replacement the engine planned for a resource. */
function replacementInputs(events: Events, name: string): Record<string, unknown> | undefined {
  const step = events.all.find(
    (e) =>
      e.resourcePreEvent?.metadata.op === "create-replacement" && e.resourcePreEvent.metadata.urn.endsWith(`::${name}`),
  );
  return step?.resourcePreEvent?.metadata.new?.inputs;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 10 });
  const catalog = await discoverCatalog(emulator.url);
  stack = await TestStack.create({
    programDir: PROGRAM,
    config: { ...providerConfig(emulator.url, catalog.zoneUuid), vpcOfferingUuid: catalog.vpcOfferingUuid },
  });
});

afterAll(async () => {
  await stack?.dispose();
  await emulator?.stop();
});

test("dynamic mode: the CLI warns of an enforced pattern, the program says why and what to do, the names are ours", async () => {
  await stack.setConfig("restcloud:mode", "dynamic");
  await setAutonaming({ pattern: "${name}-x${hex(2)}", enforce: true, providers: { restcloud: { mode: "disabled" } } });
  const { events } = await withEvents((onEvent) => stack.preview({ onEvent }));
  expect(namesOf(events)).toEqual({
    web: expect.stringMatching(/^web-[0-9a-f]{7}$/),
    fw: expect.stringMatching(/^fw-[0-9a-f]{7}$/),
  });
  const warnings = warningsOf(events);
  for (const type of ["Vpc::web", "SecurityGroup::fw"])
    expect(warnings).toContain(
      `urn:pulumi:${stack.stack.name}::${PROJECT}::pulumi-nodejs:dynamic/restcloud:${type} resource has a custom ` +
        "autonaming setting but the provider does not support autonaming configuration, consider upgrading to a newer version",
    );
  expect(warnings.filter((w) => w.startsWith("restcloud: the stack sets pulumi:autonaming"))).toEqual([
    expect.stringContaining("use the native mode (pulumi config set restcloud:mode native), or name each resource"),
  ]);
});

test("native mode: an enforced pattern for the provider, the default for one type", async () => {
  await stack.setConfig("restcloud:mode", NATIVE_MODE["restcloud:mode"]);
  await setAutonaming({
    providers: {
      restcloud: {
        pattern: "${stack}-${name}-${hex(4)}",
        enforce: true,
        resources: { [SECURITY_GROUP]: { mode: "default" } },
      },
    },
  });
  const { events } = await withEvents((onEvent) => stack.preview({ onEvent }));
  expect(namesOf(events)).toEqual({
    web: expect.stringMatching(new RegExp(`^${stack.stack.name}-web-[0-9a-f]{4}$`)),
    fw: expect.stringMatching(/^fw-[0-9a-f]{7}$/),
  });
  expect(warningsOf(events)).toEqual([]);
});

test("disabled: the preview fails naming the VPC's name; `up` passes once the program names it (the group verbatim)", async () => {
  await setAutonaming({
    providers: { restcloud: { mode: "disabled", resources: { [SECURITY_GROUP]: { mode: "verbatim" } } } },
  });
  const failed = await stack.preview().then(
    () => "the preview passed",
    (error: unknown) => String(error),
  );
  expect(failed).toContain(
    "error: restcloud:index:Vpc resource 'web': property name value {<nil>} has a problem: is required: " +
      "the stack's autonaming is disabled (pulumi:autonaming), so the program must give it",
  );

  await stack.setConfig("vpcName", "given");
  const { changes } = await stack.up();
  expect(changes).toEqual({ create: 3 });
  const records = await accountResources(emulator.url);
  expect(Object.values(records.vpc ?? {}).map((r) => r.name)).toEqual(["given"]);
  expect(Object.values(records.securitygroup ?? {}).map((r) => r.name)).toEqual(["fw"]);
});

test("a pattern with no random part: names given before are kept; a replacement takes the pattern's, deleting first", async () => {
  await setAutonaming({ pattern: "${project}-${name}" });
  await stack.stack.removeConfig("vpcName");
  await stack.setConfig("vpcCidr", "10.31.0.0/16");
  const { events, operations } = await withEvents((onEvent) => stack.preview({ onEvent }));
  expect(operations).toEqual({ web: "replace", fw: "same" });
  const steps = events.steps();
  expect(steps.fw!.newInputs.name).toBe("fw");
  expect(steps.web!.ops).toEqual(["delete-replaced", "replace", "create-replacement"]);
  expect(replacementInputs(events, "web")?.name).toBe(`${PROJECT}-web`);
});
