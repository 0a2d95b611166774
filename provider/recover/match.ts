// Which record each pending create of an interrupted `pulumi up` made: by its owner tag, else its name, else
// its arguments (identity candidates), else its address (kinds without candidates). Never a record the stack or
// another URN holds; equivalent records go one each (as identity.ts does); more candidates than creates is
// ambiguous. Reads only, except claimFound, whose tag is an atomic claim.
import type { OperationContext, ResourceDeclaration } from "../engine/declaration";
import { matchingCandidates, type IdentifiedRecord } from "../engine/identity";
import { readForImport } from "../engine/import";
import { claimRecord, describeOwner, ownedBy, ownersOf, type OwnerTagType } from "../engine/ownership";
import type { HeldRecord, PendingCreate } from "./deployment";

type Json = Record<string, unknown>;

/** How a record was told to be a pending create's. */
export type FoundBy = "owner tag" | "name" | "arguments" | "address";

export type Outcome =
  /** The record is the create's: it goes to state. `outputs`: what the read needs beyond the inputs. */
  | { status: "adopted"; id: string; by: FoundBy; detail: string; outputs: Json; record?: Json }
  /** No record is the create's: the request never reached the service (or never took effect). */
  | { status: "cleared"; reason: string }
  /** Several records could each be the create's: none is taken. */
  | { status: "ambiguous"; candidates: string[]; reason: string }
  /** The service could not be asked (down, refusing), or the kind is unknown: nothing is decided. */
  | { status: "failed"; reason: string };

export interface Finding {
  pending: PendingCreate;
  outcome: Outcome;
}

/** Kinds the API tags as one type are one collection of records (a tier is a network): one id, held as either. */
const familyOf = (declarations: ReadonlyMap<string, ResourceDeclaration>, kind: string): string =>
  declarations.get(kind)?.tagType ?? kind;
const key = (family: string, id: string): string => `${family}\u0000${id}`;

const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A pending create's inputs as its declaration reads them (defaults applied), else as they are. */
function parsedInputs(declaration: ResourceDeclaration, inputs: Json): Json {
  const names = Object.keys(declaration.inputs.shape);
  const picked = Object.fromEntries(names.filter((n) => inputs[n] !== undefined).map((n) => [n, inputs[n]]));
  const parsed = declaration.inputs.safeParse(picked);
  return (parsed.success ? parsed.data : picked) as Json;
}

/** What the read needs beyond the inputs (a rule's zone, the parent found...), as the import finds it. */
async function locatedOutputs(ctx: OperationContext, declaration: ResourceDeclaration, id: string): Promise<Json> {
  if (!declaration.locate) return {};
  try {
    const located = ((await declaration.locate(ctx, id)) ?? {}) as Json;
    const argumentNames = new Set(Object.keys(declaration.inputs.shape));
    return Object.fromEntries(Object.entries(located).filter(([k, v]) => !argumentNames.has(k) && v !== undefined));
  } catch {
    // The refresh after the import reads the record anyway; the state can do without these.
    return {};
  }
}

/** One pending create's search, before records are handed out among equivalent creates. */
interface Search {
  pending: PendingCreate;
  declaration?: ResourceDeclaration;
  inputs: Json;
  outcome?: Outcome;
  /** The records that match the create's arguments and that nobody holds or claims (by uuid). */
  pool?: Map<string, IdentifiedRecord & Json>;
  named: boolean;
  /** The collection its records belong to (familyOf). */
  family: string;
}

/**
 * Finds, for each pending create, the record it made (see the rules above). `held`: the records the
 * stack's resources hold. `declarations`: the declarations by kind (resources/registry.ts).
 */
