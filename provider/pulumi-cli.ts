// Running the pulumi CLI from the package's commands (`restcloud discover`, `restcloud recover`): the one named in
// PULUMI_CLI, else `pulumi` on PATH, in the project's directory, never asking questions.
import { spawnSync } from "node:child_process";

/** What a run of the CLI answered. */
export interface PulumiRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * The self-managed backends' listing parallelism, unless the user set one. At 4 (the default is higher) the
 * PostgreSQL backend of CLI 3.274.1 deadlocks: each listing holds a pooled connection while it waits for
 * another, and `pulumi stack ls` hangs for good on a project of 4 stacks or more. At 3 it lists 10 stacks.
 */
const DIY_BACKEND_PARALLEL = "3";

/**
 * Runs `pulumi <args> --non-interactive`. A CLI that cannot be started throws what `fail` makes of
 * the reason (each command has its own error, and its exit code); a non-zero exit is the caller's.
 */
export function runPulumi(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  fail: (message: string) => Error,
): PulumiRun {
  const command = env.PULUMI_CLI || "pulumi";
  const run = spawnSync(command, [...args, "--non-interactive"], {
    cwd,
    env: { PULUMI_DIY_BACKEND_PARALLEL: DIY_BACKEND_PARALLEL, ...env },
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  if (run.error) {
    const missing = (run.error as NodeJS.ErrnoException).code === "ENOENT";
    throw fail(
      missing
        ? `the pulumi CLI was not found (${command}): put it on PATH, or name it in PULUMI_CLI`
        : `could not run ${command}: ${run.error.message}`,
    );
  }
  return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

/** "`pulumi stack export` failed (exit 255): <the end of its output>". */
export function pulumiFailure(args: readonly string[], run: PulumiRun): string {
  return `\`pulumi ${args.join(" ")}\` failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().slice(-2000)}`;
}
