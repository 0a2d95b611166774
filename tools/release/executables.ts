// The plugin and the emulator as Node.js single executable applications (an official binary with the bundle injected by
// postject), each in a `.tar.gz` with the executable at its root, as `pulumi plugin install --file` and Pulumi's
// download expect.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import * as fs from "node:fs";
import * as path from "node:path";
import { PACKAGE_FILES } from "../../provider/package-files";
import { bundle, REPO_ROOT } from "./bundle";
import { blobMaker, nodeBinary } from "./node-binaries";
import { hostPlatform, type Platform } from "./platforms";

export type ExecutableName = "plugin" | "emulator";

export interface ExecutableSpec {
  name: ExecutableName;
  /** The executable's file name (without `.exe`), and the prefix of its archive's name. */
  file: string;
  entry: string;
  /** The package files the executable reads at run time (provider/package-files.ts). */
  assets: readonly string[];
  /** Starts from a startup snapshot its entry prepares (provider/native-plugin.ts), not from a code cache. */
  snapshot?: boolean;
}

export const EXECUTABLES: Record<ExecutableName, ExecutableSpec> = {
  plugin: {
    name: "plugin",
    file: "pulumi-resource-restcloud",
    entry: "dist/provider/native-plugin.js",
    assets: PACKAGE_FILES,
    snapshot: true,
  },
  emulator: {
    name: "emulator",
    file: "restcloud-emulator",
    entry: "dist/emulator/cli.js",
    assets: [],
  },
};

/** The fuse Node.js looks for to know it carries an application (Node.js's SEA documentation). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

export const archiveName = (spec: ExecutableSpec, version: string, platform: Platform): string =>
  `${spec.file}-v${version}-${platform.id}.tar.gz`;

/** The bundle of each executable, made once for all platforms. */
export async function writeBundle(spec: ExecutableSpec, work: string): Promise<string> {
  const { code, warnings } = await bundle(spec.entry, { forSnapshot: spec.snapshot });
  for (const warning of warnings) process.stderr.write(`[release] ${spec.file}: ${warning}`);
  const file = path.join(work, `${spec.file}.js`);
  fs.writeFileSync(file, code);
  return file;
}

/**
 * Removes a Windows executable's Authenticode signature (what `signtool remove /s` does): injecting
 * the application moves the file's contents, and the signature of the Node.js binary would be left
 * pointing into them, an invalid signature rather than none. The signature is the last thing in the
 * file, named by the optional header's Certificate Table entry (PE format, data directory 4).
 */
export function removeWindowsSignature(file: string): void {
  const image = fs.readFileSync(file);
  const header = image.readUInt32LE(0x3c);
  const optional = header + 24;
  const pe32plus = image.readUInt16LE(optional) === 0x20b;
  const certificateTable = optional + (pe32plus ? 112 : 96) + 4 * 8;
  const offset = image.readUInt32LE(certificateTable);
  const size = image.readUInt32LE(certificateTable + 4);
  if (size === 0) return;
  if (offset + size !== image.length) throw new Error(`${file}: its signature is not at the end of the file`);
  image.writeUInt32LE(0, certificateTable);
  image.writeUInt32LE(0, certificateTable + 4);
  fs.writeFileSync(file, image.subarray(0, offset));
}

/** Runs a tool, its output shown only when it fails (postject prints warnings of no consequence). */
async function run(command: string, args: readonly string[]): Promise<void> {
  try {
    await promisify(execFile)(command, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${path.basename(command)} ${args.join(" ")} failed\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

/**
 * `spec`'s executable for `platform` from its bundle, archived into `out`; answers the archive's path.
 * A code cache (compiled code, so that start-up skips compiling the bundle) or a startup snapshot (the
 * heap once the entry's modules ran, so that start-up skips running them too) can be made only for the
 * machine that makes the blob, so only the host platform's executable has one.
 */
export async function buildExecutable(
  spec: ExecutableSpec,
  bundleFile: string,
  platform: Platform,
  version: string,
  out: string,
): Promise<string> {
  const work = fs.mkdtempSync(path.join(path.dirname(bundleFile), `${spec.file}-${platform.id}-`));
  try {
    const blob = path.join(work, "sea.blob");
    const host = platform.id === hostPlatform()?.id;
    const config = {
      main: bundleFile,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: host && spec.snapshot === true,
      useCodeCache: host && spec.snapshot !== true,
      assets: Object.fromEntries(spec.assets.map((name) => [name, path.join(REPO_ROOT, name)])),
    };
    const configFile = path.join(work, "sea-config.json");
    fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
    await run(blobMaker(platform), ["--experimental-sea-config", configFile]);

    const executable = path.join(work, `${spec.file}${platform.executableSuffix}`);
    fs.copyFileSync(nodeBinary(platform), executable);
    fs.chmodSync(executable, 0o755);
    if (platform.os === "windows") removeWindowsSignature(executable);
    const macho = platform.os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [];
    await run(process.execPath, [
      require.resolve("postject/dist/cli.js"),
      executable,
      "NODE_SEA_BLOB",
      blob,
      "--sentinel-fuse",
      SEA_FUSE,
      ...macho,
    ]);

    const archive = path.join(out, archiveName(spec, version, platform));
    const owner = ["--owner=0", "--group=0", "--numeric-owner"];
    await run("tar", ["-czf", archive, ...owner, "-C", work, path.basename(executable)]);
    return archive;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
