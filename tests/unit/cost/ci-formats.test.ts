/**
 * The CI formats and budgets of `restcloud cost`, from estimates built here (no API): Infracost's
 * JSON (provider/cost/infracost.ts) valid against Infracost's published schema and carrying each
 * figure of the estimate; the pull-request comment (markdown.ts); and the budgets (budget.ts). Every
 * expected figure is computed in this file from the components it writes (quantity × unit price,
 * sums, differences, ÷ 730 hours), never read from the code under test.
 */
import type { CostEstimate, ResourceCost } from "../../../provider/cost/estimate";
import { checkBudget, parseMaxIncrease, parseMaxMonthly, type Budget } from "../../../provider/cost/budget";
import { decimal, infracostReport, type InfracostRoot } from "../../../provider/cost/infracost";
import { estimateMarkdown, MARKDOWN_MARKER } from "../../../provider/cost/markdown";
import type { CostComponent } from "../../../provider/pricing";
import { infracostSchemaErrors } from "./infracost-schema";

const HOURS = 730;
const urn = (kind: string, name: string, parent = "") =>
  `urn:pulumi:dev::shop::${parent}pulumi-nodejs:dynamic/restcloud:${kind}::${name}`;

/** A component: quantity × unit price, or not known (null). */
function part(
  name: string,
  unit: string,
  quantity: number | null,
  unitPrice: number | null,
  detail?: string,
): CostComponent {
  const known = quantity !== null && unitPrice !== null;
  return {
    name,
    ...(detail ? { detail } : {}),
    unit,
    quantity,
    unitPrice,
    monthlyCost: known ? quantity * unitPrice : null,
    ...(known ? {} : { unknown: `${name.toLowerCase()} is known only after apply` }),
  };
}

const known = (cs: readonly CostComponent[]) => cs.reduce((t, c) => t + (c.monthlyCost ?? 0), 0);

/** A resource of the estimate, its figures the sums of the components given. */
function priced(
  kind: string,
  name: string,
  op: ResourceCost["op"],
  before: CostComponent[],
  after: CostComponent[],
  parent = "",
): ResourceCost {
  const unknown = after.filter((c) => c.monthlyCost === null).length;
  return {
    urn: urn(kind, name, parent),
    name,
    type: kind,
    op,
    free: false,
    monthlyCost: known(after),
    pastMonthlyCost: known(before),
    diffMonthlyCost: unknown > 0 ? null : known(after) - known(before),
    unknownComponents: unknown,
    components: after,
    pastComponents: before,
  };
}

const free = (kind: string, name: string, op: ResourceCost["op"]): ResourceCost => ({
  urn: urn(kind, name),
  name,
  type: kind,
  op,
  free: true,
  monthlyCost: 0,
  pastMonthlyCost: 0,
  diffMonthlyCost: 0,
  unknownComponents: 0,
  components: [],
  pastComponents: [],
});

function estimateOf(
  resources: ResourceCost[],
  extra: Partial<Pick<CostEstimate, "source" | "otherResources" | "notes">> = {},
): CostEstimate {
  const unknownComponents = resources.reduce((n, r) => n + r.unknownComponents, 0);
  return {
    currency: "EUR",
    hoursPerMonth: HOURS,
    source: extra.source ?? "preview",
    totalMonthlyCost: resources.reduce((t, r) => t + r.monthlyCost, 0),
    pastTotalMonthlyCost: resources.reduce((t, r) => t + r.pastMonthlyCost, 0),
    diffTotalMonthlyCost: resources.reduce((t, r) => t + (r.diffMonthlyCost ?? 0), 0),
    unknownComponents,
    resources,
    otherResources: extra.otherResources ?? 0,
    notes: extra.notes ?? [],
  };
}

// Rates of this file's imaginary catalog.
const VCPU = { small: 0.011, large: 0.012 };
const MEMORY = { small: 0.004, large: 0.0045 };
const SSD_PER_GB = 0.11;
const IP = 3;
const VPC = 10;

