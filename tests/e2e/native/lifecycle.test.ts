/**
 * The native mode (`restcloud:mode native`: the pulumi-resource-restcloud plugin, type tokens
 * `restcloud:index:*`) through the lives of three stacks, with the real Pulumi CLI against the
 * emulator; each its own emulator, run side by side.
 *
 * One stack of programs/small (a VPC, a tier, an instance, a volume), step by step:
 * - `pulumi preview --save-plan`, then `pulumi up --plan`: the auto-names the preview shows are the
 *   names created (the plugin's Check draws them from the engine's random seed, which the plan
 *   carries; this CLI needs no PULUMI_EXPERIMENTAL for it);
 * - the state: only `restcloud:*` settings in the default provider's inputs, the keys as ciphertext;
 * - a preview with no change; an update in place with its detailed diff, while `ignoreChanges`
 *   makes a changed description no change; `replaceOnChanges` makes that change a replace; a CIDR
 *   change replaces the VPC and what lies in it; refresh finds nothing; destroy empties the account.
 *
 * Two explicit `restcloud.Provider`s in one program, on the emulator's two accounts: each VPC in its
 * account, functions through each provider, no change after, destroy empties both. Without a plan
 * the preview and the up each draw their own seed (the engine draws one per run), so the names a
 * plan-less preview shows are not those created (in the dynamic mode no seed reaches the provider
 * at all: each check draws at random).
 *
 * A stack of programs/small deployed in the dynamic mode, then switched to `restcloud:mode native`:
 * the next up changes nothing, in the engine's summary and at the service (no mutating request;
 * at the time of writing no request at all); destroy then empties the account.
 */
import * as path from "node:path";
import { startEmulator } from "../../../emulator";
import { RestCloudClient } from "../../../provider/client";
import { PROVIDER_SETTING_KEYS } from "../../../provider/settings";
import { DEMO_KEYS, discoverCatalog, type CatalogIds } from "../catalog-ids";
import {
  DYNAMIC_PREFIX,
  EMPTY_ACCOUNT,
  NATIVE_PREFIX,
  accountResources,
  auditAccount,
  callApi,
  catalogConfig,
  emulatorStats,
  resetStats,
  stateOf,
} from "../reliability/helpers";
import {
  NATIVE_MODE,
  SMALL_PROGRAM,
  TWO_ACCOUNTS_PROGRAM,
  checkpointOf,
  onOwnEmulator,
  withEvents,
} from "./native-helpers";

jest.setTimeout(150_000);

/** The account's keys in the first stack: values no state could hold by chance. */
const KEYS = { apiKey: "native-ak-5f0c9e21-leak-check", secretKey: "native-sk-a83d7b64-leak-check" };
/** A project config value: the default provider must not take it in. */
const PROJECT_VALUE = "project-value-2c7e91d4";
const PROJECT = "restcloud-e2e-native-small";
/** How Pulumi marks a secret in state: the signature key and its value (then `ciphertext`). */
const [SECRET_SIG, SECRET_VALUE] = ["4dabf18193072939515e22adb298388d", "1b47061264138c4ac30d75fd1eb44270"];
/** The admin account's keys (the emulator's second account). */
const ADMIN_KEYS = { apiKey: "admin-e2e-api-key", secretKey: "admin-e2e-secret-key" };

/** The program's resources: logical name and type. */
/** The default provider's name: Pulumi's, for the plugin's version and download URL (plugin-release.ts). */
const DEFAULT_PROVIDER_NAME = /^default_\d+_\d+_\d+_github_\/api\.github\.com\/restcloud$/;
const RESOURCES = { net: "Vpc", tier: "VpcTier", vm: "Instance", data: "Volume" } as const;

/** Runs one step of a scenario; a failure names the step. */
async function step(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Error) error.message = `step "${name}":\n${error.message}`;
    throw error;
  }
}

/** The VPCs of an account, as its own keys list them through the REST API. */
async function vpcsListedWith(apiUrl: string, zoneUuid: string, keys: { apiKey: string; secretKey: string }) {
  const response = await callApi(apiUrl, "GET", `/restapi/vpc/vpcList?zoneUuid=${zoneUuid}`, keys);
  expect(response.status).toBe(200);
  const body = JSON.parse(response.body) as { listVpcResponse: { uuid: string; name: string }[] };
  return body.listVpcResponse.map((vpc) => ({ uuid: vpc.uuid, name: vpc.name }));
}

let catalog: CatalogIds;

