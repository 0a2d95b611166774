// Who owns each record of an account, for the console (`GET /_emulator/owners`): owned (its `pulumi-owner` tag's URN),
// derived (made by a parent record), no owner (also listed in `unowned`), or not taggable. The URN is parsed here in a
// few lines because the emulator shares no code with the provider. docs/ownership.md.
import type { AccountResources, ApiRecord } from "../core";
import {
  ATTACHED_NETWORKS,
  CLUSTERS,
  EGRESS_RULES,
  FIREWALL_RULES,
  INSTANCES,
  INTERNAL_LBS,
  INVOICE_TAXES,
  INVOICES,
  IP_ADDRESSES,
  LOAD_BALANCER_RULES,
  NETWORKS,
  PORT_FORWARDING_RULES,
  PORT_FORWARDING_TARGETS,
  REMOTE_VPNS,
  SECURITY_GROUPS,
  SNAPSHOT_POLICIES,
  SNAPSHOTS,
  STATIC_NATS,
  TAGS,
  VM_SNAPSHOTS,
  VOLUMES,
  VPCS,
  VPN_CONNECTION_OPTIONS,
  VPN_CONNECTIONS,
  VPN_CUSTOMER_GATEWAY_CRYPTO,
  VPN_CUSTOMER_GATEWAYS,
  VPN_GATEWAYS,
} from "../model/collections";

/** The tag key the provider puts on each record it creates, with the URN of the resource holding it. */
export const OWNER_TAG_KEY = "pulumi-owner";

/** The API's longest tag value: a longer URN is cut to this length, ending in `#` and 32 hex digits. */
const MAX_TAG_VALUE = 255;
const DIGEST = /#[0-9a-f]{32}$/;

/** What an owner tag says. */
export interface Owner {
  /** The tag's value as it is. */
  value: string;
  /** False when the value is not a Pulumi URN (then nothing else is known). */
  readable: boolean;
  stack?: string;
  project?: string;
  /** The type token as the URN spells it (parents' types joined with `$`); absent when cut off. */
  type?: string;
  /** The logical name; absent from a shortened value. */
  name?: string;
  /** The URN was longer than a tag holds: cut, with a digest of the whole. */
  shortened: boolean;
}

/** Reads a `pulumi-owner` value: `urn:pulumi:<stack>::<project>::<type>::<name>`, whole or shortened. */
export function parseOwner(value: string): Owner {
  const shortened = value.length === MAX_TAG_VALUE && DIGEST.test(value);
  const match = /^urn:pulumi:([^:]+)::([^:]+)::(.+)$/s.exec(value);
  if (!match) return { value, readable: false, shortened };
  const [, stack, project, tail] = match;
  const rest = shortened ? tail.replace(DIGEST, "") : tail;
  const at = rest.indexOf("::");
  const type = at < 0 ? (shortened ? undefined : rest) : rest.slice(0, at);
  const name = at < 0 || shortened ? undefined : rest.slice(at + 2);
  return {
    value,
    readable: true,
    stack,
    project,
    ...(type ? { type } : {}),
    ...(name !== undefined ? { name } : {}),
    shortened,
  };
}

/** A record named in an answer: its collection, uuid and what a person calls it. */
export interface RecordRef {
  kind: string;
  uuid: string;
  name: string;
  /** The record is not (or no longer) in the account. */
  missing?: true;
}

export type Ownership =
  | { ownership: "owned"; owner: Owner; parent?: RecordRef }
  | { ownership: "unowned"; parent?: RecordRef }
  | { ownership: "derived"; parent: RecordRef; why: string }
  | { ownership: "not-taggable"; parent?: RecordRef }
  | { ownership: "account" };

export interface UnownedRecord {
  kind: string;
  /** The API's resource type of its tags (UserVm, Volume, ...). */
  resourceType: string;
  uuid: string;
  name: string;
  parent?: RecordRef;
}

export interface AccountOwners {
  account: string;
  tagKey: string;
  /** Per collection and key, as in `GET /_emulator/resources`. */
  records: Record<string, Record<string, Ownership>>;
  /** The records of taggable kinds without an owner tag, by kind (taggable kinds' order), then name. */
  unowned: UnownedRecord[];
  counts: Record<Ownership["ownership"], number>;
}

