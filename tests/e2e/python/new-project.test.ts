/**
 * A new Python user's first stack, as the README's "From Python" tells it, with no Node.js: in an
 * empty directory, a project from the template (`pulumi new <path> --yes`, which makes the venv and
 * installs requirements.txt from PyPI), the SDK's wheel from the release installed into the venv
 * with pip, the release's emulator executable started, the keys set, `pulumi up`, which downloads
 * the plugin (automatic acquisition on, a fresh PULUMI_HOME); then a preview that must find no
 * change and `pulumi destroy`.
 *
 * The commands are read from the README, between `<!-- new-project-python:begin -->` and
 * `<!-- new-project-python:end -->`, and run in one shell (readme-steps.ts), in a temporary
 * directory that stands for the user's: beside the project lie `pulumi-restcloud/templates/` and
 * `release/` (the wheel and the emulator's tarball), the plugin's release served over loopback in
 * place of GitHub's (plugin-server.ts). The PATH has Python and the Pulumi CLI with its Python host;
 * `node`, `npm` and `npx` on it are stand-ins that fail and log any call. Mechanical differences
 * only: the emulator's port is a free one, and the download URL is overridden to the local server.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion } from "../../../provider/package-files";
import { REPO_ROOT } from "../harness";
import { cachedPlugins, servePluginRelease, type PluginServer } from "../plugin-server";
import { noNodeLog, printStepTimes, readmeCommands, runSteps, userEnvironment } from "../readme-steps";
import { releaseArtifacts } from "../release-artifacts";
import { freePort } from "../reliability/helpers";
import { pythonSdkDist } from "./python-helpers";

jest.setTimeout(600_000);

const README_PORT = "8080";
const STEPS_TIMEOUT_MS = 480_000;
const TEMPLATE = path.join(REPO_ROOT, "templates", "restcloud-python");
const VERSION = packageVersion();

describe("a new Python project from the README, with no Node.js", () => {
  let work: string;
  let server: PluginServer | undefined;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-new-python-"));
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test("pulumi new, pip install of the wheel, the emulator's executable, up (the plugin downloaded), a no-change preview, destroy", async () => {
    const port = String(await freePort());
    const lines = readmeCommands("new-project-python");
    expect(lines.some((l) => l.startsWith("pulumi new ") && l.includes("templates/restcloud-python"))).toBe(true);
    expect(lines.some((l) => /^venv\/bin\/pip install \S+\.whl$/.test(l))).toBe(true);
    expect(lines.some((l) => /\b(npm|npx|node)\b/.test(l))).toBe(false);

    // Beside the project: the template (the emulator's port made a free one) and the release's files.
    const templateCopy = path.join(work, "pulumi-restcloud", "templates", "restcloud-python");
    fs.cpSync(TEMPLATE, templateCopy, { recursive: true });
    const pulumiYaml = path.join(templateCopy, "Pulumi.yaml");
    fs.writeFileSync(pulumiYaml, fs.readFileSync(pulumiYaml, "utf8").replaceAll(README_PORT, port));
    let started = Date.now();
    const release = await releaseArtifacts();
    const { wheel } = pythonSdkDist();
    const artifactsMs = Date.now() - started;
    const releaseDir = path.join(work, "release");
    fs.mkdirSync(releaseDir);
    fs.copyFileSync(wheel, path.join(releaseDir, path.basename(wheel)));
    fs.copyFileSync(release.emulatorTarball, path.join(releaseDir, path.basename(release.emulatorTarball)));
    expect(path.basename(wheel)).toBe(`pulumi_restcloud-${VERSION}-py3-none-any.whl`);
    server = await servePluginRelease(release.dir, VERSION);

    const env = { ...userEnvironment(work, { node: false }), ...server.env };
    const commands = [
      ...lines.map((l) => l.replaceAll(README_PORT, port)),
      "pulumi preview --expect-no-changes",
      "pulumi destroy --yes",
    ];
    started = Date.now();
    const { code, output, steps } = await runSteps(work, env, commands, { timeoutMs: STEPS_TIMEOUT_MS });
    const totalMs = Date.now() - started;

    printStepTimes(
      "The README's commands, as a new Python user types them (no Node.js):",
      [{ command: "(the release's linux-amd64 files and the wheel, or their cache)", ms: artifactsMs }, ...steps],
      totalMs,
    );

    if (code !== 0) throw new Error(`exit code ${code}:\n${output.slice(-6000)}`);
    expect(steps).toHaveLength(commands.length);
    expect(output).toMatch(/\+ 4 created/); // the stack, a VPC, a tier, an instance
    expect(output).toMatch(/- 4 deleted/);
    // Nothing called node, npm or npx.
    expect(fs.existsSync(noNodeLog(work)) ? fs.readFileSync(noNodeLog(work), "utf8") : "").toBe("");
    // Quiet: no warning from Pulumi (a plugin on $PATH, a plugin not found).
    expect(output.split("\n").filter((l) => /^\s*warning:/i.test(l))).toEqual([]);
    expect(output).not.toMatch(/ModuleNotFoundError/);
    const project = path.join(work, "my-py-cloud");
    expect(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")).toMatch(/runtime:\s*\n\s+name: python/);
    // The plugin was downloaded, once, from the release, into Pulumi's plugin cache.
    expect(server.requests).toEqual([`GET /v${VERSION}/${path.basename(release.pluginTarball)}`]);
    expect(cachedPlugins(path.join(work, "pulumi-home"))).toContain(`resource-restcloud-v${VERSION}`);
    const stackFile = fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
    expect(stackFile).toMatch(/restcloud:apiKey:\s*\n\s*secure:/);
    expect(stackFile).not.toMatch(/demo-api-key|demo-secret-key/);
  });
});
