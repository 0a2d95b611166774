// Every record of the account, every kind, all zones, over the REST API alone: what `restcloud discover` compares with
// the stacks. Runs each declaration's `inventory` facet (engine/inventory.ts), account-wide ones first, and adds the
// owner tags (ownership.ts).
import type { RestCloudClient } from "../client";
import type { ResourceDeclaration } from "../engine/declaration";
import { inventoryLists, recordKey, type AccountRecord, type Mark } from "../engine/inventory";
import { ownersOf, type OwnerTagType } from "../engine/ownership";

export type { AccountRecord } from "../engine/inventory";

export interface Inventory {
  /** Every record found, derived ones included (they name parents), each once. */
  records: AccountRecord[];
  /** The zones searched. */
  zoneUuids: string[];
  /** Instances Destroyed (recoverable) or Expunging: no resource can hold them. */
  destroyedInstances: number;
}

/** The owner tag types the declarations use, kind by kind (`Instance` -> `UserVm`). */
export function ownerTagTypes(declarations: readonly ResourceDeclaration[]): Map<string, OwnerTagType> {
  const types = new Map<string, OwnerTagType>();
  for (const d of declarations) if (d.tagType) types.set(d.type, d.tagType);
  return types;
}

/** What the facets of one zone (or of the account) found. */
interface Found {
  records: AccountRecord[];
  marks: Mark[];
  destroyed: number;
}

/** Runs the facets of `declarations` with `lists`: their records (of their kind, in that zone), marks and counts. */
async function runFacets(
  declarations: readonly ResourceDeclaration[],
  lists: ReturnType<ReturnType<typeof inventoryLists>>,
): Promise<Found> {
  const zoneUuid = lists.zoneUuid || undefined;
  const each = await Promise.all(
    declarations.map(async ({ type, inventory }) => {
      const [listed, marks, destroyed] = await Promise.all([
        inventory!.list(lists),
        inventory!.marks?.(lists) ?? [],
        inventory!.destroyed?.(lists) ?? 0,
      ]);
      const records = listed.map((r) => ({ kind: type, ...r, ...(zoneUuid ? { zoneUuid } : {}) }));
      return { records, marks, destroyed };
    }),
  );
  return {
    records: each.flatMap((f) => f.records),
    marks: each.flatMap((f) => f.marks),
    destroyed: each.reduce((sum, f) => sum + f.destroyed, 0),
  };
}

/** Lists the account's records of every kind the declarations list; they also say which carry owner tags. */
export async function listAccount(
  client: RestCloudClient,
  declarations: readonly ResourceDeclaration[],
): Promise<Inventory> {
  const zoneUuids = (await client.costEstimate.zones())
    .map((zone) => zone.uuid)
    .filter((uuid): uuid is string => typeof uuid === "string" && uuid !== "");
  const listed = declarations.filter((d) => d.inventory);
  // Account-wide kinds first: what they mark (a cluster's nodes) is known to the zones' facets.
  const marks = new Map<string, Mark>();
  const addMarks = (found: readonly Mark[]) => {
    for (const mark of found) for (const kind of mark.kinds) marks.set(recordKey(kind, mark.id), mark);
  };
  const account = await runFacets(
    listed.filter((d) => d.inventory!.accountWide),
    inventoryLists(client, marks)(""),
  );
  addMarks(account.marks);
  const listsIn = inventoryLists(client, marks);
  const zones = await Promise.all(
    zoneUuids.map((zoneUuid) =>
      runFacets(
        listed.filter((d) => !d.inventory!.accountWide),
        listsIn(zoneUuid),
      ),
    ),
  );
  for (const zone of zones) addMarks(zone.marks);

  const records = [account, ...zones].flatMap((found) => found.records);
  for (const record of records) {
    const mark = marks.get(recordKey(record.kind, record.id));
    if (mark && record.derived === undefined)
      Object.assign(record, {
        derived: mark.derived,
        ...(mark.derivedFrom !== undefined ? { derivedFrom: mark.derivedFrom } : {}),
        ...(mark.outlives ? { outlives: true } : {}),
      });
  }
  await addOwnerTags(client, declarations, records);

  // One entry per kind and id (a list may repeat a record).
  const seen = new Set<string>();
  const unique = records.filter((r) => !seen.has(recordKey(r.kind, r.id)) && seen.add(recordKey(r.kind, r.id)));
  return {
    records: unique,
    zoneUuids,
    destroyedInstances: zones.reduce((sum, z) => sum + z.destroyed, account.destroyed),
  };
}

/** Sets each record's `ownerTag` from its kind's owner tags (one list per tag type). */
async function addOwnerTags(
  client: RestCloudClient,
  declarations: readonly ResourceDeclaration[],
  records: AccountRecord[],
): Promise<void> {
  const types = ownerTagTypes(declarations);
  const owners = new Map<OwnerTagType, Map<string, string>>();
  await Promise.all([...new Set(types.values())].map(async (type) => owners.set(type, await ownersOf(client, type))));
  for (const record of records) {
    const type = types.get(record.kind);
    const owner = type && owners.get(type)?.get(record.id);
    if (owner !== undefined) record.ownerTag = owner;
  }
}
