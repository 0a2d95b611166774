/**
 * What the Go end-to-end tests share: a Go program built once per test file, and a stack that it
 * and the harness both reach.
 *
 * A Go program here runs through the Automation API (its `main` runs `up`, `preview`, `refresh` or
 * `destroy` on an inline program in its directory's project), because the Go language host cannot
 * be built here (its module is not served). The harness's TestStack is created on the same project
 * directory, backend and PULUMI_HOME: the test sets the stack's config through it (`pulumi config
 * set`, as a user would), and reads the state (exportStack) and audits the account through it.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TestStack, REPO_ROOT, pulumiCliRoot, type StackOptions } from "../harness";

/** The passphrase of the stacks' secrets, shared by the harness and the Go program. */
const PASSPHRASE = "restcloud-go-e2e-passphrase";

export const VPC_WEB_GO = path.join(REPO_ROOT, "examples", "vpc-web-go");
/** Typed function results, a secret, a replacement, a bad argument: see its main.go. */
export const CHECKS_PROGRAM = path.join(__dirname, "programs", "checks");

export interface GoBuild {
  binary: string;
  /** The build's wall time. */
  ms: number;
}

/** `go build` of the module in `dir`, into a temporary directory (removed by `removeBuild`). */
export async function buildGoProgram(dir: string): Promise<GoBuild> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-go-build-"));
  const binary = path.join(out, path.basename(dir));
  const started = Date.now();
  await new Promise<void>((resolve, reject) =>
    execFile("go", ["build", "-o", binary, "."], { cwd: dir, maxBuffer: 16 << 20 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`go build in ${dir}: ${error.message}\n${stderr}`)) : resolve(),
    ),
  );
  return { binary, ms: Date.now() - started };
}

export function removeBuild(build: GoBuild | undefined): void {
  if (build) fs.rmSync(path.dirname(build.binary), { recursive: true, force: true });
}

export interface GoRun {
  /** The process's exit code. */
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** A stack of a Go project, operated by the project's built program. */
export class GoStack {
  private constructor(
    /** The harness's handle on the same stack: config, state, audit. */
    readonly harness: TestStack,
    private readonly build: GoBuild,
    private readonly programDir: string,
    readonly stackName: string,
  ) {}

  /** The stack's settings file (its config, secrets encrypted), beside Pulumi.yaml. */
  get settingsFile(): string {
    return path.join(this.programDir, `Pulumi.${this.stackName}.yaml`);
  }

  static async create(build: GoBuild, options: Omit<StackOptions, "env" | "stackName">): Promise<GoStack> {
    // A name of its own: two test files may use the same project, each writing Pulumi.<stack>.yaml.
    const stackName = `go-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const harness = await TestStack.create({ ...options, stackName, env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE } });
    return new GoStack(harness, build, options.programDir, stackName);
  }

  /**
   * The Go program's environment: the user's, but for Pulumi and RestCloud settings, plus the
   * harness's backend and PULUMI_HOME, the pinned CLI on PATH, and Node 22 first (the plugin runs on it).
   */
  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (!/^(PULUMI_|RESTCLOUD_)/.test(key)) env[key] = value;
    }
    return {
      ...env,
      PATH: [
        path.join(REPO_ROOT, "node_modules", ".bin"),
        path.join(pulumiCliRoot(), "bin"),
        process.env.PATH ?? "",
      ].join(path.delimiter),
      PULUMI_BACKEND_URL: `file://${path.join(this.harness.tempDir, "backend")}`,
      PULUMI_HOME: path.join(this.harness.tempDir, "home"),
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
  }

  /** Runs `<program> <command> -stack <name> [flags]` in the project's directory; never throws on an exit code. */
  async run(command: string, ...flags: string[]): Promise<GoRun> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      execFile(
        this.build.binary,
        [command, "-stack", this.stackName, ...flags],
        { cwd: this.programDir, env: this.env(), maxBuffer: 64 << 20, timeout: 300_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : undefined) : 0;
          if (code === undefined) reject(error!);
          else resolve({ code, stdout, stderr, ms: Date.now() - started });
        },
      );
    });
  }

  /** A run that must succeed: its output is in the error otherwise. */
  async runOk(command: string, ...flags: string[]): Promise<GoRun> {
    const result = await this.run(command, ...flags);
    if (result.code !== 0) {
      throw new Error(`${command} exited ${result.code}\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-3000)}`);
    }
    return result;
  }

  /** `up`, and the outputs it printed as JSON on its last line. */
  async up(): Promise<GoRun & { outputs: Record<string, unknown> }> {
    const result = await this.runOk("up");
    const last = result.stdout.trim().split("\n").pop()!;
    return { ...result, outputs: JSON.parse(last) as Record<string, unknown> };
  }

  async dispose(): Promise<void> {
    await this.harness.dispose();
  }
}

/** The lines of a run's output that Pulumi prints as warnings. */
export function warnings(run: GoRun): string[] {
  return `${run.stdout}\n${run.stderr}`.split("\n").filter((line) => /^\s*warning:/i.test(line));
}
