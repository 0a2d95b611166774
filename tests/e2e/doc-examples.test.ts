/**
 * The Go, Python and YAML examples of the reference docs (the Go and Python ones are the blocks the
 * SDKs' doc comments carry), against the generated SDKs of sdk/ and the native plugin:
 *
 * - Go: every example a main package of one temporary module that requires sdk/go through a
 *   `replace`; one `go vet ./...` type-checks them all (one build), and gofmt finds nothing to change.
 * - Python: every example runs, with sdk/python and the pinned Pulumi SDK installed in a virtualenv
 *   (cached by the digest of sdk/python), under Pulumi's mocks: a wrong or missing argument raises.
 * - YAML: those whose values name no placeholder id (the functions', a few resources') are merged
 *   into one program (names prefixed) and previewed through pulumi-language-yaml and the native
 *   plugin against the emulator; the functions run for real. All of them are also checked against
 *   schema.json by tests/unit/schema/yaml-examples.test.ts.
 *
 * An e2e test rather than a unit one: it needs Go, Python, the Pulumi CLI and its YAML host, the Go
 * module proxy or a warm module cache, PyPI or a warm pip cache; the first build of the Pulumi Go SDK
 * takes minutes. (The TypeScript examples are type-checked by tests/unit/schema/examples.test.ts.)
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { currentModel, repoRoot } from "../../provider/schema/generate";
import { referenceDocs } from "../../provider/schema/markdown";
import type { PropertyModel } from "../../provider/schema/model";
import { filesBelow } from "../../provider/schema/sdks";
import type { ComplexTypeSpec, TypeSpec } from "../../provider/schema/types";
import { discoverCatalog, providerConfig } from "./catalog-ids";
import { TestStack } from "./harness";

// js-yaml comes with @pulumi/pulumi (a dependency of it), without its types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require("js-yaml") as { load: (text: string) => unknown; dump: (value: unknown) => string };

jest.setTimeout(30 * 60_000);

const root = repoRoot(__dirname);
const model = currentModel(root);
const docs = referenceDocs(model);

/** Every fenced block of one language in docs/, by a name made of its page (`resources_vpc`). */
function examplesIn(fence: string): { name: string; code: string }[] {
  return [...docs].flatMap(([page, text]) =>
    [...text.matchAll(new RegExp("```" + fence + "\\n([\\s\\S]*?)```", "g"))].map((m, i) => ({
      name: `${page.replace(/\.md$/, "").replace(/[/.]/g, "_")}${i > 0 ? `_${i}` : ""}`,
      code: m[1],
    })),
  );
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(command, args, {
      cwd,
      env: { ...process.env, ...env },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}${e.stderr ?? e.message}`);
  }
}

const cacheDir = (): string =>
  process.env.RESTCLOUD_PULUMI_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-restcloud");

describe("the Go examples of docs/", () => {
  const examples = examplesIn("go");

  test("one per resource and per function", () => {
    expect(examples).toHaveLength(model.resources.length + model.functions.length);
  });

  test("compile against sdk/go (go vet, one module, one package each) and are gofmt-formatted", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-go-examples-"));
    try {
      const sdkGoMod = fs.readFileSync(path.join(root, "sdk", "go", "go.mod"), "utf8");
      const sdkModule = /^module (\S+)/m.exec(sdkGoMod)![1];
      const goDirective = /^go (\S+)/m.exec(sdkGoMod)![1];
      fs.writeFileSync(
        path.join(dir, "go.mod"),
        [
          "module restcloud-doc-examples",
          "",
          `go ${goDirective}`,
          "",
          "require (",
          `\tgithub.com/pulumi/pulumi/sdk/v3 v${model.pulumiSdkVersion}`,
          `\t${sdkModule} v0.0.0`,
          ")",
          "",
          `replace ${sdkModule} => ${path.join(root, "sdk", "go")}`,
          "",
        ].join("\n"),
      );
      // tools/sdkgen requires the same Pulumi SDK: its go.sum spares most lookups; tidy does the rest.
      fs.copyFileSync(path.join(root, "tools", "sdkgen", "go.sum"), path.join(dir, "go.sum"));
      for (const { name, code } of examples) {
        fs.mkdirSync(path.join(dir, name));
        fs.writeFileSync(path.join(dir, name, "main.go"), code);
      }
      const env = { GOFLAGS: "-mod=mod -buildvcs=false", GOTOOLCHAIN: "local" };
      run("go", ["mod", "tidy"], dir, env);
      run("go", ["vet", "./..."], dir, env);
      const unformatted = run("gofmt", ["-l", "."], dir).trim();
      expect(unformatted).toBe("");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A value of a type, for the mocked functions' answers. */
function sample(spec: TypeSpec, types: ReadonlyMap<string, ComplexTypeSpec>): unknown {
  if (spec.$ref?.startsWith("#/types/")) {
    const named = types.get(spec.$ref.slice("#/types/".length));
    if (named && "enum" in named) return named.enum[0].value;
    return {};
  }
  switch (spec.type) {
    case "string":
      return "example";
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      return {};
  }
}

const PULUMI_PYTHON = (version: string) => `pulumi==${version}`;

/**
 * A virtualenv with the pinned Pulumi SDK and sdk/python, in the cache under the digest of both;
 * made in a directory of this process's own and then renamed, so concurrent runs are safe. It is
 * installed from a copy of sdk/python: pip writes build/ and egg-info beside the sources.
 */
function pythonVenv(): string {
  const sdk = path.join(root, "sdk", "python");
  const hash = crypto.createHash("sha256").update(PULUMI_PYTHON(model.pulumiSdkVersion));
  for (const file of filesBelow(sdk)) hash.update(file).update(fs.readFileSync(path.join(sdk, file)));
  const venv = path.join(cacheDir(), `doc-examples-python-${hash.digest("hex").slice(0, 16)}`);
  const python = path.join(venv, "bin", "python");
  if (fs.existsSync(path.join(venv, ".complete"))) return python;
  fs.mkdirSync(cacheDir(), { recursive: true });
  const tmp = `${venv}.${process.pid}.tmp`;
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-python-sdk-"));
  try {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.cpSync(sdk, copy, { recursive: true });
    run("python3", ["-m", "venv", tmp], root);
    const pip = [path.join(tmp, "bin", "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"];
    run(pip[0], [...pip.slice(1), PULUMI_PYTHON(model.pulumiSdkVersion), copy], root);
    fs.writeFileSync(path.join(tmp, ".complete"), "");
    try {
      fs.renameSync(tmp, venv);
    } catch {
      // Another run renamed its own first: use that one.
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    return python;
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Runs each example file given in the JSON spec under Pulumi's mocks: resources answer with their
 * inputs (and a uuid), functions with the spec's sample outputs; each example gets a fresh mocked
 * runtime and the spec's config. Prints one JSON line: the failures, by example.
 */
const RUNNER = `
import asyncio, json, runpy, sys, traceback
import pulumi
from pulumi.runtime import stack as pulumi_stack

spec = json.load(open(sys.argv[1]))

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        return [args.name + "-id", dict(args.inputs, uuid=args.name + "-uuid")]

    def call(self, args):
        return spec["invokes"].get(args.token, {})

failures = {}
ran = 0
for example in spec["examples"]:
    pulumi.runtime.set_mocks(Mocks(), project=spec["project"], stack="test", preview=False)
    for key, value in spec["config"].items():
        pulumi.runtime.set_config(spec["project"] + ":" + key, value)
    try:
        runpy.run_path(example["file"], run_name="__main__")
        asyncio.get_event_loop().run_until_complete(pulumi_stack.wait_for_rpcs())
        ran += 1
    except BaseException as error:
        failures[example["name"]] = "".join(traceback.format_exception_only(type(error), error)).strip()
print(json.dumps({"ran": ran, "failures": failures}))
`;

describe("the Python examples of docs/", () => {
  const examples = examplesIn("python");

  test("one per resource and per function", () => {
    expect(examples).toHaveLength(model.resources.length + model.functions.length);
  });

  test("run with sdk/python under Pulumi's mocks", () => {
    const python = pythonVenv();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-python-examples-"));
    try {
      const files = examples.map(({ name, code }) => {
        const file = path.join(dir, `${name.replace(/-/g, "_")}.py`);
        fs.writeFileSync(file, code);
        return { name, file };
      });
      // Every secret an example reads from config, under the argument's own name.
      const config = Object.fromEntries(
        [...model.resources, ...model.functions]
          .flatMap((x) => x.inputs as PropertyModel[])
          .filter((p) => p.secret)
          .map((p) => [p.name, `example-${p.name}`]),
      );
      const invokes = Object.fromEntries(
        model.functions.map((f) => [
          f.token,
          Object.fromEntries(f.outputs.map((o) => [o.name, sample(o.spec, model.types)])),
        ]),
      );
      fs.writeFileSync(path.join(dir, "runner.py"), RUNNER);
      fs.writeFileSync(
        path.join(dir, "spec.json"),
        JSON.stringify({ project: "doc-examples", examples: files, config, invokes }),
      );
      const out = run(python, [path.join(dir, "runner.py"), path.join(dir, "spec.json")], dir);
      const result = JSON.parse(out.trim().split("\n").pop()!) as { ran: number; failures: Record<string, string> };
      expect(result.failures).toEqual({});
      expect(result.ran).toBe(examples.length);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The emulator's built-in administrator account (emulator/control/accounts.ts). */
const ADMIN_KEYS = { apiKey: "admin-api-key", secretKey: "admin-secret-key" };

type YamlProgram = Record<string, Record<string, unknown> | undefined>;

/**
 * The YAML examples as one program: each example's config values, resources, variables and outputs
 * renamed `<example>__<name>` (its `${...}` references with them), so one preview covers them all.
 */
function mergedYamlProgram(examples: { name: string; code: string }[]): {
  program: Record<string, unknown>;
  secrets: string[];
} {
  const sections = ["configuration", "resources", "variables", "outputs"] as const;
  const merged: Record<(typeof sections)[number], Record<string, unknown>> = {
    configuration: {},
    resources: {},
    variables: {},
    outputs: {},
  };
  const secrets: string[] = [];
  for (const { name, code } of examples) {
    const prefix = name.replace(/[^A-Za-z0-9]/g, "_");
    const rename = (value: unknown): unknown =>
      typeof value === "string"
        ? value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g, `\${${prefix}__$1`)
        : Array.isArray(value)
          ? value.map(rename)
          : value && typeof value === "object"
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v)]))
            : value;
    const program = yaml.load(code) as YamlProgram;
    for (const section of sections) {
      for (const [key, value] of Object.entries(program[section] ?? {})) {
        merged[section][`${prefix}__${key}`] = rename(value);
        if (section === "configuration" && (value as { secret?: boolean }).secret) secrets.push(`${prefix}__${key}`);
      }
    }
  }
  return {
    program: {
      name: "restcloud-doc-examples",
      runtime: "yaml",
      plugins: { providers: [{ name: "restcloud", path: path.join(root, "plugin") }] },
      ...merged,
    },
    secrets,
  };
}

describe("the YAML examples of docs/", () => {
  const examples = examplesIn("yaml");
  let emulator: RunningEmulator | undefined;
  let stack: TestStack | undefined;
  let dir: string | undefined;

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  // A placeholder (`"<vpc uuid>"`) names no record: the provider's check refuses it, so those
  // examples are checked against the schema only (tests/unit/schema/yaml-examples.test.ts).
  const runnable = examples.filter(({ code }) => !/"<[^">]+>"/.test(code));

  test("those without a placeholder id: the functions' and the security group's", () => {
    expect(runnable.map((e) => e.name)).toEqual(
      expect.arrayContaining([
        "functions_get-zones",
        "functions_get-currencies",
        "functions_get-template",
        "resources_security-group",
      ]),
    );
    expect(runnable.length).toBeGreaterThan(model.functions.length / 2);
  });

  test("preview, all in one program, through pulumi-language-yaml and the native plugin, against the emulator", async () => {
    emulator = await startEmulator({ port: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-yaml-examples-"));
    const { program, secrets } = mergedYamlProgram(runnable);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml.dump(program));
    const config = {
      ...providerConfig(emulator.url, (await discoverCatalog(emulator.url)).zoneUuid),
      // The administrator's keys: getHosts needs them.
      "restcloud:apiKey": { value: ADMIN_KEYS.apiKey, secret: true },
      "restcloud:secretKey": { value: ADMIN_KEYS.secretKey, secret: true },
      ...Object.fromEntries(
        secrets.map((key) => [`restcloud-doc-examples:${key}`, { value: "example", secret: true }]),
      ),
    };
    stack = await TestStack.create({ programDir: dir, config });
    const result = await stack.preview();
    const resources = Object.keys(program.resources as object);
    expect(Object.keys(result.operations).sort()).toEqual(expect.arrayContaining(resources.sort()));
    for (const name of resources) expect({ name, op: result.operations[name] }).toEqual({ name, op: "create" });
  });
});