const compute = (plan: "small" | "large", cores: number, gib: number) => [
  part("vCPU", "vCPU-hours", cores * HOURS, VCPU[plan], `${plan}, running`),
  part("Memory", "GiB-hours", gib * HOURS, MEMORY[plan], `${plan}, running`),
];
const storage = (gb: number | null) => [part("Storage", "GB-months", gb, SSD_PER_GB, "ssd.custom")];

/** A plan of every kind of change: a resize, a plan change (replace), a delete, a create, an unchanged VPC, a free rule. */
const changes = () =>
  estimateOf(
    [
      priced("Vpc", "net", "same", [part("VPC offering", "months", 1, VPC)], [part("VPC offering", "months", 1, VPC)]),
      priced("Volume", "data", "update", storage(50), storage(120)),
      priced("Instance", "app", "replace", compute("small", 2, 4), compute("large", 4, 8)),
      priced("PublicIpAddress", "old-ip", "delete", [part("Public IP", "months", 1, IP)], []),
      priced("Instance", "worker", "create", [], compute("small", 2, 4)),
      free("FirewallRule", "https", "create"),
      free("FirewallRule", "ssh", "same"),
    ],
    { otherResources: 2 },
  );

/** The figures of `changes()`, computed from the rates. */
const small = (2 * VCPU.small + 4 * MEMORY.small) * HOURS;
const large = (4 * VCPU.large + 8 * MEMORY.large) * HOURS;
const PAST = VPC + 50 * SSD_PER_GB + small + IP;
const AFTER = VPC + 120 * SSD_PER_GB + large + small;

const num = (s: string | null | undefined): number => {
  expect(typeof s).toBe("string");
  expect(s).toMatch(/^-?\d+(\.\d+)?$/); // a plain decimal: no exponent, no thousands separator
  return Number(s);
};

