// CI runners of a team: each a PULUMI_HOME of its own, logged in (`pulumi login`) to the team's backend,
// its commands separate processes; its stacks use that login, as a runner's jobs would.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { offlineEnv } from "../offline-stack";
import { REPO_ROOT, TestStack, pulumiCliRoot, type StackOptions } from "../harness";

/** What a command answered. */
export interface RunnerResult {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** A backend to log in to: its URL, and the environment its clients need (an object store's keys). */
export interface Backend {
  loginUrl: string;
  env: Record<string, string>;
}

export class Runner {
  private constructor(
    readonly name: string,
    /** The runner's directory: its PULUMI_HOME (`home/`). */
    readonly dir: string,
    readonly home: string,
    readonly env: Record<string, string>,
    private readonly backend: Backend,
  ) {}

  /** A runner logged in to the backend with `pulumi login` (its environment: what the backend's clients need). */
  static async login(name: string, backend: Backend): Promise<Runner> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `restcloud-runner-${name}-`));
    const home = path.join(dir, "home");
    fs.mkdirSync(home);
    const runner = new Runner(name, dir, home, offlineEnv(REPO_ROOT, home, undefined, backend.env), backend);
    const login = await runner.run(path.join(pulumiCliRoot(), "bin", "pulumi"), ["login", backend.loginUrl], dir);
    if (login.code !== 0) {
      runner.dispose();
      throw new Error(`runner ${name}: ${login.command}: exit ${login.code}\n${login.stderr}`);
    }
    return runner;
  }

  /**
   * Runners logged in to one backend: the first alone, since the CLI creates the PostgreSQL backend's
   * table at login (`CREATE TABLE IF NOT EXISTS`), and two first logins at once may both try: one fails
   * with "duplicate key value violates unique constraint pg_type_typname_nsp_index" (CLI 3.274.1).
   */
  static async loginAll(names: readonly string[], backend: Backend): Promise<Runner[]> {
    const first = await Runner.login(names[0], backend);
    return [first, ...(await Promise.all(names.slice(1).map((name) => Runner.login(name, backend))))];
  }

  /** A stack of a program in the runner's backend (created, or selected when another runner made it). */
  stack(options: StackOptions): Promise<TestStack> {
    return TestStack.create({
      ...options,
      env: { ...this.backend.env, ...options.env },
      pulumiHome: this.home,
      loggedIn: true,
    });
  }

  /** Runs a program in the runner's environment; never throws. */
  run(program: string, args: readonly string[], cwd: string, extraEnv: Record<string, string> = {}) {
    return new Promise<RunnerResult>((resolve) => {
      execFile(
        program,
        args,
        { cwd, env: { ...process.env, ...this.env, ...extraEnv }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
          resolve({ command: `${path.basename(program)} ${args.join(" ")}`, code, stdout, stderr });
        },
      );
    });
  }

  /** `restcloud ARGS` as a user runs it: the built CLI, in the program's directory. */
  restcloud(args: readonly string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<RunnerResult> {
    return this.run(process.execPath, [path.join(REPO_ROOT, "dist", "provider", "cli.js"), ...args], cwd, extraEnv);
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
