#!/usr/bin/env node
// `restcloud-plugin`: where this package's Node.js-run plugin lies, for projects that name it in Pulumi.yaml (this
// checkout's tests and examples). Users need no install: Pulumi downloads the released plugin. The old `install`, whose
// launcher would shadow that download, is retired and says what to do instead.
import * as path from "node:path";
import { packageRoot, packageVersion } from "../package-files";

const pluginDir = path.join(packageRoot, "plugin");
const version = packageVersion();

const RETIRED_INSTALL = [
  `restcloud-plugin install is no longer needed: Pulumi downloads pulumi-resource-restcloud v${version} on`,
  "first use (Python, Go, YAML, and TypeScript in the native mode).",
  `Offline: pulumi plugin install resource restcloud ${version} --file pulumi-resource-restcloud-v${version}-<os>-<arch>.tar.gz`,
  "(a release's file). An earlier `restcloud-plugin install` left a Node.js launcher in the plugin cache;",
  `\`pulumi plugin rm resource restcloud ${version} --yes\` removes it, so that the download takes its place.`,
  "",
].join("\n");

const HELP = [
  "usage: restcloud-plugin path",
  "",
  "  path  prints the directory of this package's plugin (run with Node.js), to name in a",
  "        project's Pulumi.yaml in place of the released plugin:",
  "          plugins: { providers: [ { name: restcloud, path: <that directory> } ] }",
  "",
  `Otherwise Pulumi downloads the released plugin v${version} itself when a program first needs it.`,
  "",
].join("\n");

const command = process.argv[2];
if (command === "path") process.stdout.write(`${pluginDir}\n`);
else if (command === "install") {
  process.stderr.write(RETIRED_INSTALL);
  process.exit(1);
} else {
  const asked = command === "help" || command === "--help";
  (asked ? process.stdout : process.stderr).write(HELP);
  process.exit(asked ? 0 : 2);
}
