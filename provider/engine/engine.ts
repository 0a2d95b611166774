// The one implementation of check, diff, create, read, update and delete, for any declaration, neutral about the front
// end: plain values in and out, and who the resource is, its timeouts, its auto-name seed and whether its create must
// finish arrive as arguments (ResourceCall, Naming) that each front end keeps as its protocol allows.
import { createHash, randomBytes } from "node:crypto";
import type { z } from "zod";
import type { OperationContext, ProviderSettings, ResourceDeclaration, Timeouts } from "./declaration";
import type { KindFacts } from "./context";
import type { RestCloudClient } from "../client";
import { runOperation, type Notice, type OperationAction } from "./operation";
import { ApiError } from "../client/errors";
import { IdentityRegistry, type CreateOwner } from "./identity";
import { dependentsOf, describeDependents } from "./dependents";
import { inputIssueMessage } from "./validators";
import { catalogReferenceFailures } from "./references";
import {
  NOT_READ_ON_IMPORT,
  absenceAccepted,
  notReadOnImport,
  readForImport,
  takenAsDeclared,
  withNotReadMarker,
} from "./import";
import { runProcedure, runWait } from "./waits";
import { autoNamed, proposedNameReason, type Autonaming } from "./autonaming";
import { TAGS_ARGUMENT, declaresTags, liveTags, withDefaultTags } from "./tags";

export { NOT_READ_ON_IMPORT };

export type PropertyMap = Record<string, unknown>;

/** Who an operation acts for and how long it may take, as the front end knows it. */
export interface ResourceCall {
  /** The resource's logical name and URN: what the user is told about (operation.ts). */
  name?: string;
  urn?: string;
  /** This operation's timeout in milliseconds (the resource's customTimeouts); else the declaration's default. */
  timeoutMs?: number;
  /** The create's wait failed: this update finishes it first (its ready waits and follow-up steps). */
  pendingReady?: boolean;
}

/** How check fills an absent auto-named argument: as the stack's autonaming says, else `<logicalName>-<7 hex digits>`. */
export interface Naming {
  logicalName: string;
  /** The name generated before (kept across updates); a new one is made only without it. */
  previousName?: string;
  /** The engine's random seed (native Check): the same seed gives the same name, in preview and up. */
  seed?: Uint8Array;
  /** The stack's `pulumi:autonaming` for the resource, when the engine sends it (native Check; autonaming.ts). */
  autonaming?: Autonaming;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  /** Arguments that changed and are updated in place. */
  updates: string[];
  deleteBeforeReplace: boolean;
}

/**
 * Raised when a create was accepted but the wait for readiness failed: the id goes to state, and the
 * front end marks the resource so that its next update finishes the create (ResourceCall.pendingReady).
 */
export class ResourceInitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: PropertyMap,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "ResourceInitError";
  }
}

export function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).filter((k) => (a as PropertyMap)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as PropertyMap)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => isDeepEqual((a as PropertyMap)[k], (b as PropertyMap)[k]));
}

function inputKeys(declaration: ResourceDeclaration): string[] {
  return Object.keys(declaration.inputs.shape);
}

/** Only the declared arguments, in their declared order. */
function pickInputs(declaration: ResourceDeclaration, props: PropertyMap): PropertyMap {
  const picked: PropertyMap = {};
  for (const key of inputKeys(declaration)) if (props[key] !== undefined) picked[key] = props[key];
  return picked;
}

export interface EngineEnvironment {
  client(): RestCloudClient;
  settings(): ProviderSettings;
  progress?(message: string): void;
  /** Where the user hears of operations in progress: an outage, a long wait (operation.ts). */
  notify?(notice: Notice): void;
  /** The ids the process's resources hold and its queue of creates (default: one per process). */
  identities?: IdentityRegistry;
  /**
   * Whether a value is, or holds, one the front end does not know yet (a preview's unknown input):
   * check does not judge it, diff counts it as a change. The front end's wire format says which
   * (wire.ts); default: none is.
   */
  containsUnknown?(value: unknown): boolean;
  /** Every kind's declaration, for the operations that look at other kinds (context.ts). */
  declarations?: readonly KindFacts[];
}

