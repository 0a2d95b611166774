// The native mode's plugin in the form users get, the bench's default (BENCH_PLUGIN=dist: run by Node.js on dist/):
// the release's single executable (tools/release: the bundle injected into an official Node.js binary), and its floor
// built the same way, the no-op plugin (noop-plugin.ts) bundled and injected alike. Each lands in its own folder, to be
// found on PATH (the fleet) or through a program's `plugins.providers` (the floor).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { packageVersion } from "../provider/package-files";
import { buildExecutable, writeBundle, type ExecutableSpec } from "../tools/release/executables";
import { hostPlatform } from "../tools/release/platforms";
import { buildRelease } from "../tools/release/release";

export interface ReleasePlugins {
  /** The folder holding pulumi-resource-restcloud, the release's executable. */
  restcloudDir: string;
  /** The folder holding pulumi-resource-noop, the floor's executable. */
  noopDir: string;
  /** How long building both took, in ms. */
  buildMs: number;
}

/** The no-op plugin as a single executable, as the release builds the real one. */
const NOOP_SPEC: ExecutableSpec = {
  name: "plugin",
  file: "pulumi-resource-noop",
  entry: "dist/bench/noop-plugin.js",
  assets: [],
};

function unpack(archive: string, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", archive, "-C", dir]);
  return dir;
}

/** Builds both executables for this machine's platform under `work`. */
export async function buildReleasePlugins(work: string): Promise<ReleasePlugins> {
  const started = performance.now();
  const platform = hostPlatform();
  if (!platform)
    throw new Error("bench: no release executable for this platform; BENCH_PLUGIN=dist runs the plugin on dist/");
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const out = path.join(work, "release");
  const release = await buildRelease({ out, platforms: [platform.id], only: ["plugin"] });
  const restcloudDir = unpack(release.artifacts[0]!.file, path.join(work, "restcloud"));
  const bundleFile = await writeBundle(NOOP_SPEC, work);
  const noopArchive = await buildExecutable(NOOP_SPEC, bundleFile, platform, packageVersion(), work);
  const noopDir = unpack(noopArchive, path.join(work, "noop"));
  return { restcloudDir, noopDir, buildMs: performance.now() - started };
}

/**
 * A copy of the native floor's program whose `plugins.providers` names the executable's folder, in
 * `dir` (inside the repository, so that the program resolves @pulumi/pulumi as the original does).
 */
export function floorProgramWith(original: string, dir: string, pluginDir: string): string {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const file of fs.readdirSync(original)) {
    if (file === "Pulumi.yaml" || !fs.statSync(path.join(original, file)).isFile()) continue;
    fs.copyFileSync(path.join(original, file), path.join(dir, file));
  }
  const yaml = fs.readFileSync(path.join(original, "Pulumi.yaml"), "utf8");
  const pointed = yaml.replace(/(\n\s+path:\s*).*/, `$1${JSON.stringify(pluginDir)}`);
  if (pointed === yaml) throw new Error(`${original}/Pulumi.yaml: no plugins.providers path to point elsewhere`);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), pointed);
  return dir;
}
