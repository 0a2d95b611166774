/**
 * `restcloud cost` for CI against the emulator's live catalog: `--format infracost` (valid against
 * Infracost's published schema, its figures those of the catalog), `--format markdown` (the
 * pull-request comment's figures), and the budgets `--max-monthly` and `--max-increase` (exit 3 and
 * one line on standard error per limit exceeded, after the whole report; exit 2 for a bad value),
 * through the command in-process (runCost) and once through the built bin.
 *
 * The plan is one of every change (a resize, a plan change, a delete, an unchanged VPC, a free rule
 * created) built with plans.ts; every expected figure is computed here from the catalog rows this
 * file fetches itself over HTTP (GET /restapi/costestimate/..., plain `fetch`), with the units of
 * provider/pricing: compute and templates per hour (× 730), storage per GB and month, offerings and IPs
 * per month.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { COST_USAGE, runCost } from "../../../provider/cost/cli";
import type { InfracostRoot } from "../../../provider/cost/infracost";
import { infracostSchemaErrors } from "../../unit/cost/infracost-schema";
import { create, previewJson, remove, same, stateBuilder, update } from "./plans";

const HOURS = 730;
const DEMO = { apiKey: "demo-api-key", secretKey: "demo-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;
const COMPUTE = CATALOG_IDS.computeOfferings;
const CLI = path.join(__dirname, "..", "..", "..", "dist", "provider", "cli.js");

let emulator: RunningEmulator;
let workDir: string;
let planFile: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-cost-ci-"));
  planFile = path.join(workDir, "preview.json");
  fs.writeFileSync(planFile, plan());
});
afterAll(async () => {
  await emulator.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// The plan, and its figures from the catalog rows
// ---------------------------------------------------------------------------------------------

function plan(): string {
  const state = stateBuilder("dynamic");
  const volume = (size: number) =>
    state(
      "Volume",
      "data",
      { name: "data", zoneUuid: ZONE, storageOfferingUuid: CATALOG_IDS.storageOfferings.ssdCustom, size },
      { id: "vol-1" },
    );
  const instance = (computeOfferingUuid: string) =>
    state(
      "Instance",
      "app",
      { name: "app", zoneUuid: ZONE, computeOfferingUuid, templateUuid: CATALOG_IDS.templates.ubuntu2404 },
      { id: "vm-1" },
    );
  const vpc = state(
    "Vpc",
    "net",
    { name: "net", zoneUuid: ZONE, cidr: "10.0.0.0/16", vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard },
    { id: "vpc-1" },
  );
  return previewJson([
    update(volume(50), volume(120)),
    update(instance(COMPUTE.gp2c4g), instance(COMPUTE.gp4c8g)),
    remove(state("PublicIpAddress", "old-ip", { zoneUuid: ZONE }, { id: "ip-1" })),
    same(vpc),
    create(
      state("FirewallRule", "https", {
        ipAddressUuid: "ip-2",
        protocol: "TCP",
        startPort: "443",
        endPort: "443",
        cidrList: "0.0.0.0/0",
      }),
    ),
  ]);
}

async function api<T>(operation: string, query: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${emulator.url}/restapi/costestimate/${operation}?${new URLSearchParams(query)}`, {
    headers: { apikey: DEMO.apiKey, secretkey: DEMO.secretKey },
  });
  if (!response.ok) throw new Error(`GET ${operation}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Figures {
  /** name: [before, after] a month, in EUR. */
  byName: Record<string, [number, number]>;
  past: number;
  after: number;
  diff: number;
  /** USD per EUR in the catalog. */
  usdFactor: number;
}

