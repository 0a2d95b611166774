// One cloud record, one resource: how a create that cannot tell whether it took effect (a 5xx, timeout or reset after
// sending) finds its record, for every kind. Records without a name cannot be told apart by reading, so creates run
// under the guarantees listed at IdentityRegistry. The id goes to state as soon as the create answers.
import type { RecordWhere } from "../client/coalesce";
import { VerificationRefusedError } from "../client/errors";
import type { OperationContext } from "./context";
import { claimRecord, describeOwner, ownedBy, ownersOf, type ClaimOutcome, type OwnerTagType } from "./ownership";

/** A record as the lists answer it: identified by `uuid`. */
export interface IdentifiedRecord {
  readonly uuid?: string;
}

/** How a declaration's create is told apart from the records around it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind lists records of its own shape
export interface Identity<I, R extends IdentifiedRecord = any> {
  /**
   * The creates that could be confused with each other: the same kind, the same parent, and
   * whatever the service keeps unique below it (e.g. `${vpcUuid}` for public IPs, the address plus
   * protocol and ports for firewall rules, the name for named records).
   */
  scope(inputs: I): string;
  /**
   * The records among which the new one appears (the parent's list of this kind), narrowed by `where`
   * when given (pass it to the list call). Absent where the id follows from the inputs (static NAT and
   * remote-access VPN are the address's) and the create verifies by asking the service itself.
   */
  candidates?(ctx: OperationContext, inputs: I, where?: RecordWhere): Promise<readonly R[]>;
  /** Whether a candidate is what this create asks for (its name; its ports). Default: any. */
  matches?(record: R, inputs: I): boolean;
  /**
   * A field and value every record `matches` accepts has: the candidates' list then parses only those (a long list
   * read before each create is otherwise parsed whole).
   */
  where?(inputs: I): RecordWhere | undefined;
}

/** The identity of a named record: the name, auto-named with a random suffix, tells it apart. */
export const byName = {
  matches: (record: { name?: string }, inputs: { name?: string }): boolean => record.name === inputs.name,
  where: (inputs: { name?: string }): RecordWhere | undefined =>
    inputs.name === undefined ? undefined : { field: "name", value: inputs.name },
};

/** The candidates of a create (or a recovery) that match its inputs. */
export async function matchingCandidates<I, R extends IdentifiedRecord>(
  identity: Identity<I, R>,
  ctx: OperationContext,
  inputs: I,
): Promise<R[]> {
  if (!identity.candidates) return [];
  const records = await identity.candidates(ctx, inputs, identity.where?.(inputs));
  return records.filter((record) => identity.matches?.(record, inputs) ?? true);
}

/** What a create may call, beyond the operation context, to find its own record. */
export interface CreateIdentity {
  /**
   * Reads the candidates and answers this create's record: one that appeared since the create began,
   * matches it, and no other resource holds; undefined when there is none. Throws when several are.
   * Pass it as the `verify` of the create call.
   */
  findCreated<T>(): Promise<T | undefined>;
  /** The same choice among records already in hand (e.g. the rules of a group the answer carried). */
  pickCreated<T extends IdentifiedRecord>(records: readonly T[]): T | undefined;
}

export type CreateContext = OperationContext & CreateIdentity;

/** Raised when the records cannot say which one a create made: adopting one would be a guess. */
export class AmbiguousIdentityError extends VerificationRefusedError {
  constructor(what: string, uuids: readonly string[]) {
    super(
      `${what}: after an ambiguous failure, ${uuids.length} new records could each be this create's ` +
        `(${uuids.join(", ")}); none was adopted. \`restcloud discover\` lists the records no stack holds, ` +
        "and writes what imports them or deletes them (`--delete`).",
    );
  }
}

/** Runs tasks of one key one at a time, in order; tasks of different keys run freely. */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}

