/**
 * `restcloud cost` on examples/vpc-web with the real Pulumi CLI, as a user runs it: a saved
 * `pulumi preview --json --show-sames` of the new stack priced (the total checked against a
 * computation from the emulator's catalog rows and the uuids the preview shows), then, once it is
 * up, a resize of its data volume through the wrapper (`restcloud cost --preview`, settings from the
 * stack's config): the delta; the stack as it is (`--from-stack`) in another currency; and the same
 * preview in the native mode (type tokens `restcloud:index:*`). The tables are printed.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { startEmulator } from "../../emulator";
import { providerConfig } from "./catalog-ids";
import { REPO_ROOT, TestStack } from "./harness";

jest.setTimeout(300_000);

const PROGRAM = path.join(REPO_ROOT, "examples", "vpc-web");
const CLI = path.join(REPO_ROOT, "dist", "provider", "cli.js");
const HOURS = 730;

interface Estimate {
  currency: string;
  totalMonthlyCost: number;
  pastTotalMonthlyCost: number;
  diffTotalMonthlyCost: number;
  unknownComponents: number;
  resources: { name: string; type: string; op: string; monthlyCost: number; diffMonthlyCost: number; free: boolean }[];
}

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let stack: TestStack;
let workDir: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
  stack = await TestStack.create({ programDir: PROGRAM, config: providerConfig(emulator.url) });
  workDir = fs.mkdtempSync(path.join(stack.tempDir, "cost-"));
});

afterAll(async () => {
  await stack?.dispose();
  await emulator?.stop();
});

const env = (): NodeJS.ProcessEnv => ({ ...process.env, ...(stack.stack.workspace as LocalWorkspace).envVars });

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in the program's directory with the stack's environment. Not spawnSync: the
 * emulator answers from this very process.
 */
function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROGRAM, env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const cost = (args: string[]): Promise<Run> =>
  run(process.execPath, [CLI, "cost", "--stack", stack.stack.name, ...args]);