let figuresPromise: Promise<Figures> | undefined;
/** Each resource's monthly cost before and after, from the zone's rows. */
function figures(): Promise<Figures> {
  figuresPromise ??= (async () => {
    const query = { zoneUuid: ZONE };
    type Plan = {
      uuid: string;
      core: number;
      memory: number;
      instanceRunningCostVcpu: number;
      instanceRunningCostMemory: number;
    };
    const plans = (
      await api<{ payAsYouGoOfferingCost: Plan[] }>("compute-plan-list", {
        ...query,
        computeOfferingType: "PAY_AS_YOU_GO",
      })
    ).payAsYouGoOfferingCost;
    const storage = (
      await api<{ listStorageCost: { uuid: string; customCostPerGb: number }[] }>("storage-plan-list", query)
    ).listStorageCost;
    const templates = (
      await api<{ listTemplateCost: { uuid: string; cost: number }[] }>("template-list", {
        ...query,
        platform: "LINUX",
        distribution: "OS_ONLY",
      })
    ).listTemplateCost;
    const vpcs = (
      await api<{ vpcOfferingCost: { uuid: string; cost: number; haCost: number }[] }>("vpcoffering-list", query)
    ).vpcOfferingCost;
    const { ipCost } = await api<{ ipCost: number }>("ip-cost", query);
    const { listMultiCurrency } = await api<{
      listMultiCurrency: { currency: string; cost: number; isDefaultCurrency: string }[];
    }>("multicurrency");

    const perGb = storage.find((s) => s.uuid === CATALOG_IDS.storageOfferings.ssdCustom)!.customCostPerGb;
    const ubuntu = templates.find((t) => t.uuid === CATALOG_IDS.templates.ubuntu2404)!.cost;
    const running = (uuid: string) => {
      const p = plans.find((x) => x.uuid === uuid)!;
      return (p.core * p.instanceRunningCostVcpu + (p.memory / 1024) * p.instanceRunningCostMemory + ubuntu) * HOURS;
    };
    const vpc = vpcs.find((o) => o.uuid === CATALOG_IDS.vpcOfferings.standard)!;
    const byName: Record<string, [number, number]> = {
      data: [50 * perGb, 120 * perGb],
      app: [running(COMPUTE.gp2c4g), running(COMPUTE.gp4c8g)],
      "old-ip": [ipCost, 0],
      net: [vpc.cost + vpc.haCost, vpc.cost + vpc.haCost],
    };
    const past = Object.values(byName).reduce((t, [b]) => t + b, 0);
    const after = Object.values(byName).reduce((t, [, a]) => t + a, 0);
    const base = listMultiCurrency.find((c) => c.isDefaultCurrency === "true")!;
    const usd = listMultiCurrency.find((c) => c.currency === "USD")!;
    return { byName, past, after, diff: after - past, usdFactor: usd.cost / base.cost };
  })();
  return figuresPromise;
}

// ---------------------------------------------------------------------------------------------
// Running the command
// ---------------------------------------------------------------------------------------------

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `restcloud cost ARGV` in-process, settings from RESTCLOUD_* variables, standard input empty. */
async function cost(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runCost(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    readStdin: async () => "",
    env: {
      RESTCLOUD_API_URL: emulator.url,
      RESTCLOUD_API_KEY: DEMO.apiKey,
      RESTCLOUD_SECRET_KEY: DEMO.secretKey,
      ...env,
    },
    cwd: workDir,
  });
  return { code, stdout, stderr };
}

const money = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (n: number) => `${n < 0 ? "-" : "+"}${money(Math.abs(n))}`;
const percent = (diff: number, past: number) => `${diff < 0 ? "-" : "+"}${Math.abs((diff / past) * 100).toFixed(1)}%`;
const num = (s: string | null | undefined) => Number(s);

// ---------------------------------------------------------------------------------------------
// --format infracost
// ---------------------------------------------------------------------------------------------