/** Who a create is for, when its record can carry the owner tag (ownership.ts). */
export interface CreateOwner {
  /** The resource's URN: the owner tag's value. */
  urn: string;
  /** The API's tag type of the kind (the declaration's `tagType`). */
  tagType: OwnerTagType;
  /** The record's zone, where the tag's create needs it: from a record listed, or from the create's answer. */
  zoneOf(record: { zoneUuid?: string; known?: Record<string, unknown> }): string | undefined;
}

/** A create's answer: the id, and what the answer already says (declaration.ts `Created`). */
interface CreatedRecord {
  id: string;
  known?: Record<string, unknown>;
  /** Set when the record is not the one this create's request made, but an equivalent it claimed. */
  takenOver?: boolean;
}

/**
 * How long a create that lost its answer lets the creates of other processes claim what they made
 * (they know their ids) before it claims, among what appeared, a record no one has claimed.
 */
export const OWNER_SETTLE_MS = 1_000;

/** How many times a create whose record another stack claimed tries again before it gives up. */
const TAKEOVER_ATTEMPTS = 3;

/**
 * The ids this provider process's resources hold, and the queue of creates per identity scope (parent plus what the
 * service keeps unique): creates of one scope run one at a time, matching records listed before the request are never
 * adopted, nor one another resource holds; several candidates fail rather than guess; a 409 to a resend adopts only
 * through the same check (client/retry.ts). Across processes the owner tag settles what the queue cannot: a create
 * claims its record, or after an ambiguous failure an unclaimed one that appeared meanwhile (all equivalent: `matches`,
 * so only that no two take the same matters); one whose record another claimed takes one in turn, or creates again.
 */
export class IdentityRegistry {
  readonly #claimed = new Set<string>();
  readonly #queue = new KeyedQueue();

  constructor(private readonly settleMs = OWNER_SETTLE_MS) {}

