/**
 * A new user's first stack, as the README's "Use it in your own project" tells it, and nothing else:
 * the package packed into a tarball, a project created from the template in an empty directory
 * (`pulumi new <path> --yes`), the tarball installed with a plain `npm install`, the emulator
 * started, the keys set, `pulumi up`; then a preview that must find no change and `pulumi destroy`.
 *
 * The commands are read from the README (between `<!-- new-project:begin -->` and
 * `<!-- new-project:end -->`) and run in one shell, as readme-steps.ts does for the Python and Go
 * tests too, in a temporary directory that stands for the user's: beside `my-cloud` lies
 * `pulumi-restcloud/` with the template and the tarball, as a checkout would. The environment is a
 * user's who followed the README's prerequisites: Node 22, npm, the Pulumi CLI on PATH, a local
 * backend and a passphrase (a temporary backend and PULUMI_HOME, as the harness uses); none of the
 * repository's node_modules. Two things differ, and only mechanically: the emulator's port (8080 in
 * the README and the template) is a free one, and the tarball is packed with `--ignore-scripts`,
 * because `npm test` built the package already (`npm pack` alone would build it again through
 * `prepack`).
 *
 * The packed files are checked too: what the package needs at run time, no tests, no source maps,
 * no install script. The no-change preview runs the policy pack as the package installed it
 * (node_modules/.bin/restcloud-policy). Each step's time is printed.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "./harness";
import { printStepTimes, readmeCommands, runSteps, userEnvironment } from "./readme-steps";
import { freePort } from "./reliability/helpers";

jest.setTimeout(600_000);

const README_PORT = "8080";
/** The whole sequence, at most (a cold npm cache included). */
const STEPS_TIMEOUT_MS = 480_000;
const TEMPLATE = path.join(REPO_ROOT, "templates", "restcloud-typescript");

describe("a new project from the README", () => {
  let work: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-new-project-"));
  });

  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });

  test("pack, pulumi new, npm install, up, a no-change preview, destroy: quiet, and each step timed", async () => {
    const port = String(await freePort());
    const lines = readmeCommands("new-project");
    expect(lines.some((l) => l.startsWith("pulumi new ") && l.includes("--yes"))).toBe(true);
    expect(lines.some((l) => /^npm install \S+\.tgz$/.test(l))).toBe(true);

    // The checkout beside the project: the template (the emulator's port made a free one) and the tarball.
    const checkout = path.join(work, "pulumi-restcloud");
    fs.cpSync(TEMPLATE, path.join(checkout, "templates", "restcloud-typescript"), { recursive: true });
    const pulumiYaml = path.join(checkout, "templates", "restcloud-typescript", "Pulumi.yaml");
    fs.writeFileSync(pulumiYaml, fs.readFileSync(pulumiYaml, "utf8").replaceAll(README_PORT, port));
    let started = Date.now();
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", checkout], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    ) as { filename: string; files: { path: string; mode: number }[] }[];
    const packMs = Date.now() - started;

    // What the tarball holds: the run time, the emulator, types, docs and the template; no test, no map.
    const files = packed[0].files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "dist/provider/index.js",
        "dist/provider/index.d.ts",
        "dist/provider/dynamic/runtime.js",
        "dist/emulator/cli.js",
        "templates/restcloud-typescript/Pulumi.yaml",
        "docs/README.md",
        "schema.json",
        "policy/restcloud-policy",
        "dist/provider/policy/pack.js",
      ]),
    );
    // The policy pack's launcher keeps its executable bit (npm sets it again on its .bin link anyway).
    expect(packed[0].files.find((f) => f.path === "policy/restcloud-policy")!.mode & 0o111).toBe(0o111);
    expect(files.filter((f) => /(^|\/)tests?\/|\.map$|\.test\.|^dist\/bench\//.test(f))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(Object.keys(manifest.scripts).filter((s) => /^(pre|post)?install$|^prepare$/.test(s))).toEqual([]);
    expect(path.basename(packed[0].filename)).toBe("pulumi-restcloud-0.1.0.tgz");

    const env = userEnvironment(work);
    // The README's lines, then the no-change preview (checked by the policy pack as installed: docs/policy.md) and
    // destroy it tells of.
    const commands = [
      ...lines.map((l) => l.replaceAll(README_PORT, port)),
      "pulumi preview --expect-no-changes --policy-pack node_modules/.bin/restcloud-policy",
      "pulumi destroy --yes",
    ];
    started = Date.now();
    const { code, output, steps } = await runSteps(work, env, commands, { timeoutMs: STEPS_TIMEOUT_MS });
    const totalMs = Date.now() - started;

    printStepTimes(
      "The README's commands, as a new user types them:",
      [{ command: "npm pack --ignore-scripts (package already built)", ms: packMs }, ...steps],
      totalMs,
    );

    if (code !== 0) throw new Error(`exit code ${code}:\n${output.slice(-6000)}`);
    expect(steps).toHaveLength(commands.length);
    expect(output).toMatch(/\+ 4 created/); // the stack, a VPC, a tier, an instance
    expect(output).toMatch(/- 4 deleted/);
    expect(output).toMatch(/✅ restcloud-guardrails@v0\.1\.0 \(local: .*node_modules\/\.bin\/restcloud-policy\)/);
    // Quiet: no warning from Pulumi, npm content with the engines and the install.
    expect(output.split("\n").filter((l) => /^\s*warning:/i.test(l))).toEqual([]);
    expect(output).not.toMatch(/EBADENGINE|Cannot find module|install-scripts/);
    const project = path.join(work, "my-cloud");
    const manifestOfProject = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifestOfProject.dependencies["pulumi-restcloud"]).toMatch(/^file:.*pulumi-restcloud-0\.1\.0\.tgz$/);
    expect(Object.keys(manifestOfProject.devDependencies)).toEqual(expect.arrayContaining(["typescript"]));
    // The keys were stored as secrets: the stack file holds no key in clear.
    const stackFile = fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
    expect(stackFile).toMatch(/restcloud:apiKey:\s*\n\s*secure:/);
    expect(stackFile).not.toMatch(/demo-api-key|demo-secret-key/);
  });
});
