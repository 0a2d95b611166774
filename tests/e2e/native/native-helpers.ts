/**
 * What the native mode's end-to-end tests share, beside the harness (../harness.ts: stacks and their
 * operations) and the reliability helpers (../reliability/helpers.ts: the state, of either mode, and
 * the audit of an account against it): their programs, the stack config that picks the native
 * plugin, the engine's events of one operation (the steps it planned or took per resource, their
 * detailed diffs and new inputs, the diagnostics, the warnings), the checkpoint as the file backend keeps it, a
 * stack on an emulator of its own (so that tests run side by side), and a wait for a condition.
 */
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator";
import { TestStack, type OnEvent, type StackOptions } from "../harness";
import { stateResourceOf, type Deployment, type StateResource } from "../reliability/helpers";

export const NATIVE_PROGRAMS = path.join(__dirname, "programs");
/** A VPC, a tier in it, an instance on the tier, a data volume on the instance (config: see its index.ts). */
export const SMALL_PROGRAM = path.join(NATIVE_PROGRAMS, "small");
/** An isolated network and an instance on it; `createTimeout` becomes the instance's customTimeouts.create. */
export const INSTANCE_PROGRAM = path.join(NATIVE_PROGRAMS, "instance");
/** Two explicit providers (the demo and the admin account), a VPC through each, functions through each. */
export const TWO_ACCOUNTS_PROGRAM = path.join(NATIVE_PROGRAMS, "two-accounts");
/** A VPC and a tier; with config `withInstance`, an instance on the tier. */
export const CANCEL_PROGRAM = path.join(NATIVE_PROGRAMS, "cancel");
/** The YAML program: a VPC, a tier and an instance, the catalog's ids from `fn::invoke`. */
export const YAML_PROGRAM = path.join(NATIVE_PROGRAMS, "yaml");

/** The stack config that serves the program's resources by the native plugin. */
export const NATIVE_MODE = { "restcloud:mode": "native" } as const;

// ---- the engine's events ----------------------------------------------------------------------------

/** One resource's steps in one operation, as the engine's events tell them. */
export interface ResourceSteps {
  type: string;
  /** Every step's op, in order (`create`, `update`, `same`, `replace`, `create-replacement`...). */
  ops: string[];
  /** Per property, the kind of change (`update`, `update-replace`, `add`...), from the first step that had one. */
  detailedDiff: Record<string, string>;
  /** The inputs of the first step (what Check answered: auto-names included). */
  newInputs: Record<string, unknown>;
}

/** A diagnostic of the engine's event stream (what the CLI shows on a row, or prints). */
export interface Diagnostic {
  /** Milliseconds since the operation began. */
  at: number;
  urn: string;
  message: string;
  severity: string;
  ephemeral: boolean;
}

/** What one operation's event stream held (hand `onEvent` to the harness's up or preview). */
export class Events {
  readonly all: EngineEvent[] = [];
  readonly diagnostics: Diagnostic[] = [];
  private readonly started = Date.now();

  readonly onEvent = (event: EngineEvent): void => {
    this.all.push(event);
    const d = event.diagnosticEvent;
    if (d && (d.severity as string) !== "debug") {
      this.diagnostics.push({
        at: Date.now() - this.started,
        urn: d.urn ?? "",
        message: d.message.trim(),
        severity: d.severity,
        ephemeral: d.ephemeral ?? false,
      });
    }
  };

  /** Per logical name, the steps of the program's resources (the stack and providers left out). */
  steps(): Record<string, ResourceSteps> {
    const steps: Record<string, ResourceSteps> = {};
    for (const event of this.all) {
      const metadata = event.resourcePreEvent?.metadata;
      if (!metadata || metadata.type === "pulumi:pulumi:Stack" || metadata.type.startsWith("pulumi:providers:"))
        continue;
      const name = metadata.urn.split("::").pop()!;
      const entry = (steps[name] ??= { type: metadata.type, ops: [], detailedDiff: {}, newInputs: {} });
      if (entry.ops.length === 0) entry.newInputs = { ...(metadata.new?.inputs ?? {}) };
      entry.ops.push(metadata.op);
      if (Object.keys(entry.detailedDiff).length === 0 && metadata.detailedDiff) {
        entry.detailedDiff = Object.fromEntries(
          Object.entries(metadata.detailedDiff).map(([key, diff]) => [key, String(diff.diffKind)]),
        );
      }
    }
    return steps;
  }

  /** The diagnostics on a resource's row: those whose URN ends in `::<type>::<name>`. */
  about(type: string, name: string): Diagnostic[] {
    return this.diagnostics.filter((d) => d.urn.endsWith(`::${type}::${name}`));
  }
}

/** The warnings of an operation: the engine's warning diagnostics and the `warning:` lines it printed. */
export function warningsOf(events: Events, ...outputs: string[]): string[] {
  return [
    ...events.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message),
    ...outputs.flatMap((o) => o.split("\n")).filter((line) => /^\s*warning:/i.test(line)),
  ];
}

/**
 * Runs one operation of the harness (`(onEvent) => stack.up({ onEvent })`) and answers its result
 * with the events it saw.
 */
export async function withEvents<R extends object>(
  run: (onEvent: OnEvent) => Promise<R>,
): Promise<R & { events: Events }> {
  const events = new Events();
  return { ...(await run(events.onEvent)), events };
}

// ---- a stack on an emulator of its own ---------------------------------------------------------------

/**
 * Starts an emulator of its own (`emulator`, on a free port), creates the stack `stack` describes
 * (given the emulator's URL), runs `run` on them, and then removes the stack and stops the emulator.
 */
export async function onOwnEmulator(
  emulator: EmulatorOptions,
  stack: (apiUrl: string) => StackOptions,
  run: (emulator: RunningEmulator, stack: TestStack) => Promise<void>,
): Promise<void> {
  const running = await startEmulator({ port: 0, ...emulator });
  try {
    const created = await TestStack.create(stack(running.url));
    try {
      await run(running, created);
    } finally {
      await created.dispose();
    }
  } finally {
    await running.stop();
  }
}

// ---- the checkpoint ---------------------------------------------------------------------------------

/** The state file as the file backend keeps it (secrets as ciphertext): its text, and its resources. */
export function checkpointOf(stack: TestStack): { text: string; resources: StateResource[] } {
  const text = stack.stateFileText();
  const { checkpoint } = JSON.parse(text) as { checkpoint: { latest?: Deployment } };
  return { text, resources: (checkpoint.latest?.resources ?? []).map(stateResourceOf) };
}

// ---- waiting ----------------------------------------------------------------------------------------

/** Resolves with what `probe` answers once it answers something, polling every 100 ms; throws after `timeoutMs`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
