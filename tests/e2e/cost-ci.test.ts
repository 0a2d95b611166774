/**
 * The CI recipe of docs/cost-in-ci.md, run here as GitHub Actions would run it: the `run:` steps of
 * docs/ci/github-actions-cost.yml, read from that file (so that the recipe cannot drift from what
 * is tested), each in `bash --noprofile --norc -eo pipefail` (the workflow's `shell: bash`) in the
 * Pulumi project's directory, with the job's and the step's `env` and their `${{ }}` expressions
 * evaluated, against the emulator with the real Pulumi CLI, on examples/vpc-web.
 *
 * What stands in for GitHub, and only that:
 * - the `uses:` steps: Node 22 and the Pulumi CLI are on PATH already (the harness's), and the
 *   checkout is a copy of examples/vpc-web in a temporary directory (the workflow's `infra`);
 * - `npm ci` (the install step): the project's node_modules links this checkout's package, its
 *   `@pulumi/pulumi` and `typescript`, and its two bins, as installing the packed package would;
 * - the repository's variables and secrets: the test's file backend and its passphrase; no API URL
 *   (so the emulator step runs), no keys (the demo account);
 * - the pull request: number 123, and `gh` and `infracost` are stand-ins that record their
 *   arguments (and what `gh` would post): posting a comment needs a real pull request, and
 *   Infracost's CLI a download. The JSON that `infracost` would read is validated against Infracost's
 *   published schema instead;
 * - the emulator's port: a free one for the workflow's 8080;
 * - the pull request itself: the stack is deployed first as it is (the base branch), then
 *   `dataSizeGb` goes from 50 to 100 (the change), so the preview has a difference to price.
 *
 * Then the comment's figures, the Infracost JSON's and the budget check (under and over: exit codes
 * and the lines on standard error) are checked against figures computed here from the emulator's
 * catalog rows (fetched over HTTP) and the inputs the preview shows.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { DEMO_KEYS } from "./catalog-ids";
import { REPO_ROOT, TestStack } from "./harness";
import { freePort } from "./reliability/helpers";
import { linkPackageInto, stopGroup } from "./readme-steps";
import { infracostSchemaErrors } from "../unit/cost/infracost-schema";

// js-yaml comes with @pulumi/pulumi (a dependency of it), without its types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require("js-yaml") as { load: (text: string) => unknown };

jest.setTimeout(600_000);

const WORKFLOW = path.join(REPO_ROOT, "docs", "ci", "github-actions-cost.yml");
const PROGRAM = path.join(REPO_ROOT, "examples", "vpc-web");
const HOURS = 730;
const PULL_REQUEST = "123";
const WORKFLOW_PORT = "8080";

// ---------------------------------------------------------------------------------------------
// The workflow, and its expressions
// ---------------------------------------------------------------------------------------------

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Job {
  defaults?: { run?: { shell?: string; "working-directory"?: string } };
  env: Record<string, string>;
  steps: Step[];
}

/** The contexts an expression may read: anything else fails the test (the recipe grew what this does not know). */
interface Contexts {
  vars: Record<string, string>;
  secrets: Record<string, string>;
  env: Record<string, string>;
  github: { token: string; event: { pull_request: { number: string } } };
}

/**
 * A GitHub Actions expression of the forms the workflow uses: property paths (`vars.X`,
 * `github.event.pull_request.number`), '...' literals, `a || b`, `a == b`, `a != b`.
 */
