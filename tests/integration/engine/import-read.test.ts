/**
 * Import by id alone (engine/import.ts): against the emulator, a record of every kind (25) is made
 * through the engine, with several of one kind under one parent where the API allows it (three
 * addresses of one network, three firewall rules and two port-forwarding rules of one address, two
 * egress rules of one network, two firewall rules of one security group, two VPN connections of one
 * VPC, two snapshots and two policies of one volume, two tags of one instance); then
 * `readForImport(declaration, ctx, id)` answers the arguments the record was made with, less those
 * its kind lists as `unreadable` and the record does not show, and the outputs of that record, not of a
 * sibling. A load-balancer rule on a VPC's address: its tier is read for a VPC of one tier only.
 *
 * Also: an unknown id gives undefined for every kind; records in a zone other than the provider's
 * default zone are found; and the refresh path (Engine.read with the state) shows no drift on the
 * same records, now that reads return more of the arguments.
 */
import { randomUUID } from "node:crypto";
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import type { OperationContext, ResourceDeclaration } from "../../../provider/engine/declaration";
import { Engine } from "../../../provider/engine/engine";
import { IdentityRegistry } from "../../../provider/engine/identity";
import { NOT_READ_ON_IMPORT, readForImport } from "../../../provider/engine/import";
import { DECLARATIONS } from "../../../provider/resources/registry";
import * as r from "../../../provider/resources/registry";

jest.setTimeout(120_000);

type Values = Record<string, unknown>;

/** Outputs that tell one record from its siblings, compared with the state the create answered. */
const IDENTIFYING_OUTPUTS = ["uuid", "address", "ipAddress", "privateIp", "zoneUuid", "ruleZoneUuid"];

interface Made {
  label: string;
  declaration: ResourceDeclaration;
  id: string;
  /** The arguments after check (auto-name, defaults, default zone filled in): what a program's state holds. */
  inputs: Values;
  /** The state the create answered (arguments and outputs). */
  state: Values;
  /** Arguments of the kind's `unreadable` that this record does show (the records around it tell them). */
  shows: readonly string[];
}

let emulator: RunningEmulator;
let client: RestCloudClient;
let zones: { home: string; other: string };
const made: Made[] = [];

const identities = new IdentityRegistry();
const engineFor = (declaration: ResourceDeclaration) =>
  new Engine(declaration, {
    client: () => client,
    settings: () => ({ zoneUuid: zones.home }),
    identities,
    // A tag's import finds its zone through the tagged kind's inventory (resource-tag.ts).
    declarations: DECLARATIONS,
  });

function context(zoneUuid: string | undefined = zones.home): OperationContext {
  return { client, settings: { zoneUuid }, timeoutMs: 60_000, progress: () => undefined, declarations: DECLARATIONS };
}

/** Creates a record through the engine, as `pulumi up` would, and keeps what an import must find. */
async function make(
  label: string,
  declaration: ResourceDeclaration,
  args: Values,
  shows: readonly string[] = [],
): Promise<Made> {
  const engine = engineFor(declaration);
  const { inputs, failures } = engine.check({}, args, { logicalName: label });
  expect(failures).toEqual([]);
  const { id, state } = await engine.create(inputs);
  const record = { label, declaration, id, inputs, state, shows };
  made.push(record);
  return record;
}

const as = (d: unknown) => d as ResourceDeclaration;

/**
 * The arguments an import can be expected to answer: those the record was made with, except those
 * no record carries: nothing for those (the kind's `unreadable`, whose marker the import then sets, so
 * that the program's value is no change: engine.diff), or the declaration's default for a record's own.
 */
function expectedImport(record: Made): Values {
  const unreadable = new Set<string>(record.declaration.unreadable ?? []);
  for (const key of record.shows) unreadable.delete(key);
  return Object.fromEntries(
    Object.keys(record.declaration.inputs.shape)
      .map((key) => [key, unreadable.has(key) ? undefined : record.inputs[key]] as const)
      .concat([["tags", tagsMadeOn(record.id)]])
      .filter(([, value]) => value !== undefined),
  );
}

