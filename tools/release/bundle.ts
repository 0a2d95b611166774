// One JavaScript file per executable, by esbuild from dist/: a single executable application runs one script and can
// require only Node's built-ins, so the whole program must be inside it.
import * as path from "node:path";
import * as esbuild from "esbuild";
import { SDK_MODULES } from "../../provider/native/sdk-modules";
import { packageRoot } from "../../provider/package-files";

export const REPO_ROOT = packageRoot;

/**
 * provider/native/sdk-modules resolves its modules from @pulumi/pulumi's directory at run time, which
 * a bundler cannot follow: the bundle gets a module of static requires in its place, each of a file
 * resolved as that module resolves it, and each still loaded on first use (esbuild keeps a require in
 * a function lazy), so the plugin prints its port as early as before.
 */
const staticSdkModules: esbuild.Plugin = {
  name: "static-sdk-modules",
  setup(build) {
    build.onLoad({ filter: /[\\/]provider[\\/]native[\\/]sdk-modules\.js$/ }, () => {
      const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
      const loaders = SDK_MODULES.map((name) => {
        const file = name.startsWith("@pulumi/pulumi/")
          ? require.resolve(name)
          : require.resolve(name, { paths: [sdkRoot] });
        return `  ${JSON.stringify(name)}: () => require(${JSON.stringify(file)}),`;
      });
      return {
        loader: "js",
        resolveDir: sdkRoot,
        contents: [
          `const loaders = {\n${loaders.join("\n")}\n};`,
          "exports.SDK_MODULES = Object.keys(loaders);",
          "exports.sdkModule = (name) => loaders[name]();",
        ].join("\n"),
      };
    });
  },
};

/**
 * Neither executable loads the Pulumi SDK (only a program constructing a resource class does:
 * provider/program/pulumi-sdk.ts), but the plugin's modules name it in requires made on first use, which
 * a bundler follows: 8 MB of the SDK (TypeScript included) in the bundle for nothing. Here the SDK's
 * main module is one that fails if it is ever loaded.
 */
const withoutPulumiSdk: esbuild.Plugin = {
  name: "without-pulumi-sdk",
  setup(build) {
    build.onResolve({ filter: /^@pulumi\/pulumi$/ }, () => ({ path: "@pulumi/pulumi", namespace: "absent" }));
    build.onLoad({ filter: /.*/, namespace: "absent" }, () => ({
      loader: "js",
      contents: 'throw new Error("the Pulumi SDK is not part of this executable");',
    }));
  },
};

export interface BundleResult {
  code: string;
  warnings: string[];
}

/**
 * `entry` (a file of dist/) and everything it requires, as one script. For a startup snapshot's main script, which
 * has no `exports`, the entry runs wrapped like the other modules (an iife); otherwise as the main module.
 */
export async function bundle(entry: string, options: { forSnapshot?: boolean } = {}): Promise<BundleResult> {
  const result = await esbuild.build({
    entryPoints: [path.join(REPO_ROOT, entry)],
    bundle: true,
    platform: "node",
    target: "node22",
    format: options.forSnapshot ? "iife" : "cjs",
    minify: true,
    keepNames: true,
    legalComments: "none",
    logLevel: "silent",
    write: false,
    plugins: [staticSdkModules, withoutPulumiSdk],
  });
  const warnings = await esbuild.formatMessages(result.warnings, { kind: "warning" });
  // A SEA's main script is compiled as a function body, where a `#!` line is a syntax error.
  const code = result.outputFiles[0].text.replace(/^#!.*\n/, "");
  return { code, warnings };
}
