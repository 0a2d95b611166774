/**
 * What the new-project tests share (TypeScript, Python, Go: each runs, as a user would, the shell
 * lines of one README block and checks the result): reading the block by its marker name, the
 * user's environment, running the commands in one timed shell, and printing the steps' times. Kept
 * in one place so that the three tests run the README the same way and differ only in what they
 * put beside the project and what they check.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, pulumiCliRoot } from "./harness";

/** One command of a shell block and the time it took. */
export interface Step {
  command: string;
  ms: number;
}

export interface ShellRun {
  /** The shell's exit code (null when a signal ended it). */
  code: number | null;
  /** Its stdout and stderr, interleaved as they came. */
  output: string;
  /** The commands that completed, in order, each with its time. */
  steps: Step[];
  /** The error of the checkpoint that failed (and ended the shell), if one did. */
  checkFailure?: unknown;
}

/**
 * The shell commands of README.md's block between `<!-- <marker>:begin -->` and
 * `<!-- <marker>:end -->` (a fenced `sh` block), in order: see `splitCommands`.
 */
export function readmeCommands(marker: string): string[] {
  return splitCommands(docBlock("README.md", marker, "sh"));
}

/** The text of the fenced block (of `fence`) between `file`'s `<!-- <marker>:begin/end -->` comments. */
export function docBlock(file: string, marker: string, fence: string): string {
  const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
  const block = new RegExp(
    `<!-- ${marker}:begin -->\\s*\`\`\`${fence}\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}:end -->`,
  ).exec(text);
  if (!block) throw new Error(`${file} has no ${marker} block`);
  return block[1];
}

/**
 * A shell block's commands: a command is a line with its `\` continuations and here-documents;
 * blank and comment lines are left out, and so are ` # comment` tails, except in a here-document
 * (whose lines are kept as written).
 */
