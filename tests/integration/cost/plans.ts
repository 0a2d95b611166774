/**
 * Builders of the documents `restcloud cost` reads, shaped as the Pulumi CLI prints them: the JSON
 * of `pulumi preview --json` (`{config, steps: [{op, urn, oldState?, newState?}]}`) and of
 * `pulumi stack export` (`{version: 3, deployment: {resources: [...]}}`), for either front end's type
 * tokens. Nothing here knows a price.
 */

/** What Pulumi writes for a value not known at preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Mode = "dynamic" | "native";

const STACK = "dev";
const PROJECT = "cost-test";

/** A resource kind's type token in state: `pulumi-nodejs:dynamic/restcloud:Vpc` or `restcloud:index:Vpc`. */
export const typeToken = (mode: Mode, kind: string): string =>
  mode === "dynamic" ? `pulumi-nodejs:dynamic/restcloud:${kind}` : `restcloud:index:${kind}`;

/** `urn:pulumi:STACK::PROJECT::TYPE::NAME` of a restcloud resource. */
export const urnOf = (mode: Mode, kind: string, name: string): string =>
  `urn:pulumi:${STACK}::${PROJECT}::${typeToken(mode, kind)}::${name}`;

/** A resource's state as previews and exports show it. */
export interface State {
  urn: string;
  custom: boolean;
  type: string;
  id?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  propertyDependencies: Record<string, string[]>;
  dependencies: string[];
}

/** A reference to another resource of the plan: its kind and logical name. */
export type Ref = readonly [kind: string, name: string];

export interface StateOptions {
  /** The provider's id (a resource that exists). */
  id?: string;
  outputs?: Record<string, unknown>;
  /** Per input property, the resource its value comes from. */
  deps?: Record<string, Ref>;
}

/** The states of one front end's resources: `state("Volume", "data", {size: 50}, {id: "v-1"})`. */
export function stateBuilder(mode: Mode) {
  return (kind: string, name: string, inputs: Record<string, unknown>, options: StateOptions = {}): State => {
    const deps = Object.entries(options.deps ?? {}).map(([property, [k, n]]) => [property, [urnOf(mode, k, n)]]);
    return {
      urn: urnOf(mode, kind, name),
      custom: true,
      type: typeToken(mode, kind),
      ...(options.id ? { id: options.id } : {}),
      inputs,
      outputs: options.outputs ?? (options.id ? { ...inputs, uuid: options.id } : {}),
      propertyDependencies: Object.fromEntries(deps),
      dependencies: [...new Set(deps.flatMap(([, urns]) => urns as string[]))],
    };
  };
}

export interface Step {
  op: string;
  urn: string;
  oldState?: State;
  newState?: State;
}

export const create = (s: State): Step => ({ op: "create", urn: s.urn, newState: s });
export const same = (s: State): Step => ({ op: "same", urn: s.urn, oldState: s, newState: s });
export const update = (before: State, after: State): Step => ({
  op: "update",
  urn: after.urn,
  oldState: before,
  newState: after,
});
export const remove = (s: State): Step => ({ op: "delete", urn: s.urn, oldState: s });

/** The stack's own resource, which every preview lists first (not a restcloud resource). */
const stackStep = (op: "create" | "same"): Step => {
  const stack: State = {
    urn: `urn:pulumi:${STACK}::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-${STACK}`,
    custom: false,
    type: "pulumi:pulumi:Stack",
    inputs: {},
    outputs: {},
    propertyDependencies: {},
    dependencies: [],
  };
  return op === "create" ? create(stack) : same(stack);
};

/** The JSON text of `pulumi preview --json` with these steps (after the stack's own). */
export function previewJson(steps: readonly Step[], config: Record<string, string> = {}): string {
  const existing = steps.some((s) => s.oldState !== undefined);
  return JSON.stringify(
    {
      config,
      steps: [stackStep(existing ? "same" : "create"), ...steps],
      diagnostics: [],
      duration: 1_234_000_000,
      changeSummary: {},
    },
    null,
    2,
  );
}

/** The JSON text of `pulumi stack export` of a stack holding these resources (they need ids). */
export function stackExportJson(states: readonly State[]): string {
  const stack = stackStep("same").newState!;
  return JSON.stringify(
    {
      version: 3,
      deployment: {
        manifest: { time: "2026-01-01T00:00:00Z", magic: "", version: "v3.200.0" },
        resources: [stack, ...states].map((s) => ({ ...s, ...(s.custom ? { parent: stack.urn } : {}) })),
      },
    },
    null,
    2,
  );
}
