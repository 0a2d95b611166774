// The Python and Go SDKs, written from schema.json by tools/sdkgen over Pulumi's code generators (a Go program built
// once by scripts/build-sdkgen.sh). It is given the schema's text, so a check compares with the current declarations.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The directories every file of which tools/sdkgen writes (others there are removed). */
export const SDK_DIRS = ["sdk/python", "sdk/go"] as const;

/** The generator's binary, built first if the cache lacks it. */
function sdkgenBinary(root: string): string {
  const out = execFileSync("bash", [path.join(root, "scripts", "build-sdkgen.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").pop()!;
}

/** Every file below dir, by its path relative to dir (with `/`), dot files included. */
export function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/**
 * The files of an SDK directory on disk, less what its generated .gitignore leaves out (a
 * `pip install sdk/python` writes build/ and *.egg-info there; they are no stale generated files).
 * The patterns the generators write are plain names and `*.suffix`, matched against every segment.
 */
export function sdkFilesOnDisk(dir: string): string[] {
  const ignoreFile = path.join(dir, ".gitignore");
  const patterns = fs.existsSync(ignoreFile)
    ? fs
        .readFileSync(ignoreFile, "utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "" && !line.startsWith("#"))
    : [];
  const ignored = (segment: string) =>
    patterns.some((p) => (p.startsWith("*") ? segment.endsWith(p.slice(1)) : segment === p));
  return filesBelow(dir).filter((file) => !file.split("/").some(ignored));
}

/** The SDKs' files that this schema gives, by path relative to the root (`sdk/python/...`). */
export function sdkFiles(root: string, schemaText: string): Map<string, string> {
  const binary = sdkgenBinary(root);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-sdkgen-"));
  try {
    const schemaPath = path.join(work, "schema.json");
    fs.writeFileSync(schemaPath, schemaText);
    const out = path.join(work, "sdk");
    execFileSync(binary, ["-schema", schemaPath, "-out", out], { stdio: ["ignore", "ignore", "inherit"] });
    return new Map(
      filesBelow(out).map((file): [string, string] => [`sdk/${file}`, fs.readFileSync(path.join(out, file), "utf8")]),
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