beforeAll(async () => {
  // The catalog is the same in every emulator: discover it on one with the default keys.
  const scout = await startEmulator({ port: 0 });
  catalog = await discoverCatalog(scout.url);
  await scout.stop();
});

describe("the native mode's lifecycle", () => {
  test.concurrent(
    "one stack: preview --save-plan and up --plan with the same names, the state, no change, update, ignoreChanges, replaceOnChanges, a replace, refresh, destroy",
    () =>
      onOwnEmulator(
        { asyncDelayMs: 50, accounts: { demo: KEYS } },
        (apiUrl) => ({
          programDir: SMALL_PROGRAM,
          stackName: "native-lifecycle",
          config: {
            ...catalogConfig(apiUrl, catalog),
            ...NATIVE_MODE,
            "restcloud:apiKey": { value: KEYS.apiKey, secret: true },
            "restcloud:secretKey": { value: KEYS.secretKey, secret: true },
            [`${PROJECT}:owner`]: PROJECT_VALUE,
          },
        }),
        async (emulator, stack) => {
          const preview = (options: { expectNoChanges?: boolean; plan?: string } = {}) =>
            withEvents((onEvent) => stack.preview({ ...options, onEvent }));
          const up = (options: { plan?: string } = {}) =>
            withEvents((onEvent) => stack.up({ diff: true, ...options, onEvent }));
          /** The auto-names of the created resources, by logical name. */
          const names: Record<string, string> = {};
          await step(
            "preview --save-plan, then up --plan: the names the preview showed are the names created",
            async () => {
              const planFile = path.join(stack.tempDir, "plan.json");
              const planned = await preview({ plan: planFile });
              expect(planned.changes).toEqual({ create: 5 }); // the stack and the four resources
              const plannedSteps = planned.events.steps();
              for (const [name, kind] of Object.entries(RESOURCES)) {
                expect(plannedSteps[name]).toMatchObject({ type: `${NATIVE_PREFIX}${kind}`, ops: ["create"] });
                expect(plannedSteps[name]!.newInputs.name).toMatch(new RegExp(`^${name}-[0-9a-f]{7}$`));
                names[name] = plannedSteps[name]!.newInputs.name as string;
              }

              const created = await up({ plan: planFile });
              expect(created.changes).toEqual({ create: 5 });
              const { resources } = await stateOf(stack);
              const ours = resources.filter((r) => r.kind !== undefined);
              // In state: the native type tokens, the names the preview showed.
              expect(Object.fromEntries(ours.map((r) => [r.name, [r.type, r.inputs.name]]))).toEqual(
                Object.fromEntries(
                  Object.entries(RESOURCES).map(([name, kind]) => [name, [`${NATIVE_PREFIX}${kind}`, names[name]]]),
                ),
              );
              expect(resources.filter((r) => r.type.startsWith("pulumi-nodejs:"))).toEqual([]);
              // In the account: one record per resource, by those names.
              const account = await accountResources(emulator.url);
              const byId = (collection: string, name: string) =>
                account[collection]?.[ours.find((r) => r.name === name)!.id!];
              expect(byId("vpc", "net")).toMatchObject({ name: names.net, getcIDR: "10.20.0.0/16" });
              expect(byId("network", "tier")).toMatchObject({ name: names.tier });
              expect(byId("instance", "vm")).toMatchObject({ name: names.vm, state: "Running" });
              expect(byId("volume", "data")).toMatchObject({ name: names.data });
              expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 4 });
            },
          );

          await step(
            "the state: only restcloud settings in the default provider's inputs, the keys as ciphertext",
            async () => {
              const { text, resources } = checkpointOf(stack);
              const providers = resources.filter((r) => r.type === "pulumi:providers:restcloud");
              // The default provider of the plugin's version and download URL (the registrations name both).
              expect(providers.map((p) => p.name)).toEqual([expect.stringMatching(DEFAULT_PROVIDER_NAME)]);
              const inputs = providers[0]!.inputs;
              // `mode` is restcloud:mode; `version` and `__internal` (the download URL) the engine's own.
              // No key of another namespace.
              expect(
                Object.keys(inputs).filter(
                  (key) => ![...PROVIDER_SETTING_KEYS, "mode", "version", "__internal"].includes(key),
                ),
              ).toEqual([]);
              expect(inputs.__internal).toEqual({ pluginDownloadURL: "github://api.github.com/restcloud" });
              expect(inputs).toMatchObject({ apiUrl: emulator.url, zoneUuid: catalog.zoneUuid, mode: "native" });
              for (const key of ["apiKey", "secretKey"]) {
                expect(inputs[key]).toEqual({ [SECRET_SIG]: SECRET_VALUE, ciphertext: expect.any(String) });
                expect(providers[0]!.outputs[key]).toEqual({
                  [SECRET_SIG]: SECRET_VALUE,
                  ciphertext: expect.any(String),
                });
              }
              // Nowhere in the state file in plain text; nor the project's own config value.
              expect(text).not.toContain(KEYS.apiKey);
              expect(text).not.toContain(KEYS.secretKey);
              expect(text).not.toContain(PROJECT_VALUE);
              expect(text).toContain(emulator.url); // (the reading is real)
            },
          );

          await step("a preview after the up finds no change: the engine's summary is all `same`", async () => {
            const unchanged = await preview({ expectNoChanges: true });
            expect(unchanged.changes).toEqual({ same: 5 });
            expect(Object.values(unchanged.operations)).toEqual(["same", "same", "same", "same"]);
          });

          await step(
            "an update in place (the volume's size) with its detailed diff; ignoreChanges makes a changed description no change",
            async () => {
              await stack.setConfig("volumeSize", "30");
              await stack.setConfig("description", "a new description");
              await stack.setConfig("vpcOption", "ignoreChanges");
              const updated = await up();
              expect(updated.changes).toEqual({ same: 4, update: 1 });
              expect(updated.operations).toEqual({ net: "same", tier: "same", vm: "same", data: "update" });
              expect(updated.events.steps().data!.detailedDiff).toEqual({ size: "update" });
              expect(updated.stdout).toMatch(/~ restcloud:index:Volume: \(update\)[\s\S]*~ size: 20 => 30/);
              const account = await accountResources(emulator.url);
              const { resources } = await stateOf(stack);
              const idOf = (name: string) => resources.find((r) => r.name === name)!.id!;
              expect(account.volume![idOf("data")]).toMatchObject({ name: names.data, storageDiskSize: "30" });
              // The description stayed as it was, in state and in the account.
              expect(account.vpc![idOf("net")]!.description).toBe("the native mode's VPC");
              expect(resources.find((r) => r.name === "net")!.inputs.description).toBe("the native mode's VPC");
            },
          );

          await step("replaceOnChanges on the description makes its change a replace", async () => {
            await stack.setConfig("vpcOption", "replaceOnChanges");
            const replacing = await preview();
            expect(replacing.operations.net).toBe("replace");
            expect(Object.keys(replacing.events.steps().net!.detailedDiff)).toEqual(["description"]);
            expect(replacing.stdout).toMatch(
              /\+-restcloud:index:Vpc: \(replace\)[\s\S]*~ description: "the native mode's VPC" => "a new description"/,
            );
          });

          await step(
            "a CIDR change replaces the VPC and what lies in it (created first, under new names); nothing is left over",
            async () => {
              await stack.stack.removeConfig("vpcOption");
              await stack.stack.removeConfig("description");
              const before = await stateOf(stack);
              await stack.setConfig("vpcCidr", "10.30.0.0/16");
              const replaced = await up();
              expect(replaced.operations).toEqual({ net: "replace", tier: "replace", vm: "replace", data: "update" });
              expect(replaced.changes).toEqual({ same: 1, replace: 3, update: 1 });
              expect(replaced.events.steps().net!.detailedDiff).toEqual({ cidr: "update-replace" });
              expect(replaced.events.steps().data!.detailedDiff).toEqual({ instanceUuid: "update" });
              expect(replaced.stdout).toMatch(
                /\+-restcloud:index:Vpc: \(replace\)[\s\S]*~ cidr: "10\.20\.0\.0\/16" => "10\.30\.0\.0\/16"/,
              );
              const after = await stateOf(stack);
              const find = (state: typeof after, name: string) => state.resources.find((r) => r.name === name)!;
              const account = await accountResources(emulator.url);
              // Create-before-delete replacements: the engine checks each replacement afresh (no old inputs),
              // so each gets a new auto-name and never meets its predecessor's; the volume, updated, keeps its own.
              for (const [name, collection] of [
                ["net", "vpc"],
                ["tier", "network"],
                ["vm", "instance"],
              ] as const) {
                const replacement = find(after, name);
                expect(replacement.id).not.toBe(find(before, name).id);
                expect(replacement.inputs.name).toMatch(new RegExp(`^${name}-[0-9a-f]{7}$`));
                expect(replacement.inputs.name).not.toBe(names[name]);
                expect(account[collection]![replacement.id!]).toMatchObject({ name: replacement.inputs.name });
              }
              expect(account.vpc![find(after, "net").id!]).toMatchObject({ getcIDR: "10.30.0.0/16" });
              expect(find(after, "data").id).toBe(find(before, "data").id);
              expect(account.volume![find(after, "data").id!]).toMatchObject({
                name: names.data,
                vmUuid: find(after, "vm").id,
              });
              expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 4 });
            },
          );

          await step("refresh finds no change", async () => {
            const refreshed = await stack.refresh();
            expect(refreshed.changes).toEqual({ same: 5 });
          });

          await step("destroy empties the account", async () => {
            const destroyed = await stack.destroy();
            expect(destroyed.changes).toEqual({ delete: 5 });
            expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
            expect((await stateOf(stack)).resources).toEqual([]);
          });
        },
      ),
  );

  test.concurrent(
    "two explicit providers on two accounts: each VPC in its account, functions through each, no change after, destroy empties both",
    () =>
      onOwnEmulator(
        { asyncDelayMs: 50, accounts: { admin: ADMIN_KEYS } },
        (apiUrl) => ({
          programDir: TWO_ACCOUNTS_PROGRAM,
          stackName: "native-two-accounts",
          // No restcloud:* config at all: everything goes through the explicit providers.
          config: {
            apiUrl,
            zoneUuid: catalog.zoneUuid,
            vpcOfferingUuid: catalog.vpcOfferingUuid,
            demoApiKey: { value: DEMO_KEYS.apiKey, secret: true },
            demoSecretKey: { value: DEMO_KEYS.secretKey, secret: true },
            adminApiKey: { value: ADMIN_KEYS.apiKey, secret: true },
            adminSecretKey: { value: ADMIN_KEYS.secretKey, secret: true },
          },
        }),
        async (emulator, stack) => {
          // A preview without a plan, then an up without a plan.
          const previewed = await withEvents((onEvent) => stack.preview({ onEvent }));
          // The stack, two explicit providers (counted, unlike default ones) and two VPCs.
          expect(previewed.changes).toEqual({ create: 5 });
          const previewedNames = Object.fromEntries(
            Object.entries(previewed.events.steps()).map(([name, s]) => [name, s.newInputs.name]),
          );

          const up = await stack.up();
          expect(up.changes).toEqual({ create: 5 });
          const { resources } = await stateOf(stack);
          const find = (name: string) => resources.find((r) => r.name === name)!;
          const [demoVpc, adminVpc] = [find("demo-vpc"), find("admin-vpc")];
          expect([demoVpc.type, adminVpc.type]).toEqual([`${NATIVE_PREFIX}Vpc`, `${NATIVE_PREFIX}Vpc`]);
          // Each VPC is bound to its explicit provider; no default provider was made.
          const providers = resources.filter((r) => r.type === "pulumi:providers:restcloud");
          expect(providers.map((r) => r.name).sort()).toEqual(["admin", "demo"]);
          expect(demoVpc.provider).toBe(`${find("demo").urn}::${find("demo").id}`);
          expect(adminVpc.provider).toBe(`${find("admin").urn}::${find("admin").id}`);
          expect(up.outputs).toMatchObject({ demoVpcId: demoVpc.id, adminVpcId: adminVpc.id });

          // Each VPC in its own account, as each account's keys list them.
          expect(await vpcsListedWith(emulator.url, catalog.zoneUuid, DEMO_KEYS)).toEqual([
            { uuid: demoVpc.id, name: demoVpc.inputs.name },
          ]);
          expect(await vpcsListedWith(emulator.url, catalog.zoneUuid, ADMIN_KEYS)).toEqual([
            { uuid: adminVpc.id, name: adminVpc.inputs.name },
          ]);
          expect(Object.keys((await accountResources(emulator.url, "demo")).vpc ?? {})).toEqual([demoVpc.id]);
          expect(Object.keys((await accountResources(emulator.url, "admin")).vpc ?? {})).toEqual([adminVpc.id]);

          // Function calls with { provider }: the zones through the demo provider; the hosts, which
          // only an administrator may list, through the admin provider.
          const zones = await new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS }).costEstimate.zones();
          expect(new Set(up.outputs.zoneNames as string[])).toEqual(new Set(zones.map((zone) => zone.name)));
          expect((up.outputs.hostNames as string[]).length).toBeGreaterThan(0);

          // Without a plan, the preview's auto-names were drawn from another seed than the up's.
          for (const vpc of [demoVpc, adminVpc]) {
            expect(previewedNames[vpc.name]).toMatch(new RegExp(`^${vpc.name}-[0-9a-f]{7}$`));
            expect(vpc.inputs.name).toMatch(new RegExp(`^${vpc.name}-[0-9a-f]{7}$`));
            expect(vpc.inputs.name).not.toBe(previewedNames[vpc.name]);
          }

          const unchanged = await stack.preview({ expectNoChanges: true });
          expect(unchanged.changes).toEqual({ same: 5 });

          const destroyed = await stack.destroy();
          expect(destroyed.changes).toEqual({ delete: 5 });
          const inState = (name: string) => (r: { name: string }) => r.name === name;
          expect(await auditAccount(emulator.url, stack, { account: "demo", resources: inState("demo-vpc") })).toEqual(
            EMPTY_ACCOUNT,
          );
          expect(
            await auditAccount(emulator.url, stack, { account: "admin", resources: inState("admin-vpc") }),
          ).toEqual(EMPTY_ACCOUNT);
          expect(await vpcsListedWith(emulator.url, catalog.zoneUuid, DEMO_KEYS)).toEqual([]);
          expect(await vpcsListedWith(emulator.url, catalog.zoneUuid, ADMIN_KEYS)).toEqual([]);
        },
      ),
  );

  test.concurrent(
    "a stack moved from the dynamic mode: no change in the engine's summary, no mutating request; destroy empties the account",
    () =>
      onOwnEmulator(
        { asyncDelayMs: 50 },
        (apiUrl) => ({
          programDir: SMALL_PROGRAM,
          stackName: "native-migration",
          config: catalogConfig(apiUrl, catalog),
        }),
        async (emulator, stack) => {
          // The dynamic mode: no seed reaches the adapter's check, which draws each name at random,
          // so a preview's names are not those the up creates.
          const previewed = (await withEvents((onEvent) => stack.preview({ onEvent }))).events.steps();
          const dynamic = await stack.up();
          expect(dynamic.changes).toEqual({ create: 5 });
          const before = await stateOf(stack);
          for (const r of before.resources.filter((r) => r.kind)) {
            expect(previewed[r.name]!.newInputs.name).toMatch(new RegExp(`^${r.name}-[0-9a-f]{7}$`));
            expect(r.inputs.name).toMatch(new RegExp(`^${r.name}-[0-9a-f]{7}$`));
            expect(r.inputs.name).not.toBe(previewed[r.name]!.newInputs.name);
          }
          const kinds = (state: typeof before) =>
            Object.fromEntries(state.resources.filter((r) => r.kind).map((r) => [r.name, [r.type, r.id]]));
          expect(Object.fromEntries(Object.entries(kinds(before)).map(([name, [type]]) => [name, type]))).toEqual(
            Object.fromEntries(Object.entries(RESOURCES).map(([name, kind]) => [name, `${DYNAMIC_PREFIX}${kind}`])),
          );
          expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 4 });

          await resetStats(emulator.url);
          await stack.setConfig("restcloud:mode", "native");
          const moved = await stack.up();
          const stats = await emulatorStats(emulator.url);
          expect(moved.changes).toEqual({ same: 5 });
          expect(Object.values(moved.operations)).toEqual(["same", "same", "same", "same"]);
          expect(stats.mutating).toBe(0);
          console.log(
            `dynamic-to-native up: ${JSON.stringify(moved.changes)}; requests ${stats.total} ` +
              `(mutating ${stats.mutating}): ${JSON.stringify(stats.byOperation)}`,
          );

          // The same records, now under the native type tokens, served by the restcloud provider alone.
          const after = await stateOf(stack);
          expect(after.resources.filter((r) => r.type.startsWith("pulumi:providers:")).map((r) => r.urn)).toEqual([
            expect.stringMatching(new RegExp(`::pulumi:providers:restcloud::${DEFAULT_PROVIDER_NAME.source.slice(1)}`)),
          ]);
          expect(kinds(after)).toEqual(
            Object.fromEntries(
              Object.entries(kinds(before)).map(([name, [type, id]]) => [
                name,
                [type!.replace(DYNAMIC_PREFIX, NATIVE_PREFIX), id],
              ]),
            ),
          );
          expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 4 });

          const destroyed = await stack.destroy();
          expect(destroyed.changes).toEqual({ delete: 5 });
          expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
        },
      ),
  );
});
