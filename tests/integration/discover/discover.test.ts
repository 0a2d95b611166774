/**
 * `restcloud discover` (provider/discover) against the emulator over HTTP, run as the command
 * (runDiscover, and once the built bin) in a Pulumi project directory whose `pulumi` is a stand-in
 * (PULUMI_CLI: a script answering `stack ls`, `stack export` and `config` from a file this test
 * writes), so that the stacks' states are exactly what each case needs.
 *
 * The account, made through the REST API by hand: the core kinds with their parents (a VPC and its
 * tier; an isolated network with an instance, its data volume and that volume's snapshot; a public
 * IP with a firewall rule and a port-forwarding rule to the instance; an egress rule; a security
 * group with a rule), a second instance created with a data disk and given static NAT on a second
 * IP, a Kubernetes cluster, a user's tag; records two stacks of the project hold (one by a pending
 * create with an id); records tagged `pulumi-owner` by a stack of the project but in no state (an
 * interrupted `pulumi up`: one its stack's state has as a pending create, one whose pending create
 * was cleared), one by a stack the project no longer has; another project's records.
 *
 * It proves: the unheld records (and only they) are listed, grouped by kind, with names, ids and
 * parents; the held ones, another project's (counted), and the service's own (ROOT volumes, the
 * data disk an instance was created with, cluster nodes) are not; import.json and the code say what
 * adopts them, in dependency order, with references between discovered records; --stack, --json;
 * --delete asks and deletes them (dependents first) and nothing else; failures and bad usage exit
 * 1 and 2 with a clear message.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import type { RestCloudClient } from "../../../provider/client";
import { runDiscover, type DiscoverIo } from "../../../provider/discover/cli";
import {
  catalogOf,
  demoClient,
  makeCoreRecords,
  running,
  tagOwner,
  volumeReady,
  type Catalog,
  type CoreRecords,
} from "./records";

jest.setTimeout(180_000);

const CLI = path.join(__dirname, "..", "..", "..", "dist", "provider", "cli.js");
const PROJECT = "shop";
const urn = (stack: string, project: string, kind: string, name: string) =>
  `urn:pulumi:${stack}::${project}::restcloud:index:${kind}::${name}`;

let emulator: RunningEmulator;
let client: RestCloudClient;
let cat: Catalog;
let core: CoreRecords;
/** The other records, by label. */
const ids: Record<string, string> = {};
let projectDir: string;
let stateFile: string;
let fakePulumi: string;

// ---- the stand-in pulumi CLI ------------------------------------------------------------------------

interface FakeState {
  stacks: { name: string; current?: boolean }[];
  exports: Record<string, unknown>;
  config: Record<string, Record<string, string>>;
}

/** A script answering `stack ls --json`, `stack export --stack S` and `config --json` from `stateFile`. */
const FAKE_PULUMI = `
const fs = require("node:fs");
const file = process.env.FAKE_PULUMI_STATE;
const state = JSON.parse(fs.readFileSync(file, "utf8"));
const args = process.argv.slice(2).filter((a) => a !== "--non-interactive");
fs.appendFileSync(file + ".log", args.join(" ") + "\\n");
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const fail = (message) => { process.stderr.write("error: " + message + "\\n"); process.exit(255); };
const current = (state.stacks.find((s) => s.current) || {}).name;
if (args[0] === "stack" && args[1] === "ls") {
  process.stdout.write(JSON.stringify(state.stacks.map((s) => ({ name: s.name, current: !!s.current, resourceCount: 0 }))));
} else if (args[0] === "stack" && args[1] === "export") {
  const stack = flag("--stack") || current;
  if (!(stack in state.exports)) fail("no stack named '" + stack + "' found");
  process.stdout.write(JSON.stringify(state.exports[stack]));
} else if (args[0] === "config") {
  const stack = flag("--stack") || current;
  if (!stack) fail("no stack selected");
  const config = state.config[stack] || {};
  process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v, secret: false }]))));
} else fail("unexpected: " + args.join(" "));
`;

