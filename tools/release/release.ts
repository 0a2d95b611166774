// `npm run release`: every release artifact in one folder (default dist/release/), with SHA256SUMS and
// RELEASE-NOTES.md. docs/release.md describes the artifacts and flags.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion } from "../../provider/package-files";
import { PLUGIN_DOWNLOAD_URL, REPOSITORY } from "../../provider/plugin-release";
import { EXECUTABLES, buildExecutable, writeBundle, type ExecutableName } from "./executables";
import { goModulePath, goSources, npmTarball, pythonPackages } from "./packages";
import { PLATFORMS, type Platform, type PlatformId } from "./platforms";

export const PARTS = ["plugin", "emulator", "npm", "python", "go"] as const;
export type Part = (typeof PARTS)[number];

export interface ReleaseOptions {
  /** The folder the release is written to; emptied first (it must be empty or hold an earlier release). */
  out: string;
  platforms: readonly PlatformId[];
  only: readonly Part[];
}

export interface Artifact {
  file: string;
  part: Part;
  platform?: PlatformId;
}

export interface Release {
  dir: string;
  version: string;
  artifacts: Artifact[];
  /** What was asked for and is not in the folder, and why. */
  missing: string[];
}

/**
 * A darwin executable changed by postject carries a broken code signature, and macOS kills an arm64
 * executable without a valid one; the ad-hoc signature that would do needs Apple's codesign.
 */
const DARWIN_UNSIGNED =
  "not built: injecting the application breaks the Node.js binary's code signature, which must be " +
  "made again (ad-hoc: `codesign --sign -`, Apple's tool) before macOS runs it, and the release does " +
  "not sign; on macOS, the npm package's plugin works, run with Node.js: name its directory " +
  "(`npx restcloud-plugin path`) under `plugins.providers` in the project's Pulumi.yaml";

/** Runs `tasks` at most `limit` at a time (the machine's cores), in order of start. */
async function inParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

function prepareFolder(out: string): void {
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0 && !fs.existsSync(path.join(out, "SHA256SUMS")))
    throw new Error(`${out} is not empty and holds no earlier release (no SHA256SUMS): choose another --out`);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
}

export async function buildRelease(options: ReleaseOptions): Promise<Release> {
  const out = path.resolve(options.out);
  const version = packageVersion();
  const platforms = PLATFORMS.filter((p) => options.platforms.includes(p.id));
  const missing: string[] = [];
  const built: Platform[] = [];
  for (const platform of platforms) {
    if (platform.os === "darwin") missing.push(`${platform.id} executables: ${DARWIN_UNSIGNED}`);
    else built.push(platform);
  }
  prepareFolder(out);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-release-"));
  try {
    const tasks: (() => Promise<Artifact[]>)[] = [];
    for (const name of ["plugin", "emulator"] as ExecutableName[]) {
      if (!options.only.includes(name) || built.length === 0) continue;
      const spec = EXECUTABLES[name];
      const bundle = await writeBundle(spec, work);
      for (const platform of built)
        tasks.push(async () => [
          { part: name, platform: platform.id, file: await buildExecutable(spec, bundle, platform, version, out) },
        ]);
    }
    const packages: Record<Exclude<Part, ExecutableName>, () => Promise<string[]>> = {
      npm: () => npmTarball(out),
      python: () => pythonPackages(out),
      go: () => goSources(out, version),
    };
    for (const [part, make] of Object.entries(packages) as [Part, () => Promise<string[]>][])
      if (options.only.includes(part)) tasks.push(async () => (await make()).map((file) => ({ part, file })));
    const artifacts = (await inParallel(tasks, os.availableParallelism())).flat();
    writeChecksumsAndNotes(out, version, artifacts, missing, options.only);
    return { dir: out, version, artifacts, missing };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const sha256 = (file: string): string => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

const megabytes = (file: string): string => `${(fs.statSync(file).size / 1e6).toFixed(1)} MB`;

const DESCRIPTIONS: Record<Part, string> = {
  plugin: "the resource plugin, a single executable (no Node.js needed)",
  emulator: "the API emulator, a single executable (`restcloud-emulator --port 8080`)",
  npm: "the npm package (TypeScript/JavaScript SDK, dynamic providers, the plugin run with Node.js, the emulator)",
  python: "the Python SDK",
  go: "the Go SDK's sources, for reference (Go fetches the module by its tag, below)",
};

function writeChecksumsAndNotes(
  out: string,
  version: string,
  artifacts: Artifact[],
  missing: string[],
  only: readonly Part[],
): void {
  const rows = artifacts.map((a) => ({ ...a, name: path.basename(a.file), sha: sha256(a.file) }));
  rows.sort((a, b) => PARTS.indexOf(a.part) - PARTS.indexOf(b.part) || a.name.localeCompare(b.name));
  fs.writeFileSync(path.join(out, "SHA256SUMS"), rows.map((r) => `${r.sha}  ${r.name}\n`).join(""));

  const nodeVersions = [...new Set(PLATFORMS.filter((p) => rows.some((r) => r.platform === p.id)).map(nodeOf))];
  const skippedParts = PARTS.filter((part) => !only.includes(part)).map((part) => `${part}: not asked for (--only)`);
  const plugin =
    rows.find((r) => r.part === "plugin")?.name ?? `pulumi-resource-restcloud-v${version}-<os>-<arch>.tar.gz`;
  const lines = [
    `# pulumi-restcloud v${version}`,
    "",
    "## Artifacts",
    "",
    "| file | what | size | sha256 |",
    "|---|---|---|---|",
    ...rows.map((r) => `| ${r.name} | ${DESCRIPTIONS[r.part]} | ${megabytes(r.file)} | \`${r.sha}\` |`),
    "",
    "Check them with `sha256sum -c SHA256SUMS`.",
    ...(nodeVersions.length > 0 ? ["", `The executables embed Node.js ${nodeVersions.join(", ")}.`] : []),
    "",
    "## Not in this release",
    "",
    ...([...missing, ...skippedParts].map((m) => `- ${m}`).join("\n") || "Nothing.").split("\n"),
    "",
    "## Installing",
    "",
    `- The plugin: nothing to do where these files are the GitHub release \`v${version}\` of ` +
      `\`${REPOSITORY}\`: the SDKs name \`${PLUGIN_DOWNLOAD_URL}\`, and \`pulumi up\` downloads the plugin. ` +
      `Offline: \`pulumi plugin install resource restcloud ${version} --file ${plugin}\`.`,
    "- The emulator: unpack its archive and run `./restcloud-emulator --port 8080`.",
    `- npm: \`npm install pulumi-restcloud-${version}.tgz\`; Python: \`pip install\` the wheel.`,
    `- Go: the module \`${goModulePath()}\` is released as the git tag \`sdk/go/v${version}\` ` +
      `(\`go get ${goModulePath()}@v${version}\`).`,
    "",
  ];
  fs.writeFileSync(path.join(out, "RELEASE-NOTES.md"), lines.join("\n"));
}

const nodeOf = (p: Platform): string => `${p.node.version} (${p.id})`;
