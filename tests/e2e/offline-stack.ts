/**
 * A Pulumi stack run offline, as the e2e harness and the benchmark both need it: a file backend and
 * a PULUMI_HOME in a temporary directory, a passphrase, no update checks, no plugin downloads, the
 * repository's Node 22 first on PATH (for the language host and the dynamic-provider plugin), and
 * programs transpiled rather than type-checked (`npm run typecheck` checks them once).
 *
 * The repository root is a parameter: the harness runs from the sources under jest, the benchmark
 * compiled from dist/, so each knows its own way there.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type Stack } from "@pulumi/pulumi/automation";

export type StackConfig = Record<string, string | { value: string; secret: boolean }>;

const cliRoots = new Map<string, string>();

/**
 * The directory whose bin/ holds `pulumi` and `pulumi-language-nodejs`: installed (or found in its
 * cache, or on PATH) by scripts/install-pulumi-cli.sh, which prints its bin/ as its last line.
 */
export function pulumiCliRoot(repoRoot: string): string {
  let root = cliRoots.get(repoRoot);
  if (root === undefined) {
    const out = execFileSync("bash", [path.join(repoRoot, "scripts", "install-pulumi-cli.sh")], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    root = path.dirname(out.trim().split("\n").pop()!);
    cliRoots.set(repoRoot, root);
  }
  return root;
}

export interface OfflineStackOptions {
  repoRoot: string;
  /** A directory holding Pulumi.yaml and the program. */
  programDir: string;
  /** The stack's name; default: one derived from its temporary directory. */
  stackName?: string;
  /** Stack configuration: plain values, or `{ value, secret: true }`. */
  config?: StackConfig;
  /** Extra environment for the CLI, the program and the providers. */
  env?: Record<string, string>;
  /** The prefix of the temporary directory (e.g. "restcloud-e2e-"). */
  tempPrefix: string;
  /** A PULUMI_HOME of the caller's (a CI runner's, its stacks share it); default: one in the temporary directory. */
  pulumiHome?: string;
  /** The backend that PULUMI_HOME is logged in to (`pulumi login`), instead of a file backend of the stack's own. */
  loggedIn?: boolean;
}

export interface OfflineStack {
  stack: Stack;
  /** The temporary directory holding the backend (`backend/`) and PULUMI_HOME (`home/`). */
  tempDir: string;
  /** The stack's settings file, which Pulumi writes beside Pulumi.yaml. */
  settingsFile: string;
}

/**
 * The environment of the CLI, the program and the providers: PULUMI_HOME, the backend (a file backend
 * in `backendDir`, or none: the one PULUMI_HOME is logged in to), a passphrase, offline settings.
 */
export function offlineEnv(
  repoRoot: string,
  homeDir: string,
  backendDir: string | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  const cliRoot = pulumiCliRoot(repoRoot);
  return {
    PATH: [
      path.join(repoRoot, "node_modules", ".bin"), // Node 22
      // pulumi, the language host and the dynamic-provider plugin, side by side as in the official
      // distribution (scripts/install-pulumi-cli.sh): found there, Pulumi warns of no plugin on $PATH.
      path.join(cliRoot, "bin"),
      process.env.PATH ?? "",
    ].join(path.delimiter),
    ...(backendDir !== undefined ? { PULUMI_BACKEND_URL: `file://${backendDir}` } : {}),
    PULUMI_HOME: homeDir,
    PULUMI_CONFIG_PASSPHRASE: "restcloud-offline-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    // The programs' tsconfig then needs module "nodenext".
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    ...extra,
  };
}

export async function createOfflineStack(options: OfflineStackOptions): Promise<OfflineStack> {
  const { repoRoot, programDir, tempPrefix } = options;
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), tempPrefix));
  const backendDir = path.join(tempDir, "backend");
  const homeDir = options.pulumiHome ?? path.join(tempDir, "home");
  fs.mkdirSync(backendDir);
  fs.mkdirSync(homeDir, { recursive: true });
  const cliRoot = pulumiCliRoot(repoRoot);
  const env = offlineEnv(repoRoot, homeDir, options.loggedIn ? undefined : backendDir, options.env);
  const pulumiCommand = await PulumiCommand.get({ root: cliRoot, skipVersionCheck: true });
  // A stack name of its own: two runs may use the same program, and each writes Pulumi.<stack>.yaml.
  const stackName = options.stackName ?? `test-${path.basename(tempDir).slice(tempPrefix.length).toLowerCase()}`;
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir: programDir },
    { envVars: env, pulumiHome: homeDir, pulumiCommand },
  );
  if (options.config) {
    const config: ConfigMap = {};
    for (const [key, value] of Object.entries(options.config)) {
      config[key] = typeof value === "string" ? { value } : value;
    }
    await stack.setAllConfig(config);
  }
  return { stack, tempDir, settingsFile: path.join(programDir, `Pulumi.${stackName}.yaml`) };
}
