/**
 * End-to-end harness: drives the real Pulumi CLI (through the Automation API) on a program
 * directory, offline (tests/e2e/offline-stack.ts: a file backend and a PULUMI_HOME in a temporary
 * directory, Node 22 first on PATH), and reports what the engine did per resource.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import {
  type EngineEvent,
  type LocalWorkspace,
  type OpMap,
  type OutputMap,
  type Stack,
  type UpdateSummary,
} from "@pulumi/pulumi/automation";
import { createOfflineStack, pulumiCliRoot as cliRootOf, type StackConfig } from "./offline-stack";

export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** A listener of the engine's events during an operation. */
export type OnEvent = (event: EngineEvent) => void;

/** Resource changes by operation, e.g. `{ create: 2 }`, as the engine reports them. */
export type ChangeSummary = Partial<Record<"create" | "update" | "delete" | "same" | "replace" | "read", number>>;

export interface OperationResult {
  /** The engine's count of resources per operation (operations with zero resources are absent). */
  changes: ChangeSummary;
  /** Per resource (by logical name), the operation the engine performed or planned. */
  operations: Record<string, string>;
  stdout: string;
  stderr: string;
}

export interface UpResultSummary extends OperationResult {
  /** Stack outputs, secrets already decrypted. */
  outputs: Record<string, unknown>;
}

/** The directory whose bin/ holds the pinned `pulumi` and `pulumi-language-nodejs`. */
export const pulumiCliRoot = (): string => cliRootOf(REPO_ROOT);

function compactSummary(map: OpMap | UpdateSummary["resourceChanges"] | undefined): ChangeSummary {
  const changes: ChangeSummary = {};
  for (const [op, count] of Object.entries(map ?? {})) {
    if (typeof count === "number" && count > 0) changes[op as keyof ChangeSummary] = count;
  }
  return changes;
}

/**
 * Collects, per logical name, the most significant step the engine took (replace > update > create >
 * delete > same), and hands every event on to `forward`.
 */
function operationRecorder(forward?: OnEvent): { onEvent: OnEvent; operations: Record<string, string> } {
  const rank = ["same", "read", "refresh", "delete", "create", "update", "replace"];
  const operations: Record<string, string> = {};
  const normalise = (op: string) =>
    op.includes("replace") ? "replace" : op === "delete-replaced" || op === "create-replacement" ? "replace" : op;
  return {
    operations,
    onEvent: (event) => {
      forward?.(event);
      const metadata = event.resourcePreEvent?.metadata ?? event.resOutputsEvent?.metadata;
      if (!metadata || metadata.type === "pulumi:pulumi:Stack" || metadata.type.startsWith("pulumi:providers:")) return;
      const name = metadata.urn.split("::").pop()!;
      const op = normalise(metadata.op);
      if (!(name in operations) || rank.indexOf(op) > rank.indexOf(operations[name])) operations[name] = op;
    },
  };
}

function plainOutputs(outputs: OutputMap): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));
}

export interface StackOptions {
  /** A directory holding Pulumi.yaml and the program. */
  programDir: string;
  /** Stack configuration: plain values, or `{ value, secret: true }`. */
  config?: StackConfig;
  /** Extra environment for the CLI, the program and the providers. */
  env?: Record<string, string>;
  stackName?: string;
  /** A CI runner's PULUMI_HOME, shared by its stacks (tests/e2e/teams/runners.ts); default: the stack's own. */
  pulumiHome?: string;
  /** The backend PULUMI_HOME is logged in to, instead of a file backend of the stack's own. */
  loggedIn?: boolean;
}

/** What a run of the CLI itself (`TestStack.cli`) answered. */
export interface CliResult {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** One stack of one program, in its own temporary backend and PULUMI_HOME. */
export class TestStack {
  private constructor(
    readonly stack: Stack,
    /** The temporary directory holding the backend (`backend/`) and PULUMI_HOME (`home/`). */
    readonly tempDir: string,
    /** The stack's settings file, which Pulumi writes beside Pulumi.yaml. */
    private readonly settingsFile: string,
  ) {}