/** One per provider process: every engine of the process shares it (identity.ts). */
const processIdentities = new IdentityRegistry();

/** Raised when a record the stack holds is gone from the cloud (deleted outside Pulumi). */
export class RecordGoneError extends Error {
  constructor(type: string, id: string, action: string) {
    super(
      `${type} ${id} no longer exists in the cloud (deleted outside Pulumi?), so it cannot be ${action}. ` +
        "Run `pulumi refresh` to drop it from the stack; the next `pulumi up` then creates it anew.",
    );
    this.name = "RecordGoneError";
  }
}

/** A client error (4xx) that a missing record answers: 404, or a 409/400 refusing a record no longer there. */
function mayMeanGone(error: unknown): boolean {
  const status = error instanceof ApiError ? error.status : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 429;
}

export class Engine {
  constructor(
    readonly declaration: ResourceDeclaration,
    private readonly environment: EngineEnvironment,
  ) {}

  /**
   * Validates the arguments (a failure per bad field, unknown values pass) and fills defaults:
   * the auto-name (kept from the previous inputs when there are any; else as the stack's autonaming
   * says, autonaming.ts) and the default zone. A required
   * argument an import could not read may be absent when olds and news both say so (absenceAccepted).
   */
  check(olds: PropertyMap, news: PropertyMap, naming?: Naming): { inputs: PropertyMap; failures: CheckFailure[] } {
    const d = this.declaration;
    const inputs: PropertyMap = { ...news };
    const named =
      d.autoName && inputs[d.autoName] === undefined && naming
        ? autoNamed(naming, () => autoName(naming.logicalName, naming.seed))
        : undefined;
    if (named && "name" in named) inputs[d.autoName!] = named.name;
    const proposedName = named && "name" in named && named.proposed ? named.name : undefined;
    for (const [key, value] of Object.entries(d.defaults ?? {})) {
      if (inputs[key] === undefined) inputs[key] = value;
    }
    if (d.zoneDefault && inputs[d.zoneDefault] === undefined) {
      const zone = this.environment.settings().zoneUuid;
      if (zone) inputs[d.zoneDefault] = zone;
    }
    if (d.tagType) {
      const tags = withDefaultTags(inputs[TAGS_ARGUMENT], this.environment.settings().defaultTags, (v) =>
        this.containsUnknown(v),
      );
      if (tags === undefined) delete inputs[TAGS_ARGUMENT];
      else inputs[TAGS_ARGUMENT] = tags;
    }
    const failures: CheckFailure[] = [];
    if (named && "failure" in named) failures.push({ property: d.autoName!, reason: named.failure });
    if (d.zoneDefault && inputs[d.zoneDefault] === undefined) {
      failures.push({
        property: d.zoneDefault,
        reason: "is required: set it, or set the provider's default zone (pulumi config set restcloud:zoneUuid <uuid>)",
      });
    }
    const unknownKeys = new Set(Object.keys(inputs).filter((k) => this.containsUnknown(inputs[k])));
    const notRead = absenceAccepted(olds, news);
    // reportInput: zod 4 records the offending value only when asked, and reason() needs it to tell
    // a missing argument from a wrong one (the value itself never reaches the message).
    const result = d.inputs.safeParse(pickInputs(d, inputs), { reportInput: true, error: inputIssueMessage });
    if (!result.success) {
      for (const issue of result.error.issues) {
        const property = issue.path.map(String).join(".");
        if (unknownKeys.has(String(issue.path[0]))) continue;
        if (issue.path.length === 0 && unknownKeys.size > 0) continue; // a cross-field rule over unknowns
        if (issue.path.length === 1 && notRead.has(property)) continue; // absent, as the import could not read it
        const reason = this.reason(issue);
        failures.push({
          property: property || "(arguments)",
          reason:
            property === d.autoName && proposedName !== undefined ? proposedNameReason(reason, proposedName) : reason,
        });
      }
    }
    for (const key of Object.keys(news)) {
      if (!(key in d.inputs.shape) && key !== NOT_READ_ON_IMPORT) {
        failures.push({ property: key, reason: `is not an argument of ${d.type}` });
      }
    }
    return { inputs, failures };
  }

