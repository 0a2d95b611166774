/**
 * `restcloud-plugin`: the path of this package's Node.js-run plugin, and `install` retired (Pulumi
 * downloads the released plugin: tests/e2e/plugin-acquisition.test.ts); the schema the plugin
 * serves: `pulumi package get-schema` on the plugin's file prints the repository's schema.json.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, pulumiCliRoot } from "../harness";

const schemaJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")) as Record<string, unknown>;

let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-plugin-install-"));
  env = {
    ...process.env,
    PATH: [path.join(REPO_ROOT, "node_modules", ".bin"), path.join(pulumiCliRoot(), "bin"), process.env.PATH].join(
      path.delimiter,
    ),
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
});

afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

const run = (command: string, args: string[]) => execFileSync(command, args, { env, encoding: "utf8", cwd: home });
const installer = path.join(REPO_ROOT, "dist", "provider", "native", "install.js");

test("`restcloud-plugin path` names the directory that holds the plugin", () => {
  const dir = run("node", [installer, "path"]).trim();
  expect(fs.existsSync(path.join(dir, "pulumi-resource-restcloud"))).toBe(true);
});

test("`restcloud-plugin help` says Pulumi downloads the plugin, and how to name this package's instead", () => {
  const help = run("node", [installer, "help"]);
  expect(help).toContain("plugins: { providers: [ { name: restcloud, path: <that directory> } ] }");
  expect(help).toMatch(/Pulumi downloads the released plugin v\d+\.\d+\.\d+ itself/);
});

test("get-schema on the plugin's file prints schema.json, with the provider's settings and secrets marked", () => {
  const printed = JSON.parse(
    run("pulumi", ["package", "get-schema", path.join(REPO_ROOT, "plugin", "pulumi-resource-restcloud")]),
  ) as Record<string, unknown>;
  expect(printed).toEqual(schemaJson);
  const provider = printed.provider as { inputProperties: Record<string, { secret?: boolean }> };
  expect(provider.inputProperties.apiKey!.secret).toBe(true);
  expect(provider.inputProperties.secretKey!.secret).toBe(true);
});

test("`restcloud-plugin install` is retired: it fails, names the offline install and the removal of an old launcher, and caches nothing", () => {
  const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
    .version;
  let failure: { status: number; stderr: string } | undefined;
  try {
    run("node", [installer, "install"]);
  } catch (error) {
    failure = error as { status: number; stderr: string };
  }
  expect(failure?.status).toBe(1);
  expect(failure?.stderr).toContain(`pulumi plugin install resource restcloud ${version} --file`);
  expect(failure?.stderr).toContain(`pulumi plugin rm resource restcloud ${version} --yes`);
  expect(run("pulumi", ["plugin", "ls"])).not.toMatch(/restcloud/);
});