  /** Runs `create` with the guarantees above; answers what it answered, its id claimed. */
  async create<I, R extends CreatedRecord>(
    what: string,
    type: string,
    identity: Identity<I>,
    ctx: OperationContext,
    inputs: I,
    create: (ctx: CreateContext) => Promise<R>,
    owner?: CreateOwner,
  ): Promise<R & { takenOver?: boolean }> {
    return this.#queue.run(`${type}\u0000${identity.scope(inputs)}`, async () => {
      const matches = (record: IdentifiedRecord) => identity.matches?.(record, inputs) ?? true;
      const list = () => matchingCandidates(identity, ctx, inputs);
      const before = new Set((await list()).map((record) => record.uuid));
      const fresh = <T extends IdentifiedRecord>(records: readonly T[]): T[] =>
        records.filter((r) => r.uuid !== undefined && !before.has(r.uuid) && !this.holds(type, r.uuid) && matches(r));
      const pickCreated = <T extends IdentifiedRecord>(records: readonly T[]): T | undefined => {
        const found = fresh(records);
        if (found.length > 1)
          throw new AmbiguousIdentityError(
            what,
            found.map((r) => r.uuid!),
          );
        return found[0];
      };
      // Records this create claimed while it looked for its own: they need no second claim.
      const claimedHere = new Set<string>();
      const findCreated = async <T>(): Promise<T | undefined> => {
        if (!identity.candidates) throw new Error(`${type}: its identity lists no candidates to find a record among`);
        const records = await list();
        if (!owner) return pickCreated(records) as T | undefined;
        const found = await this.claimAmong(ctx, owner, fresh(records), claimedHere);
        return found as T | undefined;
      };

      let created: R & { takenOver?: boolean } = await create({ ...ctx, findCreated, pickCreated });
      for (let attempt = 1; owner && !claimedHere.has(created.id); attempt++) {
        const claim = await this.claimQuietly(ctx, owner, created.id, { known: created.known ?? {} }, what);
        if (claim.claimed) break;
        // Another stack's create took this record for its own after an ambiguous failure (it could
        // not tell them apart): take one of the equivalent records such creates left, or create again.
        if (attempt >= TAKEOVER_ATTEMPTS)
          throw new Error(
            `${what}: the records it created were claimed by other stacks ${attempt} times (last: ${describeOwner(claim.owner)})`,
          );
        ctx.progress(`${created.id} was claimed by ${describeOwner(claim.owner)}; taking an unclaimed equivalent`);
        const other = identity.candidates
          ? await this.claimAmong(ctx, owner, fresh(await list()), claimedHere)
          : undefined;
        created = other?.uuid
          ? ({ id: other.uuid, takenOver: true } as R)
          : await create({ ...ctx, findCreated, pickCreated });
      }
      if (this.holds(type, created.id))
        throw new Error(`${what}: the service answered ${created.id}, which another resource of this stack holds`);
      this.hold(type, created.id);
      return created;
    });
  }

  /**
   * Among records that appeared while a create ran: the one its owner tag already gives this
   * resource, else one no one has claimed, claimed now (after other creates had a moment to claim
   * theirs); undefined when there is none.
   */
  private async claimAmong<T extends IdentifiedRecord & { zoneUuid?: string }>(
    ctx: OperationContext,
    owner: CreateOwner,
    candidates: readonly T[],
    claimedHere: Set<string>,
  ): Promise<T | undefined> {
    if (candidates.length === 0) return undefined;
    let owners = await ownersOf(ctx.client, owner.tagType);
    const ours = () => candidates.find((r) => ownedBy(owners.get(r.uuid!), owner.urn));
    if (ours()) return ours();
    if (!candidates.some((r) => !owners.has(r.uuid!))) return undefined;
    await sleep(this.settleMs);
    owners = await ownersOf(ctx.client, owner.tagType);
    if (ours()) return ours();
    for (const record of candidates.filter((r) => !owners.has(r.uuid!))) {
      const zoneUuid = owner.zoneOf({ zoneUuid: record.zoneUuid });
      if (zoneUuid === undefined) continue;
      const outcome = await claimRecord(ctx.client, {
        resourceType: owner.tagType,
        zoneUuid,
        resourceUuid: record.uuid!,
        urn: owner.urn,
      });
      if (outcome.claimed) {
        claimedHere.add(record.uuid!);
        return record;
      }
    }
    return undefined;
  }

  /**
   * Claims the record a create's request made. A refusal other than another owner's (tags not
   * allowed there, an outage past the deadline) leaves the record unmarked but the resource's: the
   * create must not lose an id it has. The user is told.
   */
  private async claimQuietly(
    ctx: OperationContext,
    owner: CreateOwner,
    id: string,
    answer: { known: Record<string, unknown> },
    what: string,
  ): Promise<ClaimOutcome> {
    const zoneUuid = owner.zoneOf(answer);
    try {
      if (zoneUuid === undefined) throw new Error("its zone is unknown");
      return await claimRecord(ctx.client, { resourceType: owner.tagType, zoneUuid, resourceUuid: id, urn: owner.urn });
    } catch (error) {
      ctx.progress(
        `${what} ${id}: could not tag it with its owner (${error instanceof Error ? error.message : String(error)}); ` +
          "it is the resource's, but `restcloud discover` will not know whose it is",
      );
      return { claimed: true };
    }
  }

  /**
   * Records an id a resource of `type` holds (created, read, updated or deleted in this process), so
   * that no create of that type adopts it. Per type: a static NAT's id is its address's, by design.
   */
  hold(type: string, id: string): void {
    this.#claimed.add(`${type}\u0000${id}`);
  }

  /** A record deleted: its id is nobody's (a static NAT replaced on its address gets the same id). */
  release(type: string, id: string): void {
    this.#claimed.delete(`${type}\u0000${id}`);
  }

  holds(type: string, id: string): boolean {
    return this.#claimed.has(`${type}\u0000${id}`);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
