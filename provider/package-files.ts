// The package files the native plugin reads at run time (package.json's version, schema.json): beside dist/ in the npm
// package, or the single executable's assets of the same names.
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

export type PackageFile = "package.json" | "schema.json";

/** What the release puts in the SEA config's `assets`, each under its own name. */
export const PACKAGE_FILES: readonly PackageFile[] = ["package.json", "schema.json"];

/** The nearest directory above this module holding a package.json: the package (from dist/ or the sources). */
function findPackageRoot(): string {
  let dir = path.dirname(__dirname);
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const packageRoot = findPackageRoot();

export function packageFileText(name: PackageFile): string {
  // node:sea is loaded here, not imported: the release plugin's startup snapshot holds this module (native-plugin.ts).
  const sea = process.getBuiltinModule("node:sea");
  return sea.isSea() ? sea.getAsset(name, "utf8") : readFileSync(path.join(packageRoot, name), "utf8");
}

let version: string | undefined;

/** This package's version: the plugin's and the SDKs' too (read once: each native registration names it). */
export const packageVersion = (): string =>
  (version ??= (JSON.parse(packageFileText("package.json")) as { version: string }).version);
