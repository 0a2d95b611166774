// Every record of the account, of every kind and zone, over the REST API alone: what `restcloud discover` compares
// with the stacks' states; records the service makes along with another are marked `derived` (no resource of their own).
import { isNotFound, type RestCloudClient } from "../client";
import type { ResourceDeclaration } from "../engine/declaration";
import { OWNER_TAG_KEY, ownersOf, type OwnerTagType } from "../engine/ownership";

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
  /** The value of its `pulumi-owner` tag. */
  ownerTag?: string;
  /** Why it is no resource of its own (made by the service with another record); absent for resources. */
  derived?: string;
  /** With `derived`: the record it was made with (the instance of a ROOT volume, the cluster of a node). */
  derivedFrom?: string;
  /** With `derived`: the service keeps it when that record goes (the data disk an instance was created with). */
  outlives?: boolean;
}

export interface Inventory {
  /** Every record found, derived ones included (they name parents), each once. */
  records: AccountRecord[];
  /** The zones searched. */
  zoneUuids: string[];
  /** Instances Destroyed (recoverable) or Expunging: no resource can hold them. */
  destroyedInstances: number;
}

type Raw = Record<string, unknown>;

/** The answer, or an empty list when its parent went meanwhile (404). */
async function orNone<T>(call: () => Promise<T[]>): Promise<T[]> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

const text = (value: unknown): string | undefined =>
  value === undefined || value === null || value === "" ? undefined : String(value);

/** The owner tag types the declarations use, kind by kind (`Instance` -> `UserVm`). */
export function ownerTagTypes(declarations: readonly ResourceDeclaration[]): Map<string, OwnerTagType> {
  const types = new Map<string, OwnerTagType>();
  for (const d of declarations) if (d.identity.ownerTag) types.set(d.type, d.identity.ownerTag);
  return types;
}

const ports = (start: unknown, end: unknown) => {
  const from = text(start);
  const to = text(end);
  return from === undefined ? "" : to === undefined || to === from ? ` ${from}` : ` ${from}-${to}`;
};

/** Lists the account's records of every kind; `declarations` say which kinds carry owner tags. */
export async function listAccount(
  client: RestCloudClient,
  declarations: readonly ResourceDeclaration[],
): Promise<Inventory> {
  const zoneUuids = (await client.costEstimate.zones())
    .map((zone) => zone.uuid)
    .filter((uuid): uuid is string => typeof uuid === "string" && uuid !== "");
  const records: AccountRecord[] = [];
  const add: Add = (record) => records.push(record);
  const clusterNodes = await listAccountWide(client, add);
  const destroyed = await Promise.all(zoneUuids.map((zoneUuid) => listZone(client, zoneUuid, clusterNodes, add)));
  await readOwnerTags(client, declarations, records);
  return { records: uniqueRecords(records), zoneUuids, destroyedInstances: destroyed.reduce((a, b) => a + b, 0) };
}

type Add = (record: AccountRecord) => void;

/** Clusters, security groups (and their rules), customer gateways, tags; answers each cluster node's cluster. */
async function listAccountWide(client: RestCloudClient, add: Add): Promise<Map<string, string>> {
  const [clusters, groups, gateways, tags] = await Promise.all([
    client.kubernetes.list({}),
    client.securityGroup.list({}),
    client.vpnCustomerGateway.list({}),
    client.resourceTag.list({}),
  ]);
  const clusterNodes = new Map<string, string>();
  await Promise.all(
    clusters.map(async (cluster) => {
      add({
        kind: "KubernetesCluster",
        id: cluster.uuid,
        name: text(cluster.name),
        parentId: text(cluster.transNetworkUuid),
      });
      for (const node of await orNone(() => client.kubernetes.nodes({ clusterUuid: cluster.uuid })))
        clusterNodes.set(node.uuid, cluster.uuid);
    }),
  );
  for (const group of groups) addSecurityGroup(group, add);
  for (const gateway of gateways) add({ kind: "VpnCustomerGateway", id: gateway.uuid, name: text(gateway.name) });
  for (const tag of tags) {
    // The owner tags say who holds a record: they are read below, not resources.
    if (tag.key === OWNER_TAG_KEY) continue;
    add({
      kind: "ResourceTag",
      id: tag.uuid,
      parentId: text(tag.resourceUuid),
      detail: `${tag.key ?? ""}=${tag.value ?? ""}`,
    });
  }
  return clusterNodes;
}

