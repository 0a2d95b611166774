// A resource is a declaration: what is true of it (inputs, what replaces, what updates through which call, what to wait
// for). The engine (engine.ts) acts on any declaration; the front ends map the engine onto Pulumi.
import type { z } from "zod";
import type { OperationKey } from "../client/operations";
import type { Price } from "../pricing";
import type { OperationContext } from "./context";
import type { CreateContext, Identity } from "./identity";
import type { InventoryFacet } from "./inventory";
import type { OwnerTagType } from "./ownership";
import { TAGS_ARGUMENT, TAGS_VIA, applyTagChanges, tagZoneOf, tagsArgument, type Tags } from "./tags";
import type { AwaitedKind, Procedure, RecordLookup, Wait } from "./waits";

export type { KindFacts, OperationContext, ProviderSettings } from "./context";

/** Waits, in milliseconds, per operation. Pulumi's `customTimeouts` override them per resource. */
export interface Timeouts {
  create: number;
  update: number;
  delete: number;
}

/** What a declaration's read returns: the live values of the inputs (for drift) and the outputs. */
export interface LiveView<I, O> {
  inputs: Partial<I>;
  outputs: O;
}

/** An in-place update: the inputs it changes, the call(s) that do it, and what it waits for. */
export interface UpdateStep<I, R = unknown> {
  /** The inputs this step updates. A change to any of them runs the step. */
  readonly fields: readonly (keyof I & string)[];
  /** The API call(s), for the README's update/replace table (e.g. "updateVpc"). */
  readonly via: string;
  /** What the step waits for, for the docs: each wait it yields must be of a kind listed here. */
  readonly awaits?: readonly AwaitedKind[];
  /**
   * Client operations only this step calls. docs/operations.md credits them to the step's fields
   * (`Vpc.restartTriggers`), more precisely than its search of the code, which sees the whole kind.
   */
  readonly reaches?: readonly OperationKey[];
  /**
   * Sends the new values and yields what to wait for (waits.ts: `yield showing(change)`); the engine
   * runs each wait. `olds` also holds the last outputs.
   */
  apply(ctx: OperationContext, id: string, news: I, olds: I & Record<string, unknown>): Procedure<R>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyObjectSchema = z.ZodObject<any>;

export interface ResourceDeclaration<
  IS extends AnyObjectSchema = AnyObjectSchema,
  OS extends AnyObjectSchema = AnyObjectSchema,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  R = any,
> {
  /** The type name users see: `restcloud:Vpc`. */
  readonly type: string;
  /** One paragraph for the docs and schema.json. */
  readonly description: string;
  /** How `restcloud cost` prices the kind (provider/pricing). Absent: the kind is free. */
  readonly price?: Price;
  /**
   * Client operations the kind reaches where docs/operations.md's search of the code cannot see the
   * call (an area handed whole to a helper), and how.
   */
  readonly reaches?: { readonly operations: readonly OperationKey[]; readonly how: string };
  // Facts for the generated descriptions (provider/schema/sentences.ts).
  /**
   * What "Changing it replaces the <noun>." calls the resource, where the words of `type` would
   * not say it ("port-forwarding rule"). Default: those words ("VpcTier": "VPC tier").
   */
  readonly noun?: string;
  /**
   * The arguments: camelCase, each with `.describe()` (what it is; what a change does and the default
   * are added from replaceOn, updates and withDefault); may carry refinements.
   */
  readonly inputs: IS;
  /** The outputs beyond the arguments: the record's fields, named as users say them. */
  readonly outputs: OS;
  /** The argument auto-named `<logical name>-<random suffix>` when not given (stable across updates). */
  readonly autoName?: keyof z.infer<IS> & string;
  /** The argument that defaults to the provider's `restcloud:zoneUuid`. */
  readonly zoneDefault?: keyof z.infer<IS> & string;
  /**
   * Defaults applied by check and kept in state, so that drift from them shows (e.g. an instance
   * stopped out of band while its desired state defaults to Running).
   */
  readonly defaults?: Partial<z.infer<IS>>;
  /** Arguments whose change replaces the resource. */
  readonly replaceOn: readonly (keyof z.infer<IS> & string)[];
  /** Arguments updated in place, and how. Every argument is in replaceOn or in one step (a unit test checks). */
  readonly updates: readonly UpdateStep<z.infer<IS>, R>[];
  /** Arguments that are secrets: always encrypted in state, in inputs and outputs alike. */
  readonly secretInputs?: readonly (keyof z.infer<IS> & string)[];
  /** Outputs to keep secret beyond those whose key matches a secret input. */
  readonly secretOutputs?: readonly (keyof z.infer<OS> & string)[];
  /**
   * Arguments the API's record may not show (write-only, or absent from the spec's record). After an
   * import that could not read one, the program's value is taken as it is: no change is shown.
   */
  readonly unreadable?: readonly (keyof z.infer<IS> & string)[];
  /** Delete the old resource before creating its replacement (names unique in the account). */
  readonly deleteBeforeReplace?: boolean;
  readonly defaultTimeouts: Timeouts;
  /**
   * How the create tells its record apart after an ambiguous failure (identity.ts): the scope of
   * creates that could be confused, and the records to look among.
   */
  readonly identity: Identity<z.infer<IS>>;
  /**
   * Sends the create call and returns the new id as soon as the API gives it, with what the answer
   * already says that later reads need (e.g. the zone of a rule, whose list calls take a zone).
   * The call's `verify` is `ctx.findCreated` (or the kind's own check where the id follows from the
   * inputs), so that no record is adopted twice.
   */
  create(ctx: CreateContext, inputs: z.infer<IS>): Promise<Created<z.infer<OS>>>;
  /**
   * Where the live record is: what the waits of the create, the update steps and the delete poll
   * (waits.ts). Declarations that never wait may leave it out.
   */
  readonly record?: RecordLookup<R>;
  /**
   * What "ready" is after a create, awaited in order before the record is read back (e.g.
   * `until("to be Running", ...)`, or the job the record names); or, where readiness takes a call
   * (assigning a load balancer's instances), a procedure that makes the call and yields its waits.
   * A failure here keeps the id in state (nothing is orphaned), and the next update finishes the create.
   */
  readonly ready?: readonly Wait<R>[] | ((ctx: OperationContext, id: string, state: State<IS, OS>) => Procedure<R>);
  /**
   * The values the create call leaves some arguments at, where the call cannot set them (an
   * instance starts Running, with its name as display name). Once ready, the engine runs the update
   * steps of those whose declared value differs, as an update from these values.
   */
  readonly createdAs?: (inputs: z.infer<IS>) => Partial<z.infer<IS>>;
  /**
   * For an import (`pulumi import`, the `import` option): finds, from the id alone, the state that
   * `read` needs (the parent a rule hangs on, the zone whose list holds the record...), plus any
   * argument the search itself establishes (e.g. the instance a port-forwarding rule reaches); the
   * arguments among it count as read. Undefined when no record has this id. Without it, the import
   * (import.ts) tries the zones for a declaration with `zoneDefault`, else reads with empty state.
   */
  locate?(ctx: OperationContext, id: string): Promise<Partial<State<IS, OS>> | undefined>;
  /** The live record as inputs and outputs; undefined when it is gone. */
  read(
    ctx: OperationContext,
    id: string,
    state: State<IS, OS>,
  ): Promise<LiveView<z.infer<IS>, z.infer<OS>> | undefined>;
  /** Sends the delete call(s), and yields what to wait for (usually `gone()`): the engine waits. */
  delete(ctx: OperationContext, id: string, state: State<IS, OS>): Procedure<R>;
  /**
   * The API's tag type of the kind (`UserVm` for an instance), when its records can carry tags:
   * each create then claims its record with the owner tag (ownership.ts), discover and recover read
   * it, and a ResourceTag of this type finds its zone through this kind's inventory.
   */
  readonly tagType?: OwnerTagType;
  /** How `restcloud discover` lists every record of the kind (inventory.ts); absent: the API shows none. */
  readonly inventory?: InventoryFacet;
}

/** The new id, and outputs the create's answer already gives. */
export interface Created<O> {
  id: string;
  known?: Partial<O>;
}

/** What the engine knows of a resource: its arguments and, once read, its outputs. */
export type State<IS extends AnyObjectSchema, OS extends AnyObjectSchema> = z.infer<IS> & Partial<z.infer<OS>>;

/** The arguments of a taggable kind: its own, and `tags` (tags.ts). */
export type WithTags<IS extends AnyObjectSchema> =
  IS extends z.ZodObject<infer Shape, infer Config>
    ? z.ZodObject<Shape & { [TAGS_ARGUMENT]: typeof tagsArgument }, Config>
    : never;

/**
 * Gives a declaration its types; a kind with a `tagType` gets the `tags` argument here, once for every
 * taggable kind: the argument, its update step (createTags, deleteResourceTag), and its creation after
 * the record is ready (as an argument the create call leaves at no tags: `createdAs`).
 */
export function defineResource<
  IS extends AnyObjectSchema,
  OS extends AnyObjectSchema,
  R = unknown,
  T extends OwnerTagType | undefined = undefined,
>(
  declaration: ResourceDeclaration<IS, OS, R> & { readonly tagType?: T },
): ResourceDeclaration<[T] extends [OwnerTagType] ? WithTags<IS> : IS, OS, R> {
  const tagType = declaration.tagType;
  if (tagType === undefined) return declaration as never;
  const { createdAs } = declaration;
  const tagsStep: UpdateStep<{ tags?: Tags } & Record<string, unknown>> = {
    fields: [TAGS_ARGUMENT],
    via: TAGS_VIA,
    reaches: ["resourceTag.create", "resourceTag.delete"],
    apply: (ctx, id, news, olds) =>
      applyTagChanges(
        ctx,
        { tagType, resourceUuid: id, zoneUuid: tagZoneOf({ ...olds, ...news }, ctx.settings) },
        olds.tags ?? {},
        news.tags ?? {},
      ),
  };
  return {
    ...declaration,
    inputs: declaration.inputs.safeExtend({ [TAGS_ARGUMENT]: tagsArgument }),
    updates: [...declaration.updates, tagsStep],
    createdAs: (inputs: z.infer<IS>) => ({ ...createdAs?.(inputs), [TAGS_ARGUMENT]: {} }),
  } as never;
}

/** The properties kept secret beyond those whose key matches a secret input. */
export function secretProperties(declaration: ResourceDeclaration): string[] {
  return [...((declaration.secretInputs ?? []) as string[]), ...((declaration.secretOutputs ?? []) as string[])];
}

/** Words spelled as written, not lower-cased, in a noun derived from a type name. */
const SPELLINGS: Record<string, string> = {
  Vpc: "VPC",
  Vpn: "VPN",
  Ip: "IP",
  Nat: "NAT",
  Vm: "VM",
  Kubernetes: "Kubernetes",
};

/** What the docs call a resource: its declared noun, else its type's words ("VpcTier": "VPC tier"). */
export function nounOf(d: { readonly type: string; readonly noun?: string }): string {
  if (d.noun !== undefined) return d.noun;
  const words = d.type.match(/[A-Z][a-z0-9]*/g) ?? [d.type];
  return words.map((w) => SPELLINGS[w] ?? w.toLowerCase()).join(" ");
}
