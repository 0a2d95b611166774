/**
 * What the Python end-to-end tests share: the SDK's wheel (scripts/build-python-sdk.sh) and a venv
 * with it installed, each made once per content and kept in the cache beside the Pulumi CLI (test
 * files run side by side: each is made in a directory of its own, then renamed into place, and the
 * loser of a race drops its copy); a Python program copied into a temporary directory, ready to run
 * (its `venv` a link to that venv, its plugin path absolute).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../harness";

export const PYTHON_PROGRAMS = path.join(__dirname, "programs");
/** The Python twin of examples/vpc-web: config `zoneName`, `dataSizeGb`. */
export const VPC_WEB_PYTHON = path.join(REPO_ROOT, "examples", "vpc-web-python");
/** The Pulumi SDK the venvs get: the newest Python release tested (package.json's pulumiVersions). */
export const PULUMI_VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    pulumiVersions: { pythonSdk: string };
  }
).pulumiVersions.pythonSdk;

const CACHE =
  process.env.RESTCLOUD_PULUMI_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-restcloud");

const sha256 = () => createHash("sha256");

/** The digest of every file under a directory (paths and contents), bytecode caches left out. */
function treeDigest(dir: string): string {
  const hash = sha256();
  const walk = (sub: string) => {
    for (const entry of fs
      .readdirSync(path.join(dir, sub), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name === "__pycache__" || entry.name.endsWith(".egg-info")) continue;
      const relative = path.join(sub, entry.name);
      if (entry.isDirectory()) walk(relative);
      else
        hash
          .update(relative)
          .update("\0")
          .update(fs.readFileSync(path.join(dir, relative)))
          .update("\0");
    }
  };
  walk("");
  return hash.digest("hex").slice(0, 16);
}

/**
 * Makes `final` once: `make` fills a fresh directory of this process's own, which is then renamed to
 * `final`; when another process got there first, ours is dropped. `complete` says `final` is whole.
 */
function once(final: string, complete: (dir: string) => boolean, make: (dir: string) => void): string {
  if (complete(final)) return final;
  fs.mkdirSync(path.dirname(final), { recursive: true });
  const own = `${final}.${process.pid}.tmp`;
  fs.rmSync(own, { recursive: true, force: true });
  fs.mkdirSync(own);
  try {
    make(own);
    // Only whole directories are renamed into place: an existing `final` is another process's, whole.
    fs.renameSync(own, final);
  } catch (error) {
    if (!complete(final)) throw error;
  } finally {
    fs.rmSync(own, { recursive: true, force: true });
  }
  return final;
}

export interface PythonDist {
  wheel: string;
  sdist: string;
}

/** The wheel and the sdist of sdk/python, built by scripts/build-python-sdk.sh once per SDK content. */
export function pythonSdkDist(): PythonDist {
  const find = (dir: string): PythonDist | undefined => {
    if (!fs.existsSync(dir)) return undefined;
    const files = fs.readdirSync(dir);
    const wheel = files.find((f) => f.endsWith(".whl"));
    const sdist = files.find((f) => f.endsWith(".tar.gz"));
    return wheel && sdist ? { wheel: path.join(dir, wheel), sdist: path.join(dir, sdist) } : undefined;
  };
  const dir = once(
    path.join(CACHE, "python-sdk", treeDigest(path.join(REPO_ROOT, "sdk", "python"))),
    (d) => find(d) !== undefined,
    (d) => {
      execFileSync("bash", [path.join(REPO_ROOT, "scripts", "build-python-sdk.sh"), d], {
        stdio: ["ignore", "ignore", "inherit"],
      });
    },
  );
  return find(dir)!;
}

/**
 * A venv with the SDK's wheel and pulumi (the CLI's version) installed from PyPI, made once per
 * wheel. A venv survives its rename as `bin/python` (the host runs `python -m pip`, never `bin/pip`,
 * whose first line names the directory it was made in).
 */
export function pythonVenv(): string {
  const { wheel } = pythonSdkDist();
  const digest = sha256().update(fs.readFileSync(wheel)).update(PULUMI_VERSION).digest("hex").slice(0, 16);
  const ready = (dir: string) => fs.existsSync(path.join(dir, ".restcloud-complete"));
  return once(path.join(CACHE, "python-venvs", digest), ready, (dir) => {
    const python = process.env.PYTHON ?? "python3";
    execFileSync(python, ["-m", "venv", dir], { stdio: ["ignore", "ignore", "inherit"] });
    execFileSync(
      path.join(dir, "bin", "python"),
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, `pulumi==${PULUMI_VERSION}`],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    fs.writeFileSync(path.join(dir, ".restcloud-complete"), `${path.basename(wheel)} pulumi==${PULUMI_VERSION}\n`);
  });
}

/** A Python program's copy in a temporary directory; `remove` deletes it (the venv stays cached). */
export interface PythonProgram {
  dir: string;
  remove(): void;
}

/**
 * Copies a program (Pulumi.yaml, __main__.py...) into a temporary directory: its `venv` a link to
 * the cached venv (the name Pulumi.yaml gives), and the relative `path:` of its plugins made absolute
 * (they name the repository's plugin/ from where the program lies).
 */
export function pythonProgram(source: string): PythonProgram {
  const venv = pythonVenv();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-python-"));
  fs.cpSync(source, dir, {
    recursive: true,
    filter: (from) => !/(^|\/)(venv|__pycache__|Pulumi\.[^/]+\.yaml)$/.test(path.relative(source, from)),
  });
  fs.symlinkSync(venv, path.join(dir, "venv"));
  const project = path.join(dir, "Pulumi.yaml");
  const text = fs.readFileSync(project, "utf8");
  fs.writeFileSync(
    project,
    text.replace(/^(\s+path:\s*)(\S+)\s*$/gm, (_, key: string, value: string) => key + path.resolve(source, value)),
  );
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