/** A security group, and the rules its record carries (they have no list of their own). */
function addSecurityGroup(group: { uuid: string; name?: unknown }, add: Add): void {
  add({ kind: "SecurityGroup", id: group.uuid, name: text(group.name) });
  const rules = [
    ["SecurityGroupFirewallRule", "securityGroupFirewallRule"],
    ["SecurityGroupEgressRule", "securityGroupEgressRule"],
    ["SecurityGroupPortForwardingRule", "securityGroupPortForwarding"],
  ] as const;
  for (const [kind, array] of rules) {
    for (const rule of ((group as Raw)[array] as Raw[] | undefined) ?? []) {
      const id = text(rule.uuid);
      if (id === undefined) continue;
      const detail =
        kind === "SecurityGroupPortForwardingRule"
          ? `${text(rule.protocol) ?? text(rule.protocolType) ?? ""}${ports(rule.publicPort ?? rule.publicStartPort, rule.publicEndPort)}`
          : `${text(rule.protocol) ?? ""}${ports(rule.startPort, rule.endPort)}`;
      add({ kind, id, parentId: group.uuid, detail: detail.trim() || undefined });
    }
  }
}

/** A zone's lists, in two rounds of parallel calls. */
async function zoneLists(client: RestCloudClient, zoneUuid: string) {
  const [vpcs, networks, offerings, instances, volumes, ips, firewall, egress, forwarding, balancers, internal] =
    await Promise.all([
      client.vpc.list({ zoneUuid }),
      client.network.list({ zoneUuid }),
      client.costEstimate.networkOfferings({ zoneUuid }),
      client.instance.list({ zoneUuid }),
      client.volume.list({ zoneUuid }),
      client.ipAddress.list({ zoneUuid }),
      client.firewallRule.list({ zoneUuid }),
      client.egressRule.list({ zoneUuid }),
      client.portForwardingRule.list({ zoneUuid }),
      client.loadBalancerRule.list({ zoneUuid }),
      client.internalLb.list({ zoneUuid }),
    ]);
  const [connections, vmSnapshots, snapshots] = await Promise.all([
    client.vpnConnection.list({ zoneUuid }),
    client.vmSnapshot.list({ zoneUuid }),
    client.snapshot.list({ zoneUuid }),
  ]);
  return {
    ...{ vpcs, networks, offerings, instances, volumes, ips, firewall, egress, forwarding, balancers, internal },
    ...{ connections, vmSnapshots, snapshots },
  };
}

type ZoneLists = Awaited<ReturnType<typeof zoneLists>>;
type Instance = ZoneLists["instances"][number];

/**
 * A zone's records; answers how many of its instances are destroyed (counted, not listed). Not listed either, as the
 * API shows no trace of them: remote-access VPN on an address, a VPC's VPN gateway (the service's).
 */
async function listZone(
  client: RestCloudClient,
  zoneUuid: string,
  clusterNodes: ReadonlyMap<string, string>,
  add: Add,
): Promise<number> {
  const lists = await zoneLists(client, zoneUuid);
  addNetworks(lists, zoneUuid, add);
  const live = lists.instances.filter((i) => i.state !== "Destroyed" && i.state !== "Expunging");
  for (const instance of live) {
    const cluster = clusterNodes.get(instance.uuid);
    add({
      kind: "Instance",
      id: instance.uuid,
      name: text(instance.name),
      zoneUuid,
      parentId: text(instance.networkUuid),
      ...(cluster ? { derived: `a node of Kubernetes cluster ${cluster}`, derivedFrom: cluster } : {}),
    });
  }
  addVolumes(lists.volumes, live, zoneUuid, add);
  addAddressesAndRules(lists, zoneUuid, add);
  for (const connection of lists.connections)
    add({ kind: "VpnConnection", id: connection.uuid, zoneUuid, parentId: text(connection.vpcUuid) });
  for (const snapshot of lists.vmSnapshots)
    add({ kind: "VmSnapshot", id: snapshot.uuid, name: text(snapshot.name), zoneUuid });
  for (const snapshot of lists.snapshots)
    add({
      kind: "VolumeSnapshot",
      id: snapshot.uuid,
      name: text(snapshot.name),
      zoneUuid,
      parentId: text(snapshot.volumeUuid),
    });
  await addPerRecordLists(client, lists, live, clusterNodes, zoneUuid, add);
  return lists.instances.length - live.length;
}

function addNetworks(lists: ZoneLists, zoneUuid: string, add: Add): void {
  const tierOfferings = new Set(lists.offerings.filter((o) => o.type === "VPC").map((o) => o.uuid));
  for (const vpc of lists.vpcs) add({ kind: "Vpc", id: vpc.uuid, name: text(vpc.name), zoneUuid });
  for (const network of lists.networks) {
    // A tier is a network to the API: its record names its VPC, or its offering is a tier's.
    const tier = text(network.vpcUuid) !== undefined || tierOfferings.has(network.networkOfferingUuid ?? "");
    add({
      kind: tier ? "VpcTier" : "Network",
      id: network.uuid,
      name: text(network.name),
      zoneUuid,
      parentId: tier ? text(network.vpcUuid) : undefined,
    });
  }
}