  static async create(options: StackOptions): Promise<TestStack> {
    const { stack, tempDir, settingsFile } = await createOfflineStack({
      ...options,
      repoRoot: REPO_ROOT,
      tempPrefix: "restcloud-e2e-",
    });
    return new TestStack(stack, tempDir, settingsFile);
  }

  async setConfig(key: string, value: string, secret = false): Promise<void> {
    await this.stack.setConfig(key, { value, secret });
  }

  /** `plan` applies a plan a preview saved; `diff` prints each resource's diff; `onEvent` sees every engine event. */
  async up(options: { plan?: string; diff?: boolean; onEvent?: OnEvent } = {}): Promise<UpResultSummary> {
    const recorder = operationRecorder(options.onEvent);
    const result = await this.stack.up({ color: "never", ...options, onEvent: recorder.onEvent });
    return {
      changes: compactSummary(result.summary.resourceChanges),
      operations: recorder.operations,
      outputs: plainOutputs(result.outputs),
      stdout: result.stdout,
      stderr: result.stderr,
    };
  }

  /** `expectNoChanges` makes the engine itself fail when the preview finds a change; `plan` saves the plan there. */
  async preview(
    options: { expectNoChanges?: boolean; refresh?: boolean; plan?: string; onEvent?: OnEvent } = {},
  ): Promise<OperationResult> {
    const recorder = operationRecorder(options.onEvent);
    const result = await this.stack.preview({ color: "never", diff: true, ...options, onEvent: recorder.onEvent });
    return {
      changes: compactSummary(result.changeSummary),
      operations: recorder.operations,
      stdout: result.stdout,
      stderr: result.stderr,
    };
  }

  async refresh(): Promise<OperationResult> {
    const recorder = operationRecorder();
    const result = await this.stack.refresh({ color: "never", onEvent: recorder.onEvent });
    return {
      changes: compactSummary(result.summary.resourceChanges),
      operations: recorder.operations,
      stdout: result.stdout,
      stderr: result.stderr,
    };
  }

  async destroy(): Promise<OperationResult> {
    const recorder = operationRecorder();
    const result = await this.stack.destroy({ color: "never", onEvent: recorder.onEvent });
    return {
      changes: compactSummary(result.summary.resourceChanges),
      operations: recorder.operations,
      stdout: result.stdout,
      stderr: result.stderr,
    };
  }

  async outputs(): Promise<Record<string, unknown>> {
    return plainOutputs(await this.stack.outputs());
  }

  /** The stack's state file as text (the file backend's checkpoint), for secret-leak checks. */
  stateFileText(): string {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith(".json") && full.includes(`${path.sep}stacks${path.sep}`)) found.push(full);
      }
    };
    walk(path.join(this.tempDir, "backend"));
    return found.map((f) => fs.readFileSync(f, "utf8")).join("\n");
  }

  /**
   * Runs the pulumi CLI itself on the stack (its program directory, backend, PULUMI_HOME and
   * environment), for what the Automation API does not offer (`pulumi import`); never throws.
   */
  cli(args: readonly string[]): Promise<CliResult> {
    const workspace = this.stack.workspace as LocalWorkspace;
    const argv = [...args, "--stack", this.stack.name, "--non-interactive", "--color", "never"];
    return new Promise((resolve) => {
      execFile(
        path.join(pulumiCliRoot(), "bin", "pulumi"),
        argv,
        { cwd: workspace.workDir, env: { ...process.env, ...workspace.envVars }, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
          resolve({ command: `pulumi ${argv.join(" ")}`, code, stdout, stderr });
        },
      );
    });
  }

  /** `cli`, failing with the command and its output on a non-zero exit. */
  async cliOk(args: readonly string[]): Promise<CliResult> {
    const result = await this.cli(args);
    if (result.code !== 0)
      throw new Error(`${result.command}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** Removes the stack's backend and PULUMI_HOME (the stack should be destroyed first). */
  async dispose(): Promise<void> {
    fs.rmSync(this.tempDir, { recursive: true, force: true });
    fs.rmSync(this.settingsFile, { force: true });
  }
}

/** A local HTTP server on 127.0.0.1 and a random port, for a test to hand its URL to a program. */
export async function startLocalServer(
  handler: http.RequestListener,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