/** The tags the ResourceTags made put on a record, which its import carries as `tags`; undefined: none. */
function tagsMadeOn(id: string): Values | undefined {
  const tags = made.filter((m) => m.declaration.type === "ResourceTag" && m.inputs.resourceUuid === id);
  return tags.length === 0 ? undefined : Object.fromEntries(tags.map((t) => [t.inputs.key, t.inputs.value]));
}

interface Catalog {
  vpcOfferingUuid: string;
  tierOfferingUuid: string;
  isolatedOfferingUuid: string;
  smallPlanUuid: string;
  customPlan: { uuid: string; core: number; memory: number };
  ubuntuTemplate: { uuid: string; minimumRootdisk: number };
  customStoragePlanUuid: string;
  kubernetesVersionUuid: string;
}

/** The catalog ids of a zone, found by name and kind as a program would. */
async function catalogOf(zoneUuid: string): Promise<Catalog> {
  const c = client.costEstimate;
  const [vpcOfferings, networkOfferings, payg, custom, templates, storage, versions] = await Promise.all([
    c.vpcOfferings({ zoneUuid }),
    c.networkOfferings({ zoneUuid }),
    c.computePlans({ zoneUuid, computeOfferingType: "PAY_AS_YOU_GO" }),
    c.computePlans({ zoneUuid, computeOfferingType: "CUSTOM_PLAN" }),
    c.templates({ zoneUuid, platform: "LINUX", distribution: "OS_ONLY" }),
    c.storagePlans({ zoneUuid }),
    c.kubernetesVersions({ zoneUuid }),
  ]);
  const fixed = (payg.payAsYouGoOfferingCost ?? [])
    .filter((p) => !p.isCustom)
    .sort((a, b) => (a.core ?? 0) - (b.core ?? 0) || (a.memory ?? 0) - (b.memory ?? 0));
  const customPlan = (custom.payAsYouGoOfferingCost ?? []).find((p) => p.isCustom)!;
  const ubuntu = templates.find((t) => /ubuntu/i.test(t.name ?? ""))!;
  return {
    vpcOfferingUuid: vpcOfferings[0].uuid,
    tierOfferingUuid: networkOfferings.find((o) => o.type === "VPC")!.uuid,
    isolatedOfferingUuid: networkOfferings.find((o) => o.type === "Isolated")!.uuid,
    smallPlanUuid: fixed.find((p) => (p.core ?? 0) >= 2)!.uuid,
    customPlan: { uuid: customPlan.uuid, core: customPlan.core ?? 1, memory: customPlan.memory ?? 1024 },
    ubuntuTemplate: { uuid: ubuntu.uuid, minimumRootdisk: ubuntu.minimumRootdisk ?? 10 },
    customStoragePlanUuid: storage.find((s) => s.isCustom === true)!.uuid,
    kubernetesVersionUuid: [...versions].sort((a, b) => String(a.name).localeCompare(String(b.name)))[0].uuid,
  };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
  client = new RestCloudClient({
    apiUrl: emulator.url,
    ...DEMO_CREDENTIALS,
    retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 40, maxRetryAfterMs: 2000 },
    env: {},
  });
  const all = (await client.costEstimate.zones()).map((z) => z.uuid);
  zones = { home: all[0], other: all[1] };
  const cat = await catalogOf(zones.home);

  // ---- networks, machines, storage ---------------------------------------------------------------------
  const group = await make("group", as(r.securityGroupDeclaration), { description: "web servers" });
  const vpc = await make("vpc", as(r.vpcDeclaration), {
    cidr: "10.40.0.0/16",
    vpcOfferingUuid: cat.vpcOfferingUuid,
    description: "every kind",
    networkDomain: "every.kind.internal",
  });
  const tiers = [];
  for (const [t, i] of [
    ["A", 1],
    ["B", 2],
  ] as const) {
    tiers.push(
      await make(`tier${t}`, as(r.vpcTierDeclaration), {
        vpcUuid: vpc.id,
        cidr: `10.40.${i}.0/24`,
        gateway: `10.40.${i}.1`,
        networkOfferingUuid: cat.tierOfferingUuid,
        description: `tier ${t}`,
        networkDomain: `tier${t.toLowerCase()}.every.kind.internal`,
      }),
    );
  }
  const [tierA, tierB] = tiers;
  const network = await make("network", as(r.networkDeclaration), {
    networkOfferingUuid: cat.isolatedOfferingUuid,
    isPublic: false,
    securityGroupUuid: group.id,
    description: "apps",
    networkDomain: "apps.every.kind.internal",
  });
  const spare = await make("spare", as(r.networkDeclaration), {
    networkOfferingUuid: cat.isolatedOfferingUuid,
    description: "spare",
    networkDomain: "spare.every.kind.internal",
  });
  const instance = (displayName: string, extra: Values) => ({
    templateUuid: cat.ubuntuTemplate.uuid,
    networkUuid: network.id,
    displayName,
    rootDiskSize: cat.ubuntuTemplate.minimumRootdisk + 10,
    ...extra,
  });
  const vmA = await make(
    "vmA",
    as(r.instanceDeclaration),
    instance("web-a", { computeOfferingUuid: cat.smallPlanUuid }),
  );
  const vmB = await make(
    "vmB",
    as(r.instanceDeclaration),
    instance("web-b", { computeOfferingUuid: cat.smallPlanUuid, additionalNetworkUuids: [spare.id] }),
  );
  // A custom plan (cpuCore and memory are its arguments), a data disk, stopped.
  await make(
    "vmC",
    as(r.instanceDeclaration),
    instance("batch", {
      computeOfferingUuid: cat.customPlan.uuid,
      cpuCore: Math.max(2, cat.customPlan.core),
      memory: Math.max(4096, cat.customPlan.memory),
      diskSize: 20,
      storageOfferingUuid: cat.customStoragePlanUuid,
      state: "Stopped",
    }),
  );
  const volume = await make("volume", as(r.volumeDeclaration), {
    storageOfferingUuid: cat.customStoragePlanUuid,
    size: 10,
    instanceUuid: vmA.id,
  });
  await make("uploaded", as(r.uploadedVolumeDeclaration), {
    url: "https://images.example.com/every-kind.qcow2",
    format: "QCOW2",
    instanceUuid: vmA.id,
  });
  await make("cluster", as(r.kubernetesClusterDeclaration), {
    kubernetesVersionUuid: cat.kubernetesVersionUuid,
    computeOfferingUuid: cat.smallPlanUuid,
    networkUuid: network.id,
    size: 1,
    controlNodes: 1,
    nodeRootDiskSize: 40,
    description: "every kind",
  });

  // ---- public addresses: three of the network, two of the VPC ------------------------------------------
  const ips: Made[] = [];
  for (const ip of ["ipA", "ipB", "ipC"]) {
    ips.push(await make(ip, as(r.publicIpAddressDeclaration), { networkUuid: network.id }));
  }
  const vpcIps: Made[] = [];
  for (const ip of ["vpcIpA", "vpcIpB"]) {
    vpcIps.push(await make(ip, as(r.publicIpAddressDeclaration), { vpcUuid: vpc.id }));
  }

  // ipA: three firewall rules, two port-forwarding rules (one to each instance), a load-balancer rule.
  const tcp = (startPort: number, cidrList: string) => ({ protocol: "TCP", startPort, endPort: startPort, cidrList });
  await make("fwHttps", as(r.firewallRuleDeclaration), { ipAddressUuid: ips[0].id, ...tcp(443, "0.0.0.0/0") });
  await make("fwSsh", as(r.firewallRuleDeclaration), {
    ipAddressUuid: ips[0].id,
    ...tcp(22, "10.0.0.0/8,192.168.0.0/16"),
  });
  await make("fwPing", as(r.firewallRuleDeclaration), {
    ipAddressUuid: ips[0].id,
    protocol: "ICMP",
    icmpType: 8,
    icmpCode: 0,
    cidrList: "0.0.0.0/0",
  });
  for (const [rule, publicPort, vm] of [
    ["pfA", 2222, vmA],
    ["pfB", 2223, vmB],
  ] as const) {
    await make(rule, as(r.portForwardingRuleDeclaration), {
      ipAddressUuid: ips[0].id,
      protocol: "TCP",
      publicPort,
      publicEndPort: publicPort,
      privatePort: 22,
      privateEndPort: 22,
      instanceUuid: vm.id,
      networkUuid: network.id,
    });
  }
  // A rule on a network's address balances over that network.
  await make(
    "lbWeb",
    as(r.loadBalancerRuleDeclaration),
    { ipAddressUuid: ips[0].id, networkUuid: network.id, publicPort: 80, privatePort: 8080 },
    ["networkUuid"],
  );
  // ipB: static NAT to vmB; ipC: remote-access VPN.
  await make("natB", as(r.staticNatDeclaration), {
    ipAddressUuid: ips[1].id,
    instanceUuid: vmB.id,
    networkUuid: network.id,
  });
  await make("vpnC", as(r.remoteAccessVpnDeclaration), { ipAddressUuid: ips[2].id });
  // The VPC's addresses: a load-balancer rule into one of its two tiers (no record names which); a firewall rule.
  await make("lbTier", as(r.loadBalancerRuleDeclaration), {
    ipAddressUuid: vpcIps[0].id,
    networkUuid: tierA.id,
    publicPort: 80,
    privatePort: 8080,
    algorithm: "leastconn",
  });
  await make("fwVpc", as(r.firewallRuleDeclaration), { ipAddressUuid: vpcIps[1].id, ...tcp(443, "0.0.0.0/0") });
  // A VPC of one tier: a load-balancer rule on its address can balance over that tier only.
  const soloVpc = await make("soloVpc", as(r.vpcDeclaration), {
    cidr: "10.41.0.0/16",
    vpcOfferingUuid: cat.vpcOfferingUuid,
  });
  const soloTier = await make("soloTier", as(r.vpcTierDeclaration), {
    vpcUuid: soloVpc.id,
    cidr: "10.41.1.0/24",
    networkOfferingUuid: cat.tierOfferingUuid,
  });
  const soloIp = await make("soloIp", as(r.publicIpAddressDeclaration), { vpcUuid: soloVpc.id });
  await make(
    "lbSolo",
    as(r.loadBalancerRuleDeclaration),
    { ipAddressUuid: soloIp.id, networkUuid: soloTier.id, publicPort: 443, privatePort: 8443 },
    ["networkUuid"],
  );

  // Two egress rules of the network; an internal load balancer in a tier.
  await make("egHttp", as(r.egressRuleDeclaration), { networkUuid: network.id, ...tcp(80, "0.0.0.0/0") });
  await make("egDns", as(r.egressRuleDeclaration), {
    networkUuid: network.id,
    protocol: "UDP",
    startPort: 53,
    endPort: 53,
  });
  await make("ilb", as(r.internalLoadBalancerDeclaration), {
    networkUuid: tierB.id,
    sourcePort: 80,
    instancePort: 8080,
    sourceIpAddress: "10.40.2.10",
    description: "app tier",
  });

  // ---- the security group's rules: two firewall rules, an egress rule, a port-forwarding rule -----------
  await make("sgHttps", as(r.securityGroupFirewallRuleDeclaration), {
    securityGroupUuid: group.id,
    ...tcp(443, "0.0.0.0/0"),
  });
  await make("sgSsh", as(r.securityGroupFirewallRuleDeclaration), {
    securityGroupUuid: group.id,
    ...tcp(22, "10.0.0.0/8"),
  });
  await make("sgEgress", as(r.securityGroupEgressRuleDeclaration), {
    securityGroupUuid: group.id,
    protocol: "TCP",
    startPort: 443,
    endPort: 443,
  });
  await make("sgForward", as(r.securityGroupPortForwardingRuleDeclaration), {
    securityGroupUuid: group.id,
    protocol: "TCP",
    publicPort: 8080,
    publicEndPort: 8080,
    privatePort: 80,
    privateEndPort: 80,
  });

  // ---- site-to-site VPN: two customer gateways, two connections of the one VPC --------------------------
  for (const [suffix, gateway, cidrList, passive] of [
    ["A", "198.51.100.7", "192.168.50.0/24", false],
    ["B", "198.51.100.8", "192.168.60.0/24,192.168.61.0/24", true],
  ] as const) {
    const customer = await make(`cgw${suffix}`, as(r.vpnCustomerGatewayDeclaration), {
      gateway,
      cidrList,
      ipsecPresharedKey: `every-kind-psk-${suffix}`,
      ikePolicy: "Group 14(modp2048)",
      ikeEncryption: "aes256",
      ikeHash: "sha256",
      ikeVersion: "ikev2",
      espEncryption: "aes256",
      espHash: "sha256",
      deadPeerDetection: passive,
      forceEncapsulation: false,
      splitConnection: false,
    });
    await make(`vpn${suffix}`, as(r.vpnConnectionDeclaration), {
      vpcUuid: vpc.id,
      customerGatewayUuid: customer.id,
      passive,
    });
  }

  // ---- snapshots, policies, tags -----------------------------------------------------------------------
  await make("vmSnapshot", as(r.vmSnapshotDeclaration), {
    instanceUuid: vmA.id,
    description: "before the upgrade",
    snapshotMemory: false,
  });
  for (const snapshot of ["snapshotA", "snapshotB"]) {
    await make(snapshot, as(r.volumeSnapshotDeclaration), { volumeUuid: volume.id });
  }
  await make("policyDaily", as(r.snapshotPolicyDeclaration), {
    volumeUuid: volume.id,
    intervalType: "DAILY",
    scheduleTime: "02:00",
    maximumSnapshots: 5,
  });
  await make("policyWeekly", as(r.snapshotPolicyDeclaration), {
    volumeUuid: volume.id,
    intervalType: "WEEKLY",
    scheduleTime: "03:30",
    dayOfWeek: 1,
    timeZone: "Europe/Berlin",
    maximumSnapshots: 8,
  });
  for (const [tag, key, value] of [
    ["tagEnv", "env", "test"],
    ["tagRole", "role", "web"],
  ] as const) {
    await make(tag, as(r.resourceTagDeclaration), { resourceType: "UserVm", resourceUuid: vmA.id, key, value });
  }
  await make("tagIp", as(r.resourceTagDeclaration), {
    resourceType: "PublicIpAddress",
    resourceUuid: ips[0].id,
    key: "env",
    value: "test",
  });

  // ---- elsewhere: a volume in another zone, its snapshot and policy, a tag on it --------------------------
  const elsewhere = await catalogOf(zones.other);
  const far = await make("farVolume", as(r.volumeDeclaration), {
    zoneUuid: zones.other,
    storageOfferingUuid: elsewhere.customStoragePlanUuid,
    size: 5,
  });
  await make("farSnapshot", as(r.volumeSnapshotDeclaration), { zoneUuid: zones.other, volumeUuid: far.id });
  await make("farPolicy", as(r.snapshotPolicyDeclaration), {
    volumeUuid: far.id,
    intervalType: "HOURLY",
    scheduleTime: "15",
    maximumSnapshots: 3,
  });
  await make("farTag", as(r.resourceTagDeclaration), {
    zoneUuid: zones.other,
    resourceType: "Volume",
    resourceUuid: far.id,
    key: "site",
    value: "far",
  });

  // The updates a create sends without awaiting them (a tier's or network's description and domain)
  // become visible after the emulator's asynchronous delay.
  await new Promise((resolve) => setTimeout(resolve, 300));
});