type View = AccountResources;
type Ref = (record: ApiRecord, view: View) => RecordRef | undefined;
type Derived = (record: ApiRecord, view: View) => { parent: RecordRef; why: string } | undefined;

interface KindRule {
  /** The API's tag resource type, for the kinds that carry tags. */
  tagType?: string;
  /** The record it hangs on (shown next to it), when it has one. */
  parent?: Ref;
  /** The record that made it, which owns it. */
  derived?: Derived;
  account?: true;
}

const str = (value: unknown): string => (typeof value === "string" ? value : value === undefined ? "" : String(value));

/** What a person calls a record: its name, address, or for a rule its protocol and ports. */
export function labelOf(record: ApiRecord | undefined): string {
  if (!record) return "";
  for (const field of ["displayName", "name", "publicIpAddress", "ipAddress", "key"]) {
    const value = str(record[field]);
    if (value) return value;
  }
  const protocol = str(record.protocol);
  if (protocol) {
    const ports = [str(record.startPort), str(record.endPort)].filter(Boolean);
    const range = ports.length === 2 && ports[0] !== ports[1] ? `${ports[0]}-${ports[1]}` : (ports[0] ?? "");
    return `${protocol}${range ? ` ${range}` : ""}`;
  }
  return "";
}

/** A reference to `uuid` in one of `kinds` (the first that holds it), or to a missing record of the first. */
function refTo(view: View, uuid: unknown, ...kinds: string[]): RecordRef | undefined {
  const id = str(uuid);
  if (!id) return undefined;
  for (const kind of kinds) {
    const record = view[kind]?.[id];
    if (record) return { kind, uuid: id, name: labelOf(record) };
  }
  return { kind: kinds[0], uuid: id, name: "", missing: true };
}

const field =
  (name: string, ...kinds: string[]): Ref =>
  (record, view) =>
    refTo(view, record[name], ...kinds);

const instanceOf = field("vmUuid", INSTANCES);

const RULES: Record<string, KindRule> = {
  [VPCS]: { tagType: "Vpc" },
  [NETWORKS]: { tagType: "Network", parent: field("vpcUuid", VPCS) },
  [INSTANCES]: {
    tagType: "UserVm",
    parent: field("networkUuid", NETWORKS),
    derived: (record, view) => {
      const cluster = refTo(view, record._clusterUuid, CLUSTERS);
      return cluster && { parent: cluster, why: "a node of the Kubernetes cluster" };
    },
  },
  [VOLUMES]: {
    tagType: "Volume",
    parent: (record, view) => instanceOf(record, view),
    derived: (record, view) => {
      const instance = instanceOf(record, view);
      if (!instance) return undefined;
      if (record.volumeType === "ROOT") return { parent: instance, why: "the instance's ROOT volume" };
      // The data disk createInstance made (storageOfferingUuid and diskSize): named after the instance.
      const vm = view[INSTANCES]?.[instance.uuid];
      const withInstance =
        vm !== undefined &&
        record.volumeType === "DATADISK" &&
        str(record.name) === `DATA-${str(vm.name)}` &&
        str(vm.storageOfferingUuid) !== "" &&
        str(vm.storageOfferingUuid) === str(record.storageOfferingUuid);
      return withInstance ? { parent: instance, why: "the data disk created with the instance" } : undefined;
    },
  },
  [SNAPSHOTS]: { tagType: "Snapshot", parent: field("volumeUuid", VOLUMES) },
  [VM_SNAPSHOTS]: { tagType: "VMSnapshot", parent: field("_virtualmachineUuid", INSTANCES) },
  [IP_ADDRESSES]: {
    tagType: "PublicIpAddress",
    parent: (record, view) =>
      record.vpcUuid ? refTo(view, record.vpcUuid, VPCS) : refTo(view, record.networkUuid, NETWORKS, VPCS),
    derived: (record, view) => {
      if (record.isSourcenat !== true) return undefined;
      const parent = refTo(view, record.networkUuid, NETWORKS, VPCS);
      return parent && { parent, why: "the source-NAT address" };
    },
  },
  [FIREWALL_RULES]: { tagType: "FirewallRule", parent: field("ipAddressUuid", IP_ADDRESSES) },
  [LOAD_BALANCER_RULES]: { tagType: "LoadBalancer", parent: field("ipAddressUuid", IP_ADDRESSES) },
  [PORT_FORWARDING_RULES]: { tagType: "PortForwardingRule", parent: field("ipAddressUuid", IP_ADDRESSES) },

  [EGRESS_RULES]: { parent: field("networkUuid", NETWORKS) },
  [SECURITY_GROUPS]: {},
  [STATIC_NATS]: { parent: field("ipAddressUuid", IP_ADDRESSES) },
  [REMOTE_VPNS]: { parent: field("ipAddressUuid", IP_ADDRESSES) },
  [VPN_CUSTOMER_GATEWAYS]: {},
  [VPN_CONNECTIONS]: { parent: field("vpcUuid", VPCS) },
  [VPN_GATEWAYS]: { parent: field("vpcUuid", VPCS) },
  [INTERNAL_LBS]: { parent: field("networkUuid", NETWORKS) },
  [SNAPSHOT_POLICIES]: { parent: field("volumeUuid", VOLUMES) },
  [CLUSTERS]: { parent: field("networkUuid", NETWORKS) },
  [TAGS]: {},

  [ATTACHED_NETWORKS]: {
    derived: (record, view) => {
      const instance = refTo(view, record.instanceUuid, INSTANCES);
      return instance && { parent: instance, why: "a network attached to the instance" };
    },
  },
  [PORT_FORWARDING_TARGETS]: { derived: keyedBy(PORT_FORWARDING_RULES, "the rule's target") },
  [VPN_CUSTOMER_GATEWAY_CRYPTO]: { derived: keyedBy(VPN_CUSTOMER_GATEWAYS, "the gateway's algorithms") },
  [VPN_CONNECTION_OPTIONS]: { derived: keyedBy(VPN_CONNECTIONS, "the connection's options") },

  [INVOICES]: { account: true },
  [INVOICE_TAXES]: { account: true },
};