async function setFaultRules(rules: object[]): Promise<void> {
  const response = await fetch(`${emulator.url}/_emulator/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  if (!response.ok) throw new Error(`PUT /_emulator/faults: ${response.status} ${await response.text()}`);
}

function writeState(state: FakeState): void {
  fs.writeFileSync(stateFile, JSON.stringify(state));
  fs.rmSync(`${stateFile}.log`, { force: true });
}

/** What the stand-in was asked, one line per call. */
const pulumiCalls = () =>
  fs.existsSync(`${stateFile}.log`) ? fs.readFileSync(`${stateFile}.log`, "utf8").trim().split("\n") : [];

/** A deployment as `pulumi stack export` prints it; `tags` are a resource's `tags` in its state. */
function deployment(
  stack: string,
  held: [kind: string, name: string, id: string, token?: "dynamic", tags?: Record<string, string>][],
  pending = false,
) {
  const resources = held.map(([kind, name, id, token, tags]) => ({
    urn: urn(stack, PROJECT, kind, name),
    type: token === "dynamic" ? `pulumi-nodejs:dynamic/restcloud:${kind}` : `restcloud:index:${kind}`,
    id,
    ...(tags ? { inputs: { tags }, outputs: { tags } } : {}),
  }));
  return {
    version: 3,
    deployment: {
      manifest: { time: "2025-01-01T00:00:00Z", version: "v3.259.0" },
      resources: [
        {
          urn: `urn:pulumi:${stack}::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-${stack}`,
          type: "pulumi:pulumi:Stack",
        },
        ...(pending ? resources.slice(0, -1) : resources),
      ],
      ...(pending
        ? {
            pending_operations: [
              { resource: resources[resources.length - 1], type: "creating" },
              // Creates that never answered: no id, they hold nothing (the second one's record is tagged).
              { resource: { urn: urn(stack, PROJECT, "Vpc", "never"), type: "restcloud:index:Vpc" }, type: "creating" },
              {
                resource: { urn: urn(stack, PROJECT, "Volume", "lost-volume"), type: "restcloud:index:Volume" },
                type: "creating",
              },
            ],
          }
        : {}),
    },
  };
}

/** The project's usual states: dev and prod, dev selected, dev's config naming the emulator. */
function usualState(): FakeState {
  return {
    stacks: [{ name: "dev", current: true }, { name: "prod" }],
    exports: {
      dev: deployment(
        "dev",
        [
          ["Vpc", "dev-vpc", ids.heldVpc!, undefined, { app: "shop" }],
          ["Network", "dev-net", ids.heldNet!, "dynamic"],
          ["Volume", "dev-vol", ids.heldVolume!],
        ],
        true,
      ),
      prod: deployment("prod", [["PublicIpAddress", "prod-ip", ids.heldIp!]]),
    },
    config: {
      dev: {
        "restcloud:apiUrl": emulator.url,
        "restcloud:apiKey": "demo-api-key",
        "restcloud:secretKey": "demo-secret-key",
        "restcloud:zoneUuid": cat.zoneUuid,
        "restcloud:mode": "native",
        "restcloud:defaultTags": '{"team":"payments"}',
      },
    },
  };
}

// ---- running the command -----------------------------------------------------------------------------

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  questions: string[];
}

async function discover(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; tty?: boolean; answer?: string } = {},
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const questions: string[] = [];
  const io: DiscoverIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: options.env ?? { PATH: process.env.PATH, PULUMI_CLI: fakePulumi, FAKE_PULUMI_STATE: stateFile },
    cwd: options.cwd ?? projectDir,
    isTTY: options.tty ?? false,
    prompt: async (question) => {
      questions.push(question);
      return options.answer ?? "";
    },
  };
  const code = await runDiscover(args, io);
  return { code, stdout, stderr, questions };
}

interface ReportRecord {
  kind: string;
  id: string;
  name?: string;
  logicalName: string;
  parent: { id: string; kind?: string; name?: string } | null;
  owner: { stack: string; name: string | null; stackExists: boolean } | null;
  hint: string | null;
  dependsOn: string[];
  arguments: Record<string, unknown>;
  todo: string[];
}
interface Report {
  project: string;
  stacks: string[];
  records: ReportRecord[];
  summary: {
    unheld: number;
    interrupted: number;
    held: number;
    otherProjects: Record<string, number>;
    derived: number;
  };
  files: { importFile: string; typescript: string; python: string } | null;
  deleted?: { kind: string; id: string; outcome: string; reason?: string }[];
}

async function discoverJson(args: string[] = []): Promise<Report> {
  const run = await discover(["--json", ...args]);
  if (run.code !== 0) throw new Error(`discover failed (${run.code}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Report;
}

// ---- the account ---------------------------------------------------------------------------------------

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  client = demoClient(emulator.url);
  cat = await catalogOf(client);
  const zoneUuid = cat.zoneUuid;
  core = await makeCoreRecords(client, cat, "hand");

  // A second instance, created with a data disk (the instance's: the service's record), with
  // static NAT on a second address.
  const diskVm = await client.instance.create({
    name: "disk-vm",
    zoneUuid,
    templateUuid: cat.templateUuid,
    computeOfferingUuid: cat.planUuid,
    networkUuid: core.network,
    diskSize: 10,
    storageOfferingUuid: cat.storagePlanUuid,
  });
  await running(client, zoneUuid, diskVm.uuid);
  ids.diskVm = diskVm.uuid;
  ids.diskVmVolumes = (await client.volume.list({ zoneUuid, vmUuid: diskVm.uuid })).map((v) => v.uuid).join(",");
  const natIp = await client.ipAddress.acquire({ networkUuid: core.network, networkType: "NETWORK" });
  ids.natIp = natIp.uuid;
  await client.ipAddress.enableStaticNat({ ipAddressUuid: natIp.uuid, vmUuid: diskVm.uuid, networkUuid: core.network });

  // A Kubernetes cluster: its nodes are the service's.
  const cluster = await client.kubernetes.create({
    name: "k8s",
    zoneUuid,
    kubernetesSupportedVersionUuid: cat.kubernetesVersionUuid,
    computeOfferingUuid: cat.planUuid,
    transNetworkUuid: core.network,
    size: 1,
  });
  ids.cluster = cluster.uuid;
  const nodes = await client.kubernetes.nodes({ clusterUuid: cluster.uuid });
  expect(nodes.length).toBeGreaterThan(0);
  ids.nodes = nodes.map((n) => n.uuid).join(",");

  // A VPN customer gateway: its pre-shared key a secret, its algorithms shown by no record.
  ids.gateway = (
    await client.vpnCustomerGateway.create({
      name: "office",
      gateway: "198.51.100.10",
      cidrlist: "192.168.10.0/24",
      ipsecpsk: "psk-never-written",
      ikepolicy: "Group 14(modp2048)",
      ikeEncryption: "aes256",
      ikeHash: "sha256",
      ikelifetime: "86400",
      esppolicy: "None",
      espEncryption: "aes256",
      espHash: "sha256",
      esplifetime: "3600",
    })
  ).uuid;

  // A user's tags on the instance: its code's `tags`, less the default tag (team=payments, in dev's config).
  for (const [key, value] of [
    ["env", "prod"],
    ["team", "payments"],
  ])
    await client.resourceTag.create({ resourceType: "UserVm", zoneUuid, resourceUuid: core.vm, key, value });

  // Held by the project's stacks: a tagged VPC (dev), an untagged network (dev, dynamic token), a
  // volume of a pending create with an id (dev), an address of that network (prod).
  const heldVpc = await client.vpc.create({
    name: "dev-vpc",
    zoneUuid,
    getcIDR: "10.60.0.0/16",
    vpcOfferingUuid: cat.vpcOfferingUuid,
  });
  ids.heldVpc = heldVpc.uuid;
  await tagOwner(client, "Vpc", zoneUuid, heldVpc.uuid, urn("dev", PROJECT, "Vpc", "dev-vpc"));
  // Tags on the held VPC: app=shop is its resource's (`tags` in dev's state), env=dev a ResourceTag record no
  // state holds.
  await client.resourceTag.create({
    resourceType: "Vpc",
    zoneUuid,
    resourceUuid: heldVpc.uuid,
    key: "app",
    value: "shop",
  });
  ids.userTag = (
    await client.resourceTag.create({
      resourceType: "Vpc",
      zoneUuid,
      resourceUuid: heldVpc.uuid,
      key: "env",
      value: "dev",
    })
  ).uuid;
  ids.heldNet = (
    await client.network.create({ name: "dev-net", zoneUuid, networkOfferingUuid: cat.isolatedOfferingUuid })
  ).uuid;
  const heldVolume = await client.volume.create({
    name: "dev-vol",
    zoneUuid,
    storageOfferingUuid: cat.storagePlanUuid,
    diskSize: 5,
  });
  await volumeReady(client, heldVolume);
  ids.heldVolume = heldVolume.uuid;
  ids.heldIp = (await client.ipAddress.acquire({ networkUuid: ids.heldNet, networkType: "NETWORK" })).uuid;
  // By hand, on prod's address: unheld, its parent held.
  ids.ruleOnHeld = (
    await client.firewallRule.create({ ipAddressUuid: ids.heldIp, protocol: "TCP", startPort: "8080", endPort: "8080" })
  ).uuid;

  // Made by an interrupted `pulumi up` of dev (tagged, in no state), and by a stack the project no longer has.
  const lost = await client.volume.create({
    name: "lost-vol",
    zoneUuid,
    storageOfferingUuid: cat.storagePlanUuid,
    diskSize: 5,
  });
  await volumeReady(client, lost);
  ids.lostVolume = lost.uuid;
  await tagOwner(client, "Volume", zoneUuid, lost.uuid, urn("dev", PROJECT, "Volume", "lost-volume"));
  // Tagged by prod, whose state has no pending create for it (cleared since).
  const stray = await client.volume.create({
    name: "stray-vol",
    zoneUuid,
    storageOfferingUuid: cat.storagePlanUuid,
    diskSize: 5,
  });
  await volumeReady(client, stray);
  ids.strayVolume = stray.uuid;
  await tagOwner(client, "Volume", zoneUuid, stray.uuid, urn("prod", PROJECT, "Volume", "stray"));
  const old = await client.vpc.create({
    name: "old-vpc",
    zoneUuid,
    getcIDR: "10.70.0.0/16",
    vpcOfferingUuid: cat.vpcOfferingUuid,
  });
  ids.oldVpc = old.uuid;
  await tagOwner(client, "Vpc", zoneUuid, old.uuid, urn("staging", PROJECT, "Vpc", "old-vpc"));

  // Another project's: a tagged VPC and network, and an egress rule of that network (no tag: its network's).
  const billingVpc = await client.vpc.create({
    name: "billing-vpc",
    zoneUuid,
    getcIDR: "10.80.0.0/16",
    vpcOfferingUuid: cat.vpcOfferingUuid,
  });
  await tagOwner(client, "Vpc", zoneUuid, billingVpc.uuid, urn("prod", "billing", "Vpc", "vpc"));
  const billingNet = await client.network.create({
    name: "billing-net",
    zoneUuid,
    networkOfferingUuid: cat.isolatedOfferingUuid,
  });
  await tagOwner(client, "Network", zoneUuid, billingNet.uuid, urn("prod", "billing", "Network", "net"));
  ids.billingEgress = (
    await client.egressRule.create({ networkUuid: billingNet.uuid, protocol: "TCP", startPort: "25", endPort: "25" })
  ).uuid;

  projectDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-discover-"));
  fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime: nodejs\n`);
  stateFile = path.join(projectDir, ".fake-pulumi.json");
  const script = path.join(projectDir, "fake-pulumi.js");
  fs.writeFileSync(script, FAKE_PULUMI);
  fakePulumi = path.join(projectDir, "pulumi");
  fs.writeFileSync(fakePulumi, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`, { mode: 0o755 });
  writeState(usualState());
});

