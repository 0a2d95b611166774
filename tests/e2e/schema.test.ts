/**
 * schema.json through the real Pulumi CLI, offline: `pulumi package info` binds the package and
 * each resource and function (and prints what it understood, compared here with the declarations);
 * `pulumi package gen-sdk` binds the whole package at once before handing it to the language host.
 * A deliberately broken copy must be refused, so that a pass means the CLI did validate.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiCliRoot, REPO_ROOT } from "./harness";
import { currentModel } from "../../provider/schema/generate";

jest.setTimeout(180_000);

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const SCHEMA = path.join(REPO_ROOT, "schema.json");
const model = currentModel(REPO_ROOT);
let home: string;

function pulumi(...args: string[]): Promise<CliResult> {
  const bin = path.join(pulumiCliRoot(), "bin");
  const env = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
  return new Promise((resolve) => {
    execFile(path.join(bin, "pulumi"), args, { env, cwd: home }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The properties `pulumi package info` lists in a section ("Inputs:" or "Outputs:"), `*` for required. */
function listed(output: string, section: "Inputs" | "Outputs"): { names: string[]; required: string[] } {
  const lines = output.split("\n");
  const start = lines.indexOf(`${section}:`);
  const entries: [string, boolean][] = [];
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    const match = /^ - (\w+) \((.+?)(\*)?\)(?::|$)/.exec(line);
    if (!match) break;
    entries.push([match[1], match[3] === "*"]);
  }
  return {
    names: entries.map(([n]) => n).sort(),
    required: entries
      .filter(([, r]) => r)
      .map(([n]) => n)
      .sort(),
  };
}

const sorted = (names: readonly string[]) => [...names].sort();

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-schema-"));
});

afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

describe("schema.json through the Pulumi CLI", () => {
  test("the package binds and lists every resource and function", async () => {
    const result = await pulumi("package", "info", SCHEMA);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Name: restcloud");
    const [resourcesBlock, functionsBlock] = result.stdout.split("\nFunctions: ");
    const names = (block: string | undefined) => sorted([...(block ?? "").matchAll(/^ - (\w+): /gm)].map((m) => m[1]));
    expect(names(resourcesBlock)).toEqual(sorted(model.resources.map((r) => r.type)));
    expect(names(functionsBlock)).toEqual(sorted(model.functions.map((f) => f.name)));
  });

  test("every resource binds, with its arguments, required arguments and always-present outputs", async () => {
    for (const r of model.resources) {
      const result = await pulumi("package", "info", SCHEMA, "--resource", r.type);
      expect({ resource: r.type, code: result.code, stderr: result.stderr }).toEqual({
        resource: r.type,
        code: 0,
        stderr: "",
      });
      const inputs = listed(result.stdout, "Inputs");
      const outputs = listed(result.stdout, "Outputs");
      expect({ resource: r.type, inputs }).toEqual({
        resource: r.type,
        inputs: {
          names: sorted(r.inputs.map((p) => p.name)),
          required: sorted(r.inputs.filter((p) => p.required).map((p) => p.name)),
        },
      });
      expect({ resource: r.type, outputs }).toEqual({
        resource: r.type,
        outputs: { names: sorted([...r.inputs, ...r.outputs].map((p) => p.name)), required: sorted(r.alwaysPresent) },
      });
    }
  });

  test("every function binds, with its inputs and outputs", async () => {
    for (const f of model.functions) {
      const result = await pulumi("package", "info", SCHEMA, "--function", f.name);
      expect({ fn: f.name, code: result.code, stderr: result.stderr }).toEqual({ fn: f.name, code: 0, stderr: "" });
      expect({
        fn: f.name,
        inputs: listed(result.stdout, "Inputs"),
        outputs: listed(result.stdout, "Outputs"),
      }).toEqual({
        fn: f.name,
        inputs: {
          names: sorted(f.inputs.map((p) => p.name)),
          required: sorted(f.inputs.filter((p) => p.required).map((p) => p.name)),
        },
        outputs: {
          names: sorted(f.outputs.map((p) => p.name)),
          required: sorted(f.outputs.filter((p) => p.required).map((p) => p.name)),
        },
      });
    }
  });

  test("gen-sdk binds the whole package (types, defaults, references) without an error", async () => {
    const out = path.join(home, "sdk");
    const result = await pulumi("package", "gen-sdk", SCHEMA, "--language", "nodejs", "--out", out);
    // The Node.js language host built here (v3.68) predates GeneratePackage: after a successful bind,
    // generation itself is refused with exactly that. Any schema error comes before it, as `#/...`.
    const refusedByOldHost = /method GeneratePackage not implemented/.test(result.stderr);
    expect({ stderr: result.stderr.includes("#/") ? result.stderr : "" }).toEqual({ stderr: "" });
    expect(result.code === 0 || refusedByOldHost).toBe(true);
  });

  test("a broken schema is refused, naming what is wrong", async () => {
    const broken = JSON.parse(fs.readFileSync(SCHEMA, "utf8")) as {
      resources: Record<string, { required: string[] }>;
    };
    const [firstToken] = Object.keys(broken.resources);
    broken.resources[firstToken].required.push("noSuchProperty");
    const file = path.join(home, "broken-schema.json");
    fs.writeFileSync(file, JSON.stringify(broken));
    const info = await pulumi("package", "info", file, "--resource", firstToken.split(":").pop()!);
    expect(info.code).not.toBe(0);
    expect(info.stderr).toContain('unknown required property "noSuchProperty"');
    const generated = await pulumi("package", "gen-sdk", file, "--language", "nodejs", "--out", path.join(home, "x"));
    expect(generated.code).not.toBe(0);
    expect(generated.stderr).toContain('unknown required property "noSuchProperty"');
  });
});