export function splitCommands(block: string): string[] {
  const uncomment = (line: string) => line.replace(/\s+#.*$/, "").trimEnd();
  const commands: string[] = [];
  const lines = block.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const first = uncomment(lines[i]).trim();
    if (first === "" || first.startsWith("#")) continue;
    const command = [first];
    while (command[command.length - 1].endsWith("\\") && i + 1 < lines.length) command.push(uncomment(lines[++i]));
    const heredoc = /(?<!<)<<(-?)\s*(['"]?)(\w+)\2/.exec(command.join("\n"));
    if (heredoc) {
      const [, dash, , word] = heredoc;
      const ends = (line: string) => (dash ? line.replace(/^\t+/, "") : line) === word;
      do {
        if (i + 1 >= lines.length) throw new Error(`no ${word} ends the here-document of: ${command[0]}`);
        command.push(lines[++i]);
      } while (!ends(command[command.length - 1]));
    }
    commands.push(command.join("\n"));
  }
  return commands;
}

/** The commands a user without Node.js lacks: stand-ins that fail, and record each call in `NO_NODE_LOG`. */
const NODE_COMMANDS = ["node", "npm", "npx", "corepack"];

/**
 * A user's environment, as the README's prerequisites make it, in `work` (which gets `bin/`,
 * `backend/` and `pulumi-home/`): Node 22 first on PATH (or, with `node: false`, no Node.js: the
 * machine's `node`, `npm` and `npx` shadowed by stand-ins that fail and log each call to
 * `noNodeLog(work)`), then the Pulumi CLI's bin, then the system PATH without node_modules
 * directories; a local backend, a PULUMI_HOME and a passphrase of its own. What npm, jest and a venv
 * set for their children and the harness's settings are left out.
 */
export function userEnvironment(work: string, { node = true }: { node?: boolean } = {}): NodeJS.ProcessEnv {
  const bin = path.join(work, "bin");
  fs.mkdirSync(bin);
  if (node) {
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, "node_modules", ".bin", "node")), path.join(bin, "node"));
  } else {
    for (const command of NODE_COMMANDS) {
      const standIn = `#!/bin/sh\necho "${command} $*" >> '${noNodeLog(work)}'\necho "${command}: not installed" >&2\nexit 127\n`;
      fs.writeFileSync(path.join(bin, command), standIn, { mode: 0o755 });
    }
  }
  const systemPath = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !dir.includes(`${path.sep}node_modules${path.sep}`));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|INIT_CWD$|NODE_OPTIONS$|NODE_ENV$|JEST_|PULUMI_|RESTCLOUD_|VIRTUAL_ENV$)/i.test(key)) continue;
    env[key] = value;
  }
  fs.mkdirSync(path.join(work, "backend"));
  return {
    ...env,
    PATH: [bin, path.join(pulumiCliRoot(), "bin"), ...systemPath].join(path.delimiter),
    PULUMI_HOME: path.join(work, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "my passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
}

/**
 * A project's node_modules as `npm install` of a project depending on this package leaves it: the
 * package (this checkout), the Pulumi SDK and TypeScript, and the package's commands (and policy pack) in `.bin`.
 */
export function linkPackageInto(project: string): void {
  const modules = path.join(project, "node_modules");
  fs.mkdirSync(path.join(modules, ".bin"), { recursive: true });
  fs.symlinkSync(REPO_ROOT, path.join(modules, "pulumi-restcloud"), "dir");
  for (const name of ["@pulumi", "typescript", "@types"])
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", name), path.join(modules, name), "dir");
  for (const [bin, file] of [
    ["restcloud", "dist/provider/cli.js"],
    ["restcloud-emulator", "dist/emulator/cli.js"],
    ["restcloud-policy", "policy/restcloud-policy"],
  ])
    fs.writeFileSync(path.join(modules, ".bin", bin), `#!/bin/sh\nexec node "${path.join(REPO_ROOT, file)}" "$@"\n`, {
      mode: 0o755,
    });
}

/** Where the stand-ins of a `node: false` environment log the calls made to them. */
export const noNodeLog = (work: string): string => path.join(work, "node-calls.log");

export interface RunStepsOptions {
  /** The whole run at most; then the shell's process group is stopped. */
  timeoutMs: number;
  /**
   * Checks to run between steps, by the index of the step they follow: the shell waits for each
   * (what it started in the background, such as the emulator, still running). A check that fails
   * ends the shell there; its error is the run's `checkFailure`.
   */
  checkpoints?: ReadonlyMap<number, () => Promise<void>>;
}

/**
 * Runs the commands in one bash (`set -euo pipefail`, stdin empty), in its own process group,
 * timing each; once the shell exits, the group is stopped (what a command left in the background,
 * such as the emulator, too).
 */
export async function runSteps(
  cwd: string,
  env: NodeJS.ProcessEnv,
  commands: readonly string[],
  { timeoutMs, checkpoints = new Map() }: RunStepsOptions,
): Promise<ShellRun> {
  const script = [
    "set -euo pipefail",
    // The commands read an empty stdin; fd 3 is where the shell waits at a checkpoint.
    "exec 3<&0 </dev/null",
    "now() { date +%s%3N; }",
    ...commands.flatMap((command, i) => [
      "t=$(now)",
      command,
      `echo "::step ${i} $(( $(now) - t ))"`,
      ...(checkpoints.has(i) ? ["read -r -u 3"] : []),
    ]),
  ].join("\n");
  const shell = spawn("bash", ["-c", script], { cwd, env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  shell.stdin.on("error", () => {}); // the shell gone before a checkpoint's answer
  if (checkpoints.size === 0) shell.stdin.end();
  let output = "";
  let pending = ""; // stdout's unfinished line
  let checkFailure: unknown;
  let checking = Promise.resolve();
  const check = async (run: () => Promise<void>) => {
    try {
      await run();
      shell.stdin.write("\n");
    } catch (error) {
      checkFailure ??= error;
      shell.stdin.end(); // the shell's `read` fails, and with it the shell
    }
  };
  shell.stdout.on("data", (d: Buffer) => {
    output += d.toString();
    pending += d.toString();
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      const run = checkpoints.get(Number(/^::step (\d+) \d+$/.exec(line)?.[1] ?? -1));
      if (run) checking = checking.then(() => check(run));
    }
  });
  shell.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => stopGroup(shell.pid), timeoutMs);
  // The shell's exit, not its streams' end: the emulator in the background holds them open.
  const closed = new Promise((resolve) => shell.on("close", resolve));
  const code = await new Promise<number | null>((resolve) => shell.on("exit", resolve));
  clearTimeout(timer);
  stopGroup(shell.pid);
  await closed;
  await checking;
  const steps = [...output.matchAll(/^::step (\d+) (\d+)$/gm)].map((m) => ({
    command: commands[Number(m[1])],
    ms: Number(m[2]),
  }));
  return { code, output, steps, checkFailure };
}

/** Stops a detached process's group (SIGTERM), if it is still there. */
export function stopGroup(pid: number | undefined): void {
  try {
    if (pid) process.kill(-pid, "SIGTERM");
  } catch {
    // the group is gone already
  }
}

/**
 * Prints the steps' times under a heading, one a line: a command by its first line (without a
 * comment), then the total when given.
 */
export function printStepTimes(heading: string, steps: readonly Step[], totalMs?: number): void {
  const rows = steps.map((s) => ({ label: s.command.split("\n")[0].replace(/\s+#.*$/, ""), ms: s.ms }));
  if (totalMs !== undefined) rows.push({ label: "total", ms: totalMs });
  const width = Math.max(...rows.map((r) => r.label.length));
  const lines = rows.map((r) => `${r.label.padEnd(width)}  ${(r.ms / 1000).toFixed(1).padStart(6)} s`);
  console.log(`${heading}\n${lines.join("\n")}`);
}