describe("--format infracost", () => {
  test("valid against Infracost's schema; the totals, breakdowns and differences those of the catalog", async () => {
    const f = await figures();
    const run = await cost([planFile, "--format", "infracost"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as InfracostRoot;
    expect(infracostSchemaErrors(doc)).toEqual([]);
    expect(doc.currency).toBe("EUR");
    expect(num(doc.totalMonthlyCost)).toBeCloseTo(f.after, 6);
    expect(num(doc.pastTotalMonthlyCost)).toBeCloseTo(f.past, 6);
    expect(num(doc.diffTotalMonthlyCost)).toBeCloseTo(f.diff, 6);
    expect(num(doc.totalHourlyCost)).toBeCloseTo(f.after / HOURS, 8);

    const [project] = doc.projects;
    expect(project!.name).toBe("cost-test/dev");
    expect(project!.metadata).toEqual({ path: planFile, type: "pulumi_preview_json" });
    const monthly = (b: InfracostRoot["projects"][0]["breakdown"]) =>
      Object.fromEntries(b.resources.map((r) => [r.name, num(r.monthlyCost)]));
    const closeTo = (pick: (x: [number, number]) => number, names: string[]) =>
      Object.fromEntries(names.map((n) => [n, expect.closeTo(pick(f.byName[n.split(".")[1]!]!), 6)]));
    expect(monthly(project!.breakdown)).toEqual(closeTo(([, a]) => a, ["Volume.data", "Instance.app", "Vpc.net"]));
    expect(monthly(project!.pastBreakdown)).toEqual(
      closeTo(([b]) => b, ["Volume.data", "Instance.app", "PublicIpAddress.old-ip", "Vpc.net"]),
    );
    expect(monthly(project!.diff)).toEqual(
      closeTo(([b, a]) => a - b, ["Volume.data", "Instance.app", "PublicIpAddress.old-ip"]),
    );
    expect(project!.summary).toMatchObject({
      totalSupportedResources: 3,
      totalNoPriceResources: 1,
      noPriceResourceCounts: { "restcloud:index:FirewallRule": 1 },
    });
    // Each component: quantity × price = cost.
    for (const r of project!.breakdown.resources)
      for (const c of r.costComponents)
        expect([r.name, c.name, num(c.monthlyQuantity) * num(c.price)]).toEqual([
          r.name,
          c.name,
          expect.closeTo(num(c.monthlyCost), 6),
        ]);
  });

  test("--currency USD: every figure converted, the currency named", async () => {
    const f = await figures();
    const run = await cost([planFile, "--format", "infracost", "--currency", "USD"]);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as InfracostRoot;
    expect(infracostSchemaErrors(doc)).toEqual([]);
    expect(doc.currency).toBe("USD");
    expect(num(doc.totalMonthlyCost)).toBeCloseTo(f.after * f.usdFactor, 6);
    expect(num(doc.diffTotalMonthlyCost)).toBeCloseTo(f.diff * f.usdFactor, 6);
  });
});

// ---------------------------------------------------------------------------------------------
// --format markdown
// ---------------------------------------------------------------------------------------------

test("--format markdown: the change with its percentage, the changed resources' rows, the totals", async () => {
  const f = await figures();
  const run = await cost([planFile, "--format", "markdown"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const lines = run.stdout.split("\n");
  expect(lines[0]).toBe("<!-- restcloud-cost -->");
  expect(lines[1]).toBe(
    `### Monthly cost ${f.diff > 0 ? "rises" : "falls"} by ${money(Math.abs(f.diff))} EUR (${percent(f.diff, f.past)})`,
  );
  const [data, app, ip] = [f.byName.data!, f.byName.app!, f.byName["old-ip"]!];
  expect(lines).toEqual(
    expect.arrayContaining([
      `| \`Volume data\` | changed | ${money(data[0])} | ${money(data[1])} | ${signed(data[1] - data[0])} |`,
      `| \`Instance app\` | changed | ${money(app[0])} | ${money(app[1])} | ${signed(app[1] - app[0])} |`,
      `| \`PublicIpAddress old-ip\` | removed | ${money(ip[0])} | – | ${signed(-ip[0])} |`,
      `| **Total** | | **${money(f.past)}** | **${money(f.after)}** | **${signed(f.diff)} (${percent(f.diff, f.past)})** |`,
    ]),
  );
  expect(run.stdout).not.toContain("`Vpc net`");
  expect(run.stdout).toContain("Prices in EUR from the API's cost catalog");
  expect(run.stdout).toContain("1 more resource with no change in cost. Free: 1 × FirewallRule.");
});

// ---------------------------------------------------------------------------------------------
// Budgets
// ---------------------------------------------------------------------------------------------

describe("budgets", () => {
  test("within both: exit 0, nothing on standard error, the report as usual", async () => {
    const f = await figures();
    const plain = await cost([planFile]);
    const run = await cost([
      planFile,
      "--max-monthly",
      String(Math.ceil(f.after)),
      "--max-increase",
      `${Math.ceil((f.diff / f.past) * 100)}%`,
    ]);
    expect(run).toEqual({ code: 0, stdout: plain.stdout, stderr: "" });
  });

  test("over --max-monthly: the whole report first, then exit 3 and one line naming the total and the budget", async () => {
    const f = await figures();
    const limit = Math.floor(f.after) - 1;
    const plain = await cost([planFile, "--format", "markdown"]);
    const run = await cost([planFile, "--format", "markdown", "--max-monthly", String(limit)]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(plain.stdout);
    expect(run.stderr).toBe(
      `restcloud cost: the monthly total ${money(f.after)} EUR is over the budget of ${money(limit)} EUR (--max-monthly)\n`,
    );
  });

  test("over --max-increase as a percentage, with the Infracost JSON still whole on standard output", async () => {
    const f = await figures();
    const shown = Number(((Math.round(f.diff * 100) / 100 / (Math.round(f.past * 100) / 100)) * 100).toFixed(2));
    const limit = Math.floor(shown) - 1;
    expect(limit).toBeGreaterThanOrEqual(0);
    const run = await cost([planFile, "--format", "infracost", "--max-increase", `${limit}%`]);
    expect(run.code).toBe(3);
    expect(infracostSchemaErrors(JSON.parse(run.stdout))).toEqual([]);
    expect(run.stderr).toBe(
      `restcloud cost: the monthly increase ${signed(f.diff)} EUR (+${shown}% of ${money(f.past)} EUR) ` +
        `is over the limit of ${limit}% (--max-increase)\n`,
    );
  });

  test("over both limits: two lines; an amount limit names the amount", async () => {
    const f = await figures();
    const run = await cost([planFile, "--format", "json", "--max-monthly", "1", "--max-increase", "0.5"]);
    expect(run.code).toBe(3);
    expect(run.stderr.split("\n")).toEqual([
      `restcloud cost: the monthly total ${money(f.after)} EUR is over the budget of 1.00 EUR (--max-monthly)`,
      `restcloud cost: the monthly increase ${signed(f.diff)} EUR is over the limit of 0.50 EUR (--max-increase)`,
      "",
    ]);
  });

  test("in the report's currency: --currency USD compares USD figures", async () => {
    const f = await figures();
    const limit = Math.floor(f.after * f.usdFactor) - 1;
    expect(limit).toBeGreaterThan(f.after); // over in USD, not in EUR
    const run = await cost([planFile, "--currency", "USD", "--max-monthly", String(limit)]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `restcloud cost: the monthly total ${money(f.after * f.usdFactor)} USD is over the budget of ${money(limit)} USD (--max-monthly)\n`,
    );
  });

  test.each([
    [["--max-monthly", "abc"], /^restcloud cost: --max-monthly must be an amount .*, not "abc"\n/],
    [["--max-monthly", "400 USD"], /^restcloud cost: --max-monthly must be an amount .*, not "400 USD"\n/],
    [
      ["--max-increase", "ten%"],
      /^restcloud cost: --max-increase must be an amount .* or a percentage .*, not "ten%"\n/,
    ],
    [["--max-increase=-5%"], /^restcloud cost: --max-increase must be an amount .*, not "-5%"\n/],
    [["--max-increase"], /^restcloud cost: .*--max-increase/],
  ])("a bad value %j: exit 2 before any work, the flag named, the usage", async (flags, message) => {
    // No input at all: the value is refused before the plan is read.
    const run = await cost(["--format", "markdown", ...flags]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain(COST_USAGE);
  });

  test("an estimate that fails still exits 1, budgets or not", async () => {
    const run = await cost([planFile, "--max-monthly", "1"], { RESTCLOUD_API_KEY: "wrong" });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/restcloud cost: the estimate failed\n$/);
  });

  test("the built bin exits 3, the report on standard output and the line on standard error", async () => {
    const f = await figures();
    const child = spawn(process.execPath, [CLI, "cost", planFile, "--max-increase", "1"], {
      cwd: workDir,
      env: {
        PATH: process.env.PATH,
        RESTCLOUD_API_URL: emulator.url,
        RESTCLOUD_API_KEY: DEMO.apiKey,
        RESTCLOUD_SECRET_KEY: DEMO.secretKey,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(3);
    expect(stdout).toMatch(/^Monthly cost estimate/);
    expect(stdout).toMatch(/Difference\s+\+/);
    expect(stderr).toBe(
      `restcloud cost: the monthly increase ${signed(f.diff)} EUR is over the limit of 1.00 EUR (--max-increase)\n`,
    );
  }, 20_000);
});
