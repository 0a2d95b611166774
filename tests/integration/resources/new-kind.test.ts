/**
 * Adding a kind is one file under provider/resources plus `npm run generate`: a throw-away kind
 * (throw-away-kind.ts) is written into a copy of the package, the registry and the classes are
 * generated, and discover, cost, tags, schema.json and the exported classes all find it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as ts from "typescript";
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import { BY_TYPE } from "../../../provider/resources/registry";
import { classesModule, declaredKinds, registryModule } from "../../../provider/schema/registry-modules";
import { create, previewJson, stateBuilder } from "../cost/plans";

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, "../../..");
/** The copy: sources to generate from, and the built package (dist/) to load. */
let copy: string;
let emulator: RunningEmulator;
let client: RestCloudClient;
let zoneUuid: string;
/** The copy's package, loaded: the same modules a program and the provider processes load. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports -- loaded from the copy at run time
const load = (module: string): any => require(path.join(copy, "dist/provider", module));
let generated: { registry: string; classes: string };

function transpile(text: string, to: string): void {
  const { outputText } = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  fs.writeFileSync(to, outputText);
}

beforeAll(async () => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), "new-kind-"));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(copy, "package.json"));
  fs.cpSync(path.join(ROOT, "dist/provider"), path.join(copy, "dist/provider"), { recursive: true });
  fs.cpSync(path.join(ROOT, "provider/resources"), path.join(copy, "provider/resources"), { recursive: true });

  // The one new file.
  const kind = fs
    .readFileSync(path.join(__dirname, "throw-away-kind.ts"), "utf8")
    .replaceAll("../../../provider/", "../");
  fs.writeFileSync(path.join(copy, "provider/resources/throw-away.ts"), kind);
  transpile(kind, path.join(copy, "dist/provider/resources/throw-away.js"));

  // `npm run generate`'s part: the registry and the classes, from the copy's resource files.
  const kinds = declaredKinds(copy);
  const { throwAwayDeclaration } = load("resources/throw-away");
  generated = {
    registry: registryModule(kinds),
    classes: classesModule(kinds, new Map([...BY_TYPE, ["ThrowAway", throwAwayDeclaration]])),
  };
  transpile(generated.registry, path.join(copy, "dist/provider/resources/registry.js"));
  transpile(generated.classes, path.join(copy, "dist/provider/program/classes.js"));

  emulator = await startEmulator({ port: 0, asyncDelayMs: 0, seed: 3 });
  client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_CREDENTIALS });
  zoneUuid = (await client.costEstimate.zones())[0]!.uuid!;
});

afterAll(async () => {
  await emulator?.stop();
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

const templates = async () => client.costEstimate.templates({ zoneUuid, platform: "LINUX", distribution: "OS_ONLY" });

test("the generated registry and classes name it, and the registry holds it", () => {
  expect(generated.registry).toContain('import { throwAwayDeclaration } from "./throw-away";');
  expect(generated.registry).toContain("  ThrowAway: throwAwayDeclaration,");
  expect(generated.classes).toContain("export const ThrowAway = resourceClass(RESOURCES.ThrowAway);");
  const { BY_TYPE: copied, DECLARATIONS } = load("resources/registry");
  expect(copied.get("ThrowAway").description).toMatch(/throw-away kind/);
  expect(DECLARATIONS).toHaveLength(BY_TYPE.size + 1);
});

test("discover lists its records, with the owner tag of its tag type", async () => {
  const [template] = await templates();
  const urn = "urn:pulumi:dev::shop::restcloud:index:ThrowAway::t";
  await load("engine/ownership").claimRecord(client, {
    resourceType: "Template",
    zoneUuid,
    resourceUuid: template!.uuid!,
    urn,
  });
  const { records } = await load("discover/inventory").listAccount(client, load("resources/registry").DECLARATIONS);
  const mine = records.filter((r: { kind: string }) => r.kind === "ThrowAway");
  expect(mine.length).toBeGreaterThanOrEqual((await templates()).length);
  expect(mine.find((r: { id: string }) => r.id === template!.uuid)).toMatchObject({ zoneUuid, ownerTag: urn });
});

test("a ResourceTag on its tag type finds the record's zone through its inventory", async () => {
  const [, template] = await templates();
  const tag = await client.resourceTag.create({
    resourceType: "Template",
    resourceUuid: template!.uuid!,
    zoneUuid,
    key: "team",
    value: "platform",
  });
  const tagId = (await client.resourceTag.list({ resourceUuid: template!.uuid! })).find((t) => t.key === "team")!.uuid!;
  expect(tag).toBeDefined();
  const { readForImport } = load("engine/import");
  const resourceTag = load("resources/registry").BY_TYPE.get("ResourceTag");
  const context = (declarations: unknown) => ({
    client,
    settings: {},
    timeoutMs: 60_000,
    progress: () => undefined,
    declarations,
  });
  // Without the kind, no declaration lists templates: the tag's zone stays unknown.
  const without = await readForImport(resourceTag, context([...BY_TYPE.values()]), tagId);
  expect(without.inputs.zoneUuid).toBeUndefined();
  const withKind = await readForImport(resourceTag, context(load("resources/registry").DECLARATIONS), tagId);
  expect(withKind.inputs).toMatchObject({ resourceType: "Template", key: "team", zoneUuid });
});

test("restcloud cost prices it by its facet", async () => {
  const state = stateBuilder("native");
  const plan = load("cost/plan").readPlan(previewJson([create(state("ThrowAway", "t", { zoneUuid }))]));
  const { estimateCost } = load("cost/estimate");
  const { PriceBook } = load("pricing");
  const estimate = await estimateCost(plan, new PriceBook(client), load("resources/registry").DECLARATIONS);
  const [priced] = estimate.resources;
  expect(priced).toMatchObject({ name: "t", free: false });
  expect(priced.components.map((c: { name: string }) => c.name)).toEqual(["Throw-away"]);
  expect(priced.monthlyCost).toBeCloseTo((await client.costEstimate.ipCost({ zoneUuid })).ipCost!, 6);
});

test("schema.json and the docs hold it", () => {
  const { packageModel } = load("schema/model");
  const { schemaJson } = load("schema/package-schema");
  const { referenceDocs } = load("schema/markdown");
  const model = packageModel(load("resources/registry").DECLARATIONS, load("functions/registry").FUNCTIONS, {
    version: "0.0.0",
    description: "test",
    license: "Apache-2.0",
    npmPackage: "pulumi-restcloud",
    pulumiSdkVersion: "3.0.0",
  });
  const schema = JSON.parse(schemaJson(model));
  // Its tagType gives it `tags` too (defineResource).
  expect(Object.keys(schema.resources["restcloud:index:ThrowAway"].inputProperties).sort()).toEqual([
    "name",
    "tags",
    "zoneUuid",
  ]);
  expect([...referenceDocs(model).keys()]).toContain("resources/throw-away.md");
});

test("the package exports its class, which registers with either front end's type token", async () => {
  const registered: string[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args.type);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    "shop",
    "dev",
    false,
  );
  const { ThrowAway } = load("index");
  expect(ThrowAway.name).toBe("ThrowAway");
  new ThrowAway("dynamic-one", { zoneUuid });
  process.env.RESTCLOUD_MODE = "native";
  try {
    new ThrowAway("native-one", { zoneUuid });
  } finally {
    delete process.env.RESTCLOUD_MODE;
  }
  for (let i = 0; i < 100 && registered.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(registered.sort()).toEqual(["pulumi-nodejs:dynamic/restcloud:ThrowAway", "restcloud:index:ThrowAway"]);
});
