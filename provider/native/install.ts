#!/usr/bin/env node
/**
 * `restcloud-plugin`: the native plugin's one-step installs, offline.
 *
 *   npx restcloud-plugin path      the directory to name in Pulumi.yaml (`plugins.providers`)
 *   npx restcloud-plugin install   `pulumi plugin install resource restcloud <version> --file ...`:
 *                                  the plugin in Pulumi's plugin cache, for every project on the machine
 *
 * The cached plugin is a launcher that runs this installed package's plugin with Node.js: the
 * package stays where npm put it, and an upgrade of it is an upgrade of the plugin.
 *
 * Python, Go and YAML programs always use the plugin (their SDKs ask the engine for
 * `restcloud` at this package's version); TypeScript programs use it with `restcloud:mode native`.
 * Either route is silent; a plugin found on PATH makes Pulumi print a warning on every run.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageRoot, packageVersion } from "../package-files";

const pluginDir = path.join(packageRoot, "plugin");
const version = packageVersion();

function install(): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-plugin-"));
  try {
    const launcher = path.join(work, "pulumi-resource-restcloud");
    const entry = path.join(packageRoot, "dist", "provider", "native-plugin.js");
    fs.writeFileSync(launcher, `#!/bin/sh\nexec node ${JSON.stringify(entry)} "$@"\n`, { mode: 0o755 });
    const tarball = path.join(work, `pulumi-resource-restcloud-v${version}.tar.gz`);
    execFileSync("tar", ["-czf", tarball, "-C", work, "pulumi-resource-restcloud"]);
    execFileSync("pulumi", ["plugin", "install", "resource", "restcloud", version, "--file", tarball, "--reinstall"], {
      stdio: "inherit",
    });
    process.stdout.write(
      `installed the restcloud plugin v${version} (it runs ${entry}): ` +
        "every Pulumi program on this machine (Python, Go, YAML, or TypeScript in the native mode) now finds it\n",
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const command = process.argv[2];
if (command === "path") process.stdout.write(`${pluginDir}\n`);
else if (command === "install") install();
else {
  const asked = command === "help" || command === "--help";
  (asked ? process.stdout : process.stderr).write(
    [
      "usage: restcloud-plugin path | install",
      "",
      "  path     prints the directory to name in a project's Pulumi.yaml:",
      "             plugins: { providers: [ { name: restcloud, path: <that directory> } ] }",
      "  install  puts the plugin in Pulumi's plugin cache, for every project on this machine",
      "",
      "Python, Go and YAML programs need the plugin by one of these routes (the SDKs ask for",
      `restcloud v${version}); TypeScript programs need it only with \`restcloud:mode native\`.`,
      "A plugin found on PATH works too, but Pulumi then warns on every run.",
      "",
    ].join("\n"),
  );
  process.exit(asked ? 0 : 2);
}