function evaluate(expression: string, contexts: Contexts): string | boolean {
  const or = expression.split("||").map((s) => s.trim());
  if (or.length > 1) {
    for (const operand of or) {
      const value = evaluate(operand, contexts);
      if (value !== "" && value !== false) return value;
    }
    return evaluate(or[or.length - 1]!, contexts);
  }
  const comparison = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(expression);
  if (comparison) {
    const equal = evaluate(comparison[1]!, contexts) === evaluate(comparison[3]!, contexts);
    return comparison[2] === "==" ? equal : !equal;
  }
  const literal = /^'([^']*)'$/.exec(expression);
  if (literal) return literal[1]!;
  const [context, ...keys] = expression.split(".");
  if (!context || !(context in contexts) || keys.length === 0) throw new Error(`unknown expression: ${expression}`);
  let value: unknown = contexts[context as keyof Contexts];
  for (const key of keys) value = (value as Record<string, unknown>)[key];
  if (context === "github" && typeof value !== "string") throw new Error(`unknown expression: ${expression}`);
  return typeof value === "string" ? value : "";
}

/** A value with its `${{ }}` expressions evaluated. */
const interpolate = (text: string, contexts: Contexts): string =>
  text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => String(evaluate(expression, contexts)));

// ---------------------------------------------------------------------------------------------
// The project, the stand-ins, the stack
// ---------------------------------------------------------------------------------------------

let work: string;
let project: string;
let port: string;
let job: Job;
let stack: TestStack;
let contexts: Contexts;
let emulatorGroup: number | undefined;
const apiUrl = () => `http://127.0.0.1:${port}`;

/** An executable script. */
function script(file: string, body: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

beforeAll(async () => {
  port = String(await freePort());
  const text = fs.readFileSync(WORKFLOW, "utf8");
  const workflow = yaml.load(text.replaceAll(WORKFLOW_PORT, port)) as { jobs: Record<string, Job> };
  job = workflow.jobs.cost!;

  work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-cost-ci-"));
  // The checkout: the program in the workflow's working directory, its packages as `npm ci` leaves them.
  project = path.join(work, job.defaults!.run!["working-directory"]!);
  fs.mkdirSync(project);
  for (const file of ["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"])
    fs.copyFileSync(path.join(PROGRAM, file), path.join(project, file));
  linkPackageInto(project);
  // gh and infracost: they record their arguments (gh what it would post), one call a line.
  const shims = path.join(work, "shims");
  script(
    path.join(shims, "gh"),
    `echo "gh $*" >> "${path.join(work, "calls.log")}"\n` +
      `while [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" "${path.join(work, "posted.md")}"; shift; done`,
  );
  script(path.join(shims, "infracost"), `echo "infracost $*" >> "${path.join(work, "calls.log")}"`);

  // The workflow's stack, in the test's own backend.
  stack = await TestStack.create({ programDir: project, stackName: job.env.PULUMI_STACK });
  const workspace = stack.stack.workspace as LocalWorkspace;
  contexts = {
    // The repository's settings: the test's backend; no API (the emulator), no keys (its demo account).
    vars: { PULUMI_BACKEND_URL: workspace.envVars.PULUMI_BACKEND_URL! },
    secrets: {
      PULUMI_CONFIG_PASSPHRASE: workspace.envVars.PULUMI_CONFIG_PASSPHRASE!,
      INFRACOST_API_KEY: "ico-test",
      // The emulator's demo account, as the recipe's doc says to set them when it tries the emulator.
      RESTCLOUD_API_KEY: DEMO_KEYS.apiKey,
      RESTCLOUD_SECRET_KEY: DEMO_KEYS.secretKey,
    },
    env: {},
    github: { token: "test-token", event: { pull_request: { number: PULL_REQUEST } } },
  };
  contexts.env = Object.fromEntries(Object.entries(job.env).map(([k, v]) => [k, interpolate(String(v), contexts)]));
  // The stack's own deployment (the Automation API) sees the API as the workflow's steps do.
  for (const key of ["RESTCLOUD_API_URL", "RESTCLOUD_API_KEY", "RESTCLOUD_SECRET_KEY"])
    workspace.envVars[key] = contexts.env[key]!;
});

afterAll(async () => {
  await stack?.dispose();
  stopGroup(emulatorGroup);
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a step: the runner's (PATH with Node 22, pulumi and the stand-ins; the stack's backend), the job's, the step's. */
function stepEnv(step: Step, overrides: Record<string, string>): NodeJS.ProcessEnv {
  const workspace = stack.stack.workspace as LocalWorkspace;
  const runner: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm_|INIT_CWD$|NODE_OPTIONS$|NODE_ENV$|JEST_|PULUMI_|RESTCLOUD_|GITHUB_|INFRACOST_)/i.test(key))
      runner[key] = value;
  const stepOwn = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(String(v), contexts)]),
  );
  return {
    ...runner,
    ...workspace.envVars,
    PATH: [path.join(work, "shims"), workspace.envVars.PATH].join(path.delimiter),
    npm_config_offline: "true", // npx finds the project's bins; it must never fetch anything
    npm_config_update_notifier: "false",
    ...contexts.env,
    ...stepOwn,
    ...overrides,
  };
}

