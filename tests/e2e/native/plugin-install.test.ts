/**
 * Installing the native plugin, offline, in one step (`restcloud-plugin install`: Pulumi's plugin
 * cache, from a launcher of this package), and the schema the plugin serves: `pulumi package
 * get-schema` on the plugin's file and on the installed plugin print the repository's schema.json.
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

test("`restcloud-plugin help` tells each language's user how the plugin is found, and which route warns", () => {
  const help = run("node", [installer, "help"]);
  expect(help).toContain("plugins: { providers: [ { name: restcloud, path: <that directory> } ] }");
  expect(help).toMatch(/Python, Go and YAML programs need the plugin/);
  expect(help).toMatch(/PATH works too, but Pulumi then warns on every run/);
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

test("`restcloud-plugin install` puts the plugin in Pulumi's cache, where the CLI finds it by name", () => {
  run("node", [installer, "install"]);
  const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
    .version;
  expect(run("pulumi", ["plugin", "ls"])).toMatch(
    new RegExp(`restcloud\\s+resource\\s+${version.replace(/\./g, "\\.")}`),
  );
  expect(JSON.parse(run("pulumi", ["package", "get-schema", `restcloud@${version}`]))).toEqual(schemaJson);
});
