/**
 * Stacks sharing a parent (issue: "records know their stack"): a network stack makes a VPC and a
 * tier; five app stacks, deployed at once as parallel CI jobs would, each acquire three public IPs on
 * that VPC with a firewall rule on each, and put an egress rule for their own port on the shared
 * tier, while the service loses the answer (503 after processing) to 30% of those creates and of
 * the owner tags' creates. Per seed (a fresh emulator each):
 *
 * - every app stack's `pulumi up` converges, a second `up` at most (faults still on);
 * - across all six states: no id held by two stacks (or two resources), no record that no stack
 *   holds, none held that the account does not have;
 * - every app stack destroys cleanly, then the network stack, and the account is empty.
 *
 * The file prints, per seed, the ups each stack needed, the faults fired and the first up's error
 * where there was one. Used by one test file per mode, so that the modes run side by side.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog } from "../catalog-ids";
import { TestStack, type StackOptions } from "../harness";
import {
  PROGRAMS,
  RESOURCE_COLLECTIONS,
  catalogConfig,
  clearFaultLog,
  faultLog,
  managedRecords,
  setFaultRules,
  stateResources,
} from "./helpers";
import * as path from "node:path";

export const SHARED_PARENT_PROGRAM = path.join(PROGRAMS, "shared-parent");
export const APP_STACKS = 5;
const IPS_PER_APP = 3;
const LOST_ANSWERS = 0.3;
const CREATES = ["acquireIpAddress", "createFirewallRule", "createEgressRule", "createTags"];

export interface SharedParentReport {
  mode: string;
  seed: number;
  stacks: string[];
  /** The account's records once every stack converged. */
  records: number;
  /** Ups each app stack needed to converge. */
  ups: number[];
  /** Answers lost, by operation. */
  faults: Record<string, number>;
  sharedIds: string[];
  orphans: string[];
  lost: string[];
  /** The first up's error of each stack that needed a second, shortened. */
  firstErrors: string[];
  seconds: number;
}

/** Holders of every record across several stacks' states, and the account's records none holds. */
async function auditStacks(apiUrl: string, stacks: readonly TestStack[]) {
  const holders = new Map<string, string[]>();
  for (const stack of stacks) {
    for (const r of await stateResources(stack)) {
      const key = `${RESOURCE_COLLECTIONS[r.kind]}/${r.id}`;
      holders.set(key, [...(holders.get(key) ?? []), `${stack.stack.name}:${r.name}`]);
    }
  }
  const inAccount = new Set<string>();
  let records = 0;
  for (const [collection, byId] of await managedRecords(apiUrl))
    for (const id of Object.keys(byId)) {
      inAccount.add(`${collection}/${id}`);
      records++;
    }
  return {
    records,
    sharedIds: [...holders].filter(([, h]) => h.length > 1).map(([key, h]) => `${key} (${h.join(", ")})`),
    orphans: [...inAccount].filter((key) => !holders.has(key)),
    lost: [...holders.keys()].filter((key) => !inAccount.has(key)),
  };
}

const firstLine = (error: unknown) =>
  (String(error instanceof Error ? error.message : error).match(/error: .*/g) ?? [String(error).slice(0, 300)])
    .slice(-1)[0]
    .slice(0, 300);

/** How a run makes its stacks, and what it does while they stand (a team's runners: teams/shared-backend.test.ts). */
export interface SharedParentOptions {
  /** Makes a stack; default: TestStack.create (a file backend and a PULUMI_HOME of the stack's own). */
  newStack?: (options: StackOptions, index: number) => Promise<TestStack>;
  /** Before the stacks' names (which name their settings files beside the shared program). */
  stackPrefix?: string;
  appStacks?: number;
  /** Runs once the stacks are deployed and audited, before their destroys. */
  whileDeployed?: (deployed: DeployedStacks) => Promise<void>;
}

export interface DeployedStacks {
  apiUrl: string;
  network: TestStack;
  apps: TestStack[];
  parent: { vpcUuid: string; tierUuid: string };
}

