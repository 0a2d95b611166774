// Node.js binaries of the release's platforms, fetched with `npm pack` (the registry's integrity check and cache) and
// kept in ~/.cache/pulumi-restcloud/node-binaries/<package>-<version>/.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostPlatform, type Platform } from "./platforms";

export const cacheRoot = (): string =>
  process.env.RESTCLOUD_PULUMI_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-restcloud");

/** The path of `platform`'s Node.js binary at `version`, fetched on first use. */
export function nodeBinary(platform: Platform, version = platform.node.version): string {
  const { package: name, binary } = platform.node;
  const dir = path.join(cacheRoot(), "node-binaries", `${name}-${version}`);
  const file = path.join(dir, path.basename(binary));
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Unpacked beside the cache under a name of this process's own, then renamed: concurrent releases
  // (parallel test workers) each fetch one, and the first rename wins.
  const work = fs.mkdtempSync(`${dir}.tmp-`);
  try {
    process.stderr.write(`[release] fetching ${name}@${version} (once; cached in ${dir})\n`);
    const packed = execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", work, "--silent"], {
      encoding: "utf8",
      cwd: work,
    })
      .trim()
      .split("\n")
      .pop()!;
    execFileSync("tar", ["-xzf", path.join(work, packed), "-C", work, `package/${binary}`]);
    fs.mkdirSync(path.join(work, "out"));
    fs.renameSync(path.join(work, "package", binary), path.join(work, "out", path.basename(binary)));
    try {
      fs.renameSync(path.join(work, "out"), dir);
    } catch (error) {
      if (!fs.existsSync(file)) throw error;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return file;
}

/**
 * The Node.js that makes `platform`'s SEA blob: one of this machine's platform at the version the
 * target binary is (Node.js requires the two to match).
 */
export function blobMaker(platform: Platform): string {
  const host = hostPlatform();
  if (!host) throw new Error(`no Node.js binary for this machine (${process.platform}-${process.arch})`);
  return nodeBinary(host, platform.node.version);
}
