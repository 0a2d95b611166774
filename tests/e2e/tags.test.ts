/**
 * `tags` and the provider's `restcloud:defaultTags` with the real Pulumi CLI against the emulator: one
 * VPC (native/programs/tagged) in one native-mode stack, through the steps a team takes:
 *
 * 1. up with the VPC's own `tags` and `pulumi config set --path restcloud:defaultTags.team payments`:
 *    the record carries both, beside the owner tag, which `tags` in the state leaves out;
 * 2. a default tag changed: the up updates the VPC's `tags` in place and the default provider in place,
 *    replacing neither;
 * 3. a tag deleted outside Pulumi: `pulumi refresh` sees it gone, the next up puts it back;
 * 4. `pulumi import` of a record tagged by hand: the state's `tags` are its tags, the owner's aside.
 *
 * Then the dynamic mode's path of the setting (the stack config the adapter reads), once: an up
 * there tags the VPC with the default too (side by side with the native stack, on an emulator of
 * its own). The behaviours themselves are the engine's, tested per
 * case in tests/integration/engine/tags.test.ts.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { RestCloudClient } from "../../provider/client";
import { DEMO_KEYS, discoverCatalog, providerConfig, type CatalogIds } from "./catalog-ids";
import { TestStack } from "./harness";
import { Events, NATIVE_MODE, NATIVE_PROGRAMS } from "./native/native-helpers";
import { stateResources } from "./reliability/helpers";

jest.setTimeout(300_000);

const PROGRAM = path.join(NATIVE_PROGRAMS, "tagged");
const OWNER = "pulumi-owner";

let emulator: RunningEmulator;
let catalog: CatalogIds;
let client: RestCloudClient;
const times: string[] = [];

/** Runs a step and notes its time (printed at the end). */
async function timed<T>(what: string, step: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await step();
  } finally {
    times.push(`${what}: ${((Date.now() - started) / 1000).toFixed(1)}s`);
  }
}

/** A record's tags, key to value (the owner tag's value shortened to its presence). */
async function tagsOn(resourceUuid: string, on: RestCloudClient = client): Promise<Record<string, string>> {
  const tags = await on.resourceTag.list({ resourceUuid });
  return Object.fromEntries(tags.map((t) => [t.key!, t.key === OWNER ? "(urn)" : t.value!]));
}

/** The program's config: the VPC's offering and its own tags. */
const vpcConfig = (tags: Record<string, string>) => ({
  vpcOfferingUuid: catalog.vpcOfferingUuid,
  tags: JSON.stringify(tags),
});

/** The steps of an operation per type (the default provider's `pulumi:providers:restcloud` among them). */
function stepsByType(events: Events): Record<string, string[]> {
  const steps: Record<string, string[]> = {};
  for (const event of events.all) {
    const metadata = event.resourcePreEvent?.metadata;
    if (metadata && metadata.type !== "pulumi:pulumi:Stack") (steps[metadata.type] ??= []).push(metadata.op);
  }
  return steps;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 5 });
  catalog = await discoverCatalog(emulator.url);
  client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS });
});
afterAll(async () => {
  console.log(`tags e2e, step times:\n  ${times.join("\n  ")}`);
  await emulator?.stop();
});