describe("--format infracost", () => {
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
    GITHUB_HEAD_REF: "bigger-disk",
    GITHUB_BASE_REF: "main",
    GITHUB_REF: "refs/pull/42/merge",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_REPOSITORY: "acme/shop",
    GITHUB_RUN_ID: "987",
  };
  let doc: InfracostRoot;
  beforeAll(() => {
    doc = infracostReport(changes(), { path: "preview.json", env, now: new Date("2026-05-01T12:00:00Z") });
  });

  test("is valid against Infracost's published schema (version 0.2)", () => {
    expect(infracostSchemaErrors(doc)).toEqual([]);
    expect(infracostSchemaErrors(JSON.parse(JSON.stringify(doc)))).toEqual([]);
    expect(doc.version).toBe("0.2");
    expect(doc.currency).toBe("EUR");
    expect(doc.timeGenerated).toBe("2026-05-01T12:00:00.000Z");
  });

  test("the schema check is not vacuous: a missing field or a number where a string goes fails", () => {
    const { diffTotalMonthlyCost: _, ...missing } = doc;
    expect(infracostSchemaErrors(missing).join("\n")).toMatch(/diffTotalMonthlyCost/);
    expect(infracostSchemaErrors({ ...doc, totalMonthlyCost: 12.5 }).join("\n")).toMatch(/totalMonthlyCost/);
    expect(infracostSchemaErrors({ ...doc, timeGenerated: "yesterday" }).join("\n")).toMatch(/timeGenerated/);
  });

  test("totals: after, before and the difference, monthly and hourly (÷ 730)", () => {
    expect(num(doc.totalMonthlyCost)).toBeCloseTo(AFTER, 8);
    expect(num(doc.pastTotalMonthlyCost)).toBeCloseTo(PAST, 8);
    expect(num(doc.diffTotalMonthlyCost)).toBeCloseTo(AFTER - PAST, 8);
    expect(num(doc.totalHourlyCost)).toBeCloseTo(AFTER / HOURS, 8);
    expect(num(doc.pastTotalHourlyCost)).toBeCloseTo(PAST / HOURS, 8);
    expect(num(doc.diffTotalHourlyCost)).toBeCloseTo((AFTER - PAST) / HOURS, 8);
    const [project] = doc.projects;
    expect(num(project!.breakdown.totalMonthlyCost)).toBeCloseTo(AFTER, 8);
    expect(num(project!.pastBreakdown.totalMonthlyCost)).toBeCloseTo(PAST, 8);
    expect(num(project!.diff.totalMonthlyCost)).toBeCloseTo(AFTER - PAST, 8);
  });

  /** Names in Infracost's order: the dearest first, then by name. */
  const dearestFirst = (costs: Record<string, number>) =>
    Object.entries(costs)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([name]) => name);

  test("breakdown: the priced resources after the plan; pastBreakdown: those before it; free ones in neither", () => {
    const [project] = doc.projects;
    expect(project!.breakdown.resources.map((r) => r.name)).toEqual(
      dearestFirst({
        "Vpc.net": VPC,
        "Volume.data": 120 * SSD_PER_GB,
        "Instance.app": large,
        "Instance.worker": small,
      }),
    );
    expect(project!.pastBreakdown.resources.map((r) => r.name)).toEqual(
      dearestFirst({
        "Vpc.net": VPC,
        "Volume.data": 50 * SSD_PER_GB,
        "Instance.app": small,
        "PublicIpAddress.old-ip": IP,
      }),
    );
    const app = project!.breakdown.resources.find((r) => r.name === "Instance.app")!;
    expect(app.resourceType).toBe("restcloud:index:Instance");
    expect(app.metadata).toEqual({ urn: urn("Instance", "app"), op: "replace" });
    expect(num(app.monthlyCost)).toBeCloseTo(large, 8);
    expect(num(app.hourlyCost)).toBeCloseTo(large / HOURS, 8);
    const vcpu = app.costComponents[0]!;
    expect(vcpu.name).toBe("vCPU (large, running)");
    expect(vcpu.unit).toBe("vCPU-hours");
    expect(num(vcpu.monthlyQuantity)).toBe(4 * HOURS);
    expect(num(vcpu.hourlyQuantity)).toBe(4);
    expect(num(vcpu.price)).toBe(VCPU.large);
    expect(num(vcpu.monthlyCost)).toBeCloseTo(4 * HOURS * VCPU.large, 8);
    expect(num(vcpu.hourlyCost)).toBeCloseTo(4 * VCPU.large, 8);
    expect(vcpu.priceNotFound).toBe(false);
  });

  test("diff: only the resources whose cost changes, each component's difference", () => {
    const diff = doc.projects[0]!.diff.resources;
    expect(diff.map((r) => r.name)).toEqual(
      dearestFirst({
        "Volume.data": 70 * SSD_PER_GB,
        "Instance.app": large - small,
        "PublicIpAddress.old-ip": -IP,
        "Instance.worker": small,
      }),
    );
    const named = (name: string) => diff.find((r) => r.name === name)!;
    expect(diff.map((r) => [r.name, r.metadata.op]).sort()).toEqual([
      ["Instance.app", "replace"],
      ["Instance.worker", "create"],
      ["PublicIpAddress.old-ip", "delete"],
      ["Volume.data", "update"],
    ]);
    const volume = named("Volume.data");
    expect(num(volume.monthlyCost)).toBeCloseTo(70 * SSD_PER_GB, 8);
    expect(volume.costComponents).toHaveLength(1);
    expect(volume.costComponents[0]!.name).toBe("Storage (ssd.custom)");
    expect(num(volume.costComponents[0]!.monthlyQuantity)).toBe(70);
    expect(num(volume.costComponents[0]!.price)).toBe(0); // the same price
    const app = named("Instance.app");
    expect(num(app.monthlyCost)).toBeCloseTo(large - small, 8);
    expect(app.costComponents.map((c) => c.name)).toEqual([
      "vCPU (small, running → large, running)",
      "Memory (small, running → large, running)",
    ]);
    expect(num(app.costComponents[0]!.monthlyQuantity)).toBe(2 * HOURS);
    expect(num(app.costComponents[0]!.price)).toBeCloseTo(VCPU.large - VCPU.small, 10);
    const ip = named("PublicIpAddress.old-ip");
    expect(num(ip.monthlyCost)).toBe(-IP);
    expect(num(ip.costComponents[0]!.monthlyQuantity)).toBe(-1);
    expect(num(named("Instance.worker").monthlyCost)).toBeCloseTo(small, 8);
    const sum = diff.reduce((t, r) => t + num(r.monthlyCost), 0);
    expect(sum).toBeCloseTo(num(doc.diffTotalMonthlyCost), 8);
  });

  test("summary: priced, free (by type) and other providers' resources after the plan", () => {
    expect(doc.summary).toEqual({
      totalDetectedResources: 4 + 2 + 2,
      totalSupportedResources: 4,
      totalUnsupportedResources: 2,
      totalUsageBasedResources: 0,
      totalNoPriceResources: 2,
      noPriceResourceCounts: { "restcloud:index:FirewallRule": 2 },
    });
    expect(doc.projects[0]!.summary).toEqual(doc.summary);
  });

  test("the project is the Pulumi project and stack; the run's commit and pull request come from GitHub's variables", () => {
    expect(doc.projects[0]!.name).toBe("shop/dev");
    expect(doc.projects[0]!.metadata).toEqual({ path: "preview.json", type: "pulumi_preview_json" });
    expect(doc.metadata).toMatchObject({
      vcsBranch: "bigger-disk",
      vcsBaseBranch: "main",
      vcsCommitSha: env.GITHUB_SHA,
      vcsPullRequestId: "42",
      vcsRepositoryUrl: "https://github.com/acme/shop",
      vcsProvider: "github",
      vcsPipelineRunId: "987",
    });
    const bare = infracostReport(changes(), { path: "-", env: {} });
    expect(infracostSchemaErrors(bare)).toEqual([]);
    expect(bare.metadata.vcsBranch).toBe("");
    expect(bare.metadata.vcsCommitTimestamp).toBe("0001-01-01T00:00:00Z");
  });

  test("two resources of one kind and name (in different components) are told apart by their URNs", () => {
    const twins = estimateOf([
      priced("Volume", "data", "create", [], storage(10), "acme:App$"),
      priced("Volume", "data", "create", [], storage(20), "acme:Db$"),
    ]);
    const names = infracostReport(twins, { path: "-" }).projects[0]!.breakdown.resources.map((r) => r.name);
    expect(names.sort()).toEqual([urn("Volume", "data", "acme:App$"), urn("Volume", "data", "acme:Db$")]);
  });

  test("a value not known at preview: null (never 0), its reason in the name, left out of the totals", () => {
    const estimate = estimateOf([
      priced("Volume", "scratch", "create", [], storage(null)),
      priced("Volume", "grown", "update", storage(10), storage(null)),
      priced("PublicIpAddress", "ip", "create", [], [part("Public IP", "months", 1, IP)]),
    ]);
    const doc = infracostReport(estimate, { path: "-" });
    expect(infracostSchemaErrors(doc)).toEqual([]);
    // Those of unknown cost last.
    expect(doc.projects[0]!.breakdown.resources.map((r) => r.name)).toEqual([
      "PublicIpAddress.ip",
      "Volume.grown",
      "Volume.scratch",
    ]);
    const scratch = doc.projects[0]!.breakdown.resources[2]!;
    expect(scratch.monthlyCost).toBeNull();
    expect(scratch.costComponents[0]).toMatchObject({
      name: "Storage (ssd.custom, storage is known only after apply)",
      monthlyQuantity: null,
      hourlyQuantity: null,
      monthlyCost: null,
      hourlyCost: null,
      price: String(SSD_PER_GB),
      priceNotFound: false,
    });
    const grown = doc.projects[0]!.diff.resources.find((r) => r.name === "Volume.grown")!;
    expect(grown.monthlyCost).toBeNull();
    expect(grown.costComponents[0]!.monthlyCost).toBeNull();
    expect(num(doc.totalMonthlyCost)).toBe(IP);
    expect(num(doc.pastTotalMonthlyCost)).toBeCloseTo(10 * SSD_PER_GB, 8);
    expect(num(doc.diffTotalMonthlyCost)).toBe(IP); // the known differences only
  });

  test("a new stack: an empty pastBreakdown at 0; a stack as it is: before = after, no diff", () => {
    const created = infracostReport(estimateOf([priced("Instance", "web", "create", [], compute("small", 2, 4))]), {
      path: "-",
    });
    expect(infracostSchemaErrors(created)).toEqual([]);
    expect(created.projects[0]!.pastBreakdown).toEqual({
      resources: [],
      totalHourlyCost: "0",
      totalMonthlyCost: "0",
      totalMonthlyUsageCost: "0",
    });
    expect(num(created.diffTotalMonthlyCost)).toBeCloseTo(small, 8);

    const vpc = [part("VPC offering", "months", 1, VPC)];
    const state = infracostReport(estimateOf([priced("Vpc", "net", "same", vpc, vpc)], { source: "state" }), {
      path: "/project",
    });
    expect(infracostSchemaErrors(state)).toEqual([]);
    expect(state.projects[0]!.metadata.type).toBe("pulumi_stack_export");
    expect(state.projects[0]!.pastBreakdown).toEqual(state.projects[0]!.breakdown);
    expect(state.projects[0]!.diff.resources).toEqual([]);
    expect(state.diffTotalMonthlyCost).toBe("0");
  });

  test("decimals as Infracost writes them: plain, up to 10 places, no float noise", () => {
    expect(decimal(0.1 + 0.2)).toBe("0.3");
    expect(decimal(100)).toBe("100");
    expect(decimal(1e-7)).toBe("0.0000001");
    expect(decimal(-0)).toBe("0");
    expect(decimal(-1e-12)).toBe("0");
    expect(decimal(-3.5)).toBe("-3.5");
    expect(decimal(1234567.125)).toBe("1234567.125");
    expect(decimal(null)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------

const money = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (n: number) => `${n < 0 ? "-" : "+"}${money(Math.abs(n))}`;
const pct = (diff: number, past: number) => `${diff < 0 ? "-" : "+"}${Math.abs((diff / past) * 100).toFixed(1)}%`;

describe("--format markdown", () => {
  const text = estimateMarkdown(changes());
  const lines = text.split("\n");
  const row = (name: string) => lines.find((l) => l.startsWith(`| \`${name}\``));

  test("the marker, then the change in the heading, with its sign and percentage", () => {
    expect(lines[0]).toBe(MARKDOWN_MARKER);
    expect(lines[1]).toBe(`### Monthly cost rises by ${money(AFTER - PAST)} EUR (${pct(AFTER - PAST, PAST)})`);
  });

  test("a table of the resources whose cost changes, the largest change first, then the totals", () => {
    const header = lines.findIndex((l) => l.startsWith("| Resource |"));
    expect(lines[header]).toBe("| Resource | Change | Before (EUR/month) | After (EUR/month) | Difference |");
    expect(lines[header + 1]).toBe("| --- | --- | ---: | ---: | ---: |");
    const body = lines.slice(header + 2, lines.indexOf("", header));
    const diffs = { app: large - small, worker: small, data: 70 * SSD_PER_GB, ip: -IP };
    expect(body).toEqual([
      `| \`Instance app\` | replaced | ${money(small)} | ${money(large)} | ${signed(diffs.app)} |`,
      `| \`Instance worker\` | added | – | ${money(small)} | ${signed(diffs.worker)} |`,
      `| \`Volume data\` | changed | ${money(50 * SSD_PER_GB)} | ${money(120 * SSD_PER_GB)} | ${signed(diffs.data)} |`,
      `| \`PublicIpAddress old-ip\` | removed | ${money(IP)} | – | ${signed(diffs.ip)} |`,
      `| **Total** | | **${money(PAST)}** | **${money(AFTER)}** | **${signed(AFTER - PAST)} (${pct(AFTER - PAST, PAST)})** |`,
    ]);
    expect(row("Vpc net")).toBeUndefined(); // unchanged
    expect(row("FirewallRule https")).toBeUndefined(); // free
  });

  test("a footer: the currency, the unchanged and free resources, the notes", () => {
    const noted = estimateMarkdown(estimateOf(changes().resources as ResourceCost[], { notes: ["a note"] }));
    const footer = noted.trimEnd().split("\n").pop()!;
    expect(footer).toBe(
      "<sub>Prices in EUR from the API's cost catalog, 730 hours a month. 1 more resource with no change in cost. " +
        "Free: 2 × FirewallRule. Note: a note.</sub>",
    );
  });

  test("values not known until apply: marked in the rows and totals, listed with their reasons", () => {
    const estimate = estimateOf([
      priced("Volume", "scratch", "create", [], storage(null)),
      priced("PublicIpAddress", "ip", "create", [], [part("Public IP", "months", 1, IP)]),
    ]);
    const md = estimateMarkdown(estimate);
    expect(md).toContain("| `Volume scratch` | added | – | 0.00 + ? | ? |");
    expect(md).toContain(`| **Total** | | **0.00** | **${money(IP)} + ?** | **${signed(IP)} + ?** |`);
    expect(md).toContain(
      "**Not known until apply** (left out of the totals):\n\n- `Volume scratch`: Storage: storage is known only after apply\n",
    );
    expect(md.split("\n")[1]).toBe(`### Monthly cost rises by ${money(IP)} EUR, with some of it not known yet`);
  });

  test("a new stack has no percentage; no change says so; a stack as it is shows its total", () => {
    const created = estimateMarkdown(estimateOf([priced("Instance", "web", "create", [], compute("small", 2, 4))]));
    expect(created.split("\n")[1]).toBe(`### Monthly cost rises by ${money(small)} EUR`);
    expect(created).toContain(`| **Total** | | **0.00** | **${money(small)}** | **${signed(small)}** |`);
    const vpc = [part("VPC offering", "months", 1, VPC)];
    const same = estimateMarkdown(estimateOf([priced("Vpc", "net", "same", vpc, vpc)]));
    expect(same.split("\n")[1]).toBe("### Monthly cost: no change");
    expect(same).toContain(`| **Total** | | **${money(VPC)}** | **${money(VPC)}** | **0.00 (0.0%)** |`);
    const state = estimateMarkdown(estimateOf([priced("Vpc", "net", "same", vpc, vpc)], { source: "state" }));
    expect(state.split("\n")[1]).toBe(`### Monthly cost: ${money(VPC)} EUR`);
  });

  test("a saving falls, with a negative percentage", () => {
    const md = estimateMarkdown(estimateOf([priced("Volume", "data", "update", storage(100), storage(40))]));
    expect(md.split("\n")[1]).toBe(
      `### Monthly cost falls by ${money(60 * SSD_PER_GB)} EUR (${pct(-60 * SSD_PER_GB, 100 * SSD_PER_GB)})`,
    );
  });

  test("a name that would break the table is escaped", () => {
    const md = estimateMarkdown(estimateOf([priced("Volume", "a|b`c", "create", [], storage(1))]));
    expect(md).toContain("| `Volume a\\|b'c` | added |");
  });

  test("a large plan: 50 rows at most, the rest counted", () => {
    const many = Array.from({ length: 53 }, (_, i) => priced("Volume", `v${i}`, "create", [], storage(i + 1)));
    const md = estimateMarkdown(estimateOf(many));
    expect(md.split("\n").filter((l) => l.startsWith("| `Volume v"))).toHaveLength(50);
    expect(md).toContain("| … and 3 more | | | | |");
    expect(md).toContain("| `Volume v52` |"); // the largest first
    expect(md).not.toContain("| `Volume v0` |");
  });
});

// ---------------------------------------------------------------------------------------------

describe("budgets", () => {
  test("values: amounts and percentages; anything else names the flag", () => {
    expect(parseMaxMonthly("400")).toBe(400);
    expect(parseMaxMonthly("412.50")).toBe(412.5);
    expect(parseMaxIncrease("50")).toEqual({ amount: 50 });
    expect(parseMaxIncrease("12.5%")).toEqual({ percent: 12.5 });
    expect(parseMaxIncrease("0%")).toEqual({ percent: 0 });
    for (const bad of ["", "abc", "-5", "1,000", "400USD", "Infinity", "1e3", "10 %"])
      expect(() => parseMaxMonthly(bad)).toThrow(/^--max-monthly must be an amount/);
    for (const bad of ["", "ten", "-5%", "%", "5%%", "NaN"])
      expect(() => parseMaxIncrease(bad)).toThrow(/^--max-increase must be an amount .* or a percentage/);
  });

  const estimate = changes();
  const diff = AFTER - PAST;
  const check = (budget: Budget) => checkBudget(estimate, budget);

  test("within every limit: no line", () => {
    expect(check({ maxMonthly: Math.ceil(AFTER), maxIncrease: { amount: Math.ceil(diff) } }).overruns).toEqual([]);
    expect(check({ maxIncrease: { percent: Math.ceil((diff / PAST) * 100) } }).overruns).toEqual([]);
    expect(check({})).toEqual({ overruns: [], warnings: [] });
  });

  test("over --max-monthly: the total and the budget", () => {
    const limit = Math.floor(AFTER) - 1;
    expect(check({ maxMonthly: limit }).overruns).toEqual([
      `the monthly total ${money(AFTER)} EUR is over the budget of ${money(limit)} EUR (--max-monthly)`,
    ]);
  });

  test("over --max-increase: as an amount, as a percentage; both limits, two lines", () => {
    const amount = Math.floor(diff) - 1;
    const percent = Math.floor((diff / PAST) * 100) - 1;
    const shown = Number(((Math.round(diff * 100) / 100 / (Math.round(PAST * 100) / 100)) * 100).toFixed(2));
    expect(check({ maxIncrease: { amount } }).overruns).toEqual([
      `the monthly increase ${signed(diff)} EUR is over the limit of ${money(amount)} EUR (--max-increase)`,
    ]);
    expect(check({ maxIncrease: { percent } }).overruns).toEqual([
      `the monthly increase ${signed(diff)} EUR (+${shown}% of ${money(PAST)} EUR) is over the limit of ${percent}% (--max-increase)`,
    ]);
    expect(check({ maxMonthly: 1, maxIncrease: { amount: 1 } }).overruns).toHaveLength(2);
  });

  test("to the cent, as the report shows it: 400.004 is not over 400", () => {
    const at = estimateOf([priced("Volume", "data", "create", [], [part("Storage", "GB-months", 1, 400.004)])]);
    expect(checkBudget(at, { maxMonthly: 400 }).overruns).toEqual([]);
    const over = estimateOf([priced("Volume", "data", "create", [], [part("Storage", "GB-months", 1, 400.006)])]);
    expect(checkBudget(over, { maxMonthly: 400 }).overruns).toHaveLength(1);
  });

  test("from nothing, any increase is over a percentage limit; a saving is within any", () => {
    const created = estimateOf([priced("Instance", "web", "create", [], compute("small", 2, 4))]);
    expect(checkBudget(created, { maxIncrease: { percent: 1000 } }).overruns).toEqual([
      `the monthly increase ${signed(small)} EUR from 0.00 EUR is over the limit of 1000% (--max-increase)`,
    ]);
    const saving = estimateOf([priced("Volume", "data", "update", storage(100), storage(40))]);
    expect(checkBudget(saving, { maxIncrease: { amount: 0 } }).overruns).toEqual([]);
    expect(checkBudget(saving, { maxIncrease: { percent: 0 } }).overruns).toEqual([]);
  });

  test("costs not known until apply: within the limits, a warning says the check saw only the known costs", () => {
    const partly = estimateOf([
      priced("Volume", "scratch", "create", [], storage(null)),
      priced("PublicIpAddress", "ip", "create", [], [part("Public IP", "months", 1, IP)]),
    ]);
    expect(checkBudget(partly, { maxMonthly: 100 })).toEqual({
      overruns: [],
      warnings: ["1 cost component is not known until apply: the budget check saw only the known costs"],
    });
    expect(checkBudget(partly, {}).warnings).toEqual([]);
    expect(checkBudget(partly, { maxMonthly: 1 }).warnings).toEqual([]);
  });
});
