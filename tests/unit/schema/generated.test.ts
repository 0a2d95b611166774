/**
 * schema.json, docs/ and the README's update/replace tables are generated from the registries:
 * these tests fail when any of them is stale, and check the generated content against the
 * declarations themselves (descriptions everywhere, secrets, replacements, examples that validate).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { FUNCTIONS } from "../../../provider/functions/registry";
import { resolveProviderConfig } from "../../../provider/dynamic/config";
import { currentModel, generatedFiles, repoRoot } from "../../../provider/schema/generate";
import { PROVIDER_CONFIG } from "../../../provider/schema/model";
import { packageSchema } from "../../../provider/schema/package-schema";
import { README_BEGIN, README_END } from "../../../provider/schema/markdown";

const root = repoRoot(__dirname);
const model = currentModel(root);
const files = generatedFiles(root, model);
const onDisk = (file: string) => {
  const full = path.join(root, file);
  return fs.existsSync(full) ? fs.readFileSync(full, "utf8") : undefined;
};
const STALE = "stale: run `npm run build && node dist/provider/schema/generate.js` (npm run generate)";

type Properties = Record<string, { description?: string; secret?: boolean; replaceOnChanges?: boolean }>;
interface ResourceSpec {
  description: string;
  inputProperties: Properties;
  properties: Properties;
  requiredInputs?: string[];
  required: string[];
}
const schema = packageSchema(model) as {
  resources: Record<string, ResourceSpec>;
  functions: Record<string, { inputs?: { properties: Properties }; outputs: { properties: Properties } }>;
  config: { variables: Record<string, { secret?: boolean; defaultInfo: { environment: string[] } }> };
};

describe("generated files are current", () => {
  test("schema.json", () => {
    expect({ file: "schema.json", current: onDisk("schema.json") === files.get("schema.json") }).toEqual({
      file: "schema.json",
      current: true,
    });
  });

  test("docs/: every page current, none orphaned", () => {
    const pages = [...files.keys()].filter((f) => f.startsWith("docs/"));
    const stale = pages.filter((f) => onDisk(f) !== files.get(f));
    const orphaned = ["docs/resources", "docs/functions"].flatMap((dir) =>
      fs.existsSync(path.join(root, dir))
        ? fs
            .readdirSync(path.join(root, dir))
            .map((f) => `${dir}/${f}`)
            .filter((f) => !files.has(f))
        : [],
    );
    expect({ stale, orphaned, hint: STALE }).toEqual({ stale: [], orphaned: [], hint: STALE });
  });

  test("the README's update/replace tables, and nothing else of the README", () => {
    const readme = onDisk("README.md")!;
    const generated = files.get("README.md")!;
    const outside = (text: string) => text.slice(0, text.indexOf(README_BEGIN)) + text.slice(text.indexOf(README_END));
    expect(outside(generated)).toBe(outside(readme));
    expect({ current: readme === generated, hint: STALE }).toEqual({ current: true, hint: STALE });
  });
});

describe("schema.json against the declarations", () => {
  test("every resource and function of the registries, and nothing else", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(DECLARATIONS.map((d) => `restcloud:index:${d.type}`).sort());
    expect(Object.keys(schema.functions).sort()).toEqual(FUNCTIONS.map((f) => `restcloud:index:${f.name}`).sort());
  });

  test("every argument and output has a description", () => {
    const undescribed = [
      ...Object.entries(schema.resources).flatMap(([tok, r]) =>
        Object.entries(r.properties)
          .filter(([, p]) => !p.description)
          .map(([name]) => `${tok}.${name}`),
      ),
      ...Object.entries(schema.functions).flatMap(([tok, f]) =>
        Object.entries({ ...f.inputs?.properties, ...f.outputs.properties })
          .filter(([, p]) => !p.description)
          .map(([name]) => `${tok}.${name}`),
      ),
    ];
    expect(undescribed).toEqual([]);
  });

  test.each(DECLARATIONS.map((d) => [d.type, d] as const))(
    "%s: arguments, replacements, secrets and the always-present outputs",
    (type, d) => {
      const r = schema.resources[`restcloud:index:${type}`];
      const args = Object.keys(d.inputs.shape);
      expect(Object.keys(r.inputProperties)).toEqual(args);
      expect(Object.keys(r.properties)).toEqual([...new Set([...args, ...Object.keys(d.outputs.shape)])]);
      const replacing = Object.keys(r.inputProperties).filter((k) => r.inputProperties[k].replaceOnChanges);
      expect(replacing.sort()).toEqual([...d.replaceOn].sort());
      const secrets = [...(d.secretInputs ?? []), ...(d.secretOutputs ?? [])].sort();
      expect(Object.keys(r.properties).filter((k) => r.properties[k].secret)).toEqual(expect.arrayContaining(secrets));
      for (const key of d.secretInputs ?? []) expect(r.inputProperties[key].secret).toBe(true);
      // A required argument must be given; the auto-named, zone-defaulted and defaulted ones are always set.
      for (const key of r.requiredInputs ?? []) expect(d.inputs.shape[key].safeParse(undefined).success).toBe(false);
      const filled = [d.autoName, d.zoneDefault, ...Object.keys(d.defaults ?? {})].filter(Boolean) as string[];
      expect(r.required).toEqual(expect.arrayContaining([...(r.requiredInputs ?? []), ...filled]));
    },
  );

  test.each(model.resources.map((r) => [r.type, r] as const))("%s: the docs example validates", (type, r) => {
    const d = DECLARATIONS.find((x) => x.type === type)!;
    const zoned = d.zoneDefault ? { [d.zoneDefault]: "zone-1" } : {};
    const result = d.inputs.safeParse({ ...zoned, ...r.exampleArguments });
    expect(result.error?.issues ?? []).toEqual([]);
  });

  test.each(model.functions.map((f) => [f.name, f] as const))("%s: the docs example validates", (name, f) => {
    const d = FUNCTIONS.find((x) => x.name === name)!;
    const zoned = d.zoneDefault ? { [d.zoneDefault]: "zone-1" } : {};
    const result = d.inputs.safeParse({ ...zoned, ...f.exampleArguments });
    expect(result.error?.issues ?? []).toEqual([]);
  });
});

describe("the provider configuration in schema.json", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test("covers every RESTCLOUD_* variable provider/dynamic/config.ts reads", () => {
    const source = fs.readFileSync(path.join(root, "provider", "dynamic", "config.ts"), "utf8");
    const read = [...new Set(source.match(/RESTCLOUD_[A-Z_]+/g))].sort();
    expect(PROVIDER_CONFIG.map((c) => c.environment).sort()).toEqual(read);
  });

  test.each(PROVIDER_CONFIG.map((c) => [c.name, c] as const))(
    "%s: the provider reads it from restcloud:%s and from its environment variable",
    (name, c) => {
      const sample = c.type === "integer" ? "5" : c.type === "boolean" ? "false" : "sample-value";
      const expected = c.type === "integer" ? 5 : c.type === "boolean" ? false : sample;
      for (const s of PROVIDER_CONFIG) delete process.env[s.environment];
      const fromConfig = resolveProviderConfig({ get: (key) => (key === `restcloud:${name}` ? sample : undefined) });
      expect((fromConfig as unknown as Record<string, unknown>)[name]).toEqual(expected);
      process.env[c.environment] = sample;
      const fromEnvironment = resolveProviderConfig({ get: () => undefined });
      expect((fromEnvironment as unknown as Record<string, unknown>)[name]).toEqual(expected);
      const variable = schema.config.variables[name];
      expect(variable.defaultInfo.environment).toEqual([c.environment]);
      expect(Boolean(variable.secret)).toBe(c.secret);
    },
  );

  test("the API keys are secrets", () => {
    expect(schema.config.variables.apiKey.secret).toBe(true);
    expect(schema.config.variables.secretKey.secret).toBe(true);
  });
});
