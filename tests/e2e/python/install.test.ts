/**
 * What a Python program needs before it runs, made by the repository's scripts:
 *  - scripts/install-pulumi-cli.sh, given a cache that holds the CLI and the other hosts but not
 *    the Python host, builds just that (pulumi-language-python-v3.68.0), places the exec script and
 *    the launcher beside pulumi, and a second run builds nothing;
 *  - scripts/build-python-sdk.sh writes a wheel and an sdist of sdk/python into the directory it is
 *    given, prints their paths, and leaves sdk/ as it was; in a fresh venv, `pip install <wheel>`
 *    alone pulls pulumi and the SDK's other dependencies from PyPI, and the package imports.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PLUGIN_DOWNLOAD_URL } from "../../../provider/plugin-release";
import { REPO_ROOT, pulumiCliRoot } from "../harness";

jest.setTimeout(300_000);

/** The CLI's version, as package.json's pulumiVersions names it. */
const VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { pulumiVersions: { cli: string } }
).pulumiVersions.cli;

/** Runs a script of the repository; its exit code, stdout and stderr. */
function script(name: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync("bash", [path.join(REPO_ROOT, "scripts", name), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The names of a wheel's (zip) or an sdist's (tar.gz) members, read by Python's own modules. */
function members(archive: string): string[] {
  const code = archive.endsWith(".whl")
    ? "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))"
    : "import sys, tarfile; print('\\n'.join(tarfile.open(sys.argv[1]).getnames()))";
  return execFileSync("python3", ["-c", code, archive], { encoding: "utf8" }).trim().split("\n");
}

function readMember(archive: string, member: string): string {
  const code = "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())";
  return execFileSync("python3", ["-c", code, archive, member], { encoding: "utf8" });
}

/** What a setuptools build in sdk/python itself would write there, with each entry's mtime. */
function buildLeftovers(): Record<string, number> {
  const dir = path.join(REPO_ROOT, "sdk", "python");
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => /\.egg-info$|^build$|^dist$/.test(f))
      .map((f) => [f, fs.statSync(path.join(dir, f)).mtimeMs]),
  );
}

describe("the Python host and the SDK's packages, from the repository's scripts", () => {
  let work: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-python-install-"));
  });

  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });

  test("install-pulumi-cli.sh: a cache without the Python host gets just it, then builds nothing more", () => {
    const cache = path.join(work, "cache");
    const bin = path.join(cache, `pulumi-v${VERSION}`, "bin");
    fs.mkdirSync(bin, { recursive: true });
    // The cache as a run before the Python host left it: the CLI, the Node.js and the YAML hosts.
    for (const file of ["pulumi", "pulumi-language-nodejs", "pulumi-language-yaml"]) {
      fs.symlinkSync(path.join(pulumiCliRoot(), "bin", file), path.join(bin, file));
    }
    const env = { RESTCLOUD_PULUMI_CACHE: cache, RESTCLOUD_FORCE_PULUMI_BUILD: "1", PULUMI_VERSION: VERSION };

    const first = script("install-pulumi-cli.sh", [], env);
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split("\n").pop()).toBe(bin);
    expect(first.stderr).toContain(`lacks: pulumi-language-python-v3.68.0 pulumi-language-python-exec`);
    expect(first.stderr).not.toMatch(/building the Pulumi CLI|building pulumi-language-(nodejs|yaml)/);
    for (const file of ["pulumi-language-python", "pulumi-language-python-v3.68.0", "pulumi-language-python-exec"]) {
      expect(fs.statSync(path.join(bin, file)).mode & 0o111).not.toBe(0);
    }
    // The launcher hands the host the venv that Pulumi.yaml names.
    expect(fs.readFileSync(path.join(bin, "pulumi-language-python"), "utf8")).toContain('-virtualenv "$venv"');

    const second = script("install-pulumi-cli.sh", [], env);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`cached: ${bin}`);
    expect(second.stderr).not.toMatch(/building/);
  });

  test("build-python-sdk.sh: a wheel and an sdist, their paths printed, sdk/ untouched; pip install <wheel> pulls pulumi", () => {
    const out = path.join(work, "dist");
    const leftoversBefore = buildLeftovers();
    const built = script("build-python-sdk.sh", [out]);
    expect(built.code).toBe(0);
    const wheel = path.join(out, "pulumi_restcloud-0.1.0-py3-none-any.whl");
    const sdist = path.join(out, "pulumi_restcloud-0.1.0.tar.gz");
    expect(built.stdout.trim().split("\n")).toEqual([wheel, sdist]);
    console.log(`wheel ${fs.statSync(wheel).size} bytes, sdist ${fs.statSync(sdist).size} bytes`);

    const inWheel = members(wheel);
    expect(inWheel).toEqual(
      expect.arrayContaining([
        "pulumi_restcloud/__init__.py",
        "pulumi_restcloud/vpc.py",
        "pulumi_restcloud/get_zone.py",
        "pulumi_restcloud/py.typed",
        "pulumi_restcloud/pulumi-plugin.json",
        "pulumi_restcloud-0.1.0.dist-info/METADATA",
      ]),
    );
    // The plugin the SDK asks the engine for: restcloud, at the npm package's version, and where it is downloaded.
    expect(JSON.parse(readMember(wheel, "pulumi_restcloud/pulumi-plugin.json"))).toEqual({
      resource: true,
      name: "restcloud",
      version: "0.1.0",
      server: PLUGIN_DOWNLOAD_URL,
    });
    const metadata = readMember(wheel, "pulumi_restcloud-0.1.0.dist-info/METADATA");
    expect(metadata).toMatch(/^Requires-Dist: pulumi<4\.0\.0,>=3\.259\.0$/m);
    expect(members(sdist)).toEqual(
      expect.arrayContaining([
        "pulumi_restcloud-0.1.0/pyproject.toml",
        "pulumi_restcloud-0.1.0/pulumi_restcloud/vpc.py",
      ]),
    );
    // The build ran on a copy: what a build in place writes (build/, dist/, *.egg-info) is as it was.
    expect(buildLeftovers()).toEqual(leftoversBefore);

    const venv = path.join(work, "venv");
    execFileSync("python3", ["-m", "venv", venv]);
    execFileSync(
      path.join(venv, "bin", "python"),
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    const versions = execFileSync(
      path.join(venv, "bin", "python"),
      [
        "-c",
        "import importlib.metadata as m, pulumi_restcloud as r; " +
          "print(m.version('pulumi_restcloud'), m.version('pulumi'), m.version('parver'), m.version('semver'), r.Vpc.__name__)",
      ],
      { encoding: "utf8" },
    ).trim();
    expect(versions).toMatch(/^0\.1\.0 3\.\d+\.\d+ \S+ \S+ Vpc$/);
    const pulumiVersion = versions.split(" ")[1]!.split(".").map(Number);
    expect(pulumiVersion[1]).toBeGreaterThanOrEqual(259);
  });
});
