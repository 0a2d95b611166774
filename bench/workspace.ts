/**
 * Pulumi stacks for the benchmark, offline as in the e2e tests (tests/e2e/harness.ts, which runs
 * under jest from the sources; this runs compiled, from dist/bench): a file backend and a
 * PULUMI_HOME in a temporary directory, a passphrase, no update checks, no plugin downloads, the
 * repository's Node 22 first on PATH, and programs transpiled rather than type checked.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type Stack } from "@pulumi/pulumi/automation";

/** dist/bench/workspace.js, two levels below the repository root. */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** The bin/ directory of the pinned Pulumi CLI (installed or found by scripts/install-pulumi-cli.sh). */
function pulumiBinDir(): string {
  const out = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "install-pulumi-cli.sh")], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").pop()!;
}

let binDir: string | undefined;

export interface BenchStack {
  stack: Stack;
  dispose(): void;
}

export async function createStack(
  programDir: string,
  stackName: string,
  config: Record<string, string | { value: string; secret: boolean }>,
): Promise<BenchStack> {
  binDir ??= pulumiBinDir();
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-bench-"));
  const backendDir = path.join(tempDir, "backend");
  const homeDir = path.join(tempDir, "home");
  fs.mkdirSync(backendDir);
  fs.mkdirSync(homeDir);
  const env: Record<string, string> = {
    PATH: [
      path.join(REPO_ROOT, "node_modules", ".bin"),
      path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi"),
      binDir,
      process.env.PATH ?? "",
    ].join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_HOME: homeDir,
    PULUMI_CONFIG_PASSPHRASE: "restcloud-bench-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(binDir), skipVersionCheck: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir: programDir },
    { envVars: env, pulumiHome: homeDir, pulumiCommand },
  );
  const configMap: ConfigMap = {};
  for (const [key, value] of Object.entries(config)) configMap[key] = typeof value === "string" ? { value } : value;
  await stack.setAllConfig(configMap);
  return {
    stack,
    dispose: () => {
      // The stack's config file lives in the program directory: leave no trace there.
      fs.rmSync(path.join(programDir, `Pulumi.${stackName}.yaml`), { force: true });
      fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
