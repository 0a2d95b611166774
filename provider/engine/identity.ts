/**
 * One cloud record, one resource: how a create finds the record it made after an ambiguous failure
 * (a 5xx, a timeout or a reset after the request left), for every kind, in one place.
 *
 * A create that cannot tell whether it took effect reads the records back. A named record is found
 * by its name; records without one (public IPs, rules, tags, snapshots of one volume) cannot be told
 * apart by reading alone, so every create of a kind runs under these guarantees:
 *
 * - creates with the same identity scope (the parent, plus whatever the service keeps unique: a
 *   name, a protocol and port range, a tag key) run one at a time in the provider process, so a
 *   record that appears in the scope while one runs is that create's or nobody's in this stack;
 * - the scope's matching records are listed before the request: none of them is ever adopted;
 * - a record already given to another resource in this process is never adopted;
 * - several candidates are never guessed between: the create fails and says so;
 * - a 409 to a resend adopts the existing record only through the same check (client/retry.ts).
 *
 * The id goes to state as soon as the create answers; waits come after (engine.ts).
 */
import { VerificationRefusedError } from "../client/errors";
import type { OperationContext } from "./declaration";

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
   * The records among which the new one appears (the parent's list of this kind). Absent where the
   * id follows from the inputs (static NAT and remote-access VPN are the address's) and the create
   * verifies by asking the service itself.
   */
  candidates?(ctx: OperationContext, inputs: I): Promise<readonly R[]>;
  /** Whether a candidate is what this create asks for (its name; its ports). Default: any. */
  matches?(record: R, inputs: I): boolean;
}

/** The `matches` of a named record: the name, auto-named with a random suffix, tells it apart. */
export const sameName = (record: { name?: string }, inputs: { name?: string }): boolean => record.name === inputs.name;

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
        `(${uuids.join(", ")}); none was adopted. Import the right one, or delete the extra records.`,
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

/**
 * The ids the resources of this provider process hold (created or adopted in it), and the queue of
 * creates per scope. One per process: every resource of a `pulumi up` is served by one process.
 */
export class IdentityRegistry {
  readonly #claimed = new Set<string>();
  readonly #queue = new KeyedQueue();

  /** Runs `create` with the guarantees above; answers what it answered, its id claimed. */
  async create<I, R extends { id: string }>(
    what: string,
    type: string,
    identity: Identity<I>,
    ctx: OperationContext,
    inputs: I,
    create: (ctx: CreateContext) => Promise<R>,
  ): Promise<R> {
    return this.#queue.run(`${type}\u0000${identity.scope(inputs)}`, async () => {
      const matches = (record: IdentifiedRecord) => identity.matches?.(record, inputs) ?? true;
      const list = async () => (identity.candidates ? (await identity.candidates(ctx, inputs)).filter(matches) : []);
      const before = new Set((await list()).map((record) => record.uuid));
      const pickCreated = <T extends IdentifiedRecord>(records: readonly T[]): T | undefined => {
        const fresh = records.filter(
          (r) => r.uuid !== undefined && !before.has(r.uuid) && !this.holds(type, r.uuid) && matches(r),
        );
        if (fresh.length > 1)
          throw new AmbiguousIdentityError(
            what,
            fresh.map((r) => r.uuid!),
          );
        return fresh[0];
      };
      const findCreated = async <T>(): Promise<T | undefined> => {
        if (!identity.candidates) throw new Error(`${type}: its identity lists no candidates to find a record among`);
        return pickCreated(await list()) as T | undefined;
      };
      const created = await create({ ...ctx, findCreated, pickCreated });
      if (this.holds(type, created.id))
        throw new Error(`${what}: the service answered ${created.id}, which another resource of this stack holds`);
      this.hold(type, created.id);
      return created;
    });
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
