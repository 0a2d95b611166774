// What `restcloud discover` finds: records no stack of the project holds, each read as an import reads it.
// Unheld: no owner tag (made by hand, or before tags), or this project's tag that no state holds (an
// interrupted `pulumi up`). Records of another project's tag, or hanging on one, are only counted.
import type { RestCloudClient } from "../client";
import type { OperationContext, ResourceDeclaration } from "../engine/declaration";
import { readForImport } from "../engine/import";
import { ownedBy, parseOwner, type Owner } from "../engine/ownership";
import { withoutDefaultTags, type Tags } from "../engine/tags";
import { listAccount, type AccountRecord } from "./inventory";
import type { Holdings } from "./stacks";

type Values = Record<string, unknown>;

/** An unheld record: what the listing, the generated code and a delete need. */
export interface Unheld {
  record: AccountRecord;
  /** The arguments a program declares to match the record (readForImport, less the default tags). */
  inputs: Values;
  /** The outputs the read found (and the state a delete needs, e.g. a rule's zone). */
  outputs: Values;
  /** The owner tag, when it names this project. */
  owner?: Owner;
  /** With `owner`: whether the tag's stack is one of the project's. */
  ownerStackExists?: boolean;
  /**
   * With `owner`: whether that stack's state holds the tag's resource as a pending create (then
   * `restcloud recover` puts the record into it).
   */
  pendingCreate?: boolean;
  /**
   * Records the service made with this one that outlive its delete (the data disk an instance was
   * created with: the service detaches it): `--delete` deletes them after it.
   */
  companions: AccountRecord[];
}

export interface Discovery {
  project: string;
  /** The stacks whose states were read. */
  stacks: string[];
  unheld: Unheld[];
  /** Records the stacks' states hold. */
  held: number;
  /** Records the service made along with others (not resources). */
  derived: number;
  /** Per other project, its records (by owner tag, or a tagged parent's). */
  otherProjects: Record<string, number>;
  /** Instances Destroyed or Expunging (recoverable for a while; no resource can hold them). */
  destroyedInstances: number;
  /** Records gone between the listing and their read. */
  vanished: number;
  /** Unheld records whose read failed: listed, but left out of the files and of --delete. */
  unread: { record: AccountRecord; error: string }[];
  /** Every record found by id (derived ones too), to name parents. */
  index: ReadonlyMap<string, AccountRecord>;
  zoneUuids: string[];
}

/** A kind held by its address's id (no candidates: identity.ts) or known by its name is never a parent. */
export const holdsOwnId = (d: ResourceDeclaration | undefined): boolean =>
  d === undefined || (d.identity.candidates !== undefined && !d.inventory?.knownByName);

export function indexById(
  records: readonly AccountRecord[],
  declarations: ReadonlyMap<string, ResourceDeclaration>,
): Map<string, AccountRecord> {
  const index = new Map<string, AccountRecord>();
  for (const record of records) if (holdsOwnId(declarations.get(record.kind))) index.set(record.id, record);
  return index;
}

/** The project a record belongs to by its tag, or by the tag of the nearest tagged record it hangs on. */
function projectOf(record: AccountRecord, index: ReadonlyMap<string, AccountRecord>): string | undefined {
  let current: AccountRecord | undefined = record;
  for (let depth = 0; current && depth < 6; depth++) {
    if (current.ownerTag !== undefined) return parseOwner(current.ownerTag)?.project;
    current = current.parentId === undefined ? undefined : index.get(current.parentId);
  }
  return undefined;
}

/**
 * The candidates less the tags of the taggable records among them: those are their code's `tags`
 * (readForImport carries them), not ResourceTags of their own.
 */
function withoutTagsOfListed<C extends { record: AccountRecord }>(
  candidates: readonly C[],
  declarations: readonly ResourceDeclaration[],
): C[] {
  const taggable = new Set(declarations.filter((d) => d.tagType).map((d) => d.type));
  const listed = new Set(candidates.filter((c) => taggable.has(c.record.kind)).map((c) => c.record.id));
  return candidates.filter(
    ({ record }) => record.tagKey === undefined || record.parentId === undefined || !listed.has(record.parentId),
  );
}

export interface DiscoverOptions {
  client: RestCloudClient;
  /** The provider's default zone (searched first by the reads). */
  zoneUuid?: string;
  /** The provider's default tags: the code declares the rest of a record's tags (engine/tags.ts). */
  defaultTags?: Readonly<Tags>;
  declarations: readonly ResourceDeclaration[];
  project: string;
  /** The project's stacks (short names, as URNs spell them). */
  projectStacks: readonly string[];
  /** The stacks whose states were read. */
  stacksRead: readonly string[];
  holdings: Holdings;
  /** Per stack read (short name), the URNs of its pending creates. */
  pendingCreates?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Lists the account, compares it with the states, and reads each unheld record as an import would. */
export async function discover(options: DiscoverOptions): Promise<Discovery> {
  const { client, project } = options;
  const declarations = new Map(options.declarations.map((d) => [d.type, d]));
  const inventory = await listAccount(client, options.declarations);
  const index = indexById(inventory.records, declarations);
  const result: Discovery = {
    project,
    stacks: [...options.stacksRead],
    unheld: [],
    held: 0,
    derived: 0,
    otherProjects: {},
    destroyedInstances: inventory.destroyedInstances,
    vanished: 0,
    unread: [],
    index,
    zoneUuids: inventory.zoneUuids,
  };
  const candidates: { record: AccountRecord; owner?: Owner }[] = [];
  for (const record of inventory.records) {
    if (record.derived !== undefined) {
      result.derived++;
      continue;
    }
    if (options.holdings.holdsRecord(record)) {
      result.held++;
      continue;
    }
    const owner = record.ownerTag === undefined ? undefined : parseOwner(record.ownerTag);
    const ownerProject = owner?.project ?? projectOf(record, index);
    if (ownerProject !== undefined && ownerProject !== project) {
      result.otherProjects[ownerProject] = (result.otherProjects[ownerProject] ?? 0) + 1;
      continue;
    }
    candidates.push({ record, ...(owner ? { owner } : {}) });
  }
  const adopted = withoutTagsOfListed(candidates, options.declarations);

  const ctx: OperationContext = {
    client,
    settings: { zoneUuid: options.zoneUuid },
    timeoutMs: 120_000,
    progress: () => undefined,
    declarations: options.declarations,
  };
  const projectStacks = new Set(options.projectStacks);
  const read = await Promise.all(
    adopted.map(async ({ record, owner }) => {
      const declaration = declarations.get(record.kind);
      if (!declaration) return undefined;
      let imported;
      try {
        imported = await readForImport(declaration, ctx, record.id);
      } catch (error) {
        // One record the API will not show does not hide the others.
        result.unread.push({ record, error: error instanceof Error ? error.message : String(error) });
        return undefined;
      }
      if (!imported) {
        result.vanished++;
        return undefined;
      }
      const companions = inventory.records.filter((r) => r.outlives && r.derivedFrom === record.id);
      const inputs = withoutDefaultTags(imported.inputs, options.defaultTags);
      const unheld: Unheld = { record, inputs, outputs: imported.outputs, companions };
      if (owner) {
        unheld.owner = owner;
        unheld.ownerStackExists = projectStacks.has(owner.stack);
        const pending = options.pendingCreates?.get(owner.stack);
        unheld.pendingCreate = [...(pending ?? [])].some((urn) => ownedBy(owner.value, urn));
      }
      return unheld;
    }),
  );
  result.unheld = read.filter((u): u is Unheld => u !== undefined);
  return result;
}
