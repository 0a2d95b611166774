/**
 * `restcloud cost` (provider/cost) against the emulator's live cost catalog. Each case is a small
 * plan document built here (plans.ts) and priced through the programmatic API (readPlan,
 * PriceBook, estimateCost) or the command (runCost, and once the built bin), and every expected
 * figure is computed in this file from the catalog rows this file fetches itself over HTTP
 * (GET /restapi/costestimate/..., plain `fetch`), with the units of provider/pricing: compute, template
 * costs, licences and the Kubernetes control plane per hour (× 730 hours a month); storage and
 * snapshots per GB and month; offerings, public IPs and rules per month.
 *
 * It proves: a new stack of every priced kind (both front ends' type tokens) priced resource by
 * resource, free kinds free; licences, custom plans and clusters; the deltas of updates, deletes and
 * unchanged resources; another currency; values unknown at preview kept out of the totals and said
 * so; a stack export; and clear failures (bad input, an API that does not answer, an offering the
 * catalog does not know, bad usage), with the exit codes of the command; and the table's content.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { RestCloudClient } from "../../../provider/client";
import { runCost } from "../../../provider/cost/cli";
import {
  EstimateError,
  estimateCost,
  type CostEstimate,
  type EstimateOptions,
  type PricedKind,
} from "../../../provider/cost/estimate";
import { PlanFormatError, readPlan } from "../../../provider/cost/plan";
import { perMonth, PriceBook } from "../../../provider/pricing";
import { DECLARATIONS } from "../../../provider/resources/registry";
import {
  create,
  previewJson,
  remove,
  same,
  stackExportJson,
  stateBuilder,
  UNKNOWN,
  update,
  type Mode,
  type State,
} from "./plans";

const HOURS = 730;
const DEMO = { apiKey: "demo-api-key", secretKey: "demo-secret-key" };
const ZONES = CATALOG_IDS.zones;
const COMPUTE = CATALOG_IDS.computeOfferings;
const STORAGE = CATALOG_IDS.storageOfferings;
const TEMPLATES = CATALOG_IDS.templates;
const CLI = path.join(__dirname, "..", "..", "..", "dist", "provider", "cli.js");

let emulator: RunningEmulator;
/** An empty directory (no Pulumi.yaml: the command does not run the pulumi CLI). */
let workDir: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-cost-"));
});
afterAll(async () => {
  await emulator.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// The catalog, as the API answers it (read by this file, not through provider code)
// ---------------------------------------------------------------------------------------------

interface ComputeRow {
  uuid: string;
  core: number;
  /** MiB. */
  memory: number;
  isCustom: boolean;
  instanceRunningCostVcpu: number;
  instanceRunningCostMemory: number;
  instanceStoppageCostVcpu: number;
  instanceStoppageCostMemory: number;
}
interface StorageRow {
  uuid: string;
  diskSize: number;
  costForGb: number;
  customCostPerGb: number;
  isCustom: boolean;
}
interface OfferingRow {
  uuid: string;
  cost: number;
  haCost: number;
}
interface TemplateRow {
  uuid: string;
  cost: number;
  size: number;
  enablePerCoreLicense: boolean;
  licensePerCoreCost: number;
}
interface CurrencyRow {
  currency: string;
  cost: number;
  isDefaultCurrency: string;
}

/** A zone's rows, and its unit prices under their answers' field names. */
interface ZoneRows {
  compute: ComputeRow[];
  storage: StorageRow[];
  network: OfferingRow[];
  vpc: OfferingRow[];
  templates: TemplateRow[];
  ipCost: number;
  portForwardCost: number;
  loadBalancerCost: number;
  snapshotCost: number;
  vmSnapshotCost: number;
  k8sCost: number;
  additionalTemplateResizeCost: number;
}

async function api<T>(operation: string, query: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${emulator.url}/restapi/costestimate/${operation}?${new URLSearchParams(query)}`, {
    headers: { apikey: DEMO.apiKey, secretkey: DEMO.secretKey },
  });
  if (!response.ok) throw new Error(`GET ${operation}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const zoneRowsCache = new Map<string, Promise<ZoneRows>>();
function zoneRows(zoneUuid: string): Promise<ZoneRows> {
  let rows = zoneRowsCache.get(zoneUuid);
  if (!rows) {
    rows = fetchZoneRows(zoneUuid);
    zoneRowsCache.set(zoneUuid, rows);
  }
  return rows;
}

async function fetchZoneRows(zoneUuid: string): Promise<ZoneRows> {
  const computePlans = async (computeOfferingType: string) =>
    (await api<{ payAsYouGoOfferingCost: ComputeRow[] }>("compute-plan-list", { zoneUuid, computeOfferingType }))
      .payAsYouGoOfferingCost;
  const templates = async (platform: string, distribution: string) =>
    (await api<{ listTemplateCost: TemplateRow[] }>("template-list", { zoneUuid, platform, distribution }))
      .listTemplateCost;
  const unit = async (operation: string, field: string) =>
    (await api<Record<string, number>>(operation, { zoneUuid }))[field]!;
  return {
    compute: [...(await computePlans("PAY_AS_YOU_GO")), ...(await computePlans("CUSTOM_PLAN"))],
    storage: (await api<{ listStorageCost: StorageRow[] }>("storage-plan-list", { zoneUuid })).listStorageCost,
    network: (await api<{ listOfferingCost: OfferingRow[] }>("networkoffering-list", { zoneUuid })).listOfferingCost,
    vpc: (await api<{ vpcOfferingCost: OfferingRow[] }>("vpcoffering-list", { zoneUuid })).vpcOfferingCost,
    templates: [
      ...(await templates("LINUX", "OS_ONLY")),
      ...(await templates("LINUX", "MARKETPLACE")),
      ...(await templates("WINDOWS", "OS_ONLY")),
    ],
    ipCost: await unit("ip-cost", "ipCost"),
    portForwardCost: await unit("portforwarding-cost", "portForwardCost"),
    loadBalancerCost: await unit("loadbalancer-cost", "loadBalancerCost"),
    snapshotCost: await unit("snapshot-cost", "snapshotCost"),
    vmSnapshotCost: await unit("vm-snapshot-cost", "vmSnapshotCost"),
    k8sCost: await unit("k8s-cost", "k8sCost"),
    additionalTemplateResizeCost: await unit("additional-template-resize-cost", "additionalTemplateResizeCost"),
  };
}

/** The row of this uuid (the test fails if the catalog lacks it). */
function row<R extends { uuid: string }>(rows: readonly R[], uuid: string): R {
  const found = rows.find((r) => r.uuid === uuid);
  if (!found) throw new Error(`the catalog has no row ${uuid}`);
  return found;
}

/** Per hour, a running machine of a pay-as-you-go plan: vCPU rate × cores + memory rate × GiB. */
const runningPerHour = (plan: ComputeRow, cores = plan.core, memoryMib = plan.memory): number =>
  plan.instanceRunningCostVcpu * cores + plan.instanceRunningCostMemory * (memoryMib / 1024);

// ---------------------------------------------------------------------------------------------
// Running the estimate
// ---------------------------------------------------------------------------------------------

const priceBook = () => new PriceBook(new RestCloudClient({ apiUrl: emulator.url, ...DEMO }));

/** The programmatic path: readPlan, a fresh PriceBook, estimateCost with the registry's kinds. */
const estimate = (
  text: string,
  options: EstimateOptions = {},
  kinds: Iterable<PricedKind> = DECLARATIONS,
): Promise<CostEstimate> => estimateCost(readPlan(text), priceBook(), kinds, options);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `restcloud cost ARGV` in-process, the plan on standard input, settings from RESTCLOUD_* variables. */
async function cost(argv: string[], stdin: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const started = Date.now();
  const code = await runCost(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    readStdin: async () => stdin,
    env: {
      RESTCLOUD_API_URL: emulator.url,
      RESTCLOUD_API_KEY: DEMO.apiKey,
      RESTCLOUD_SECRET_KEY: DEMO.secretKey,
      RESTCLOUD_ZONE_UUID: ZONES.frankfurt,
      ...env,
    },
    cwd: workDir,
  });
  return { code, stdout, stderr, ms: Date.now() - started };
}

/** A failed run: exit 1, nothing on standard output, one message (and the closing line), no stack trace. */
function expectFailure(run: Run, ...fragments: (string | RegExp)[]): void {
  expect(run.stdout).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  for (const fragment of fragments) expect(lines[0]).toMatch(fragment);
  expect(lines[1]).toBe("restcloud cost: the estimate failed");
  expect(run.code).toBe(1);
}

/** Each resource's monthly cost as expected, by name (and no other resource). */
function expectMonthlyCosts(estimate: CostEstimate, expected: Record<string, number>): void {
  expect(estimate.resources.map((r) => r.name).sort()).toEqual(Object.keys(expected).sort());
  expect(Object.fromEntries(estimate.resources.map((r) => [r.name, r.monthlyCost]))).toEqual(
    Object.fromEntries(Object.entries(expected).map(([name, cost]) => [name, expect.closeTo(cost, 6)])),
  );
}

const sum = (values: Iterable<number>): number => [...values].reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------------------------------------
// The new stack of cases 1, 2, 6, 8 and 10
// ---------------------------------------------------------------------------------------------

/** The zone of the new stack; resources without a zone of their own (the rules) take it from theirs. */
const STACK_ZONE = ZONES.singapore;
const DATA_GB = 80;
/** What the volume on a fixed plan asks for; the plan bills its own diskSize. */
const LOGS_ASKED_GB = 20;
const FREE = ["fw", "egress"];

/**
 * A web stack of every priced kind: new (references not known: the preview's UNKNOWN, with the
 * property's dependency), or existing (ids, and references holding them).
 */
function webStack(mode: Mode, existing = false): State[] {
  const state = stateBuilder(mode);
  const id = (name: string) => (existing ? { id: `id-${name}` } : {});
  const ref = (name: string) => (existing ? `id-${name}` : UNKNOWN);
  const zoneUuid = STACK_ZONE;
  return [
    state(
      "Vpc",
      "net",
      { name: "net", zoneUuid, cidr: "10.0.0.0/16", vpcOfferingUuid: CATALOG_IDS.vpcOfferings.redundant },
      id("net"),
    ),
    state(
      "VpcTier",
      "web-tier",
      {
        name: "web-tier",
        zoneUuid,
        vpcUuid: ref("net"),
        cidr: "10.0.1.0/24",
        gateway: "10.0.1.1",
        networkOfferingUuid: CATALOG_IDS.networkOfferings.vpcTier,
      },
      { ...id("web-tier"), deps: { vpcUuid: ["Vpc", "net"] } },
    ),
    state(
      "PublicIpAddress",
      "web-ip",
      { zoneUuid, vpcUuid: ref("net") },
      { ...id("web-ip"), deps: { vpcUuid: ["Vpc", "net"] } },
    ),
    ...["web-1", "web-2"].map((name) =>
      state(
        "Instance",
        name,
        {
          name,
          zoneUuid,
          computeOfferingUuid: COMPUTE.gp2c4g,
          templateUuid: TEMPLATES.ubuntu2404,
          networkUuid: ref("web-tier"),
          state: name === "web-2" ? "Stopped" : "Running",
        },
        { ...id(name), deps: { networkUuid: ["VpcTier", "web-tier"] } },
      ),
    ),
    state(
      "Volume",
      "data",
      { name: "data", zoneUuid, storageOfferingUuid: STORAGE.ssdCustom, size: DATA_GB },
      id("data"),
    ),
    state(
      "Volume",
      "logs",
      { name: "logs", zoneUuid, storageOfferingUuid: STORAGE.ssd50, size: LOGS_ASKED_GB },
      id("logs"),
    ),
    state(
      "LoadBalancerRule",
      "web-lb",
      {
        name: "web-lb",
        ipAddressUuid: ref("web-ip"),
        networkUuid: ref("web-tier"),
        publicPort: "80",
        privatePort: "8080",
        algorithm: "roundrobin",
      },
      { ...id("web-lb"), deps: { ipAddressUuid: ["PublicIpAddress", "web-ip"], networkUuid: ["VpcTier", "web-tier"] } },
    ),
    state(
      "PortForwardingRule",
      "ssh",
      {
        ipAddressUuid: ref("web-ip"),
        instanceUuid: ref("web-1"),
        networkUuid: ref("web-tier"),
        protocol: "TCP",
        publicPort: "2222",
        privatePort: "22",
      },
      {
        ...id("ssh"),
        deps: {
          ipAddressUuid: ["PublicIpAddress", "web-ip"],
          instanceUuid: ["Instance", "web-1"],
          networkUuid: ["VpcTier", "web-tier"],
        },
      },
    ),
    state(
      "FirewallRule",
      "fw",
      { ipAddressUuid: ref("web-ip"), protocol: "TCP", startPort: "443", endPort: "443", cidrList: "0.0.0.0/0" },
      { ...id("fw"), deps: { ipAddressUuid: ["PublicIpAddress", "web-ip"] } },
    ),
    state(
      "EgressRule",
      "egress",
      { networkUuid: ref("web-tier"), protocol: "TCP", startPort: "1", endPort: "65535", cidrList: "0.0.0.0/0" },
      { ...id("egress"), deps: { networkUuid: ["VpcTier", "web-tier"] } },
    ),
    ...(["data", "logs"] as const).map((volume) =>
      state(
        "VolumeSnapshot",
        `${volume}-snap`,
        { name: `${volume}-snap`, zoneUuid, volumeUuid: ref(volume) },
        { ...id(`${volume}-snap`), deps: { volumeUuid: ["Volume", volume] } },
      ),
    ),
    state(
      "VmSnapshot",
      "web-1-snap",
      { name: "web-1-snap", zoneUuid, instanceUuid: ref("web-1"), snapshotMemory: false },
      { ...id("web-1-snap"), deps: { instanceUuid: ["Instance", "web-1"] } },
    ),
  ];
}

const newStackPreview = (mode: Mode): string => previewJson(webStack(mode).map(create));

/** What each resource of `webStack` costs a month, from the zone's rows. */
async function webStackCosts(): Promise<Record<string, number>> {
  const r = await zoneRows(STACK_ZONE);
  const gp2c4g = row(r.compute, COMPUTE.gp2c4g);
  const ubuntu = row(r.templates, TEMPLATES.ubuntu2404);
  const vpcOffering = row(r.vpc, CATALOG_IDS.vpcOfferings.redundant);
  const tierOffering = row(r.network, CATALOG_IDS.networkOfferings.vpcTier);
  const customSsd = row(r.storage, STORAGE.ssdCustom);
  const ssd50 = row(r.storage, STORAGE.ssd50);
  return {
    net: vpcOffering.cost + vpcOffering.haCost, // an offering per month, HA included
    "web-tier": tierOffering.cost + tierOffering.haCost,
    "web-ip": r.ipCost,
    "web-1":
      gp2c4g.instanceRunningCostVcpu * gp2c4g.core * HOURS +
      gp2c4g.instanceRunningCostMemory * (gp2c4g.memory / 1024) * HOURS +
      ubuntu.cost * HOURS, // the template's cost per hour (no licence on Ubuntu)
    // stopped: the stoppage rates, no template cost
    "web-2":
      gp2c4g.instanceStoppageCostVcpu * gp2c4g.core * HOURS +
      gp2c4g.instanceStoppageCostMemory * (gp2c4g.memory / 1024) * HOURS,
    data: DATA_GB * customSsd.customCostPerGb,
    logs: ssd50.diskSize * ssd50.costForGb, // the fixed plan's size, not the 20 GB asked for
    "web-lb": r.loadBalancerCost,
    ssh: r.portForwardCost,
    fw: 0,
    egress: 0,
    "data-snap": r.snapshotCost * DATA_GB,
    "logs-snap": r.snapshotCost * ssd50.diskSize,
    "web-1-snap": r.vmSnapshotCost * ubuntu.size, // web-1's disks: the template's root disk, no data disk
  };
}

// ---------------------------------------------------------------------------------------------
// 1, 2: a new stack, both front ends
// ---------------------------------------------------------------------------------------------

describe.each<Mode>(["dynamic", "native"])("a preview of a new stack (%s type tokens)", (mode) => {
  let result: CostEstimate;
  let expected: Record<string, number>;

  beforeAll(async () => {
    expected = await webStackCosts();
    // The default zone is another one: the rules must take their zone from the IP they refer to.
    result = await estimate(newStackPreview(mode), { defaultZoneUuid: ZONES.frankfurt });
  });

  test("every resource is priced from the catalog rows of its zone", () => {
    expectMonthlyCosts(result, expected);
    expect(result.resources.every((r) => r.op === "create" && r.pastMonthlyCost === 0)).toBe(true);
  });

  test("the totals are the resources' sum; nothing before, all of it new", () => {
    const total = sum(Object.values(expected));
    expect(result.totalMonthlyCost).toBeCloseTo(total, 6);
    expect(result.pastTotalMonthlyCost).toBe(0);
    expect(result.diffTotalMonthlyCost).toBeCloseTo(total, 6);
    expect(result.unknownComponents).toBe(0);
    expect(result.currency).toBe("EUR");
    expect(result.source).toBe("preview");
  });

  test("firewall and egress rules are free; every other kind is priced", () => {
    const free = result.resources.filter((r) => r.free);
    expect(free.map((r) => r.name).sort()).toEqual([...FREE].sort());
    expect(free.map((r) => [r.monthlyCost, r.components.length])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(result.resources.filter((r) => !r.free && !(r.monthlyCost > 0)).map((r) => r.name)).toEqual([]);
  });

  test("the components add up to each resource's cost; the stopped instance pays its plan's stoppage rates only", () => {
    for (const r of result.resources)
      expect(sum(r.components.map((c) => c.monthlyCost ?? 0))).toBeCloseTo(r.monthlyCost, 6);
    const stopped = result.resources.find((r) => r.name === "web-2")!;
    expect(stopped.components.map((c) => [c.name, c.detail])).toEqual([
      ["vCPU", expect.stringContaining("stopped")],
      ["Memory", expect.stringContaining("stopped")],
    ]);
  });
});

test("native and dynamic tokens give the same estimate", async () => {
  const [dynamic, native] = await Promise.all([
    estimate(newStackPreview("dynamic")),
    estimate(newStackPreview("native")),
  ]);
  const costs = (e: CostEstimate) => e.resources.map((r) => [r.name, r.type, r.monthlyCost]);
  expect(costs(native)).toEqual(costs(dynamic));
  expect(native.totalMonthlyCost).toBeCloseTo(dynamic.totalMonthlyCost, 6);
});

// ---------------------------------------------------------------------------------------------
// 3: licences and custom plans
// ---------------------------------------------------------------------------------------------

test("a Windows instance pays its licence per core (not when stopped); a custom plan its own cores and memory", async () => {
  const zoneUuid = ZONES.frankfurt;
  const state = stateBuilder("dynamic");
  const customCores = 6;
  const customMemoryMib = 12 * 1024;
  const windowsRootGb = 60;
  const plan = previewJson(
    [
      state("Instance", "win", {
        name: "win",
        zoneUuid,
        computeOfferingUuid: COMPUTE.gp4c8g,
        templateUuid: TEMPLATES.windows2022,
        rootDiskSize: windowsRootGb,
      }),
      state("Instance", "win-off", {
        name: "win-off",
        zoneUuid,
        computeOfferingUuid: COMPUTE.gp4c8g,
        templateUuid: TEMPLATES.windows2022,
        state: "Stopped",
      }),
      state("Instance", "custom", {
        name: "custom",
        zoneUuid,
        computeOfferingUuid: COMPUTE.gpCustom,
        templateUuid: TEMPLATES.ubuntu2404,
        cpuCore: customCores,
        memory: customMemoryMib,
      }),
      state("Instance", "blog", {
        name: "blog",
        zoneUuid,
        computeOfferingUuid: COMPUTE.gp1c2g,
        templateUuid: TEMPLATES.wordpress,
      }),
    ].map(create),
  );
  const r = await zoneRows(zoneUuid);
  const gp4c8g = row(r.compute, COMPUTE.gp4c8g);
  const gpCustom = row(r.compute, COMPUTE.gpCustom);
  const gp1c2g = row(r.compute, COMPUTE.gp1c2g);
  const windows = row(r.templates, TEMPLATES.windows2022);
  const ubuntu = row(r.templates, TEMPLATES.ubuntu2404);
  const wordpress = row(r.templates, TEMPLATES.wordpress);
  expect([windows.enablePerCoreLicense, gpCustom.isCustom, wordpress.cost > 0]).toEqual([true, true, true]);

  const expected = {
    win:
      gp4c8g.instanceRunningCostVcpu * gp4c8g.core * HOURS +
      gp4c8g.instanceRunningCostMemory * (gp4c8g.memory / 1024) * HOURS +
      windows.cost * HOURS +
      windows.licensePerCoreCost * gp4c8g.core * HOURS + // the licence, per core and hour
      (windowsRootGb - windows.size) * r.additionalTemplateResizeCost, // root disk beyond the template, per GB and month
    // stopped: the stoppage rates, no licence
    "win-off":
      gp4c8g.instanceStoppageCostVcpu * gp4c8g.core * HOURS +
      gp4c8g.instanceStoppageCostMemory * (gp4c8g.memory / 1024) * HOURS,
    custom:
      gpCustom.instanceRunningCostVcpu * customCores * HOURS +
      gpCustom.instanceRunningCostMemory * (customMemoryMib / 1024) * HOURS +
      ubuntu.cost * HOURS,
    blog:
      gp1c2g.instanceRunningCostVcpu * gp1c2g.core * HOURS +
      gp1c2g.instanceRunningCostMemory * (gp1c2g.memory / 1024) * HOURS +
      wordpress.cost * HOURS, // the marketplace template's cost per hour
  };
  const result = await estimate(plan);
  expectMonthlyCosts(result, expected);
  expect(result.totalMonthlyCost).toBeCloseTo(expected.win + expected["win-off"] + expected.custom + expected.blog, 6);
  const licence = result.resources.find((x) => x.name === "win")!.components.find((c) => c.name === "Licence");
  expect(licence?.monthlyCost).toBeCloseTo(windows.licensePerCoreCost * gp4c8g.core * HOURS, 6);
});

// ---------------------------------------------------------------------------------------------
// 4: Kubernetes
// ---------------------------------------------------------------------------------------------

describe("a Kubernetes cluster", () => {
  const zoneUuid = ZONES.mumbai;
  const state = stateBuilder("native");
  const controlNodes = 3;
  const cluster = (size: number, id?: string) =>
    state(
      "KubernetesCluster",
      "k8s",
      {
        name: "k8s",
        zoneUuid,
        computeOfferingUuid: COMPUTE.gp2c4g,
        kubernetesVersionUuid: CATALOG_IDS.kubernetesVersions.v1_31,
        size,
        controlNodes,
        haEnabled: true,
      },
      id ? { id } : {},
    );

  test("pays every node's compute and the control plane per hour", async () => {
    const workers = 3;
    const r = await zoneRows(zoneUuid);
    const gp2c4g = row(r.compute, COMPUTE.gp2c4g);
    const expected =
      (workers + controlNodes) *
        (gp2c4g.instanceRunningCostVcpu * gp2c4g.core + gp2c4g.instanceRunningCostMemory * (gp2c4g.memory / 1024)) *
        HOURS +
      r.k8sCost * HOURS;
    const result = await estimate(previewJson([create(cluster(workers))]));
    expectMonthlyCosts(result, { k8s: expected });
    expect(result.totalMonthlyCost).toBeCloseTo(expected, 6);
  });

  test("a scale from 2 to 4 workers costs exactly 2 nodes' compute more", async () => {
    const r = await zoneRows(zoneUuid);
    const gp2c4g = row(r.compute, COMPUTE.gp2c4g);
    const node = runningPerHour(gp2c4g) * HOURS;
    const result = await estimate(previewJson([update(cluster(2, "k8s-id"), cluster(4, "k8s-id"))]));
    const [k8s] = result.resources;
    expect(k8s!.op).toBe("update");
    expect(k8s!.pastMonthlyCost).toBeCloseTo((2 + controlNodes) * node + r.k8sCost * HOURS, 6);
    expect(k8s!.monthlyCost).toBeCloseTo((4 + controlNodes) * node + r.k8sCost * HOURS, 6);
    expect(k8s!.diffMonthlyCost).toBeCloseTo(2 * node, 6);
    expect(result.diffTotalMonthlyCost).toBeCloseTo(2 * node, 6);
  });
});

// ---------------------------------------------------------------------------------------------
// 5: deltas
// ---------------------------------------------------------------------------------------------

test("updates, a delete and an unchanged resource: each delta, and totals that add up", async () => {
  const zoneUuid = ZONES.frankfurt;
  const state = stateBuilder("dynamic");
  const volume = (size: number) =>
    state("Volume", "data", { name: "data", zoneUuid, storageOfferingUuid: STORAGE.ssdCustom, size }, { id: "vol-1" });
  const instance = (computeOfferingUuid: string) =>
    state(
      "Instance",
      "app",
      { name: "app", zoneUuid, computeOfferingUuid, templateUuid: TEMPLATES.ubuntu2404, state: "Running" },
      { id: "vm-1" },
    );
  const ip = state("PublicIpAddress", "old-ip", { zoneUuid }, { id: "ip-1" });
  const vpc = state(
    "Vpc",
    "net",
    { name: "net", zoneUuid, cidr: "10.0.0.0/16", vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard },
    { id: "vpc-1" },
  );
  const plan = previewJson([
    update(volume(50), volume(120)),
    update(instance(COMPUTE.gp2c4g), instance(COMPUTE.gp4c8g)),
    remove(ip),
    same(vpc),
  ]);

  const r = await zoneRows(zoneUuid);
  const customSsd = row(r.storage, STORAGE.ssdCustom);
  const gp2c4g = row(r.compute, COMPUTE.gp2c4g);
  const gp4c8g = row(r.compute, COMPUTE.gp4c8g);
  const ubuntu = row(r.templates, TEMPLATES.ubuntu2404);
  const standardVpc = row(r.vpc, CATALOG_IDS.vpcOfferings.standard);
  const expected = {
    // name: [past, new]
    data: [50 * customSsd.customCostPerGb, 120 * customSsd.customCostPerGb],
    app: [(runningPerHour(gp2c4g) + ubuntu.cost) * HOURS, (runningPerHour(gp4c8g) + ubuntu.cost) * HOURS],
    "old-ip": [r.ipCost, 0],
    net: [standardVpc.cost + standardVpc.haCost, standardVpc.cost + standardVpc.haCost],
  };

  const result = await estimate(plan);
  const byName = Object.fromEntries(result.resources.map((x) => [x.name, x]));
  expect(result.resources.map((x) => [x.name, x.op])).toEqual([
    ["data", "update"],
    ["app", "update"],
    ["old-ip", "delete"],
    ["net", "same"],
  ]);
  for (const [name, [past, now]] of Object.entries(expected)) {
    expect([name, byName[name]!.pastMonthlyCost]).toEqual([name, expect.closeTo(past, 6)]);
    expect([name, byName[name]!.monthlyCost]).toEqual([name, expect.closeTo(now, 6)]);
    expect([name, byName[name]!.diffMonthlyCost]).toEqual([name, expect.closeTo(now - past, 6)]);
  }
  expect(byName.data!.diffMonthlyCost).toBeCloseTo(70 * customSsd.customCostPerGb, 6);
  expect(byName.app!.diffMonthlyCost).toBeCloseTo((runningPerHour(gp4c8g) - runningPerHour(gp2c4g)) * HOURS, 6);
  expect(byName["old-ip"]!.monthlyCost).toBe(0);
  expect(byName["old-ip"]!.pastMonthlyCost).toBeGreaterThan(0);
  expect(byName.net!.diffMonthlyCost).toBe(0);

  const past = sum(Object.values(expected).map(([p]) => p!));
  const now = sum(Object.values(expected).map(([, n]) => n!));
  expect(result.pastTotalMonthlyCost).toBeCloseTo(past, 6);
  expect(result.totalMonthlyCost).toBeCloseTo(now, 6);
  expect(result.diffTotalMonthlyCost).toBeCloseTo(now - past, 6);
  expect(result.diffTotalMonthlyCost).toBeCloseTo(result.totalMonthlyCost - result.pastTotalMonthlyCost, 6);
});

test("the estimate prices the kinds it is handed, by their price facet; a kind without one is free", async () => {
  const zoneUuid = ZONES.frankfurt;
  const state = stateBuilder("native");
  // A throw-away kind, priced at the zone's public-IP rate, and the registry's Vpc handed without its price.
  const kinds: PricedKind[] = [
    { type: "Gadget", price: perMonth("Gadget", { call: "ipCost", field: "ipCost" }) },
    { type: "Vpc" },
  ];
  const plan = previewJson([
    create(state("Gadget", "g", { zoneUuid })),
    create(
      state("Vpc", "net", {
        name: "net",
        zoneUuid,
        cidr: "10.0.0.0/16",
        vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard,
      }),
    ),
  ]);
  const result = await estimate(plan, {}, kinds);
  const byName = Object.fromEntries(result.resources.map((x) => [x.name, x]));
  expect(byName.g!.free).toBe(false);
  expect(byName.g!.components.map((c) => c.name)).toEqual(["Gadget"]);
  expect(byName.g!.monthlyCost).toBeCloseTo((await zoneRows(zoneUuid)).ipCost, 6);
  expect(byName.net!.free).toBe(true);
  expect(byName.net!.monthlyCost).toBe(0);
});

// ---------------------------------------------------------------------------------------------
// 6: another currency
// ---------------------------------------------------------------------------------------------

describe("another currency", () => {
  test("--currency USD: every figure × the USD row's cost over the default currency's", async () => {
    const { listMultiCurrency } = await api<{ listMultiCurrency: CurrencyRow[] }>("multicurrency");
    const base = listMultiCurrency.find((c) => c.isDefaultCurrency === "true")!;
    const usd = listMultiCurrency.find((c) => c.currency === "USD")!;
    const factor = usd.cost / base.cost;
    const expected = await webStackCosts();

    const run = await cost(["--format", "json", "--currency", "USD"], newStackPreview("dynamic"));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as CostEstimate;
    expect(result.currency).toBe("USD");
    expectMonthlyCosts(result, Object.fromEntries(Object.entries(expected).map(([name, eur]) => [name, eur * factor])));
    expect(result.totalMonthlyCost).toBeCloseTo(sum(Object.values(expected)) * factor, 6);
    expect(result.diffTotalMonthlyCost).toBeCloseTo(sum(Object.values(expected)) * factor, 6);
    const ip = result.resources.find((r) => r.name === "web-ip")!;
    const ipCost = (await zoneRows(STACK_ZONE)).ipCost;
    expect(ip.components.map((c) => [c.unitPrice, c.monthlyCost])).toEqual([
      [expect.closeTo(ipCost * factor, 6), expect.closeTo(ipCost * factor, 6)],
    ]);
  });

  test("an unknown currency code fails, naming it", async () => {
    expectFailure(await cost(["--format", "json", "--currency", "XYZ"], newStackPreview("dynamic")), /XYZ/);
  });
});

// ---------------------------------------------------------------------------------------------
// 7: values unknown at preview
// ---------------------------------------------------------------------------------------------

describe("a value unknown at preview", () => {
  const zoneUuid = ZONES.frankfurt;
  const state = stateBuilder("dynamic");
  const plan = previewJson(
    [
      state("Volume", "scratch", { name: "scratch", zoneUuid, storageOfferingUuid: STORAGE.ssdCustom, size: UNKNOWN }),
      state("PublicIpAddress", "ip", { zoneUuid }),
    ].map(create),
  );

  test("stays unknown: not in the total, counted, and said so", async () => {
    const r = await zoneRows(zoneUuid);
    const result = await estimate(plan);
    const scratch = result.resources.find((x) => x.name === "scratch")!;
    expect(scratch.components).toHaveLength(1);
    expect(scratch.components[0]).toMatchObject({ monthlyCost: null, unknown: expect.stringMatching(/size/) });
    expect(scratch.unknownComponents).toBe(1);
    expect(result.unknownComponents).toBe(1);
    expect(result.notes).toEqual(expect.arrayContaining([expect.stringMatching(/1 cost component .*not known/)]));
    // The total is the known part: the IP.
    expect(result.totalMonthlyCost).toBeCloseTo(r.ipCost, 6);
  });

  test("an update to a value not known yet: the resource's difference is not known, not a saving", async () => {
    const r = await zoneRows(zoneUuid);
    const before = state("Volume", "scratch", {
      name: "scratch",
      zoneUuid,
      storageOfferingUuid: STORAGE.ssdCustom,
      size: 50,
    });
    const after = state("Volume", "scratch", {
      name: "scratch",
      zoneUuid,
      storageOfferingUuid: STORAGE.ssdCustom,
      size: UNKNOWN,
    });
    const ip = state("PublicIpAddress", "ip", { zoneUuid });
    const result = await estimate(previewJson([update(before, after), same(ip)]));
    const scratch = result.resources.find((x) => x.name === "scratch")!;
    expect(scratch.pastMonthlyCost).toBeCloseTo(50 * row(r.storage, STORAGE.ssdCustom).customCostPerGb, 6);
    expect(scratch.diffMonthlyCost).toBeNull();
    // The difference of the plan is that of the resources whose cost is known: the IP's, 0.
    expect(result.diffTotalMonthlyCost).toBe(0);
    const table = await cost([], previewJson([update(before, after), same(ip)]));
    expect(table.stdout).toMatch(/Difference.*\+ what is not known yet/);
  });

  test("the table marks it as not known and says the total leaves it out", async () => {
    const run = await cost([], plan);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/scratch.*\+ \?/);
    expect(run.stdout).toContain("not known");
    expect(run.stdout).toMatch(/Total monthly cost.*\+ what is not known yet/);
  });
});

// ---------------------------------------------------------------------------------------------
// 8: a stack export
// ---------------------------------------------------------------------------------------------

test("a stack export: the stack as it is, past = total, no difference", async () => {
  const expected = await webStackCosts();
  const result = await estimate(stackExportJson(webStack("dynamic", true)), { defaultZoneUuid: ZONES.frankfurt });
  expect(result.source).toBe("state");
  expectMonthlyCosts(result, expected);
  expect(result.resources.every((r) => r.op === "same")).toBe(true);
  expect(result.totalMonthlyCost).toBeCloseTo(sum(Object.values(expected)), 6);
  expect(result.pastTotalMonthlyCost).toBeCloseTo(result.totalMonthlyCost, 6);
  expect(result.diffTotalMonthlyCost).toBeCloseTo(0, 6);
});

// ---------------------------------------------------------------------------------------------
// 9: failures
// ---------------------------------------------------------------------------------------------

describe("failures", () => {
  test("text that is not JSON", async () => {
    expect(() => readPlan("this is no plan")).toThrow(PlanFormatError);
    expectFailure(await cost([], "this is no plan"), /not JSON/);
  });

  test("JSON that is neither a preview nor a stack export", async () => {
    expect(() => readPlan('{"resources": []}')).toThrow(PlanFormatError);
    expectFailure(await cost([], JSON.stringify({ resources: [] })), /neither a preview .* nor a stack export/);
  });

  test("an API that does not answer: a message saying so, within a few seconds", async () => {
    // A port that was open a moment ago and is closed now.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));

    const run = await cost([], newStackPreview("dynamic"), { RESTCLOUD_API_URL: `http://127.0.0.1:${port}` });
    expectFailure(run, /the API did not answer/);
    expect(run.ms).toBeLessThan(10_000);
  }, 20_000);

  test("an offering the catalog does not know: the message names the resource, the property and the uuid", async () => {
    const missing = "4f000000-0000-4000-8000-0000000000ee";
    const plan = previewJson([
      create(
        stateBuilder("dynamic")("Vpc", "lost-vpc", {
          name: "lost-vpc",
          zoneUuid: ZONES.frankfurt,
          cidr: "10.0.0.0/16",
          vpcOfferingUuid: missing,
        }),
      ),
    ]);
    const failure = estimate(plan);
    await expect(failure).rejects.toBeInstanceOf(EstimateError);
    await expect(failure).rejects.toMatchObject({
      problems: [expect.stringMatching(new RegExp(`lost-vpc.*vpcOfferingUuid.*${missing}`))],
    });
    expectFailure(await cost([], plan), "lost-vpc", "vpcOfferingUuid", missing);
  });

  test("bad usage: exit 2 with the usage", async () => {
    const run = await cost(["--format", "xml"], newStackPreview("dynamic"));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/--format must be table, json, markdown or infracost, not xml/);
    expect(run.stderr).toContain("Usage: restcloud cost");
  });
});

// ---------------------------------------------------------------------------------------------
// 10: the table, and the bin
// ---------------------------------------------------------------------------------------------

const twoDecimals = (n: number): string =>
  n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

test("the table (a FILE argument) names each priced resource and shows the total with 2 decimals", async () => {
  const file = path.join(workDir, "preview.json");
  fs.writeFileSync(file, newStackPreview("native"));
  const expected = await webStackCosts();
  const run = await cost([file, "--format", "table"], "");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const lines = run.stdout.split("\n");
  for (const name of Object.keys(expected).filter((n) => !FREE.includes(n)))
    expect([name, lines.some((line) => line.includes(` ${name} (create)`))]).toEqual([name, true]);
  const freeLine = lines.find((line) => line.startsWith("Free (no price in the catalog):"));
  expect(freeLine).toContain("FirewallRule");
  expect(freeLine).toContain("EgressRule");
  const totalLine = lines.find((line) => line.startsWith("Total monthly cost"));
  expect(totalLine).toContain(`${twoDecimals(sum(Object.values(expected)))} EUR`);
});

test("the built bin prices a preview piped to it", async () => {
  const expected = await webStackCosts();
  const child = spawn(process.execPath, [CLI, "cost", "--format", "json"], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH,
      RESTCLOUD_API_URL: emulator.url,
      RESTCLOUD_API_KEY: DEMO.apiKey,
      RESTCLOUD_SECRET_KEY: DEMO.secretKey,
      RESTCLOUD_ZONE_UUID: ZONES.frankfurt,
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(newStackPreview("dynamic"));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect((JSON.parse(stdout) as CostEstimate).totalMonthlyCost).toBeCloseTo(sum(Object.values(expected)), 6);
}, 20_000);

test("an uploaded volume: its size counted, its price per GB said unknown (no storage plan), never free", async () => {
  const zoneUuid = ZONES.frankfurt;
  const state = stateBuilder("dynamic");
  const uploaded = state(
    "UploadedVolume",
    "image",
    { name: "image", zoneUuid, url: "https://images.example.com/disk.qcow2", format: "QCOW2", size: 12 },
    { id: "vol-9" },
  );
  const result = await estimate(previewJson([same(uploaded)]));
  const [resource] = result.resources;
  expect(resource?.free).toBe(false);
  expect(resource?.components).toEqual([
    expect.objectContaining({ name: "Storage", unit: "GB-months", quantity: 12, monthlyCost: null }),
  ]);
  expect(result.unknownComponents).toBe(1);
});