afterAll(async () => {
  await emulator?.stop();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
});

beforeEach(() => writeState(usualState()));

/** The records the account shows unheld: the core ones and the others made by hand. */
const expectedUnheld = () =>
  [
    ["Vpc", core.vpc],
    ["VpcTier", core.tier],
    ["Network", core.network],
    ["Instance", core.vm],
    ["Instance", ids.diskVm],
    ["Volume", core.data],
    ["Volume", ids.lostVolume],
    ["Volume", ids.strayVolume],
    ["Vpc", ids.oldVpc],
    ["VolumeSnapshot", core.snapshot],
    ["PublicIpAddress", core.ip],
    ["PublicIpAddress", ids.natIp],
    ["StaticNat", ids.natIp],
    ["FirewallRule", core.http],
    ["FirewallRule", ids.ruleOnHeld],
    ["PortForwardingRule", core.ssh],
    ["EgressRule", core.egress],
    ["SecurityGroup", core.group],
    ["SecurityGroupFirewallRule", core.groupRule],
    ["KubernetesCluster", ids.cluster],
    ["ResourceTag", ids.userTag],
    ["VpnCustomerGateway", ids.gateway],
  ]
    .map(([kind, id]) => `${kind} ${id}`)
    .sort();

// ---- the cases -------------------------------------------------------------------------------------------

