// The project's side of `restcloud discover`: its stacks and, per stack, the ids its resources hold
// (`pulumi stack export`, either front end's type tokens; a pending create with an id counts).
import { kindOfTypeToken } from "../type-tokens";
import { pulumiFailure, runPulumi } from "../pulumi-cli";
import { pulumiProjectFile, pulumiProjectName } from "../pulumi-project";
import type { ResourceDeclaration } from "../engine/declaration";
import type { AccountRecord } from "../engine/inventory";

/** A failure of the pulumi CLI or of the project (exit code 1). */
export class ProjectError extends Error {}

/** Runs the pulumi CLI in the project (pulumi-cli.ts); its standard output, or a ProjectError. */
export function pulumi(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const run = runPulumi(args, cwd, env, (message) => new ProjectError(message));
  if (run.status !== 0) throw new ProjectError(pulumiFailure(args, run));
  return run.stdout;
}

/** The project's name, from its Pulumi.yaml (or Pulumi.yml); a ProjectError when there is none. */
export function projectName(cwd: string): string {
  const file = pulumiProjectFile(cwd);
  if (file === undefined)
    throw new ProjectError(`not a Pulumi project: no Pulumi.yaml in ${cwd} (run it in the project's directory)`);
  const name = pulumiProjectName(cwd);
  if (!name) throw new ProjectError(`${file} names no project (its \`name:\`)`);
  return name;
}

export interface StackSummary {
  /** The stack's name as `pulumi stack ls` shows it (`dev`, or `org/project/dev`). */
  name: string;
  /** Whether it is the selected stack. */
  current: boolean;
}

/** The last part of a stack's name: what a URN (and so an owner tag) calls it. */
export const shortStackName = (name: string): string => name.split("/").pop()!;

/** The project's stacks (`pulumi stack ls --json`). */
export function listStacks(cwd: string, env: NodeJS.ProcessEnv): StackSummary[] {
  const text = pulumi(["stack", "ls", "--json"], cwd, env);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ProjectError(`\`pulumi stack ls --json\` answered no JSON: ${text.slice(0, 200)}`);
  }
  if (!Array.isArray(parsed)) throw new ProjectError("`pulumi stack ls --json` answered no list");
  return parsed
    .filter((s): s is { name: string; current?: boolean } => typeof s?.name === "string")
    .map((s) => ({ name: s.name, current: s.current === true }));
}

/** What a stack's state holds: per kind, the ids of its restcloud resources. */
export interface StackHoldings {
  stack: string;
  /** Kind -> ids. */
  byKind: Map<string, Set<string>>;
  /** How many restcloud resources hold a record (pending creates with an id included). */
  count: number;
  /** The URNs of its restcloud resources whose create is pending (an interrupted `pulumi up`). */
  pendingCreates: Set<string>;
  /** Record id -> the tag keys its resource's `tags` hold (engine/tags.ts): those tags are held too. */
  tagKeys: Map<string, Set<string>>;
}

interface ExportedResource {
  urn?: string;
  type?: string;
  id?: string;
  inputs?: { tags?: unknown };
  outputs?: { tags?: unknown };
}

/** The keys of a resource's `tags` in its state (inputs, else outputs). */
function tagKeysOf(resource: ExportedResource): string[] {
  const tags = resource.inputs?.tags ?? resource.outputs?.tags;
  return typeof tags === "object" && tags !== null && !Array.isArray(tags) ? Object.keys(tags) : [];
}

