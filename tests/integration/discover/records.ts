/**
 * Records made by hand, through the REST API (the typed client, one call per record, no engine and
 * no owner tag), for the `restcloud discover` tests: the core kinds with their parents, as a user
 * clicking through a portal would leave them. Also: owner tags put on records by hand (as an
 * interrupted `pulumi up` of some stack would have), and the catalog ids the records need, found
 * by name as a client of the real service finds them.
 */
import { DEMO_CREDENTIALS } from "../../../emulator";
import { RestCloudClient, waitFor, type Instance, type Snapshot, type Volume } from "../../../provider/client";

export interface Catalog {
  zoneUuid: string;
  vpcOfferingUuid: string;
  tierOfferingUuid: string;
  isolatedOfferingUuid: string;
  planUuid: string;
  templateUuid: string;
  rootDiskSize: number;
  storagePlanUuid: string;
  kubernetesVersionUuid: string;
}

export function demoClient(apiUrl: string): RestCloudClient {
  return new RestCloudClient({
    apiUrl,
    ...DEMO_CREDENTIALS,
    env: {},
    retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 40, maxRetryAfterMs: 2000 },
  });
}

export async function catalogOf(client: RestCloudClient): Promise<Catalog> {
  const c = client.costEstimate;
  const zoneUuid = (await c.zones())[0]!.uuid!;
  const [vpcOfferings, networkOfferings, plans, templates, storage, versions] = await Promise.all([
    c.vpcOfferings({ zoneUuid }),
    c.networkOfferings({ zoneUuid }),
    c.computePlans({ zoneUuid, computeOfferingType: "PAY_AS_YOU_GO" }),
    c.templates({ zoneUuid, platform: "LINUX", distribution: "OS_ONLY" }),
    c.storagePlans({ zoneUuid }),
    c.kubernetesVersions({ zoneUuid }),
  ]);
  const fixed = (plans.payAsYouGoOfferingCost ?? [])
    .filter((p) => !p.isCustom)
    .sort((a, b) => (a.core ?? 0) - (b.core ?? 0) || (a.memory ?? 0) - (b.memory ?? 0));
  const ubuntu = templates.find((t) => /ubuntu/i.test(t.name ?? ""))!;
  return {
    zoneUuid,
    vpcOfferingUuid: vpcOfferings[0]!.uuid!,
    tierOfferingUuid: networkOfferings.find((o) => o.type === "VPC")!.uuid!,
    isolatedOfferingUuid: networkOfferings.find((o) => o.type === "Isolated")!.uuid!,
    planUuid: fixed.find((p) => (p.core ?? 0) >= 2)!.uuid!,
    templateUuid: ubuntu.uuid!,
    rootDiskSize: Number(ubuntu.minimumRootdisk ?? 10),
    storagePlanUuid: storage.find((s) => s.isCustom === true)!.uuid!,
    kubernetesVersionUuid: [...versions].sort((a, b) => String(a.name).localeCompare(String(b.name)))[0]!.uuid!,
  };
}

const quick = { timeoutMs: 60_000, initialDelayMs: 20, maxDelayMs: 200 };

export async function getInstance(client: RestCloudClient, zoneUuid: string, uuid: string) {
  return (await client.instance.list({ zoneUuid, vmUuid: uuid })).find((i) => i.uuid === uuid);
}

export async function running(client: RestCloudClient, zoneUuid: string, uuid: string): Promise<Instance> {
  return waitFor(
    {
      awaited: `instance ${uuid} Running`,
      poll: () => getInstance(client, zoneUuid, uuid),
      until: (i) => i.state === "Running",
    },
    quick,
  );
}

export async function volumeReady(client: RestCloudClient, volume: Volume): Promise<void> {
  if (volume.jobId) await client.waitForJob(volume.jobId, quick);
}

export async function backedUp(client: RestCloudClient, zoneUuid: string, snapshot: Snapshot): Promise<void> {
  await waitFor(
    {
      awaited: `snapshot ${snapshot.uuid} BackedUp`,
      poll: async () =>
        (await client.snapshot.list({ zoneUuid, uuid: snapshot.uuid })).find((s) => s.uuid === snapshot.uuid),
      until: (s) => s.status === "BackedUp",
    },
    quick,
  );
}

/** The core records of a small site, by hand: labels to ids (and what the tests check them by). */
export interface CoreRecords {
  vpc: string;
  tier: string;
  network: string;
  vm: string;
  /** The vm's ROOT volume: the service's. */
  rootVolume: string;
  data: string;
  ip: string;
  http: string;
  ssh: string;
  egress: string;
  snapshot: string;
  group: string;
  groupRule: string;
}

