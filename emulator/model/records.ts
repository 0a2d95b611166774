// Record helpers every model shares (zone checks, filters, removal, a record's domain). Imports no model, only
// `collections.ts`' types and names, so every model may import it without a cycle.
import type { ZoneRecord } from "../seeded-catalog";
import { badInput, notFound, type AccountScope, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import type { Collection } from "./collections";

/** The catalog zone, or a 404. */
export function requireZone(ctx: EmulatorContext, zoneUuid: string): ZoneRecord {
  const zone = ctx.catalog.zone(zoneUuid);
  if (!zone) throw notFound("zone", zoneUuid);
  return zone;
}

/** A reference must lie in the zone of the resource being made: a 400 naming the field otherwise. */
export function requireSameZone(
  field: string,
  reference: { uuid?: string; zoneUuid?: string },
  zoneUuid: string,
): void {
  if (reference.zoneUuid !== undefined && reference.zoneUuid !== zoneUuid) {
    throw badInput(field, `${String(reference.uuid)} is in zone ${String(reference.zoneUuid)}, not in ${zoneUuid}`);
  }
}

/** The domain an account's records show (`domainName`): the account's own domain, named after it. */
export function domainNameOf(scope: AccountScope): string {
  return scope.account.name;
}

/** Field values to match, by record field (an undefined value matches everything). */
export type Filters<R> = { readonly [F in keyof R]?: string | undefined };

/** Records of a collection matching every given filter (undefined filters match everything). */
export function filterRecords<R, I>(scope: AccountScope, collection: Collection<R, I>, filters: Filters<R>): R[] {
  const wanted = Object.entries(filters).filter(([, value]) => value !== undefined);
  return Object.values(scope.collection(collection)).filter((record) =>
    wanted.every(([field, value]) => (record as Record<string, unknown>)[field] === value),
  );
}

/** Remove a record by uuid, with its internal entry (404 naming `kind` when absent); answers the bare `true` of the spec. */
export function removeRecord<R, I>(
  scope: AccountScope,
  collection: Collection<R, I>,
  kind: string,
  uuid: string,
): true {
  requireRecord(scope, collection, kind, uuid);
  scope.remove(collection, uuid);
  scope.changed();
  return true;
}