/** The ids a stack export (`pulumi stack export` JSON) holds, per kind. */
export function holdingsOf(stack: string, exported: unknown): StackHoldings {
  const deployment = (exported as { deployment?: Record<string, unknown> } | undefined)?.deployment ?? {};
  const resources = (deployment.resources as ExportedResource[] | undefined) ?? [];
  const operations =
    ((deployment.pending_operations ?? deployment.pendingOperations) as
      { resource?: ExportedResource; type?: string }[] | undefined) ?? [];
  const pending = operations.map((operation) => operation.resource).filter((r): r is ExportedResource => !!r);
  const pendingCreates = new Set(
    operations
      .filter((o) => o.type === "creating" && o.resource?.type && kindOfTypeToken(o.resource.type) !== undefined)
      .map((o) => o.resource!.urn)
      .filter((urn): urn is string => typeof urn === "string"),
  );
  const byKind = new Map<string, Set<string>>();
  const tagKeys = new Map<string, Set<string>>();
  let count = 0;
  for (const resource of [...resources, ...pending]) {
    const kind = resource.type && kindOfTypeToken(resource.type);
    // A create that never answered has no id: it holds nothing (the owner tag may tell more).
    if (kind === undefined || typeof resource.id !== "string" || resource.id === "") continue;
    let ids = byKind.get(kind);
    if (!ids) byKind.set(kind, (ids = new Set()));
    if (!ids.has(resource.id)) count++;
    ids.add(resource.id);
    const keys = tagKeysOf(resource);
    if (keys.length > 0) tagKeys.set(resource.id, new Set([...(tagKeys.get(resource.id) ?? []), ...keys]));
  }
  return { stack, byKind, count, pendingCreates, tagKeys };
}

/** A stack's holdings, read with `pulumi stack export`. */
export function readHoldings(stack: string, cwd: string, env: NodeJS.ProcessEnv): StackHoldings {
  const text = pulumi(["stack", "export", "--stack", stack], cwd, env);
  try {
    return holdingsOf(stack, JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError)
      throw new ProjectError(`\`pulumi stack export --stack ${stack}\` answered no JSON: ${text.slice(0, 200)}`);
    throw error;
  }
}

/** Whether any of the stacks' states holds a record of `kind` with this id. */
export class Holdings {
  readonly #plain = new Set<string>();
  readonly #shared = new Map<string, Set<string>>();
  /** `${record id} ${tag key}` of the tags resources' `tags` hold. */
  readonly #tags = new Set<string>();

  /** Kinds whose id is another record's (their address's: no candidates, identity.ts): held per kind only. */
  readonly #sharedIdKinds: ReadonlySet<string>;

  constructor(stacks: readonly StackHoldings[], declarations: readonly ResourceDeclaration[]) {
    this.#sharedIdKinds = new Set(declarations.filter((d) => !d.identity.candidates).map((d) => d.type));
    for (const stack of stacks) {
      for (const [id, keys] of stack.tagKeys ?? []) for (const key of keys) this.#tags.add(`${id} ${key}`);
      for (const [kind, ids] of stack.byKind) {
        if (this.#sharedIdKinds.has(kind)) {
          let set = this.#shared.get(kind);
          if (!set) this.#shared.set(kind, (set = new Set()));
          for (const id of ids) set.add(id);
        } else for (const id of ids) this.#plain.add(id);
      }
    }
  }

  /** Whether a state holds the record: by its id, or (a tag) by its key in its record's resource's `tags`. */
  holdsRecord(record: Pick<AccountRecord, "kind" | "id" | "parentId" | "tagKey">): boolean {
    if (
      record.tagKey !== undefined &&
      record.parentId !== undefined &&
      this.#tags.has(`${record.parentId} ${record.tagKey}`)
    )
      return true;
    return this.holds(record.kind, record.id);
  }

  holds(kind: string, id: string): boolean {
    return this.#sharedIdKinds.has(kind) ? (this.#shared.get(kind)?.has(id) ?? false) : this.#plain.has(id);
  }
}

/** The stack's `restcloud:*` config with secrets in clear; empty when the CLI cannot say. */
export function stackConfig(cwd: string, stack: string | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  try {
    const text = pulumi(["config", "--json", "--show-secrets", ...(stack ? ["--stack", stack] : [])], cwd, env);
    const config = JSON.parse(text) as Record<string, { value?: unknown }>;
    return Object.fromEntries(
      Object.entries(config)
        .filter(([key, v]) => key.startsWith("restcloud:") && typeof v?.value === "string")
        .map(([key, v]) => [key, v.value as string]),
    );
  } catch {
    return {};
  }
}
