// Look-ups shared by the models: a record of the caller's account, and the records that refer to one.
import { notFound, type AccountScope } from "./core";
import type { Collection } from "./model/collections";

/** The record of `collection` with this uuid in the caller's account, or a 404 naming `kind`. */
export function requireRecord<R, I>(scope: AccountScope, collection: Collection<R, I>, kind: string, uuid: string): R {
  const record = scope.collection(collection)[uuid];
  if (!record) throw notFound(kind, uuid);
  return record;
}

export interface Reference {
  collection: string;
  uuid: string;
}

/**
 * Every record of the account, in any collection, whose field among `fields` holds `uuid`. Scanning
 * all collections keeps the delete rules (a network in use, an IP with rules) independent of how the
 * other areas name their collections.
 */
export function referencesTo(scope: AccountScope, fields: readonly string[], uuid: string): Reference[] {
  const found: Reference[] = [];
  for (const name of scope.collectionNames()) {
    for (const [key, record] of Object.entries(scope.collection(name))) {
      if (fields.some((f) => record[f] === uuid)) found.push({ collection: name, uuid: key });
    }
  }
  return found;
}

/** "2 instance, 1 ipaddress": a short account of what is in the way, for 409 messages. */
export function describeReferences(references: readonly Reference[]): string {
  const counts = new Map<string, number>();
  for (const r of references) counts.set(r.collection, (counts.get(r.collection) ?? 0) + 1);
  return [...counts].map(([collection, n]) => `${n} ${collection}`).join(", ");
}
