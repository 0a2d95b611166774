// Generates schema.json, docs/ (operations.md too) and the README's tables from the registries and
// provider/settings.ts, then the Python and Go SDKs from schema.json (sdks.ts). `node dist/provider/schema/generate.js`
// writes them; `--check` reports the stale ones (exit 1), as the unit test does.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { BY_TYPE, DECLARATIONS } from "../resources/registry";
import { classesModule, declaredKinds, registryModule } from "./registry-modules";
import { FUNCTIONS } from "../functions/registry";
import { packageModel, type PackageModel } from "./model";
import { schemaJson } from "./package-schema";
import { PLUGIN_DOWNLOAD_URL } from "../plugin-release";
import { operationRows, operationsDoc } from "./operations";
import { sdkFiles, sdkFilesOnDisk, SDK_DIRS } from "./sdks";
import {
  referenceDocs,
  settingsTable,
  SETTINGS_BEGIN,
  SETTINGS_END,
  spliceReadme,
  updateReplaceTables,
} from "./markdown";

/** The checkout's root: the nearest directory up whose package.json is this package's. */
export function repoRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === "pulumi-restcloud")
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-restcloud package.json above ${from}`);
  }
}

export function currentModel(root: string = repoRoot()): PackageModel {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
    description: string;
    license: string;
    dependencies: Record<string, string>;
  };
  return packageModel(DECLARATIONS, FUNCTIONS, {
    version: manifest.version,
    description: manifest.description,
    license: manifest.license,
    npmPackage: manifest.name,
    pulumiSdkVersion: manifest.dependencies["@pulumi/pulumi"].replace(/^[^0-9]*/, ""),
  });
}

/**
 * Pulumi YAML's declaration of the package (a file of the project, as `pulumi package add` writes it):
 * the plugin's version and download URL, for every resource and function of the program at once.
 */
function yamlPackageDeclaration(model: PackageModel): string {
  return [
    "# The restcloud package for a Pulumi YAML program: copy this file into the project (beside",
    "# Pulumi.yaml). pulumi-language-yaml reads it, and the engine downloads the plugin of this version.",
    "packageDeclarationVersion: 1",
    `name: ${model.name}`,
    `version: ${model.version}`,
    `downloadUrl: ${PLUGIN_DOWNLOAD_URL}`,
    "",
  ].join("\n");
}

/** The directories under docs/ whose every .md file is generated (others there are removed). */
const GENERATED_DOC_DIRS = ["docs/resources", "docs/functions"];

/** Every generated file, by path relative to the root, with its content. */
export function generatedFiles(
  root: string = repoRoot(),
  model: PackageModel = currentModel(root),
): Map<string, string> {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const schema = schemaJson(model);
  const kinds = declaredKinds(root);
  return new Map([
    ["provider/resources/registry.ts", registryModule(kinds)],
    ["provider/program/classes.ts", classesModule(kinds, BY_TYPE)],
    ["schema.json", schema],
    ...sdkFiles(root, schema),
    ["sdk/yaml/restcloud.yaml", yamlPackageDeclaration(model)],
    ...[...referenceDocs(model)].map(([page, text]): [string, string] => [`docs/${page}`, text]),
    ["docs/operations.md", operationsDoc(operationRows(root))],
    [
      "README.md",
      spliceReadme(spliceReadme(readme, updateReplaceTables(model)), settingsTable(model), [
        SETTINGS_BEGIN,
        SETTINGS_END,
      ]),
    ],
  ]);
}

/** Generated files on disk that the registries no longer produce: pages, and any file of the SDKs. */
function orphanedPages(root: string, files: ReadonlyMap<string, string>): string[] {
  const pages = GENERATED_DOC_DIRS.flatMap((dir) => {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) return [];
    return fs
      .readdirSync(full)
      .filter((f) => f.endsWith(".md"))
      .map((f) => `${dir}/${f}`);
  });
  const sdk = SDK_DIRS.flatMap((dir) => sdkFilesOnDisk(path.join(root, dir)).map((f) => `${dir}/${f}`));
  return [...pages, ...sdk].filter((f) => !files.has(f));
}

/** The generated files that differ from what the registries give, and the orphaned pages. */
export function staleFiles(root: string = repoRoot()): string[] {
  const files = generatedFiles(root);
  const differing = [...files].filter(([file, text]) => {
    const full = path.join(root, file);
    return !fs.existsSync(full) || fs.readFileSync(full, "utf8") !== text;
  });
  return [...differing.map(([file]) => file), ...orphanedPages(root, files)];
}

/** Writes every generated file that changed and removes orphaned pages; returns what it touched. */
export function writeGenerated(root: string = repoRoot()): string[] {
  const files = generatedFiles(root);
  const touched: string[] = [];
  for (const [file, text] of files) {
    const full = path.join(root, file);
    if (fs.existsSync(full) && fs.readFileSync(full, "utf8") === text) continue;
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
    touched.push(file);
  }
  for (const file of orphanedPages(root, files)) {
    fs.rmSync(path.join(root, file));
    touched.push(`${file} (removed)`);
  }
  return touched;
}

if (require.main === module) {
  if (process.argv.includes("--check")) {
    const stale = staleFiles();
    if (stale.length > 0) {
      console.error(`stale generated files (run npm run generate): ${stale.join(", ")}`);
      process.exit(1);
    }
    console.log("schema.json, docs/, sdk/ and the README's tables are current");
  } else {
    const touched = writeGenerated();
    console.log(touched.length > 0 ? `wrote ${touched.join(", ")}` : "everything was current");
    // A new or removed kind changes the registry: build again, and generate the rest from it.
    if (touched.some((file) => file.startsWith("provider/")) && !process.argv.includes("--again")) {
      const run = (command: string, args: string[]) =>
        execFileSync(command, args, { cwd: repoRoot(), stdio: "inherit" });
      run("npm", ["run", "build", "--silent"]);
      run(process.execPath, [__filename, "--again"]);
    }
  }
}
