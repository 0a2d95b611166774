/**
 * A new Python user's first stack, as the README's "From Python" tells it, and nothing else: in an
 * empty directory, a project from the template (`pulumi new <path> --yes`, which makes the venv and
 * installs requirements.txt from PyPI), the SDK's wheel installed into the venv with pip, the npm
 * package installed from its tarball, the plugin put in Pulumi's plugin cache
 * (`npx restcloud-plugin install`), the emulator started, the keys set, `pulumi up`; then a preview
 * that must find no change and `pulumi destroy`.
 *
 * The commands are read from the README, between `<!-- new-project-python:begin -->` and
 * `<!-- new-project-python:end -->`, and run in one shell (readme-steps.ts), in a temporary
 * directory that stands for the user's: beside the project lies `pulumi-restcloud/` with the
 * template, the wheel (scripts/build-python-sdk.sh) and the tarball, as a built checkout would. The
 * environment is a user's who followed the prerequisites: Node 22, npm, Python, the Pulumi CLI with
 * its Python host on PATH, a local backend and a passphrase (temporary ones, and a PULUMI_HOME of
 * its own, whose plugin cache gets the plugin); none of the repository's node_modules. Mechanical
 * differences only: the emulator's port is a free one, and the tarball is packed with
 * `--ignore-scripts` (the package is built already).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../harness";
import { printStepTimes, readmeCommands, runSteps, userEnvironment } from "../readme-steps";
import { freePort } from "../reliability/helpers";
import { pythonSdkDist } from "./python-helpers";

jest.setTimeout(600_000);

const README_PORT = "8080";
const STEPS_TIMEOUT_MS = 480_000;
const TEMPLATE = path.join(REPO_ROOT, "templates", "restcloud-python");

describe("a new Python project from the README", () => {
  let work: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-new-python-"));
  });

  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });

  test("pulumi new, pip install of the wheel, the plugin installed, up, a no-change preview, destroy: quiet, each step timed", async () => {
    const port = String(await freePort());
    const lines = readmeCommands("new-project-python");
    expect(lines.some((l) => l.startsWith("pulumi new ") && l.includes("templates/restcloud-python"))).toBe(true);
    expect(lines.some((l) => /^venv\/bin\/pip install \S+\.whl$/.test(l))).toBe(true);

    // The checkout beside the project: the template (the emulator's port made a free one), the wheel, the tarball.
    const checkout = path.join(work, "pulumi-restcloud");
    fs.cpSync(TEMPLATE, path.join(checkout, "templates", "restcloud-python"), { recursive: true });
    const pulumiYaml = path.join(checkout, "templates", "restcloud-python", "Pulumi.yaml");
    fs.writeFileSync(pulumiYaml, fs.readFileSync(pulumiYaml, "utf8").replaceAll(README_PORT, port));
    let started = Date.now();
    const { wheel, sdist } = pythonSdkDist();
    const wheelMs = Date.now() - started;
    fs.mkdirSync(path.join(checkout, "dist", "python"), { recursive: true });
    fs.copyFileSync(wheel, path.join(checkout, "dist", "python", path.basename(wheel)));
    started = Date.now();
    execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", checkout], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "ignore", "ignore"],
    });
    const packMs = Date.now() - started;
    expect(path.basename(wheel)).toBe("pulumi_restcloud-0.1.0-py3-none-any.whl");
    expect(path.basename(sdist)).toBe("pulumi_restcloud-0.1.0.tar.gz");

    const env = userEnvironment(work);
    const commands = [
      ...lines.map((l) => l.replaceAll(README_PORT, port)),
      "pulumi preview --expect-no-changes",
      "pulumi destroy --yes",
    ];
    started = Date.now();
    const { code, output, steps } = await runSteps(work, env, commands, { timeoutMs: STEPS_TIMEOUT_MS });
    const totalMs = Date.now() - started;

    printStepTimes(
      "The README's commands, as a new Python user types them:",
      [
        { command: "(the wheel: scripts/build-python-sdk.sh, or its cache)", ms: wheelMs },
        { command: "npm pack --ignore-scripts (package already built)", ms: packMs },
        ...steps,
      ],
      totalMs,
    );

    if (code !== 0) throw new Error(`exit code ${code}:\n${output.slice(-6000)}`);
    expect(steps).toHaveLength(commands.length);
    expect(output).toMatch(/\+ 4 created/); // the stack, a VPC, a tier, an instance
    expect(output).toMatch(/- 4 deleted/);
    // Quiet: no warning from Pulumi (a plugin on $PATH, a plugin not found), npm content with the install.
    expect(output.split("\n").filter((l) => /^\s*warning:/i.test(l))).toEqual([]);
    expect(output).not.toMatch(/EBADENGINE|Cannot find module|ModuleNotFoundError/);
    const project = path.join(work, "my-py-cloud");
    expect(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")).toMatch(/runtime:\s*\n\s+name: python/);
    // The plugin came from Pulumi's plugin cache (no plugins.providers in the project).
    expect(fs.readdirSync(path.join(work, "pulumi-home", "plugins"))).toContain("resource-restcloud-v0.1.0");
    const stackFile = fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
    expect(stackFile).toMatch(/restcloud:apiKey:\s*\n\s*secure:/);
    expect(stackFile).not.toMatch(/demo-api-key|demo-secret-key/);
  });
});
