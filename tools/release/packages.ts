// The release's packages for each language's users: the npm tarball, the Python wheel and sdist, and the Go SDK's
// sources (Go users fetch the module by its git tag; the archive is for reference).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./bundle";

const execFileAsync = promisify(execFile);

/** `npm pack`, without its prepack build: `npm run release` has just built. */
export async function npmTarball(out: string): Promise<string[]> {
  const { stdout } = await execFileAsync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", out], {
    cwd: REPO_ROOT,
  });
  return [path.join(out, stdout.trim().split("\n").pop()!)];
}

export async function pythonPackages(out: string): Promise<string[]> {
  const { stdout } = await execFileAsync("bash", [path.join(REPO_ROOT, "scripts", "build-python-sdk.sh"), out], {
    cwd: REPO_ROOT,
  });
  return stdout.trim().split("\n");
}

/** The Go module's path, from sdk/go/go.mod. */
export const goModulePath = (): string =>
  /^module\s+(\S+)/m.exec(readFileSync(path.join(REPO_ROOT, "sdk", "go", "go.mod"), "utf8"))![1];

/** The files of sdk/go that git tracks (generated, committed), under `sdk/go/`, as the tag `sdk/go/v<version>` holds them. */
export async function goSources(out: string, version: string): Promise<string[]> {
  const archive = path.join(out, `pulumi-restcloud-sdk-go-v${version}.tar.gz`);
  const { stdout } = await execFileAsync("git", ["ls-files", "-z", "sdk/go"], { cwd: REPO_ROOT });
  const files = stdout.split("\0").filter(Boolean);
  await execFileAsync("tar", ["-czf", archive, "--owner=0", "--group=0", "--numeric-owner", "-C", REPO_ROOT, ...files]);
  return [archive];
}