  /**
   * After a clean check: the references the catalog can confirm (a zone, an offering, a template, a
   * Kubernetes version; references.ts), when new or changed. A failure per argument that
   * names no such record; none when the catalog cannot be read.
   */
  async checkReferences(olds: PropertyMap, inputs: PropertyMap): Promise<CheckFailure[]> {
    let client: RestCloudClient;
    try {
      client = this.environment.client();
    } catch {
      return []; // incomplete provider configuration: the create says so
    }
    return catalogReferenceFailures(client, this.declaration.inputs, olds, inputs, (v) => this.containsUnknown(v));
  }

  private containsUnknown(value: unknown): boolean {
    return this.environment.containsUnknown?.(value) ?? false;
  }

  /** The issue in words; a required argument left out says so (an enum's choices after it). */
  private reason(issue: z.core.$ZodIssue): string {
    if (issue.input !== undefined) return issue.message;
    if (issue.code === "invalid_type") return "is required";
    return issue.code === "invalid_value" ? `is required: ${issue.message}` : issue.message;
  }

  /**
   * Per argument: replace (replaceOn), update in place (an update step), or no change. The marker of
   * `olds` (the old inputs) or of `state` (the outputs kept) names the arguments an import could not
   * read: the program's value for one of those the old inputs lack is no change.
   */
  diff(olds: PropertyMap, news: PropertyMap, state: PropertyMap = {}): DiffOutcome {
    const d = this.declaration;
    const replaces: string[] = [];
    const updates: string[] = [];
    const notRead = takenAsDeclared(olds, state);
    for (const key of inputKeys(d)) {
      const changed = this.containsUnknown(news[key]) || !isDeepEqual(olds[key], news[key]);
      if (!changed || notRead.has(key)) continue;
      if ((d.replaceOn as readonly string[]).includes(key)) replaces.push(key);
      else updates.push(key);
    }
    return {
      changes: replaces.length + updates.length > 0,
      replaces,
      updates,
      deleteBeforeReplace: Boolean(d.deleteBeforeReplace) && replaces.length > 0,
    };
  }

  private context(operation: keyof Timeouts, call: ResourceCall): OperationContext {
    const timeoutMs = this.timeoutOf(operation, call);
    const progress = this.environment.progress ?? (() => undefined);
    return {
      client: this.environment.client(),
      settings: this.environment.settings(),
      timeoutMs,
      progress: (message) => progress(`${this.declaration.type}: ${message}`),
      lastSeen: new Map(),
      ...(this.environment.declarations ? { declarations: this.environment.declarations } : {}),
    };
  }

  private parseInputs(props: PropertyMap): Record<string, unknown> {
    return this.declaration.inputs.parse(pickInputs(this.declaration, props)) as Record<string, unknown>;
  }

  /** The state kept for a resource: its arguments and the outputs read back. */
  private state(inputs: PropertyMap, outputs: PropertyMap): PropertyMap {
    return { ...outputs, ...inputs };
  }

  /** The operation's timeout: the resource's customTimeouts, else the declaration's default. */
  private timeoutOf(operation: keyof Timeouts, call: ResourceCall): number {
    return call.timeoutMs ?? this.declaration.defaultTimeouts[operation];
  }