afterAll(async () => {
  await emulator?.stop();
});

test("every kind is made", () => {
  const kinds = new Set(made.map((m) => m.declaration.type));
  expect([...kinds].sort()).toEqual(DECLARATIONS.map((d) => d.type).sort());
});

describe("an import by id alone answers the arguments the record was made with", () => {
  test.each(["group", "vpc", "tierA", "tierB", "network", "spare"])("%s", (label) => expectImported(label));
  test.each(["vmA", "vmB", "vmC", "volume", "uploaded", "cluster"])("%s", (label) => expectImported(label));
  test.each(["ipA", "ipB", "ipC", "vpcIpA", "vpcIpB"])("%s", (label) => expectImported(label));
  test.each(["fwHttps", "fwSsh", "fwPing", "fwVpc", "egHttp", "egDns"])("%s", (label) => expectImported(label));
  test.each(["pfA", "pfB", "lbWeb", "lbTier", "lbSolo", "natB", "vpnC", "ilb"])("%s", (label) => expectImported(label));
  test.each(["sgHttps", "sgSsh", "sgEgress", "sgForward"])("%s", (label) => expectImported(label));
  test.each(["cgwA", "cgwB", "vpnA", "vpnB"])("%s", (label) => expectImported(label));
  test.each(["vmSnapshot", "snapshotA", "snapshotB", "policyDaily", "policyWeekly"])("%s", (label) =>
    expectImported(label),
  );
  test.each(["tagEnv", "tagRole", "tagIp"])("%s", (label) => expectImported(label));
});