async function costJson(args: string[]): Promise<Estimate> {
  const result = await cost([...args, "--format", "json"]);
  if (result.code !== 0) throw new Error(`restcloud cost failed (${result.code}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as Estimate;
}

/** The inputs of each restcloud resource of a preview, by kind and name, "Vpc web" (Pulumi's JSON, not our code). */
function inputsByName(preview: { steps: { urn: string; newState?: { inputs?: Record<string, unknown> } }[] }) {
  return new Map(
    preview.steps
      .filter((s) => /restcloud:/.test(s.urn) && s.newState?.inputs)
      .map((s) => {
        const [, , type, name] = s.urn.split("::");
        return [`${type!.split(":").pop()} ${name}`, s.newState!.inputs!] as const;
      }),
  );
}

/** What the preview's resources cost a month, computed here from the emulator's catalog rows. */
function expectedMonthly(inputs: Map<string, Record<string, unknown>>): number {
  const zone = emulator.context.catalog.zoneCatalog(inputs.get("Instance web-1")!.zoneUuid as string)!;
  const plan = zone.payAsYouGoOfferings.find((p) => p.uuid === inputs.get("Instance web-1")!.computeOfferingUuid)!;
  const instance =
    (plan.core * plan.instanceRunningCostVcpu + (plan.memory / 1024) * plan.instanceRunningCostMemory) * HOURS;
  const vpc = zone.vpcOfferings.find((o) => o.uuid === inputs.get("Vpc web")!.vpcOfferingUuid)!.totalCost;
  const tier = zone.networkOfferings.find(
    (o) => o.uuid === inputs.get("VpcTier frontend")!.networkOfferingUuid,
  )!.totalCost;
  const volumeInputs = inputs.get("Volume app-data")!;
  const storage = zone.storageOfferings.find((o) => o.uuid === volumeInputs.storageOfferingUuid)!;
  expect(storage.isCustom).toBe(true);
  const volume = (volumeInputs.size as number) * storage.customCostPerGb;
  return vpc + 2 * tier + 2 * instance + volume + zone.unitCosts.ipCost;
}

/** `pulumi preview --json --show-sames` of the stack, saved to a file as a user would. */
async function savedPreview(fileName: string): Promise<{ file: string; text: string }> {
  const preview = await run("pulumi", [
    "preview",
    "--json",
    "--show-sames",
    "--non-interactive",
    "--stack",
    stack.stack.name,
  ]);
  expect(preview.code).toBe(0);
  const file = path.join(workDir, fileName);
  fs.writeFileSync(file, preview.stdout);
  return { file, text: preview.stdout };
}

let newStackTotal: number;
/** The wrapper's estimate of the resize (dataSizeGb 50 -> 100) in the dynamic mode, for the native mode's to equal. */
let resizeEstimate: Estimate;

test("a saved preview of the new stack: each priced kind, the total from the catalog's rows", async () => {
  const { file: previewFile, text } = await savedPreview("preview.json");

  const estimate = await costJson([previewFile]);
  const expected = expectedMonthly(inputsByName(JSON.parse(text)));
  expect(estimate.totalMonthlyCost).toBeCloseTo(expected, 6);
  expect(estimate.pastTotalMonthlyCost).toBe(0);
  expect(estimate.diffTotalMonthlyCost).toBeCloseTo(expected, 6);
  expect(estimate.unknownComponents).toBe(0);
  expect(estimate.currency).toBe("EUR");
  const priced = estimate.resources.filter((r) => !r.free).map((r) => `${r.type} ${r.name}`);
  expect(priced.sort()).toEqual(
    [
      "Instance app-1",
      "Instance web-1",
      "PublicIpAddress web",
      "Volume app-data",
      "Vpc web",
      "VpcTier backend",
      "VpcTier frontend",
    ].sort(),
  );
  expect(
    estimate.resources
      .filter((r) => r.free)
      .map((r) => r.type)
      .sort(),
  ).toEqual(["EgressRule", "FirewallRule", "FirewallRule"]);
  newStackTotal = estimate.totalMonthlyCost;

  const table = await cost([previewFile]);
  expect(table.code).toBe(0);
  console.log(`restcloud cost preview.json (examples/vpc-web, a new stack):\n${table.stdout}`);
  expect(table.stdout).toContain(`Total monthly cost`);
  expect(table.stdout).toContain(newStackTotal.toFixed(2));
});

test("after up, a resize of the data volume through the wrapper: the delta is the added GB", async () => {
  await stack.up();
  await stack.setConfig("dataSizeGb", "100");

  const estimate = (resizeEstimate = await costJson(["--preview"]));
  const volume = estimate.resources.find((r) => r.name === "app-data")!;
  expect(volume.op).toBe("update");
  const zone = emulator.context.catalog.zoneCatalog(emulator.context.catalog.zones[0]!.uuid)!;
  const perGb = zone.storageOfferings.find((o) => o.isCustom && o.name.startsWith("ssd"))!.customCostPerGb;
  expect(volume.diffMonthlyCost).toBeCloseTo(50 * perGb, 6);
  expect(estimate.pastTotalMonthlyCost).toBeCloseTo(newStackTotal, 6);
  expect(estimate.diffTotalMonthlyCost).toBeCloseTo(50 * perGb, 6);
  expect(estimate.resources.filter((r) => r.op !== "same").map((r) => r.name)).toEqual(["app-data"]);

  const table = await cost(["--preview"]);
  expect(table.code).toBe(0);
  console.log(`restcloud cost --preview (examples/vpc-web, dataSizeGb 50 -> 100):\n${table.stdout}`);
});

test("the stack as it is, in another currency", async () => {
  const estimate = await costJson(["--from-stack", "--currency", "USD"]);
  const usd = emulator.context.catalog.currencies.find((c) => c.currency === "USD")!;
  const base = emulator.context.catalog.currencies.find((c) => c.isDefaultCurrency === "true")!;
  expect(estimate.currency).toBe("USD");
  expect(estimate.totalMonthlyCost).toBeCloseTo((newStackTotal * usd.cost) / base.cost, 6);
  expect(estimate.diffTotalMonthlyCost).toBe(0);
});

test("the same preview in the native mode reads restcloud:index:* and prices the same", async () => {
  // The dynamic mode's estimate of the same change: the resize's, above (the stack and config are as they were then).
  const dynamicEstimate = resizeEstimate;
  await stack.setConfig("restcloud:mode", "native");
  const workspace = stack.stack.workspace as LocalWorkspace;
  workspace.envVars.PATH = [path.join(REPO_ROOT, "plugin"), workspace.envVars.PATH].join(path.delimiter);

  const { file, text } = await savedPreview("native-preview.json");
  expect(text).toContain('"type": "restcloud:index:Instance"');
  const estimate = await costJson([file]);
  expect(estimate.totalMonthlyCost).toBeCloseTo(dynamicEstimate.totalMonthlyCost, 6);
  expect(estimate.diffTotalMonthlyCost).toBeCloseTo(dynamicEstimate.diffTotalMonthlyCost, 6);
  expect(estimate.resources.filter((r) => !r.free)).toHaveLength(7);
});
