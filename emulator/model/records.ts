/**
 * Record helpers every model shares: the public view of a record, zone checks, filters, removal, the
 * domain a record shows. This module imports no model, so that every model may import it without an
 * import cycle.
 */
import type { ZoneRecord } from "../catalog";
import { badInput, notFound, type AccountScope, type ApiRecord, type EmulatorContext } from "../core";
import { requireRecord } from "../references";

/**
 * The record as the API shows it. Fields prefixed with `_` are the emulator's own bookkeeping
 * (the cluster of a node, the instance an attach job targets...) and never leave it.
 */
export function visible(record: ApiRecord): ApiRecord {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !key.startsWith("_")));
}

/** The catalog zone, or a 404. */
export function requireZone(ctx: EmulatorContext, zoneUuid: string): ZoneRecord {
  const zone = ctx.catalog.zone(zoneUuid);
  if (!zone) throw notFound("zone", zoneUuid);
  return zone;
}

/** A reference must lie in the zone of the resource being made: a 400 naming the field otherwise. */
export function requireSameZone(field: string, reference: ApiRecord, zoneUuid: string): void {
  if (reference.zoneUuid !== undefined && reference.zoneUuid !== zoneUuid) {
    throw badInput(field, `${String(reference.uuid)} is in zone ${String(reference.zoneUuid)}, not in ${zoneUuid}`);
  }
}

/** The domain an account's records show (`domainName`): the account's own domain, named after it. */
export function domainNameOf(scope: AccountScope): string {
  return scope.account.name;
}

/** Records of a collection matching every given filter (undefined filters match everything). */
export function filterRecords(
  scope: AccountScope,
  collection: string,
  filters: Record<string, string | undefined>,
): ApiRecord[] {
  const wanted = Object.entries(filters).filter(([, value]) => value !== undefined);
  return Object.values(scope.collection(collection)).filter((record) =>
    wanted.every(([field, value]) => record[field] === value),
  );
}

/** Remove a record by uuid (404 naming `kind` when absent); answers the bare `true` of the spec. */
export function removeRecord(scope: AccountScope, collection: string, kind: string, uuid: string): true {
  requireRecord(scope, collection, kind, uuid);
  delete scope.collection(collection)[uuid];
  scope.changed();
  return true;
}
