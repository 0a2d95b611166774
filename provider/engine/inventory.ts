// A declaration's inventory facet: how discover lists its kind's records (and a tag finds its zone).
// The facets of every kind share the answers of the lists they ask for.
import { isNotFound, type RestCloudClient } from "../client";

/** One record of the account, as a resource of `kind` would hold it. */
export interface AccountRecord {
  /** The resource kind (a declaration's type): "Vpc", "VpcTier", "FirewallRule"... */
  kind: string;
  /** The id a resource of this kind holds the record by. */
  id: string;
  /** The record's name, where it has one. */
  name?: string;
  zoneUuid?: string;
  /** The record this one hangs on (the VPC of a tier, the address of a rule, the volume of a snapshot...). */
  parentId?: string;
  /** What tells a nameless record apart: "TCP 80-80", an address, "env=prod". */
  detail?: string;
  /** A tag's key: the `tags` of the resource holding its record (parentId) hold it by that key, not by its id. */
  tagKey?: string;
  /** The value of its `pulumi-owner` tag. */
  ownerTag?: string;
  /** Why it is no resource of its own (made by the service with another record); absent for resources. */
  derived?: string;
  /** With `derived`: the record it was made with (the instance of a ROOT volume, the cluster of a node). */
  derivedFrom?: string;
  /** With `derived`: the service keeps it when that record goes (the data disk an instance was created with). */
  outlives?: boolean;
}

/** A record as its kind's facet lists it: the loop adds the kind, the zone listed and the owner tag. */
export type ListedRecord = Omit<AccountRecord, "kind" | "zoneUuid" | "ownerTag">;

/** What one kind knows of another kind's record: that the service made it along with one of its own. */
export interface Mark {
  /** The kinds the marked record may be listed as (a volume is a Volume or an UploadedVolume). */
  kinds: readonly string[];
  id: string;
  derived: string;
  derivedFrom?: string;
  outlives?: boolean;
}

/** What a facet lists with: the client, the zone, and the answers the other facets share. */
export interface InventoryLists {
  readonly client: RestCloudClient;
  /** The zone listed; "" for the account-wide facets. */
  readonly zoneUuid: string;
  /**
   * The answer of `call`, asked once per key and zone however many facets want it (Network and
   * VpcTier both read the network list). The key names the call: "network.list".
   */
  once<T>(key: string, call: () => Promise<T>): Promise<T>;
  /** Whether an account-wide facet marked the record (a cluster's node): they run before the zones. */
  marked(kind: string, id: string): boolean;
}

/** How the records of a kind are listed, for `restcloud discover` (and a tag's zone). */
export interface InventoryFacet {
  /** The API lists the kind without a zone (security groups, tags...): listed once, before the zones. */
  readonly accountWide?: boolean;
  /** The kind's records (of `lists.zoneUuid`, unless account-wide). */
  list(lists: InventoryLists): Promise<readonly ListedRecord[]>;
  /** What the kind knows of other kinds' records (an instance's data disk, a cluster's nodes). */
  marks?(lists: InventoryLists): Promise<readonly Mark[]>;
  /** Records the service still keeps that no resource can hold (Destroyed instances): counted, not listed. */
  destroyed?(lists: InventoryLists): Promise<number>;
  /** Its records are known by their name, having no uuid (so no record names one as its parent). */
  readonly knownByName?: boolean;
  /** How adopted code names a record of no name of its own (discover/codegen.ts). */
  readonly naming?: {
    /** A short word for the kind ("fw"). Default: the type in kebab case. */
    readonly alias?: string;
    /** The detail alone names it, after the alias (an address: "ip-203-0-113-2"). */
    readonly byDetail?: boolean;
    /** The detail is left out (a static NAT's repeats its address's name). */
    readonly withoutDetail?: boolean;
  };
}

/** The lists' shared answers, one map per listing; `marks` are those of the account-wide facets. */
export function inventoryLists(
  client: RestCloudClient,
  marks: ReadonlyMap<string, unknown> = new Map(),
): (zoneUuid: string) => InventoryLists {
  const answers = new Map<string, Promise<unknown>>();
  return (zoneUuid) => ({
    client,
    zoneUuid,
    once<T>(key: string, call: () => Promise<T>): Promise<T> {
      const at = `${zoneUuid}\u0000${key}`;
      if (!answers.has(at)) answers.set(at, call());
      return answers.get(at) as Promise<T>;
    },
    marked: (kind, id) => marks.has(recordKey(kind, id)),
  });
}

/** A record's key among the account's: its kind and id. */
export const recordKey = (kind: string, id: string): string => `${kind}\u0000${id}`;

/** The answer, or an empty list when its parent went meanwhile (404). */
export async function orNone<T>(call: () => Promise<T[]>): Promise<T[]> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** A record's field as text; undefined when absent or empty. */
export const text = (value: unknown): string | undefined =>
  value === undefined || value === null || value === "" ? undefined : String(value);

/** " 80" or " 80-90" (nothing without a first port), for a rule's `detail`. */
export const ports = (start: unknown, end: unknown): string => {
  const from = text(start);
  const to = text(end);
  return from === undefined ? "" : to === undefined || to === from ? ` ${from}` : ` ${from}-${to}`;
};

/** A rule's `detail`: its protocol and ports ("TCP 80-90"), or nothing. */
export const trafficDetail = (protocol: unknown, start: unknown, end: unknown): string | undefined =>
  `${text(protocol) ?? ""}${ports(start, end)}`.trim() || undefined;