/**
 * A VPC with a tier; an isolated network with an instance on it, a data volume attached to the
 * instance and a snapshot of that volume; a public IP of the network with a firewall rule and a
 * port-forwarding rule to the instance; an egress rule of the network; a security group with an
 * ingress rule. Names start with `prefix`.
 */
export async function makeCoreRecords(client: RestCloudClient, cat: Catalog, prefix: string): Promise<CoreRecords> {
  const zoneUuid = cat.zoneUuid;
  const vpc = await client.vpc.create({
    name: `${prefix}-vpc`,
    zoneUuid,
    getcIDR: "10.50.0.0/16",
    vpcOfferingUuid: cat.vpcOfferingUuid,
    description: "made by hand",
  });
  const tier = await client.vpc.createTier({
    name: `${prefix}-tier`,
    zoneUuid,
    vpcUuid: vpc.uuid,
    networkOfferingUuid: cat.tierOfferingUuid,
    gateway: "10.50.1.1",
    netmask: "255.255.255.0",
  });
  const network = await client.network.create({
    name: `${prefix}-net`,
    zoneUuid,
    networkOfferingUuid: cat.isolatedOfferingUuid,
  });
  const vm = await client.instance.create({
    name: `${prefix}-vm`,
    zoneUuid,
    templateUuid: cat.templateUuid,
    computeOfferingUuid: cat.planUuid,
    networkUuid: network.uuid,
  });
  await running(client, zoneUuid, vm.uuid);
  const volumes = await client.volume.list({ zoneUuid, vmUuid: vm.uuid });
  const rootVolume = volumes.find((v) => v.volumeType === "ROOT")!.uuid;
  const data = await client.volume.create({
    name: `${prefix}-data`,
    zoneUuid,
    storageOfferingUuid: cat.storagePlanUuid,
    diskSize: 20,
  });
  await volumeReady(client, data);
  await volumeReady(client, await client.volume.attach({ uuid: data.uuid, instanceUuid: vm.uuid }));
  const snapshot = await client.snapshot.create({ volumeUuid: data.uuid, name: `${prefix}-snap`, zoneUuid });
  await backedUp(client, zoneUuid, snapshot);
  const ip = await client.ipAddress.acquire({ networkUuid: network.uuid, networkType: "NETWORK" });
  const http = await client.firewallRule.create({
    ipAddressUuid: ip.uuid,
    protocol: "TCP",
    startPort: "80",
    endPort: "80",
    cidrList: "0.0.0.0/0",
  });
  const ssh = await client.portForwardingRule.create({
    ipAddressUuid: ip.uuid,
    protocol: "TCP",
    publicPort: "2222",
    publicEndPort: "2222",
    privatePort: "22",
    privateEndPort: "22",
    virtualmachineUuid: vm.uuid,
    networkUuid: network.uuid,
  });
  const egress = await client.egressRule.create({
    networkUuid: network.uuid,
    protocol: "TCP",
    startPort: "443",
    endPort: "443",
    cidrList: "0.0.0.0/0",
  });
  const group = await client.securityGroup.create({ name: `${prefix}-sg`, description: "web servers" });
  const withRule = await client.securityGroup.addFirewallRule({
    securityGroupUuid: group.uuid,
    protocol: "TCP",
    startPort: "443",
    endPort: "443",
    cidrList: "0.0.0.0/0",
  });
  const groupRule = String(
    ((withRule as Record<string, unknown>).securityGroupFirewallRule as { uuid: string }[] | undefined)?.[0]?.uuid,
  );
  return {
    vpc: vpc.uuid,
    tier: tier.uuid,
    network: network.uuid,
    vm: vm.uuid,
    rootVolume,
    data: data.uuid,
    ip: ip.uuid,
    http: http.uuid,
    ssh: ssh.uuid,
    egress: egress.uuid,
    snapshot: snapshot.uuid,
    group: group.uuid,
    groupRule,
  };
}

/** Tags a record `pulumi-owner` = `urn`, as a create of the provider does. */
export async function tagOwner(
  client: RestCloudClient,
  resourceType: "UserVm" | "Volume" | "Network" | "Vpc" | "PublicIpAddress" | "FirewallRule",
  zoneUuid: string,
  resourceUuid: string,
  urn: string,
): Promise<void> {
  await client.resourceTag.create({ resourceType, zoneUuid, resourceUuid, key: "pulumi-owner", value: urn });
}