export async function findRecords(
  ctx: OperationContext,
  pendingCreates: readonly PendingCreate[],
  held: readonly HeldRecord[],
  declarations: ReadonlyMap<string, ResourceDeclaration>,
): Promise<Finding[]> {
  const holds = new Set(held.map((h) => key(familyOf(declarations, h.kind), h.id)));
  const owners = new Map<OwnerTagType, Promise<Map<string, string>>>();
  const ownersOfType = (type: OwnerTagType) => {
    let found = owners.get(type);
    if (!found) owners.set(type, (found = ownersOf(ctx.client, type)));
    return found;
  };

  const searches: Search[] = [];
  for (const pending of pendingCreates) {
    const declaration = declarations.get(pending.kind);
    const search: Search = {
      pending,
      declaration,
      inputs: pending.inputs,
      named: false,
      family: familyOf(declarations, pending.kind),
    };
    searches.push(search);
    if (!declaration) {
      search.outcome = { status: "failed", reason: `this version of the provider knows no ${pending.kind}` };
      continue;
    }
    search.inputs = parsedInputs(declaration, pending.inputs);
    try {
      await searchOne(ctx, search, declaration, holds, ownersOfType);
    } catch (error) {
      search.outcome = { status: "failed", reason: `the service could not be asked: ${describeError(error)}` };
    }
  }
  // Records already taken by their owner tag are nobody else's.
  for (const s of searches) if (s.outcome?.status === "adopted") holds.add(key(s.family, s.outcome.id));
  for (const s of searches) for (const id of s.pool?.keys() ?? []) if (holds.has(key(s.family, id))) s.pool!.delete(id);

  await handOut(
    ctx,
    searches.filter((s) => s.outcome === undefined),
  );
  return searches.map((s) => ({ pending: s.pending, outcome: s.outcome! }));
}

/** Steps 1 and 4 decide at once; steps 2 and 3 leave the pool of candidates for `handOut`. */
async function searchOne(
  ctx: OperationContext,
  search: Search,
  declaration: ResourceDeclaration,
  holds: ReadonlySet<string>,
  ownersOfType: (type: OwnerTagType) => Promise<Map<string, string>>,
): Promise<void> {
  const { pending, inputs } = search;
  const identity = declaration.identity;
  if (!identity.candidates) {
    // The id follows from the inputs: static NAT and remote-access VPN are their address's.
    const id = inputs.ipAddressUuid;
    if (typeof id !== "string") {
      search.outcome = { status: "failed", reason: `${pending.kind}: no address among its inputs to look at` };
    } else if (holds.has(key(search.family, id))) {
      search.outcome = {
        status: "cleared",
        reason: `another resource of the stack holds the ${pending.kind} of ${id}`,
      };
    } else {
      const found = await readForImport(declaration, ctx, id);
      search.outcome = found
        ? { status: "adopted", id, by: "address", detail: `its address ${id}`, outputs: found.outputs }
        : { status: "cleared", reason: `address ${id} has no ${pending.kind}: the create never took effect` };
    }
    return;
  }
  const matching = ((await matchingCandidates(identity, ctx, inputs)) as (IdentifiedRecord & Json)[]).filter(
    (r): r is IdentifiedRecord & Json & { uuid: string } => typeof r.uuid === "string" && r.uuid !== "",
  );
  const tags = declaration.tagType ? await ownersOfType(declaration.tagType) : new Map<string, string>();
  const free = matching.filter((r) => !holds.has(key(search.family, r.uuid)));

  const tagged = free.filter((r) => ownedBy(tags.get(r.uuid), pending.urn));
  if (tagged.length === 1) {
    const id = tagged[0].uuid;
    search.outcome = {
      status: "adopted",
      id,
      by: "owner tag",
      detail: "its owner tag",
      outputs: await locatedOutputs(ctx, declaration, id),
      record: tagged[0],
    };
    return;
  }
  if (tagged.length > 1) {
    search.outcome = {
      status: "ambiguous",
      candidates: tagged.map((r) => r.uuid),
      reason: `${tagged.length} records carry its owner tag`,
    };
    return;
  }
  // Not tagged as this resource's: neither as another's, then.
  search.pool = new Map(free.filter((r) => tags.get(r.uuid) === undefined).map((r) => [r.uuid, r]));
  search.named = declaration.autoName !== undefined && typeof inputs[declaration.autoName] === "string";
}