test.each(["farVolume", "farSnapshot", "farTag"])(
  "a record in a zone other than the default zone is found: %s",
  async (label) => {
    expect((await expectImported(label)).inputs.zoneUuid).toBe(zones.other);
  },
);

test("a snapshot policy of a volume in another zone is found", async () => {
  const far = made.find((m) => m.label === "farVolume")!;
  expect((await expectImported("farPolicy")).inputs.volumeUuid).toBe(far.id);
});

test("with no default zone, every zone of the catalog is searched", async () => {
  for (const label of ["vpc", "farVolume", "fwSsh", "farPolicy"]) {
    await expectImported(label, context(undefined));
  }
});

test.each(DECLARATIONS.map((d) => [d.type, d] as const))(
  "an unknown id gives undefined: %s",
  async (_, declaration) => {
    const id = declaration.type === "InternalLoadBalancer" ? "no-such-balancer" : randomUUID();
    await expect(readForImport(declaration, context(), id)).resolves.toBeUndefined();
  },
);

test("a refresh (the engine's read with the state) shows no drift on any of these records", async () => {
  for (const record of made) {
    const live = await engineFor(record.declaration).read(record.id, record.state);
    expect({ label: record.label, inputs: live?.inputs }).toEqual({ label: record.label, inputs: record.inputs });
  }
});

async function expectImported(label: string, ctx = context()): Promise<{ inputs: Values; outputs: Values }> {
  const record = made.find((m) => m.label === label);
  if (!record) throw new Error(`no record ${label} was made`);
  const imported = await readForImport(record.declaration, ctx, record.id);
  expect(imported).toBeDefined();
  expect({ label, inputs: imported!.inputs }).toEqual({ label, inputs: expectedImport(record) });
  // Each argument the declaration says a record may not show, and this one did not, is named as not read.
  const notRead = (record.declaration.unreadable ?? []).filter((key) => imported!.inputs[key] === undefined).sort();
  const named = imported!.outputs[NOT_READ_ON_IMPORT] as string[] | undefined;
  expect({ label, notRead: named && [...named].sort() }).toEqual({
    label,
    notRead: notRead.length > 0 ? notRead : undefined,
  });
  // The record itself, not a sibling with the same arguments (three addresses of one network...).
  for (const key of IDENTIFYING_OUTPUTS) {
    if (record.state[key] !== undefined && imported!.outputs[key] !== undefined) {
      expect({ label, [key]: imported!.outputs[key] }).toEqual({ label, [key]: record.state[key] });
    }
  }
  return imported!;
}