/** The network stack up, and the app stacks on its VPC and tier (not yet up). */
async function sharedParentStacks(
  apiUrl: string,
  mode: string,
  modeConfig: Record<string, string>,
  seed: number,
  options: SharedParentOptions,
  stacks: TestStack[],
): Promise<DeployedStacks> {
  const newStack = options.newStack ?? ((stackOptions: StackOptions) => TestStack.create(stackOptions));
  const prefix = options.stackPrefix ?? "";
  const base = { ...catalogConfig(apiUrl, await discoverCatalog(apiUrl)), ...modeConfig };
  const network = await newStack(
    {
      programDir: SHARED_PARENT_PROGRAM,
      stackName: `${prefix}network-${mode}-${seed}`,
      config: { ...base, role: "network" },
    },
    0,
  );
  stacks.push(network);
  const parent = (await network.up()).outputs as { vpcUuid: string; tierUuid: string };
  const apps = await Promise.all(
    Array.from({ length: options.appStacks ?? APP_STACKS }, (_, i) =>
      newStack(
        {
          programDir: SHARED_PARENT_PROGRAM,
          stackName: `${prefix}app-${i + 1}-${mode}-${seed}`,
          config: {
            ...base,
            role: "app",
            appIndex: String(i + 1),
            ipCount: String(IPS_PER_APP),
            vpcUuid: parent.vpcUuid,
            tierUuid: parent.tierUuid,
          },
        },
        i + 1,
      ),
    ),
  );
  stacks.push(...apps);
  return { apiUrl, network, apps, parent };
}

/** Every app stack up at once under lost answers (a second up when the first fails); the faults fired. */
async function upUnderFaults(apiUrl: string, apps: readonly TestStack[]) {
  await setFaultRules(apiUrl, [{ operation: CREATES, effect: "status", when: "after", probability: LOST_ANSWERS }]);
  await clearFaultLog(apiUrl);
  const firstErrors: string[] = [];
  const ups = await Promise.all(
    apps.map(async (stack) => {
      try {
        await stack.up();
        return 1;
      } catch (error) {
        firstErrors.push(`${stack.stack.name}: ${firstLine(error)}`);
        await stack.up();
        return 2;
      }
    }),
  );
  const faults: Record<string, number> = {};
  for (const entry of await faultLog(apiUrl)) {
    const operation = entry.operation ?? "?";
    faults[operation] = (faults[operation] ?? 0) + 1;
  }
  return { ups, faults, firstErrors };
}

export async function runSharedParent(
  mode: string,
  modeConfig: Record<string, string>,
  seed: number,
  options: SharedParentOptions = {},
): Promise<SharedParentReport> {
  const started = Date.now();
  let emulator: RunningEmulator | undefined;
  const stacks: TestStack[] = [];
  try {
    emulator = await startEmulator({ port: 0, seed, asyncDelayMs: 20 });
    const deployed = await sharedParentStacks(emulator.url, mode, modeConfig, seed, options, stacks);
    const { ups, faults, firstErrors } = await upUnderFaults(emulator.url, deployed.apps);
    const audit = await auditStacks(emulator.url, stacks);
    await options.whileDeployed?.(deployed);

    // Every app stack destroys (the answers to creates still lost: destroys send none), then the parent's.
    await Promise.all(deployed.apps.map((stack) => stack.destroy()));
    await deployed.network.destroy();
    const after = await auditStacks(emulator.url, stacks);
    if (after.records !== 0) throw new Error(`records left after every destroy: ${after.orphans.join(", ")}`);
    return {
      mode,
      seed,
      stacks: stacks.map((stack) => stack.stack.name),
      records: audit.records,
      ups,
      faults,
      sharedIds: audit.sharedIds,
      orphans: audit.orphans,
      lost: audit.lost,
      firstErrors,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await Promise.all(stacks.map((stack) => stack.dispose()));
    await emulator?.stop();
  }
}

/**
 * What every run of stacks sharing a parent must show: each stack converged within two ups, no record
 * held twice, none orphaned or lost, and the lost answers did fire on the shared parent's creates.
 */
export function expectConverged(report: SharedParentReport): void {
  expect(report.ups.every((n) => n <= 2)).toBe(true);
  expect({ sharedIds: report.sharedIds, orphans: report.orphans, lost: report.lost }).toEqual({
    sharedIds: [],
    orphans: [],
    lost: [],
  });
  expect(report.faults.acquireIpAddress ?? 0).toBeGreaterThan(0);
}

export function printReports(reports: readonly SharedParentReport[]): void {
  console.log(
    reports
      .map(
        (r) =>
          `${r.mode} mode, seed ${r.seed}: ${r.stacks.length} stacks, ${r.records} records; ups per app stack ${r.ups.join(" ")}; answers lost ` +
          `${JSON.stringify(r.faults)}; shared ids ${r.sharedIds.length}, orphans ${r.orphans.length}, ` +
          `lost ${r.lost.length}; ${r.seconds.toFixed(0)} s` +
          r.firstErrors.map((e) => `\n  first up failed: ${e}`).join(""),
      )
      .join("\n"),
  );
}