/** The workflow's step of this id. */
function step(id: string): Step {
  const found = job.steps.find((s) => s.id === id);
  if (!found?.run) throw new Error(`the workflow has no run step ${id}`);
  return found;
}

/**
 * Runs a step's `run:` as the workflow's `shell: bash` does, in the project's directory, in a
 * process group of its own (returned, for what it leaves in the background).
 */
function runStep(id: string, overrides: Record<string, string> = {}): Promise<Run & { group: number }> {
  const s = step(id);
  if (s.if !== undefined && evaluate(s.if, contexts) !== true) throw new Error(`step ${id} would be skipped: ${s.if}`);
  const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", interpolate(s.run!, contexts)], {
    cwd: project,
    env: stepEnv(s, overrides),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr, group: child.pid! }));
  });
}

async function runOk(id: string): Promise<Run> {
  const run = await runStep(id);
  if (run.code !== 0) throw new Error(`step ${id}: exit ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run;
}

// ---------------------------------------------------------------------------------------------
// The expected figures, from the catalog rows and the preview's inputs
// ---------------------------------------------------------------------------------------------

async function api<T>(operation: string, query: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${apiUrl()}/restapi/costestimate/${operation}?${new URLSearchParams(query)}`, {
    headers: { apikey: DEMO_KEYS.apiKey, secretkey: DEMO_KEYS.secretKey },
  });
  if (!response.ok) throw new Error(`GET ${operation}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

type Inputs = Record<string, unknown>;
interface PreviewStep {
  urn: string;
  op: string;
  oldState?: { inputs?: Inputs };
  newState?: { inputs?: Inputs };
}

/** Each restcloud resource's inputs before and after, by "Kind name" (Pulumi's JSON, not our code). */
function inputsOf(preview: { steps: PreviewStep[] }, side: "oldState" | "newState"): Map<string, Inputs> {
  return new Map(
    preview.steps
      .filter((s) => /restcloud:/.test(s.urn) && s[side]?.inputs)
      .map((s) => {
        const [, , type, name] = s.urn.split("::");
        return [`${type!.split(":").pop()} ${name}`, s[side]!.inputs!] as const;
      }),
  );
}

/** What vpc-web's resources cost a month, from the zone's rows: compute and templates per hour, storage per GB, offerings and IPs per month. */
async function monthly(inputs: Map<string, Inputs>): Promise<Record<string, number>> {
  const get = (name: string) => inputs.get(name)!;
  const zoneUuid = get("Vpc web").zoneUuid as string;
  type Plan = {
    uuid: string;
    core: number;
    memory: number;
    instanceRunningCostVcpu: number;
    instanceRunningCostMemory: number;
  };
  const plans = (
    await api<{ payAsYouGoOfferingCost: Plan[] }>("compute-plan-list", {
      zoneUuid,
      computeOfferingType: "PAY_AS_YOU_GO",
    })
  ).payAsYouGoOfferingCost;
  const templates = (
    await api<{ listTemplateCost: { uuid: string; cost: number }[] }>("template-list", {
      zoneUuid,
      platform: "LINUX",
      distribution: "OS_ONLY",
    })
  ).listTemplateCost;
  type Offering = { uuid: string; cost: number; haCost: number };
  const vpcs = (await api<{ vpcOfferingCost: Offering[] }>("vpcoffering-list", { zoneUuid })).vpcOfferingCost;
  const networks = (await api<{ listOfferingCost: Offering[] }>("networkoffering-list", { zoneUuid })).listOfferingCost;
  const storage = (
    await api<{ listStorageCost: { uuid: string; isCustom: boolean; customCostPerGb: number }[] }>(
      "storage-plan-list",
      {
        zoneUuid,
      },
    )
  ).listStorageCost;
  const { ipCost } = await api<{ ipCost: number }>("ip-cost", { zoneUuid });

  const offering = (rows: Offering[], uuid: unknown) => {
    const o = rows.find((r) => r.uuid === uuid)!;
    return o.cost + o.haCost;
  };
  const instance = (name: string) => {
    const i = get(name);
    const plan = plans.find((p) => p.uuid === i.computeOfferingUuid)!;
    const template = templates.find((t) => t.uuid === i.templateUuid)!;
    return (
      (plan.core * plan.instanceRunningCostVcpu +
        (plan.memory / 1024) * plan.instanceRunningCostMemory +
        template.cost) *
      HOURS
    );
  };
  const volume = get("Volume app-data");
  const plan = storage.find((s) => s.uuid === volume.storageOfferingUuid)!;
  expect(plan.isCustom).toBe(true); // billed by the GB asked for
  return {
    "Vpc web": offering(vpcs, get("Vpc web").vpcOfferingUuid),
    "VpcTier frontend": offering(networks, get("VpcTier frontend").networkOfferingUuid),
    "VpcTier backend": offering(networks, get("VpcTier backend").networkOfferingUuid),
    "Instance web-1": instance("Instance web-1"),
    "Instance app-1": instance("Instance app-1"),
    "Volume app-data": (volume.size as number) * plan.customCostPerGb,
    "PublicIpAddress web": ipCost,
  };
}

const sum = (costs: Record<string, number>) => Object.values(costs).reduce((a, b) => a + b, 0);
const money = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (n: number) => `${n < 0 ? "-" : "+"}${money(Math.abs(n))}`;

// ---------------------------------------------------------------------------------------------
// The recipe
// ---------------------------------------------------------------------------------------------

test("the workflow: its run steps are the ones this test runs, its expressions the ones it evaluates", () => {
  expect(job.defaults?.run?.shell).toBe("bash");
  expect(job.steps.filter((s) => s.run).map((s) => s.id)).toEqual([
    "install",
    "emulator",
    "stack",
    "preview",
    "comment-body",
    "post-comment",
    "infracost-json",
    "infracost-output",
    "policy",
    "budget",
  ]);
  expect(job.steps.filter((s) => s.uses).map((s) => s.uses!.split("@")[0])).toEqual([
    "actions/checkout",
    "actions/setup-node",
    "pulumi/actions",
    "infracost/actions/setup",
    "actions/upload-artifact",
  ]);
  expect(step("install").run!.trim()).toBe("npm ci"); // stood in for by the project's node_modules
  // Every expression of the job evaluates (an unknown one throws).
  for (const s of job.steps) {
    if (s.if) evaluate(s.if, contexts);
    for (const text of [s.run ?? "", ...Object.values(s.env ?? {})]) interpolate(String(text), contexts);
  }
  expect(contexts.env.RESTCLOUD_API_URL).toBe(apiUrl());
  expect(evaluate(step("emulator").if!, contexts)).toBe(true);
  // Without an API in the repository's variables, the workflow starts the emulator; with one, not.
  expect(evaluate(step("emulator").if!, { ...contexts, vars: { RESTCLOUD_API_URL: "https://api.example" } })).toBe(
    false,
  );
});

let preview: { steps: PreviewStep[] };
let before: Record<string, number>;
let after: Record<string, number>;

test("the emulator starts; the stack is up (the base branch); the pull request's preview is saved", async () => {
  const emulator = await runStep("emulator");
  emulatorGroup = emulator.group;
  expect(emulator.code).toBe(0);
  expect(fs.readFileSync(path.join(project, "emulator.log"), "utf8")).toContain(`listening on ${apiUrl()}`);

  await stack.up(); // the base branch, deployed: its data volume of 50 GB
  await stack.setConfig("dataSizeGb", "100"); // the pull request's change

  await runOk("stack");
  await runOk("preview");
  preview = JSON.parse(fs.readFileSync(path.join(project, "preview.json"), "utf8")) as { steps: PreviewStep[] };
  expect(preview.steps.find((s) => s.urn.endsWith("::app-data"))?.op).toBe("update");
  before = await monthly(inputsOf(preview, "oldState"));
  after = await monthly(inputsOf(preview, "newState"));
});

test("the comment body: the totals before and after, the change with its percentage, the resized volume; posted as written", async () => {
  const run = await runOk("comment-body");
  expect(run.stdout).toBe(""); // into comment.md
  const comment = fs.readFileSync(path.join(project, "comment.md"), "utf8");
  console.log(`comment.md (examples/vpc-web, dataSizeGb 50 -> 100):\n${comment}`);
  const [past, now] = [sum(before), sum(after)];
  const diff = now - past;
  const percent = `+${((diff / past) * 100).toFixed(1)}%`;
  const lines = comment.split("\n");
  expect(lines[0]).toBe("<!-- restcloud-cost -->");
  expect(lines[1]).toBe(`### Monthly cost rises by ${money(diff)} EUR (${percent})`);
  const volume = [before["Volume app-data"]!, after["Volume app-data"]!];
  expect(lines.filter((l) => l.startsWith("| `"))).toEqual([
    `| \`Volume app-data\` | changed | ${money(volume[0]!)} | ${money(volume[1]!)} | ${signed(volume[1]! - volume[0]!)} |`,
  ]);
  expect(lines).toContain(
    `| **Total** | | **${money(past)}** | **${money(now)}** | **${signed(diff)} (${percent})** |`,
  );
  expect(comment).toContain("Prices in EUR from the API's cost catalog");
  // The others: the priced ones left alone, and the free kinds (by name), counted from the preview's steps.
  const free = new Map<string, number>();
  for (const s of preview.steps) {
    const kind = s.urn.split("::")[2]!.split(":").pop()!;
    if (/restcloud:/.test(s.urn) && !(`${kind} ${s.urn.split("::").pop()}` in after))
      free.set(kind, (free.get(kind) ?? 0) + 1);
  }
  const freeText = [...free]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${n} × ${kind}`)
    .join(", ");
  expect(freeText).toBe("1 × EgressRule, 2 × FirewallRule");
  expect(comment).toContain(
    `${Object.keys(after).length - 1} more resources with no change in cost. Free: ${freeText}.`,
  );

  await runOk("post-comment");
  const calls = fs.readFileSync(path.join(work, "calls.log"), "utf8").trim().split("\n");
  expect(calls).toEqual([`gh pr comment ${PULL_REQUEST} --body-file comment.md --edit-last --create-if-none`]);
  expect(fs.readFileSync(path.join(work, "posted.md"), "utf8")).toBe(comment);
});

test("the Infracost JSON: valid against Infracost's schema, the catalog's figures; handed to infracost output", async () => {
  await runOk("infracost-json");
  const doc = JSON.parse(fs.readFileSync(path.join(project, "infracost.json"), "utf8")) as {
    totalMonthlyCost: string;
    pastTotalMonthlyCost: string;
    diffTotalMonthlyCost: string;
    currency: string;
    projects: { name: string; diff: { resources: { name: string; monthlyCost: string }[] } }[];
  };
  expect(infracostSchemaErrors(doc)).toEqual([]);
  expect(doc.currency).toBe("EUR");
  expect(Number(doc.totalMonthlyCost)).toBeCloseTo(sum(after), 6);
  expect(Number(doc.pastTotalMonthlyCost)).toBeCloseTo(sum(before), 6);
  expect(Number(doc.diffTotalMonthlyCost)).toBeCloseTo(sum(after) - sum(before), 6);
  expect(doc.projects[0]!.name).toBe(`restcloud-vpc-web/${stack.stack.name}`);
  expect(doc.projects[0]!.diff.resources.map((r) => [r.name, Number(r.monthlyCost)])).toEqual([
    ["Volume.app-data", expect.closeTo(after["Volume app-data"]! - before["Volume app-data"]!, 6)],
  ]);

  fs.writeFileSync(path.join(work, "calls.log"), "");
  await runOk("infracost-output");
  expect(fs.readFileSync(path.join(work, "calls.log"), "utf8").trim().split("\n")).toEqual([
    "infracost output --path infracost.json --format html --out-file cost.html",
    "infracost output --path infracost.json --format slack-message --out-file slack-message.json",
  ]);
});

test("the policy check: the restcloud policy pack passes the pull request's preview, the API from RESTCLOUD_*", async () => {
  const run = await runOk("policy");
  expect(run.stdout).toMatch(/✅ restcloud-guardrails@v0\.1\.0 \(local: node_modules\/\.bin\/restcloud-policy\)/);
  expect(JSON.parse(fs.readFileSync(path.join(project, "policy-config.json"), "utf8"))).toEqual({
    "monthly-budget": { maxMonthly: Number(contexts.env.MAX_MONTHLY) },
  });
});

test("the budget check: within the budgets, exit 0; over both, exit 3 and one line each on standard error", async () => {
  const [past, now] = [sum(before), sum(after)];
  const diff = now - past;
  const cents = (n: number) => Math.round(n * 100) / 100;
  const percent = Number(((cents(diff) / cents(past)) * 100).toFixed(2));

  const within = await runStep("budget", {
    MAX_MONTHLY: String(Math.ceil(now) + 1),
    MAX_INCREASE: `${Math.ceil(percent) + 1}%`,
  });
  expect(within.code).toBe(0);
  expect(within.stdout).toMatch(/^Monthly cost estimate/);
  expect(within.stderr.split("\n").filter((l) => l.startsWith("restcloud cost:"))).toEqual([]);

  const maxMonthly = Math.floor(now) - 1;
  const maxIncrease = Math.floor(percent) - 1;
  const over = await runStep("budget", { MAX_MONTHLY: String(maxMonthly), MAX_INCREASE: `${maxIncrease}%` });
  console.log(
    `the budget step, over both budgets (MAX_MONTHLY=${maxMonthly} MAX_INCREASE=${maxIncrease}%): exit ${over.code}\n` +
      `--- stdout\n${over.stdout}--- stderr\n${over.stderr}`,
  );
  expect(over.code).toBe(3);
  expect(over.stdout).toBe(within.stdout); // the report, whole, first
  expect(over.stderr.split("\n").filter((l) => l.startsWith("restcloud cost:"))).toEqual([
    `restcloud cost: the monthly total ${money(now)} EUR is over the budget of ${money(maxMonthly)} EUR (--max-monthly)`,
    `restcloud cost: the monthly increase ${signed(diff)} EUR (+${percent}% of ${money(past)} EUR) is over the limit of ${maxIncrease}% (--max-increase)`,
  ]);

  // As the workflow has them.
  const asWritten = await runStep("budget");
  const overAsWritten =
    cents(now) > Number(contexts.env.MAX_MONTHLY) || percent > parseFloat(contexts.env.MAX_INCREASE!);
  expect(asWritten.code).toBe(overAsWritten ? 3 : 0);
});