function addVolumes(volumes: ZoneLists["volumes"], live: readonly Instance[], zoneUuid: string, add: Add): void {
  // The data volume an instance was created with: the first one attached of its plan and size.
  const withDisk = new Map<string, string>();
  for (const instance of live) {
    const size = Number(instance.diskSize ?? 0);
    if (!(size > 0)) continue;
    const first = volumes
      .filter(
        (v) =>
          v.volumeType !== "ROOT" &&
          v.vmUuid === instance.uuid &&
          v.storageOfferingUuid === instance.storageOfferingUuid &&
          Number(v.storageDiskSize) === size,
      )
      .sort((a, b) => Number(a.createdTimeStamp ?? 0) - Number(b.createdTimeStamp ?? 0))[0];
    if (first) withDisk.set(first.uuid, instance.uuid);
  }
  for (const volume of volumes) {
    const root = volume.volumeType === "ROOT";
    const derived = root
      ? `the ROOT volume of instance ${volume.vmUuid ?? "(none)"}`
      : withDisk.has(volume.uuid)
        ? `the data disk instance ${withDisk.get(volume.uuid)} was created with (its diskSize)`
        : undefined;
    add({
      // A data volume without a storage plan was uploaded (createVolume always takes a plan).
      kind: !root && !volume.storageOfferingUuid ? "UploadedVolume" : "Volume",
      id: volume.uuid,
      name: text(volume.name),
      zoneUuid,
      parentId: text(volume.vmUuid),
      ...(derived ? { derived, derivedFrom: text(volume.vmUuid) } : {}),
      // The service detaches an instance's data disks when it expunges it: this one stays.
      ...(derived && !root ? { outlives: true } : {}),
    });
  }
}

function addAddressesAndRules(lists: ZoneLists, zoneUuid: string, add: Add): void {
  for (const ip of lists.ips) {
    add({
      kind: "PublicIpAddress",
      id: ip.uuid,
      zoneUuid,
      parentId: text(ip.vpcUuid) ?? text(ip.networkUuid),
      detail: text(ip.publicIpAddress),
      ...(ip.isSourcenat === true
        ? { derived: "a source-NAT address (the service's)", derivedFrom: text(ip.vpcUuid) ?? text(ip.networkUuid) }
        : {}),
    });
  }
  for (const rule of lists.firewall)
    add({
      kind: "FirewallRule",
      id: rule.uuid,
      zoneUuid,
      parentId: text(rule.ipAddressUuid),
      detail: `${rule.protocol ?? ""}${ports(rule.startPort, rule.endPort)}`.trim() || undefined,
    });
  for (const rule of lists.egress)
    add({
      kind: "EgressRule",
      id: rule.uuid,
      zoneUuid,
      parentId: text(rule.networkUuid),
      detail: `${rule.protocol ?? ""}${ports(rule.startPort, rule.endPort)}`.trim() || undefined,
    });
  for (const rule of lists.forwarding)
    add({
      kind: "PortForwardingRule",
      id: rule.uuid,
      zoneUuid,
      parentId: text(rule.ipAddressUuid),
      detail: `${rule.protocol ?? ""}${ports(rule.publicPort, rule.publicEndPort)}`.trim() || undefined,
    });
  for (const rule of lists.balancers)
    add({
      kind: "LoadBalancerRule",
      id: rule.uuid,
      name: text(rule.name),
      zoneUuid,
      parentId: text(rule.ipAddressUuid),
    });
  for (const lb of lists.internal) {
    const name = text(lb.name);
    // The record carries no uuid: an internal load balancer is known by its name.
    if (name !== undefined)
      add({ kind: "InternalLoadBalancer", id: name, name, zoneUuid, parentId: text(lb.networkUuid) });
  }
}

// Snapshot policies are listed per volume; static NAT shows only on the instance's NICs.
async function addPerRecordLists(
  client: RestCloudClient,
  lists: ZoneLists,
  live: readonly Instance[],
  clusterNodes: ReadonlyMap<string, string>,
  zoneUuid: string,
  add: Add,
): Promise<void> {
  await Promise.all([
    ...lists.volumes.map(async (volume) => {
      for (const policy of await orNone(() => client.snapshotPolicy.list({ volumeUuid: volume.uuid })))
        add({
          kind: "SnapshotPolicy",
          id: policy.uuid,
          zoneUuid,
          parentId: volume.uuid,
          detail: text(policy.intervalType),
        });
    }),
    ...live
      .filter((instance) => !clusterNodes.has(instance.uuid))
      .map(async (instance) => {
        for (const nic of await orNone(() => client.instance.networks({ uuid: instance.uuid }))) {
          const ip = nic.publicIp ? lists.ips.find((i) => i.publicIpAddress === nic.publicIp) : undefined;
          if (ip)
            add({
              kind: "StaticNat",
              id: ip.uuid,
              zoneUuid,
              parentId: ip.uuid,
              detail: `${nic.publicIp} -> ${text(instance.name) ?? instance.uuid}`,
            });
        }
      }),
  ]);
}

/** Each record's `pulumi-owner` tag, for the kinds that carry one. */
async function readOwnerTags(
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

/** One entry per kind and id (a list may repeat a record). */
function uniqueRecords(records: readonly AccountRecord[]): AccountRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = `${r.kind}\u0000${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