// The two cases run side by side, the dynamic one on an emulator of its own (the native one ends on an empty account).
test.concurrent(
  "native: tags and defaultTags through up, a default's change in place, refresh of a tag deleted outside, import",
  async () => {
    const stack = await TestStack.create({
      programDir: PROGRAM,
      stackName: "tags-native",
      config: { ...providerConfig(emulator.url, catalog.zoneUuid), ...NATIVE_MODE, ...vpcConfig({ app: "web" }) },
    });
    try {
      // 1. The VPC's own tag and the default, as a team sets it: an object in the stack's config.
      await stack.cliOk(["config", "set", "--path", "restcloud:defaultTags.team", "payments"]);
      const created = await timed("up", () => stack.up());
      expect(created.changes).toEqual({ create: 2 });
      const [vpc] = await stateResources(stack);
      expect(vpc!.inputs.tags).toEqual({ app: "web", team: "payments" });
      expect(await tagsOn(vpc!.id)).toEqual({ app: "web", team: "payments", [OWNER]: "(urn)" });

      // 2. A default changed: an update of `tags` in place; nothing replaced, the provider neither.
      await stack.cliOk(["config", "set", "--path", "restcloud:defaultTags.team", "checkout"]);
      const events = new Events();
      const updated = await timed("up (default changed)", () => stack.up({ onEvent: events.onEvent }));
      expect(updated.operations).toEqual({ one: "update" });
      const steps = stepsByType(events);
      expect(steps["pulumi:providers:restcloud"]).toEqual(["update"]);
      expect(steps["restcloud:index:Vpc"]).toEqual(["update"]);
      expect(events.steps().one!.detailedDiff).toEqual({ tags: "update" });
      expect(updated.stdout).toMatch(/restcloud:index:Vpc +one +updated .*\[diff: ~tags\]/);
      expect((await stateResources(stack))[0]!.id).toBe(vpc!.id);
      expect(await tagsOn(vpc!.id)).toEqual({ app: "web", team: "checkout", [OWNER]: "(urn)" });

      // 3. A tag deleted outside Pulumi: refresh shows it, the next up puts it back.
      const app = (await client.resourceTag.list({ resourceUuid: vpc!.id })).find((t) => t.key === "app")!;
      await client.resourceTag.delete({ uuid: app.uuid });
      const refreshed = await timed("refresh", () => stack.refresh());
      expect(refreshed.changes).toMatchObject({ update: 1 });
      expect((await stateResources(stack))[0]!.inputs.tags).toEqual({ team: "checkout" });
      const restored = await timed("up (restores the tag)", () => stack.up());
      expect(restored.operations).toEqual({ one: "update" });
      expect(await tagsOn(vpc!.id)).toEqual({ app: "web", team: "checkout", [OWNER]: "(urn)" });

      // 4. Import a record tagged by hand: its tags become the state's `tags`; no change to the record.
      const byHand = await client.vpc.create({
        name: "by-hand",
        zoneUuid: catalog.zoneUuid,
        getcIDR: "10.31.0.0/16",
        vpcOfferingUuid: catalog.vpcOfferingUuid,
      });
      for (const [key, value] of [
        ["app", "legacy"],
        ["team", "checkout"],
      ])
        await client.resourceTag.create({
          resourceType: "Vpc",
          zoneUuid: catalog.zoneUuid,
          resourceUuid: byHand.uuid,
          key,
          value,
        });
      await timed("import", () =>
        stack.cliOk([
          "import",
          "restcloud:index:Vpc",
          "legacy",
          byHand.uuid,
          "--generate-code=false",
          "--protect=false",
          "--yes",
        ]),
      );
      const imported = (await stateResources(stack)).find((r) => r.id === byHand.uuid)!;
      expect(imported.inputs.tags).toEqual({ app: "legacy", team: "checkout" });
      expect(await tagsOn(byHand.uuid)).toEqual({ app: "legacy", team: "checkout" });

      await timed("destroy", () => stack.destroy());
      expect(await client.vpc.list({ zoneUuid: catalog.zoneUuid })).toEqual([]);
    } finally {
      await stack.dispose();
    }
  },
);

test.concurrent("dynamic: restcloud:defaultTags from the stack config reaches the adapter", async () => {
  const own = await startEmulator({ port: 0, asyncDelayMs: 5 });
  const stack = await TestStack.create({
    programDir: PROGRAM,
    stackName: "tags-dynamic",
    config: {
      ...providerConfig(own.url, catalog.zoneUuid),
      ...vpcConfig({ app: "api" }),
    },
  });
  try {
    await stack.cliOk(["config", "set", "--path", "restcloud:defaultTags.team", "payments"]);
    await timed("dynamic up", () => stack.up());
    const [vpc] = await stateResources(stack);
    expect(await tagsOn(vpc!.id, new RestCloudClient({ apiUrl: own.url, ...DEMO_KEYS }))).toEqual({
      app: "api",
      team: "payments",
      [OWNER]: "(urn)",
    });
    // Not destroyed: the emulator, and the VPC with it, ends with the test.
  } finally {
    await stack.dispose();
    await own.stop();
  }
});
