/**
 * The forms of a dynamic resource's `__provider` and `__restcloud` that stacks hold, run as Pulumi's
 * dynamic-provider process runs them (require-from-string on the text, from the program's directory,
 * which resolves the installed package: this checkout's dist/, so `npm run build` first): the short
 * shim this version writes and the longer one earlier versions wrote, each with the meta of its
 * version (earlier ones kept the logical name beside the URN), create, refresh and delete a record of
 * the emulator. The serialized closures of the oldest versions: tests/e2e/dynamic-shim.test.ts.
 */
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import { META_KEY, PROVIDER_KEY, callOf, type ResourceMeta } from "../../../provider/dynamic/meta";
import { dynamicShim, previousDynamicShim } from "../../../provider/dynamic/shim";
import { discoverCatalog, providerConfig, type CatalogIds } from "../../e2e/catalog-ids";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFromString = require("require-from-string") as (code: string, filename: string) => unknown;

jest.setTimeout(120_000);

const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");
const urn = (name: string) => `urn:pulumi:dev::shop::pulumi-nodejs:dynamic/restcloud:Vpc::${name}`;

let emulator: RunningEmulator;
let catalog: CatalogIds;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 0 });
  catalog = await discoverCatalog(emulator.url);
});

afterAll(async () => {
  await emulator?.stop();
});

/** What the dynamic-provider process does with a resource's `__provider`: its handler's provider, configured. */
async function providerOf(shim: string): Promise<pulumi.dynamic.ResourceProvider> {
  const provider = (requireFromString(shim, path.join(REPO_ROOT, "index.js")) as { handler(): unknown }).handler();
  const settings = providerConfig(emulator.url, catalog.zoneUuid);
  const config = Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [key, typeof value === "string" ? value : value.value]),
  );
  const dynamic = provider as pulumi.dynamic.ResourceProvider;
  await dynamic.configure!({ config: { get: (key: string) => config[key] } } as never);
  return dynamic;
}

describe.each([
  ["this version's", dynamicShim("Vpc"), (name: string): ResourceMeta => ({ autoName: name, urn: urn(name) })],
  [
    "earlier versions'",
    previousDynamicShim("Vpc"),
    (name: string): ResourceMeta => ({ autoName: name, name, urn: urn(name) }),
  ],
])("%s shim and meta", (_form, shim, metaOf) => {
  test("check, create, refresh and delete a record through them", async () => {
    const provider = await providerOf(shim);
    const name = `web-${shim.length}`;
    const news = {
      cidr: "10.40.0.0/16",
      vpcOfferingUuid: catalog.vpcOfferingUuid,
      [META_KEY]: metaOf(name),
      [PROVIDER_KEY]: shim,
    };
    const checked = await provider.check!({}, news);
    expect(checked.failures ?? []).toEqual([]);
    const inputs = { ...checked.inputs, [PROVIDER_KEY]: shim };
    expect(String(inputs.name)).toMatch(new RegExp(`^${name}-[0-9a-f]{7}$`));
    expect(callOf(inputs, "create").name).toBe(name);

    const created = await provider.create(inputs);
    const outs = { ...created.outs, [PROVIDER_KEY]: shim };
    expect(outs).toMatchObject({ name: inputs.name, cidr: "10.40.0.0/16", status: expect.any(String) });
    expect(outs[META_KEY]).toEqual({ ...metaOf(name), generatedName: inputs.name });

    const read = await provider.read!(created.id, outs);
    expect(read.id).toBe(created.id);
    expect(read.props).toMatchObject({ name: inputs.name, [META_KEY]: outs[META_KEY] });

    // A second check with the state's inputs keeps the generated name: no change shows.
    const again = await provider.check!(inputs, news);
    expect(again.inputs?.name).toBe(inputs.name);
    expect((await provider.diff!(created.id, outs, { ...again.inputs, [PROVIDER_KEY]: shim })).changes).toBe(false);
    // Nor when this version's program runs on a state of either form.
    const current = {
      ...again.inputs,
      [META_KEY]: { autoName: name, urn: urn(name) },
      [PROVIDER_KEY]: dynamicShim("Vpc"),
    };
    expect((await provider.diff!(created.id, outs, current)).changes).toBe(false);

    // Gone after the delete: a refresh finds no record (no id), and drops the resource.
    await provider.delete!(created.id, outs);
    expect((await provider.read!(created.id, outs)).id).toBeUndefined();
  });
});