  /**
   * Runs one operation of a resource as an operation (operation.ts): its timeout's deadline bounds
   * the retries and waits of an outage, and the user hears what it waits on.
   */
  private operation<T>(action: OperationAction, id: string | undefined, call: ResourceCall, run: () => Promise<T>) {
    const timeoutName = action === "read" ? "update" : action;
    let health;
    try {
      health = this.environment.client().health;
    } catch {
      // No client (the configuration is incomplete): the operation itself says so.
    }
    const notify = this.environment.notify?.bind(this.environment);
    return runOperation<T>(
      {
        type: this.declaration.type,
        ...(call.name ? { name: call.name } : {}),
        ...(call.urn ? { urn: call.urn } : {}),
        ...(id ? { id } : {}),
        action,
        timeoutName,
        timeoutMs: this.timeoutOf(timeoutName, call),
        ...(health ? { health } : {}),
        ...(notify ? { notify } : {}),
      },
      run,
    );
  }

  create(props: PropertyMap, call: ResourceCall = {}): Promise<{ id: string; state: PropertyMap }> {
    return this.operation("create", undefined, call, () => this.createRecord(props, call));
  }

  private async createRecord(props: PropertyMap, call: ResourceCall): Promise<{ id: string; state: PropertyMap }> {
    const ctx = this.context("create", call);
    const inputs = this.parseInputs(props);
    const d = this.declaration;
    const made = await this.identities.create(
      `${d.type} ${String(inputs[d.autoName ?? ""] ?? "")}`.trim(),
      d.type,
      d.identity,
      ctx,
      inputs,
      (createContext) => d.create(createContext, inputs),
      this.ownerOf(ctx, call, inputs),
    );
    const id = made.id;
    // A record taken over from another stack's lost create: what its own create's answer would have said.
    const known: PropertyMap = made.takenOver && d.locate ? { ...(await d.locate(ctx, id)) } : { ...made.known };
    const created = { ...known, ...inputs };
    try {
      await this.finishCreate(ctx, id, created);
      const live = await this.declaration.read(ctx, id, created);
      if (!live) throw new Error(`${this.declaration.type} ${id} was created but is no longer listed`);
      return { id, state: this.state(props, { ...known, ...live.outputs }) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ResourceInitError(
        `${this.declaration.type} ${id} was created but did not become ready: ${message}`,
        id,
        this.state(props, known),
        [message],
      );
    }
  }

  /**
   * What follows the create call: the waits of `ready`, then the update steps of the arguments the
   * call could not set (`createdAs`), as an update from the values it left them at. Run again by the
   * update that finishes a create whose wait failed; every step reads before it acts.
   */
  private async finishCreate(ctx: OperationContext, id: string, state: PropertyMap): Promise<void> {
    const d = this.declaration;
    if (typeof d.ready === "function") await runProcedure(ctx, d.record, id, state, d.ready(ctx, id, state));
    else for (const wait of d.ready ?? []) await runWait(ctx, d.record, id, state, wait);
    if (!d.createdAs) return;
    const inputs = this.parseInputs(state);
    const leftAs = d.createdAs(inputs) as PropertyMap;
    const differs = (field: string) =>
      field in leftAs && inputs[field] !== undefined && !isDeepEqual(leftAs[field], inputs[field]);
    for (const step of d.updates) {
      if (step.fields.some(differs))
        await runProcedure(ctx, d.record, id, state, step.apply(ctx, id, inputs, { ...state, ...leftAs }), {
          what: `${d.type}'s update step (${step.via})`,
          awaits: step.awaits ?? [],
        });
    }
  }

  /**
   * Who a create is for, when it tags its record (ownership.ts): its kind can carry the tag, the
   * front end gave the URN, and `restcloud:ownerTags` is not false. The zone the tag's create needs is
   * the record's, else the one its create answered (a rule's), else its argument's or the default's.
   */
  private ownerOf(ctx: OperationContext, call: ResourceCall, inputs: PropertyMap): CreateOwner | undefined {
    const tagType = this.declaration.tagType;
    if (!tagType || !call.urn || ctx.settings.ownerTags === false) return undefined;
    const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
    return {
      urn: call.urn,
      tagType,
      zoneOf: (record) =>
        text(record.zoneUuid) ??
        text(record.known?.ruleZoneUuid) ??
        text(inputs.zoneUuid) ??
        text(ctx.settings.zoneUuid),
    };
  }

  /** The live state, or undefined when the record is gone (refresh then drops it from the stack). */
  read(
    id: string,
    props: PropertyMap,
    call: ResourceCall = {},
  ): Promise<{ state: PropertyMap; inputs: PropertyMap } | undefined> {
    return this.operation("read", id, call, () => this.readRecord(id, props, call));
  }

  private async readRecord(
    id: string,
    props: PropertyMap,
    call: ResourceCall,
  ): Promise<{ state: PropertyMap; inputs: PropertyMap } | undefined> {
    const ctx = this.context("update", call);
    this.identities.hold(this.declaration.type, id);
    if (Object.keys(props).length === 0) {
      // An import: the id alone (pulumi import, the import option). The arguments are the record's,
      // and the marker of those not read, which Pulumi hands back to Check and Diff as the olds.
      const imported = await readForImport(this.declaration, ctx, id);
      if (!imported) return undefined;
      const inputs = withNotReadMarker(imported.inputs, notReadOnImport(imported.outputs));
      return { state: this.state(inputs, imported.outputs), inputs };
    }
    // A state without outputs (a pending create put into the state by `restcloud recover`, whose
    // create never answered): what the create's answer would have given is found first.
    const d = this.declaration;
    const hasOutputs = Object.keys(d.outputs.shape).some((key) => props[key] !== undefined && !(key in d.inputs.shape));
    let readState = props;
    if (!hasOutputs && d.locate) {
      const located = await d.locate(ctx, id);
      if (!located) return undefined;
      readState = { ...located, ...props };
    }
    const live = await d.read(ctx, id, readState as Record<string, unknown>);
    if (!live) return undefined;
    // The tags of the keys the state declares (none declared: no request); others' keys stay out.
    if (d.tagType && declaresTags(props[TAGS_ARGUMENT]))
      live.inputs[TAGS_ARGUMENT] = await liveTags(ctx, id, Object.keys(props[TAGS_ARGUMENT]));
    // Drift is reported for the arguments the program declared: an optional argument left out
    // takes whatever default the API applies, and that is no drift.
    const declared = pickInputs(this.declaration, props);
    const liveInputs: PropertyMap = { ...declared };
    for (const [key, value] of Object.entries(definedOnly(live.inputs))) {
      if (declared[key] !== undefined) liveInputs[key] = value;
    }
    // A refresh after an import, before the program declared them: still not read.
    const inputs = withNotReadMarker(liveInputs, notReadOnImport(props));
    return { state: this.state(inputs, live.outputs), inputs };
  }

  /** Runs the update steps whose arguments changed, in declaration order, each awaited until visible. */
  update(id: string, olds: PropertyMap, news: PropertyMap, call: ResourceCall = {}): Promise<PropertyMap> {
    return this.operation("update", id, call, () => this.updateRecord(id, olds, news, call));
  }

  private async updateRecord(
    id: string,
    olds: PropertyMap,
    news: PropertyMap,
    call: ResourceCall,
  ): Promise<PropertyMap> {
    const ctx = this.context("update", call);
    const { updates, replaces } = this.diff(olds, news, olds);
    if (replaces.length > 0)
      throw new Error(`${this.declaration.type}: ${replaces.join(", ")} cannot be updated in place`);
    const newInputs = this.parseInputs(news);
    const oldInputs = olds as Record<string, unknown>;
    this.identities.hold(this.declaration.type, id);
    // A record deleted outside Pulumi: say so before sending anything (an update would wait on
    // a record that never shows the change).
    if (!(await this.exists(ctx, id, olds))) throw new RecordGoneError(this.declaration.type, id, "updated");
    if (call.pendingReady) {
      // Pulumi updates a resource whose create failed half-way: finish what the create began.
      await this.finishCreate(ctx, id, { ...oldInputs, ...newInputs });
    }
    const pending = new Set(updates);
    const d = this.declaration;
    for (const step of d.updates) {
      if (step.fields.some((f) => pending.has(f))) {
        await runProcedure(ctx, d.record, id, { ...olds, ...newInputs }, step.apply(ctx, id, newInputs, oldInputs), {
          what: `${d.type}'s update step (${step.via})`,
          awaits: step.awaits ?? [],
        });
        for (const f of step.fields) pending.delete(f);
      }
    }
    if (pending.size > 0) {
      throw new Error(`${this.declaration.type}: no update step declared for ${[...pending].join(", ")}`);
    }
    const live = await this.declaration.read(ctx, id, { ...olds, ...newInputs });
    if (!live) throw new RecordGoneError(this.declaration.type, id, "updated");
    return this.state(news, live.outputs);
  }

  /**
   * Gone is gone: a delete that finds its record already absent succeeded. The declaration's delete
   * may meet the absence as a 404 (or as a refusal of an action on it); the record is then read
   * back, and only if it is still there does the error stand.
   */
  delete(id: string, props: PropertyMap, call: ResourceCall = {}): Promise<void> {
    return this.operation("delete", id, call, () => this.deleteRecord(id, props, call));
  }

  private async deleteRecord(id: string, props: PropertyMap, call: ResourceCall): Promise<void> {
    const ctx = this.context("delete", call);
    try {
      const d = this.declaration;
      await runProcedure(ctx, d.record, id, props, d.delete(ctx, id, props as Record<string, unknown>));
    } catch (error) {
      if (!mayMeanGone(error) || (await this.exists(ctx, id, props)))
        throw await this.explainRefusal(ctx, id, props, error);
      ctx.progress(`${id} was already gone (${(error as ApiError).errorCode}): nothing to delete`);
    }
    this.identities.release(this.declaration.type, id);
  }

  /**
   * A delete the service refused because the record is in use (409): the records still using it,
   * which no resource of this stack holds any more (dependents.ts), named in the error. Any other
   * error, or one whose users cannot be listed, stands as it is.
   */
  private async explainRefusal(
    ctx: OperationContext,
    id: string,
    props: PropertyMap,
    error: unknown,
  ): Promise<unknown> {
    const zoneUuid = (props.zoneUuid as string | undefined) ?? ctx.settings.zoneUuid;
    if (!(error instanceof ApiError) || error.status !== 409 || zoneUuid === undefined) return error;
    try {
      const dependents = await dependentsOf(ctx, id, zoneUuid);
      if (dependents.length === 0) return error;
      return Object.assign(new Error(`${error.message}\n${describeDependents(dependents)}`), { cause: error });
    } catch {
      return error;
    }
  }

  /** Whether the record is still there; a 404 to the read itself (a parent gone too) means it is not. */
  private async exists(ctx: OperationContext, id: string, props: PropertyMap): Promise<boolean> {
    try {
      return (await this.declaration.read(ctx, id, props as Record<string, unknown>)) !== undefined;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return false;
      throw error;
    }
  }

  private get identities(): IdentityRegistry {
    return this.environment.identities ?? processIdentities;
  }
}

/** `web-3f9a2c1`: from the seed when there is one (the same seed, the same name), else at random. */
export function autoName(logicalName: string, seed?: Uint8Array): string {
  const bytes = seed && seed.length >= 4 ? createHash("sha256").update(seed).digest() : randomBytes(4);
  return `${logicalName}-${Buffer.from(bytes).toString("hex").slice(0, 7)}`;
}

function definedOnly(values: PropertyMap): PropertyMap {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
