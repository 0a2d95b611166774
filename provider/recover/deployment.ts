// What `restcloud recover` reads and writes: `pulumi stack export` JSON, its pending creates of restcloud resources
// (either mode's token), the records state already holds, and the deployment with the found records in state. A pending
// create was sent but never answered (a SIGKILLed `pulumi up`): checked inputs, no id, no outputs.
import { kindOfTypeToken } from "../type-tokens";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A resource as a deployment holds it (the fields recover reads; the rest is carried as it is). */
export interface DeploymentResource extends Json {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Json;
  outputs?: Json;
}

export interface PendingOperation extends Json {
  resource: DeploymentResource;
  type: string;
}

/** `pulumi stack export`'s JSON: `{version, deployment: {resources, pending_operations, ...}}`. */
export interface ExportedStack extends Json {
  version?: number;
  deployment: Json & { resources?: DeploymentResource[]; pending_operations?: PendingOperation[] };
}

/** A stack export that cannot be read. */
export class DeploymentFormatError extends Error {
  override readonly name = "DeploymentFormatError";
}

/** The JSON of `pulumi stack export`, checked for the parts recover reads. */
export function parseExport(text: string): ExportedStack {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DeploymentFormatError(`the stack export is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed) || !isObject(parsed.deployment))
    throw new DeploymentFormatError("the stack export has no deployment (is the stack new?)");
  const deployment = parsed.deployment;
  for (const key of ["resources", "pending_operations"] as const) {
    const list = deployment[key];
    if (list !== undefined && list !== null && !Array.isArray(list))
      throw new DeploymentFormatError(`the stack export's ${key} is not a list`);
  }
  return parsed as ExportedStack;
}

/** Pulumi's mark of a secret value in a deployment (the `sig` key of a secret object). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/**
 * Values as the provider sees them: secrets exported with `--show-secrets` (`{sig, plaintext}`,
 * the plaintext a JSON text) in clear; a secret still encrypted reads as undefined.
 */
export function revealSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealSecrets);
  if (!isObject(value)) return value;
  if (SECRET_SIG in value) {
    if (typeof value.plaintext !== "string") return undefined;
    try {
      return revealSecrets(JSON.parse(value.plaintext));
    } catch {
      return undefined;
    }
  }
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, revealSecrets(v)]));
}

/** A pending create of a restcloud resource, as recover works on it. */
export interface PendingCreate {
  urn: string;
  /** The type token in state (either mode's). */
  type: string;
  /** The resource kind: `Instance`. */
  kind: string;
  /** The logical name. */
  name: string;
  /** The inputs the create was sent with (checked: the auto-name, the zone), secrets in clear. */
  inputs: Json;
}

/** A record a resource of the stack holds: its kind and id. */
export interface HeldRecord {
  urn: string;
  kind: string;
  id: string;
}

/** What recover takes from a stack's state. */
export interface StackState {
  /** The pending creates of restcloud resources, in the state's order. */
  pendingCreates: PendingCreate[];
  /** URNs of pending creates of other providers' resources. */
  otherPendingCreates: string[];
  /** The records the stack's restcloud resources hold. */
  held: HeldRecord[];
  /** The stack resource's URN, when the stack has one. */
  stackUrn?: string;
}

const logicalName = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

/** The pending creates and held records of an export (read with `--show-secrets`, for the inputs). */
export function stackStateOf(exported: ExportedStack): StackState {
  const state: StackState = { pendingCreates: [], otherPendingCreates: [], held: [] };
  for (const resource of exported.deployment.resources ?? []) {
    if (resource.type === "pulumi:pulumi:Stack") state.stackUrn = resource.urn;
    const kind = kindOfTypeToken(resource.type);
    if (kind !== undefined && typeof resource.id === "string" && resource.id !== "")
      state.held.push({ urn: resource.urn, kind, id: resource.id });
  }
  for (const op of exported.deployment.pending_operations ?? []) {
    if (op.type !== "creating" || !isObject(op.resource)) continue;
    const resource = op.resource;
    const kind = kindOfTypeToken(resource.type);
    if (kind === undefined) {
      state.otherPendingCreates.push(resource.urn);
      continue;
    }
    state.pendingCreates.push({
      urn: resource.urn,
      type: resource.type,
      kind,
      name: logicalName(resource.urn),
      inputs: revealSecrets(resource.inputs ?? {}) as Json,
    });
  }
  return state;
}

/** A pending create resolved: its record put in state (with what the read needs), or the create dropped. */
export type Resolution = { urn: string; adopt: { id: string; outputs: Json } } | { urn: string; drop: true };

/**
 * The deployment with the resolutions applied, from an export made without `--show-secrets` (so
 * that secrets stay encrypted): each adopted record becomes a resource with its id, its outputs
 * the create's inputs plus what the read needs (a rule's zone...), appended after the resources it
 * depends on (already in state: a create waits for its dependencies); the resolved pending creates
 * leave pending_operations. (`pulumi stack import` drops every pending operation anyway.) The
 * resource a replacement's create replaces is marked for deletion.
 */
export function resolvedDeployment(exported: ExportedStack, resolutions: readonly Resolution[]): ExportedStack {
  const byUrn = new Map(resolutions.map((r) => [r.urn, r]));
  const pending = exported.deployment.pending_operations ?? [];
  const adopted: DeploymentResource[] = [];
  const left: PendingOperation[] = [];
  for (const op of pending) {
    const resolution = op.type === "creating" ? byUrn.get(op.resource.urn) : undefined;
    if (resolution === undefined) {
      left.push(op);
      continue;
    }
    if ("adopt" in resolution) {
      const inputs = op.resource.inputs ?? {};
      adopted.push({
        ...op.resource,
        id: resolution.adopt.id,
        custom: true,
        inputs,
        outputs: { ...resolution.adopt.outputs, ...inputs },
      });
    }
  }
  // A replacement's create (create before delete): the resource it replaces holds the URN too, and
  // is marked for deletion, as the engine marks it once the replacement exists; the next up deletes it.
  const replaced = new Set(adopted.map((r) => r.urn));
  const resources = (exported.deployment.resources ?? []).map((r) =>
    replaced.has(r.urn) && r.delete !== true ? { ...r, delete: true } : r,
  );
  return {
    ...exported,
    deployment: {
      ...exported.deployment,
      resources: [...resources, ...adopted],
      pending_operations: left,
    },
  };
}
