/**
 * The linux-amd64 release of the plugin and the emulator (single executables, `npm run release --
 * --platforms linux-amd64 --only plugin,emulator`), built once for any number of tests and jest
 * workers: in a folder of the temporary directory named by a hash of what goes into it (the compiled
 * dist/, package.json, schema.json), so a worker finds it built by another worker or an earlier run.
 * One worker builds at a time (a lock directory, made atomically); the others wait for it.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { packageVersion } from "../../provider/package-files";
import { REPO_ROOT } from "./harness";

export interface ReleaseArtifacts {
  /** The folder: the archives, SHA256SUMS, RELEASE-NOTES.md. */
  dir: string;
  version: string;
  /** pulumi-resource-restcloud-v<version>-linux-amd64.tar.gz (the executable at its root). */
  pluginTarball: string;
  /** restcloud-emulator-v<version>-linux-amd64.tar.gz. */
  emulatorTarball: string;
}

const INPUTS = ["dist/provider", "dist/emulator", "dist/tools/release", "package.json", "schema.json"];

function inputsHash(): string {
  const hash = createHash("sha256");
  const add = (file: string) => {
    if (fs.statSync(file).isDirectory()) for (const entry of fs.readdirSync(file).sort()) add(path.join(file, entry));
    else hash.update(path.relative(REPO_ROOT, file)).update("\0").update(fs.readFileSync(file));
  };
  for (const input of INPUTS) add(path.join(REPO_ROOT, input));
  return hash.digest("hex").slice(0, 16);
}

function artifactsIn(dir: string, version: string): ReleaseArtifacts {
  return {
    dir,
    version,
    pluginTarball: path.join(dir, `pulumi-resource-restcloud-v${version}-linux-amd64.tar.gz`),
    emulatorTarball: path.join(dir, `restcloud-emulator-v${version}-linux-amd64.tar.gz`),
  };
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid in a lock directory; 0 while its holder has not written it yet (or never will: it died). */
function holderOf(lock: string): number {
  try {
    return Number(fs.readFileSync(path.join(lock, "pid"), "utf8")) || 0;
  } catch {
    return 0;
  }
}

/**
 * Takes the lock, or answers false while another process holds it. A lock whose holder is dead, or
 * that names no holder after 30 s, is taken over.
 */
function tryLock(lock: string): boolean {
  try {
    fs.mkdirSync(lock);
  } catch {
    const made = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    if (made === undefined) return tryLock(lock); // released meanwhile
    const holder = holderOf(lock);
    if (holder > 0 ? isAlive(holder) : Date.now() - made < 30_000) return false;
    fs.rmSync(lock, { recursive: true, force: true });
    return tryLock(lock);
  }
  fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
  return true;
}

let built: Promise<ReleaseArtifacts> | undefined;

/** Builds the artifacts (about 15 s on 2 cores, plus a Node.js binary's download the first time) or finds them built. */
export function releaseArtifacts(): Promise<ReleaseArtifacts> {
  return (built ??= build());
}

async function build(): Promise<ReleaseArtifacts> {
  const version = packageVersion();
  const dir = path.join(os.tmpdir(), `restcloud-release-linux-amd64-${inputsHash()}`);
  const lock = `${dir}.lock`;
  // SHA256SUMS is written last: a folder without it is a build that did not finish.
  const done = () => fs.existsSync(path.join(dir, "SHA256SUMS"));
  while (!done()) {
    if (!tryLock(lock)) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      if (!done()) {
        const staging = `${dir}.${process.pid}`;
        const args = ["--platforms", "linux-amd64", "--only", "plugin,emulator", "--out", staging];
        await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, "dist/tools/release/cli.js"), ...args], {
          cwd: REPO_ROOT,
        });
        fs.rmSync(dir, { recursive: true, force: true });
        fs.renameSync(staging, dir);
      }
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  return artifactsIn(dir, version);
}