/** A side record the emulator keeps under the same key as the record it belongs to. */
function keyedBy(kind: string, why: string): Derived {
  return (record, view) => {
    const parent = refTo(view, record.uuid, kind);
    return parent && { parent, why };
  };
}

/** The taggable kinds, in the order the unowned list shows them. */
export const TAGGABLE_KINDS: readonly string[] = Object.keys(RULES).filter((kind) => RULES[kind].tagType);

/** Who owns each record of the account's view (records with internals folded in). */
export function ownersOf(account: string, view: View): AccountOwners {
  const ownerTags = new Map<string, string>();
  for (const tag of Object.values(view[TAGS] ?? {})) {
    if (tag.key !== OWNER_TAG_KEY) continue;
    const at = `${str(tag.resourceType)}/${str(tag.resourceUuid)}`;
    if (!ownerTags.has(at)) ownerTags.set(at, str(tag.value));
  }

  const records: AccountOwners["records"] = {};
  const unowned: UnownedRecord[] = [];
  const counts: AccountOwners["counts"] = { owned: 0, unowned: 0, derived: 0, "not-taggable": 0, account: 0 };
  for (const [kind, collection] of Object.entries(view)) {
    const rule: KindRule = RULES[kind] ?? {};
    const entries: Record<string, Ownership> = {};
    for (const [key, record] of Object.entries(collection)) {
      const parent = rule.parent?.(record, view);
      const withParent = parent ? { parent } : {};
      const tagged = rule.tagType ? ownerTags.get(`${rule.tagType}/${key}`) : undefined;
      const derived = tagged === undefined ? rule.derived?.(record, view) : undefined;
      let entry: Ownership;
      if (rule.account) entry = { ownership: "account" };
      else if (tagged !== undefined) entry = { ownership: "owned", owner: parseOwner(tagged), ...withParent };
      else if (derived) entry = { ownership: "derived", parent: derived.parent, why: derived.why };
      else if (rule.tagType) {
        entry = { ownership: "unowned", ...withParent };
        unowned.push({ kind, resourceType: rule.tagType, uuid: key, name: labelOf(record), ...withParent });
      } else entry = { ownership: "not-taggable", ...withParent };
      entries[key] = entry;
      counts[entry.ownership]++;
    }
    records[kind] = entries;
  }
  const rank = (kind: string) => TAGGABLE_KINDS.indexOf(kind);
  unowned.sort((a, b) => rank(a.kind) - rank(b.kind) || a.name.localeCompare(b.name) || a.uuid.localeCompare(b.uuid));
  return { account, tagKey: OWNER_TAG_KEY, records, unowned, counts };
}
