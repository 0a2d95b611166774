/**
 * schema.json, docs/, the SDKs of sdk/ and the README's update/replace tables are generated from the registries:
 * these tests fail when any of them is stale, and check the generated content against the
 * declarations themselves (descriptions everywhere, secrets, replacements, examples that validate).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { FUNCTIONS } from "../../../provider/functions/registry";
import { PROVIDER_SETTINGS, resolveProviderConfig, settingDescription } from "../../../provider/settings";
import { currentModel, generatedFiles, repoRoot } from "../../../provider/schema/generate";
import { PROVIDER_CONFIG } from "../../../provider/schema/model";
import { packageSchema } from "../../../provider/schema/package-schema";
import { README_BEGIN, README_END, SETTINGS_BEGIN, SETTINGS_END } from "../../../provider/schema/markdown";
import { sdkFilesOnDisk, SDK_DIRS } from "../../../provider/schema/sdks";
import { pythonName } from "../../../provider/schema/examples";
import { PLUGIN_DOWNLOAD_URL } from "../../../provider/plugin-release";

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
  config: { variables: Record<string, SettingSpec>; defaults: string[] };
  provider: { description: string; inputProperties: Record<string, SettingSpec>; requiredInputs?: string[] };
};
interface SettingSpec {
  type: string;
  additionalProperties?: { type: string };
  description: string;
  secret?: boolean;
  default?: unknown;
  defaultInfo?: { environment: string[] };
}

/** A setting's type in schema.json: a duration is a string, tags a map of strings. */
const schemaType = (type: string) => (type === "duration" ? "string" : type === "tags" ? "object" : type);

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

  test.each(SDK_DIRS.map((dir) => [dir]))("%s: every file current, none orphaned", (dir) => {
    const generated = [...files.keys()].filter((f) => f.startsWith(`${dir}/`));
    const present = sdkFilesOnDisk(path.join(root, dir)).map((f) => `${dir}/${f}`);
    const stale = generated.filter((f) => onDisk(f) !== files.get(f));
    const orphaned = present.filter((f) => !files.has(f));
    expect(generated.length).toBeGreaterThan(50);
    expect({ stale, orphaned, hint: STALE }).toEqual({ stale: [], orphaned: [], hint: STALE });
  });

  test("the SDKs carry the package's version, the plugin's download URL and the Pulumi SDK they are built against", () => {
    const pyproject = files.get("sdk/python/pyproject.toml")!;
    expect(pyproject).toContain(`version = "${model.version}"`);
    expect(pyproject).toContain(`"pulumi>=${model.pulumiSdkVersion},<4.0.0"`);
    const manifest = { resource: true, name: "restcloud", version: model.version, server: PLUGIN_DOWNLOAD_URL };
    // Python's, and Go's where the Go host reads it (the module's root) and beside the package.
    for (const file of [
      "sdk/python/pulumi_restcloud/pulumi-plugin.json",
      "sdk/go/pulumi-plugin.json",
      "sdk/go/restcloud/pulumi-plugin.json",
    ])
      expect([file, JSON.parse(files.get(file)!)]).toEqual([file, manifest]);
    expect(files.get("sdk/go/go.mod")).toContain(`require github.com/pulumi/pulumi/sdk/v3 v${model.pulumiSdkVersion}`);
    const goDefaults = files.get("sdk/go/restcloud/internal/pulumiUtilities.go")!;
    expect(goDefaults).toContain(`semver.MustParse("${model.version}")`);
    expect(goDefaults).toContain(`pulumi.PluginDownloadURL("${PLUGIN_DOWNLOAD_URL}")`);
    expect(files.get("sdk/yaml/restcloud.yaml")).toContain(
      `name: restcloud\nversion: ${model.version}\ndownloadUrl: ${PLUGIN_DOWNLOAD_URL}\n`,
    );
  });

  test.each([
    ...model.resources.map((r) => [r.type, r.type, `New${r.type}`] as const),
    ...model.functions.map(
      (f) => [f.name, pythonName(f.name), f.name.charAt(0).toUpperCase() + f.name.slice(1)] as const,
    ),
  ])("%s: each SDK's doc comments carry its own language's example, and only that", (name, python, go) => {
    const py = files.get(`sdk/python/pulumi_restcloud/${pythonName(name)}.py`)!;
    const golang = files.get(`sdk/go/restcloud/${name.charAt(0).toLowerCase()}${name.slice(1)}.go`)!;
    expect(py).toContain("## Example Usage");
    expect(py).toContain("```python");
    expect(py).toContain(`restcloud.${python}(`);
    expect(golang).toContain("// ## Example Usage");
    expect(golang).toContain(`restcloud.${go}(ctx`);
    for (const text of [py, golang]) expect(text).not.toMatch(/\{\{% |```(typescript|yaml)/);
    expect(py).not.toContain("```go");
    expect(golang).not.toContain("```python");
  });

  test("the README's update/replace and settings tables, and nothing else of the README", () => {
    const readme = onDisk("README.md")!;
    const generated = files.get("README.md")!;
    const cut = (text: string, begin: string, end: string) =>
      text.slice(0, text.indexOf(begin)) + text.slice(text.indexOf(end));
    const outside = (text: string) => cut(cut(text, README_BEGIN, README_END), SETTINGS_BEGIN, SETTINGS_END);
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

  test("is the settings table of provider/settings.ts, row for row", () => {
    expect(PROVIDER_CONFIG).toEqual(
      PROVIDER_SETTINGS.map((s) => ({
        name: s.key,
        type: schemaType(s.type),
        description: settingDescription(s),
        secret: s.secret,
        required: s.required,
        environment: s.env,
        ...(s.default === undefined ? {} : { default: s.default }),
      })),
    );
  });

  test("no RESTCLOUD_* variable under provider/ is missing from the table (settings are read through it)", () => {
    const sources = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const full = path.join(dir, e.name);
        return e.isDirectory() ? sources(full) : e.name.endsWith(".ts") ? [full] : [];
      });
    const named = new Set(
      sources(path.join(root, "provider")).flatMap((f) => fs.readFileSync(f, "utf8").match(/RESTCLOUD_[A-Z_]+/g) ?? []),
    );
    // Not a provider setting: the program's choice of front end (provider/program/mode.ts), never read by a provider.
    const PROGRAM_ONLY = ["RESTCLOUD_MODE"];
    const known = new Set([...PROVIDER_SETTINGS.map((s) => s.env), ...PROGRAM_ONLY]);
    expect([...named].filter((name) => !known.has(name))).toEqual([]);
  });

  test.each(PROVIDER_CONFIG.map((c) => [c.name, c] as const))(
    "%s: the provider reads it from restcloud:%s and from its environment variable",
    (name, c) => {
      const sample =
        c.type === "integer"
          ? "5"
          : c.type === "boolean"
            ? "false"
            : c.type === "object"
              ? '{"a":"b"}'
              : "sample-value";
      const expected =
        c.type === "integer" ? 5 : c.type === "boolean" ? false : c.type === "object" ? { a: "b" } : sample;
      for (const s of PROVIDER_CONFIG) delete process.env[s.environment];
      const fromConfig = resolveProviderConfig({ get: (key) => (key === `restcloud:${name}` ? sample : undefined) });
      expect((fromConfig as unknown as Record<string, unknown>)[name]).toEqual(expected);
      process.env[c.environment] = sample;
      const fromEnvironment = resolveProviderConfig({ get: () => undefined });
      expect((fromEnvironment as unknown as Record<string, unknown>)[name]).toEqual(expected);
      const variable = schema.config.variables[name];
      // A map names no variable in schema.json (the SDKs would take its JSON text for the map): the plugin reads it.
      expect(variable.defaultInfo?.environment).toEqual(c.type === "object" ? undefined : [c.environment]);
      expect(Boolean(variable.secret)).toBe(c.secret);
    },
  );

  test("the API keys are secrets", () => {
    expect(schema.config.variables.apiKey.secret).toBe(true);
    expect(schema.config.variables.secretKey.secret).toBe(true);
  });
});

describe("the provider resource in schema.json (restcloud.Provider)", () => {
  test("one typed input per setting, in the table's order", () => {
    expect(Object.keys(schema.provider.inputProperties)).toEqual(PROVIDER_SETTINGS.map((s) => s.key));
    expect(schema.provider.description).not.toEqual("");
  });

  test.each(PROVIDER_SETTINGS.map((s) => [s.key, s] as const))(
    "%s: type, description, default, environment variable and secrecy from the table",
    (key, s) => {
      const input = schema.provider.inputProperties[key];
      expect(input.type).toBe(schemaType(s.type));
      if (s.type === "tags") expect(input.additionalProperties).toEqual({ type: "string" });
      expect(input.description).toBe(settingDescription(s));
      expect(input.default).toEqual(s.default);
      expect(input.defaultInfo?.environment).toEqual(s.type === "tags" ? undefined : [s.env]);
      expect(Boolean(input.secret)).toBe(s.secret);
      // The stack config's variable says the same.
      expect(schema.config.variables[key]).toEqual(input);
    },
  );

  test("the API keys are secret inputs; none is a required input (each falls back to its variable)", () => {
    expect(
      Object.keys(schema.provider.inputProperties).filter((k) => schema.provider.inputProperties[k].secret),
    ).toEqual(["apiKey", "secretKey"]);
    expect(schema.provider.requiredInputs).toBeUndefined();
  });

  test("schema.json on disk has the provider section", () => {
    const onDiskSchema = JSON.parse(onDisk("schema.json")!) as typeof schema;
    expect(onDiskSchema.provider).toEqual(schema.provider);
  });
});