/**
 * Hands out the pools: pending creates of one kind whose pools are the same records are equivalent;
 * as many records as creates (or fewer: some requests never reached the service) are handed out one
 * each, in the state's order; more records than creates, or pools that overlap without being the
 * same, are ambiguous.
 */
async function handOut(ctx: OperationContext, searches: Search[]): Promise<void> {
  const groups = new Map<string, Search[]>();
  const groupOf = (s: Search) => `${s.family}\u0000${[...s.pool!.keys()].sort().join(",")}`;
  for (const s of searches) groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), s]);
  // A record in the pools of two groups: which create made it, nothing says.
  const seen = new Map<string, string>();
  const overlapping = new Set<string>();
  for (const [group, members] of groups)
    for (const id of members[0].pool!.keys()) {
      const other = seen.get(key(members[0].family, id));
      if (other !== undefined && other !== group) overlapping.add(group).add(other);
      seen.set(key(members[0].family, id), group);
    }
  for (const [group, members] of groups) {
    const pool = [...members[0].pool!.values()].sort((a, b) => String(a.uuid).localeCompare(String(b.uuid)));
    const ids = pool.map((r) => r.uuid!);
    if (overlapping.has(group) || pool.length > members.length) {
      for (const s of members)
        s.outcome = {
          status: "ambiguous",
          candidates: ids,
          reason: overlapping.has(group)
            ? `its candidates (${ids.join(", ")}) could also be other pending creates'`
            : `${ids.length} records match its ${s.named ? "name" : "arguments"} and none carries its owner tag`,
        };
      continue;
    }
    for (const [index, s] of members.entries()) {
      const record = pool[index];
      if (record === undefined) {
        s.outcome = { status: "cleared", reason: "the create never reached the service (no record matches it)" };
        continue;
      }
      const name = s.named ? String(s.inputs[s.declaration!.autoName!]) : undefined;
      s.outcome = {
        status: "adopted",
        id: record.uuid!,
        by: name !== undefined ? "name" : "arguments",
        detail:
          name !== undefined
            ? `its name ${name}`
            : members.length > 1
              ? `its arguments (${members.length} equivalent records, one each)`
              : "its arguments",
        outputs: await locatedOutputs(ctx, s.declaration!, record.uuid!),
        record,
      };
    }
  }
}

/**
 * Tags each record found by name or by arguments as its resource's (kinds the API tags), before it
 * goes to state: a record another process claimed meanwhile is given up (ambiguous). A claim the
 * service refuses otherwise leaves the record adopted, untagged. Answers the findings as they stand.
 */
export async function claimFound(
  ctx: OperationContext,
  findings: readonly Finding[],
  declarations: ReadonlyMap<string, ResourceDeclaration>,
): Promise<Finding[]> {
  const claimed: Finding[] = [];
  for (const finding of findings) {
    const { pending, outcome } = finding;
    const tagType = declarations.get(pending.kind)?.tagType;
    if (outcome.status !== "adopted" || outcome.by === "owner tag" || !tagType) {
      claimed.push(finding);
      continue;
    }
    const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
    const zoneUuid =
      text(outcome.record?.zoneUuid) ??
      text(outcome.outputs.ruleZoneUuid) ??
      text(pending.inputs.zoneUuid) ??
      text(ctx.settings.zoneUuid);
    if (zoneUuid === undefined) {
      claimed.push(finding);
      continue;
    }
    try {
      const claim = await claimRecord(ctx.client, {
        resourceType: tagType,
        zoneUuid,
        resourceUuid: outcome.id,
        urn: pending.urn,
      });
      claimed.push(
        claim.claimed
          ? finding
          : {
              pending,
              outcome: {
                status: "ambiguous",
                candidates: [outcome.id],
                reason: `its only candidate was claimed meanwhile by ${describeOwner(claim.owner)}`,
              },
            },
      );
    } catch {
      claimed.push(finding);
    }
  }
  return claimed;
}