describe("restcloud discover", () => {
  test("lists every record no stack holds (16 kinds), each with its parent; nothing held, derived or another project's", async () => {
    const report = await discoverJson();
    expect(report.project).toBe(PROJECT);
    expect(report.stacks).toEqual(["dev", "prod"]);
    expect(report.records.map((r) => `${r.kind} ${r.id}`).sort()).toEqual(expectedUnheld());
    expect(new Set(report.records.map((r) => r.kind)).size).toBe(16);

    const byId = (kind: string, id: string) => report.records.find((r) => r.kind === kind && r.id === id)!;
    const parentOf = (kind: string, id: string) => byId(kind, id).parent;
    expect(parentOf("VpcTier", core.tier)).toEqual({ id: core.vpc, kind: "Vpc", name: "hand-vpc" });
    expect(parentOf("Instance", core.vm)).toEqual({ id: core.network, kind: "Network", name: "hand-net" });
    expect(parentOf("Volume", core.data)).toEqual({ id: core.vm, kind: "Instance", name: "hand-vm" });
    expect(parentOf("FirewallRule", core.http)).toMatchObject({ id: core.ip, kind: "PublicIpAddress" });
    expect(parentOf("PortForwardingRule", core.ssh)).toMatchObject({ id: core.ip, kind: "PublicIpAddress" });
    expect(parentOf("EgressRule", core.egress)).toEqual({ id: core.network, kind: "Network", name: "hand-net" });
    expect(parentOf("VolumeSnapshot", core.snapshot)).toEqual({ id: core.data, kind: "Volume", name: "hand-data" });
    expect(parentOf("SecurityGroupFirewallRule", core.groupRule)).toEqual({
      id: core.group,
      kind: "SecurityGroup",
      name: "hand-sg",
    });
    expect(parentOf("ResourceTag", ids.userTag)).toEqual({ id: ids.heldVpc, kind: "Vpc", name: "dev-vpc" });
    expect(parentOf("KubernetesCluster", ids.cluster)).toMatchObject({ id: core.network });

    // The arguments a program declares: e.g. the rule's, and the instance's.
    expect(byId("FirewallRule", core.http).arguments).toEqual({
      ipAddressUuid: core.ip,
      protocol: "TCP",
      startPort: 80,
      endPort: 80,
      cidrList: "0.0.0.0/0",
    });
    expect(byId("PortForwardingRule", core.ssh).arguments).toMatchObject({
      instanceUuid: core.vm,
      networkUuid: core.network,
      publicPort: 2222,
      privatePort: 22,
    });
    expect(byId("Vpc", core.vpc).todo).toEqual(["vpcOfferingUuid"]);
    // A listed record's tags are its `tags` (no ResourceTag of their own), less the default tags.
    expect(byId("Instance", core.vm).arguments.tags).toEqual({ env: "prod" });
    // A secret is never printed; arguments no record shows are to fill in.
    expect(byId("VpnCustomerGateway", ids.gateway!).arguments).toMatchObject({
      name: "office",
      gateway: "198.51.100.10",
      ipsecPresharedKey: "[secret]",
    });
    expect(byId("VpnCustomerGateway", ids.gateway!).todo).toEqual([
      "ikeEncryption",
      "ikeHash",
      "espEncryption",
      "espHash",
    ]);

    // Held (3 by dev, one of them by a pending create with an id, and a tag of its VPC's `tags`; 1 by
    // prod), derived, others.
    expect(report.summary.held).toBe(5);
    expect(report.summary.otherProjects).toEqual({ billing: 3 });
    const notListed = [
      core.rootVolume,
      ...ids.diskVmVolumes!.split(","),
      ...ids.nodes!.split(","),
      ids.billingEgress!,
      ids.heldVpc!,
    ];
    for (const id of notListed) expect(report.records.map((r) => r.id)).not.toContain(id);
    // The ROOT volumes of the two instances and of the cluster's nodes, the data disk disk-vm was
    // created with, and the nodes.
    const nodeCount = ids.nodes!.split(",").length;
    expect(report.summary.derived).toBe(2 + 1 + nodeCount * 2);
    expect(report.summary.unheld).toBe(expectedUnheld().length);
    expect(pulumiCalls()).toEqual([
      "stack ls --json",
      "stack export --stack dev",
      "stack export --stack prod",
      "config --json --show-secrets --stack dev",
    ]);
  });

  test("the listing: grouped by kind, names, ids and parents, the recover hint, and a summary line", async () => {
    const run = await discover([]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const out = run.stdout;
    console.log(`restcloud discover (a project with stacks dev and prod, records made by hand):\n${out}`);
    expect(out).toContain(`Project ${PROJECT}, stacks dev, prod; API ${emulator.url}`);
    expect(out).toMatch(/^VpcTier \(1\)\n {2}hand-tier +\S+ +on Vpc hand-vpc$/m);
    expect(out).toMatch(new RegExp(`^ {2}TCP 80 +${core.http} +on PublicIpAddress ip-\\S+$`, "m"));
    expect(out).toMatch(/^Volume \(3\)$/m);
    expect(out).toContain(
      "! tagged as resource lost-volume of stack dev, whose state has its create pending: an interrupted `pulumi up` made it; `restcloud recover --stack dev` puts it into that state",
    );
    expect(out).toContain(
      "! tagged as resource stray of stack prod, which does not hold it: an interrupted `pulumi up` made it, and the pending create was cleared since; import it into stack prod (import.json), or delete it",
    );
    expect(out).toContain("! tagged as resource old-vpc of stack staging, a stack this project no longer has");
    expect(out).toMatch(
      new RegExp(
        `^Summary: ${expectedUnheld().length} records no stack holds \\(3 from an interrupted \`pulumi up\`\\); 5 held by the stacks; 3 records of other projects \\(billing: 3\\); \\d+ made by the service along with others\\.$`,
        "m",
      ),
    );
    expect(out).toContain(
      "To adopt the records: make index.ts's (or __main__.py's) declarations the stack's program,\nfill in its TODOs, and run `pulumi up`",
    );
    expect(out).toContain(
      "(Or: pulumi import --file restcloud-discovered/import.json --generate-code=false --yes, then one `pulumi up`.)",
    );
    expect(out).toContain(
      "7 arguments no record shows, marked TODO in the code: Vpc hand-vpc: vpcOfferingUuid; Vpc old-vpc: vpcOfferingUuid; VpnCustomerGateway office: ikeEncryption; VpnCustomerGateway office: ikeHash; VpnCustomerGateway office: espEncryption; VpnCustomerGateway office: espHash; KubernetesCluster k8s: kubernetesVersionUuid.",
    );
    expect(out).toContain("Secrets the code reads from config: pulumi config set --secret officeIpsecPresharedKey.");
    expect(out).not.toContain("psk-never-written");
    // The data disk disk-vm was created with is its argument, not a record of its own.
    expect(out).toMatch(
      /^ {2}disk-vm +\S+ +on Network hand-net\n {4}with its data disk DATA-disk-vm \(\S+\): its diskSize argument/m,
    );
  });

  test("import.json: native type tokens, readable unique names, ids, parents before what hangs on them", async () => {
    const report = await discoverJson();
    const file = JSON.parse(fs.readFileSync(report.files!.importFile, "utf8")) as {
      resources: { type: string; name: string; id: string }[];
    };
    expect(file.resources.map((r) => `${r.type.replace("restcloud:index:", "")} ${r.id}`).sort()).toEqual(
      expectedUnheld(),
    );
    for (const r of file.resources) expect(r.type).toMatch(/^restcloud:index:[A-Za-z]+$/);
    const names = file.resources.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/);
    const nameOf = (id: string, type?: string) =>
      file.resources.find((r) => r.id === id && (type === undefined || r.type.endsWith(`:${type}`)))!.name;
    expect(nameOf(core.vpc)).toBe("hand-vpc");
    expect(nameOf(core.tier)).toBe("hand-tier");
    // The owner tag's logical name: the program that made it declares that name.
    expect(nameOf(ids.lostVolume!)).toBe("lost-volume");
    const address = (await client.ipAddress.list({ zoneUuid: cat.zoneUuid })).find((i) => i.uuid === core.ip)!;
    const ipName = `ip-${address.publicIpAddress!.replace(/\./g, "-")}`;
    expect(nameOf(core.ip, "PublicIpAddress")).toBe(ipName);
    expect(nameOf(core.http)).toBe(`${ipName}-fw-tcp-80`);
    expect(nameOf(core.ssh)).toBe(`${ipName}-pf-tcp-2222`);
    expect(nameOf(core.egress)).toBe("hand-net-egress-tcp-443");
    expect(nameOf(ids.userTag!)).toBe("dev-vpc-tag-env-dev");
    // Dependency order: each record after those it refers to.
    const at = (id: string, type?: string) => names.indexOf(nameOf(id, type));
    const before: [string, string, string?][] = [
      [core.vpc, core.tier],
      [core.network, core.vm],
      [core.vm, core.data],
      [core.data, core.snapshot],
      [core.network, core.ip],
      [core.ip, core.http, "FirewallRule"],
      [core.vm, core.ssh],
      [core.network, core.egress],
      [core.group, core.groupRule],
      [core.network, ids.cluster!],
    ];
    for (const [first, then, type] of before) expect([first, at(first) < at(then, type)]).toEqual([first, true]);
    expect(at(ids.natIp!, "PublicIpAddress")).toBeLessThan(at(ids.natIp!, "StaticNat"));
    expect(at(ids.diskVm!)).toBeLessThan(at(ids.natIp!, "StaticNat"));
  });

  test("index.ts and __main__.py declare the same resources: references between discovered records, literal uuids otherwise, TODOs", async () => {
    const report = await discoverJson();
    const typescript = fs.readFileSync(report.files!.typescript, "utf8");
    const python = fs.readFileSync(report.files!.python, "utf8");
    console.log(`index.ts:\n${typescript}\n__main__.py:\n${python}`);

    expect(typescript).toContain('import * as restcloud from "pulumi-restcloud";');
    expect(typescript).toContain(
      [
        `const handTier = new restcloud.VpcTier("hand-tier", {`,
        `  name: "hand-tier",`,
        `  vpcUuid: handVpc.id,`,
        `  zoneUuid: "${cat.zoneUuid}",`,
        `  cidr: "10.50.1.0/24",`,
        `  gateway: "10.50.1.1",`,
        `  networkOfferingUuid: "${cat.tierOfferingUuid}",`,
      ].join("\n"),
    );
    expect(typescript).toMatch(
      /const handVm = new restcloud\.Instance\("hand-vm", \{[^}]*\n {2}tags: \{ env: "prod" \},\n/,
    );
    expect(python).toMatch(/^hand_vm = restcloud\.Instance\([^)]*\n {4}tags=\{"env": "prod"\},\n/m);
    expect(typescript).toMatch(/const handData = new restcloud\.Volume\("hand-data", \{[^}]*instanceUuid: handVm\.id,/);
    expect(typescript).toMatch(/new restcloud\.VolumeSnapshot\("hand-snap", \{\n {2}volumeUuid: handData\.id,/);
    expect(typescript).toMatch(
      /new restcloud\.PortForwardingRule\("[^"]+", \{[^}]*instanceUuid: handVm\.id,[^}]*networkUuid: handNet\.id,/,
    );
    expect(typescript).toMatch(
      /\/\/ TODO: the record does not show vpcOfferingUuid; set the value it was created with \(the zone's choices: Default VPC offering \(/,
    );
    expect(typescript).toContain('  vpcOfferingUuid: "",');
    // A held parent is a literal uuid: nothing here declares it.
    expect(typescript).toContain(`  ipAddressUuid: "${ids.heldIp}",`);
    expect(typescript).toContain(
      '  // TODO: the record does not show ikeEncryption; set the value it was created with (one of aes128, aes192, aes256, 3des).\n  ikeEncryption: "",',
    );
    // Secrets come from the stack's config, never from the file.
    expect(typescript).toContain('import * as pulumi from "@pulumi/pulumi";');
    expect(typescript).toContain('  ipsecPresharedKey: config.requireSecret("officeIpsecPresharedKey"),');
    expect(python).toContain('    ipsec_preshared_key=config.require_secret("officeIpsecPresharedKey"),');
    for (const code of [typescript, python]) expect(code).not.toContain("psk-never-written");
    // The TypeScript parses.
    const parsed = ts.transpileModule(typescript, {
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.CommonJS },
    });
    expect(parsed.diagnostics ?? []).toEqual([]);

    expect(python).toContain("import pulumi_restcloud as restcloud");
    expect(python).toContain(
      [
        `hand_tier = restcloud.VpcTier(`,
        `    "hand-tier",`,
        `    name="hand-tier",`,
        `    vpc_uuid=hand_vpc.id,`,
        `    zone_uuid="${cat.zoneUuid}",`,
        `    cidr="10.50.1.0/24",`,
      ].join("\n"),
    );
    expect(python).toMatch(
      new RegExp(
        `restcloud\\.FirewallRule\\(\\n {4}"[^"]+",\\n {4}ip_address_uuid=ip_\\w+\\.id,\\n {4}protocol="TCP",\\n {4}start_port=80,\\n {4}end_port=80,\\n {4}cidr_list="0\\.0\\.0\\.0\\/0",\\n {4}opts=pulumi\\.ResourceOptions\\(import_="${core.http}"\\),\\n\\)`,
      ),
    );
    // Each resource adopts its record on the first up: the import option, with the record's id.
    expect(python).toMatch(/^import pulumi$/m);
    expect(typescript).toMatch(
      new RegExp(
        `const handTier = new restcloud\\.VpcTier\\("hand-tier", \\{[^}]*\\n\\}, \\{ import: "${core.tier}" \\}\\);`,
      ),
    );
    for (const code of [typescript, python]) {
      expect(code.match(/\bimport_?(: |=)"[0-9a-f-]{36}"/g)).toHaveLength(report.records.length);
      expect(code).toContain("options may be removed after that first up.");
    }
    expect(python).toContain('    vpc_offering_uuid="",');
    const py = path.join(projectDir, "check.py");
    fs.writeFileSync(py, python);
    const compiled = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn("python3", ["-m", "py_compile", py], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.once("error", () => resolve({ code: -1, stderr: "python3 not found" }));
      child.once("close", (code) => resolve({ code, stderr }));
    });
    if (compiled.code !== -1) expect(compiled).toEqual({ code: 0, stderr: "" });
  });

  test("--stack: only the named stacks' states count; --delete refuses to run without every stack's", async () => {
    const report = await discoverJson(["--stack", "dev"]);
    expect(report.stacks).toEqual(["dev"]);
    // prod's address now looks unheld.
    expect(report.records.map((r) => r.id)).toContain(ids.heldIp);
    expect(report.summary.held).toBe(4);

    const refused = await discover(["--stack", "dev", "--delete", "--yes"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--delete needs every stack's state (records stack prod holds would look unheld)");

    const unknown = await discover(["--stack", "qa"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no stack qa in project shop (pulumi stack ls: dev, prod)");
  });

  test("a TypeScript stack in the dynamic mode: listed, no file written, exit 1 with one line saying how to proceed", async () => {
    const state = usualState();
    delete state.config.dev!["restcloud:mode"];
    writeState(state);
    const line =
      "restcloud discover: wrote no files: stack dev runs in the dynamic mode, where an import cannot adopt a record (its program would create new ones beside those found); run `pulumi config set restcloud:mode native`, then `restcloud discover` again\n";
    const run = await discover(["--out", "dynamic-out"]);
    expect([run.code, run.stderr]).toEqual([1, line]);
    expect(run.stdout).toContain(`Summary: ${expectedUnheld().length} records no stack holds`);
    expect(run.stdout).toContain("\nNo files written: stack dev runs in the dynamic mode");
    expect(run.stdout).not.toContain("Wrote ");
    expect(fs.existsSync(path.join(projectDir, "dynamic-out"))).toBe(false);

    const json = await discover(["--json", "--out", "dynamic-out"]);
    expect([json.code, json.stderr]).toEqual([1, line]);
    const report = JSON.parse(json.stdout) as Report & { notWritten: string | null };
    expect(report.records).toHaveLength(expectedUnheld().length);
    expect([report.files, report.notWritten]).toEqual([null, line.slice("restcloud discover: ".length, -1)]);
    expect(fs.existsSync(path.join(projectDir, "dynamic-out"))).toBe(false);

    // The mode as a program reads it: the stack's restcloud:mode, else RESTCLOUD_MODE.
    const env = { PATH: process.env.PATH, PULUMI_CLI: fakePulumi, FAKE_PULUMI_STATE: stateFile };
    const byEnv = await discover(["--out", "dynamic-out"], { env: { ...env, RESTCLOUD_MODE: "native" } });
    expect([byEnv.code, byEnv.stderr]).toEqual([0, ""]);
    expect(fs.existsSync(path.join(projectDir, "dynamic-out", "import.json"))).toBe(true);
    state.config.dev!["restcloud:mode"] = "dynamic";
    writeState(state);
    const overridden = await discover(["--out", "dynamic-out"], { env: { ...env, RESTCLOUD_MODE: "native" } });
    expect([overridden.code, overridden.stderr]).toEqual([1, line]);

    // A Python project is always native: its files are written whatever the mode says.
    const pythonDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-discover-python-"));
    try {
      fs.writeFileSync(
        path.join(pythonDir, "Pulumi.yaml"),
        `name: ${PROJECT}\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n`,
      );
      const python = await discover([], { cwd: pythonDir });
      expect([python.code, python.stderr]).toEqual([0, ""]);
      expect(fs.existsSync(path.join(pythonDir, "restcloud-discovered", "__main__.py"))).toBe(true);
    } finally {
      fs.rmSync(pythonDir, { recursive: true, force: true });
    }
  });

  test("failures exit 1 and bad usage 2, each saying why", async () => {
    const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-discover-empty-"));
    try {
      const notProject = await discover([], { cwd: emptyDir });
      expect([notProject.code, notProject.stderr]).toEqual([
        1,
        `restcloud discover: not a Pulumi project: no Pulumi.yaml in ${emptyDir} (run it in the project's directory)\n`,
      ]);
    } finally {
      fs.rmSync(emptyDir, { recursive: true, force: true });
    }

    const noCli = await discover([], { env: { PATH: "/nonexistent", PULUMI_CLI: "/nonexistent/pulumi" } });
    expect(noCli.code).toBe(1);
    expect(noCli.stderr).toContain(
      "the pulumi CLI was not found (/nonexistent/pulumi): put it on PATH, or name it in PULUMI_CLI",
    );

    const state = usualState();
    state.config = {};
    writeState(state);
    const noKeys = await discover([]);
    expect(noKeys.code).toBe(1);
    expect(noKeys.stderr).toMatch(/^restcloud discover: no API settings: .*apiUrl.*\n$/);

    state.config = {
      dev: { "restcloud:apiUrl": "http://127.0.0.1:9", "restcloud:apiKey": "k", "restcloud:secretKey": "s" },
    };
    writeState(state);
    const unreachable = await discover([]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^restcloud discover: the API at http:\/\/127\.0\.0\.1:9 did not answer \(.*\)\n$/,
    );

    state.config = {
      dev: { "restcloud:apiUrl": emulator.url, "restcloud:apiKey": "wrong", "restcloud:secretKey": "wrong" },
    };
    writeState(state);
    const refused = await discover([]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("refused the credentials (HTTP 401)");

    writeState(usualState());
    // A list the account may not read: the whole listing would be wrong, so it stops.
    await setFaultRules([{ operation: "listCluster", effect: "status", status: 550, when: "before" }]);
    const denied = await discover([]);
    await setFaultRules([]);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain(
      `the API at ${emulator.url} denied listCluster to these credentials (HTTP 550): discover lists every kind`,
    );

    for (const args of [["--bogus"], ["--yes"], ["extra"]]) {
      const usage = await discover(args);
      expect([args, usage.code]).toEqual([args, 2]);
      expect(usage.stderr).toContain("Usage: restcloud discover");
    }
    const noTerminal = await discover(["--delete"]);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain("--delete asks before it deletes, and there is no terminal to ask: add --yes");
    const help = await discover(["--help"]);
    expect([help.code, help.stdout.startsWith("Usage: restcloud discover")]).toEqual([0, true]);
  });

  test("a record whose read fails is listed apart, and left out of the files; the others are not affected", async () => {
    // The instances' reads ask for the compute plans (is the plan a custom one?): nothing else does.
    await setFaultRules([{ operation: "compute-plan-list", effect: "status", status: 550, when: "before" }]);
    try {
      const run = await discover(["--out", "unread-out"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        "Records no stack holds that could not be read (left out of the files and of --delete):",
      );
      expect(run.stdout).toMatch(new RegExp(`^ {2}Instance hand-vm ${core.vm}: .*550`, "m"));
      expect(run.stdout).toMatch(/; 2 not readable \(above\)\.$/m);
      const file = JSON.parse(fs.readFileSync(path.join(projectDir, "unread-out", "import.json"), "utf8")) as {
        resources: { id: string }[];
      };
      expect(file.resources.map((r) => r.id)).not.toContain(core.vm);
      expect(file.resources.map((r) => r.id)).toContain(core.vpc);
    } finally {
      await setFaultRules([]);
    }
  });

  test("the built bin: `restcloud discover --json` in the project directory", async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, "discover", "--json", "--out", "bin-out"], {
        cwd: projectDir,
        env: { PATH: process.env.PATH, PULUMI_CLI: fakePulumi, FAKE_PULUMI_STATE: stateFile },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.records.map((r) => `${r.kind} ${r.id}`).sort()).toEqual(expectedUnheld());
    expect(fs.existsSync(path.join(projectDir, "bin-out", "import.json"))).toBe(true);
  });

  test("--delete on a terminal asks; N deletes nothing", async () => {
    const before = await discoverJson();
    const run = await discover(["--delete"], { tty: true, answer: "n" });
    expect(run.code).toBe(0);
    expect(run.questions).toEqual([
      `Delete these ${before.records.length} records from ${emulator.url}? This cannot be undone. [y/N] `,
    ]);
    expect(run.stdout).toContain("Nothing deleted.");
    const after = await discoverJson();
    expect(after.records.map((r) => r.id).sort()).toEqual(before.records.map((r) => r.id).sort());
  });

  test("--delete answered y deletes every listed record, dependents first, and nothing else", async () => {
    const before = await discoverJson();
    const run = await discover(["--delete"], { tty: true, answer: "y" });
    console.log(`restcloud discover --delete:\n${run.stdout}`);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n").filter((l) => /^ {2}(deleted|FAILED|not attempted) /.test(l));
    // Each record, and the data disk disk-vm was created with (the service keeps it), right after disk-vm.
    expect(lines).toHaveLength(before.records.length + 1);
    expect(lines.filter((l) => !l.startsWith("  deleted "))).toEqual([]);
    const order = (kind: string, id: string) => lines.findIndex((l) => l.includes(`${kind} `) && l.includes(`(${id})`));
    // What refers to others goes first.
    expect(order("FirewallRule", core.http)).toBeLessThan(order("PublicIpAddress", core.ip));
    expect(order("VolumeSnapshot", core.snapshot)).toBeLessThan(order("Volume", core.data));
    expect(order("Volume", core.data)).toBeLessThan(order("Instance", core.vm));
    expect(order("Instance", core.vm)).toBeLessThan(order("Network", core.network));
    expect(order("KubernetesCluster", ids.cluster!)).toBeLessThan(order("Network", core.network));
    expect(order("VpcTier", core.tier)).toBeLessThan(order("Vpc", core.vpc));
    expect(order("StaticNat", ids.natIp!)).toBeLessThan(order("PublicIpAddress", ids.natIp!));
    expect(lines.findIndex((l) => l.includes("the data disk Instance disk-vm was created with"))).toBeGreaterThan(
      order("Instance", ids.diskVm!),
    );
    expect(run.stdout).toContain(`${before.records.length + 1} deleted.`);

    const after = await discoverJson();
    expect(after.records).toEqual([]);
    expect(after.summary.held).toBe(5);
    expect(after.summary.otherProjects).toEqual({ billing: 3 });
    // The held records are all still there.
    const vpcs = (await client.vpc.list({ zoneUuid: cat.zoneUuid })).map((v) => v.uuid);
    expect(vpcs).toContain(ids.heldVpc);
    expect(vpcs).not.toContain(core.vpc);
    const volumes = (await client.volume.list({ zoneUuid: cat.zoneUuid })).map((v) => v.uuid);
    expect(volumes).toContain(ids.heldVolume);
    // Nothing left to delete: still exit 0.
    const again = await discover(["--delete", "--yes"]);
    expect([again.code, again.stdout.includes("Nothing to delete.")]).toEqual([0, true]);
  });
});
