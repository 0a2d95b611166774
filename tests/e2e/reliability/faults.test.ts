/**
 * Faults: a stack of 40 resources (VPCs and tiers, networks, instances, volumes, public IPs,
 * firewall and egress rules) deployed and destroyed while the emulator misbehaves. One `pulumi up`
 * converges and the account then holds exactly the stack's records (no duplicate, no orphan, none
 * lost); one `pulumi destroy` empties it.
 *
 * Two scenarios: throttling and latency (20% of requests answered 429 with Retry-After: 1, 20 ms
 * added to each); and the reliability issue's mix: 10% 503s (half before processing, half after it,
 * when the change is applied yet the client sees a failure), 10% 429s and the latency. A 503 to a
 * mutation is ambiguous to the client: every create, action and delete finds out by reading back
 * (`verify`) whether it took effect, and only updates and deletes are simply sent again.
 *
 * The two scenarios run side by side, each on its own emulator and stack.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog } from "../catalog-ids";
import { TestStack } from "../harness";
import {
  FLEET_PROGRAM,
  auditAccount,
  emulatorStats,
  fleetConfig,
  resetStats,
  setFaults,
  EMPTY_ACCOUNT,
} from "./helpers";

jest.setTimeout(300_000);

const FLEET_SIZE = 40;
const SCENARIOS: { name: string; faults: Record<string, number> }[] = [
  { name: "throttling and latency", faults: { throttleRate: 0.2, latencyMs: 20 } },
  {
    name: "503s before and after processing, throttling and latency",
    faults: { failRate: 0.05, failAfterRate: 0.05, throttleRate: 0.1, latencyMs: 20 },
  },
];

/** What the service answered during one operation: logged, the injected faults met, the count started anew. */
async function faultReport(apiUrl: string, scenario: (typeof SCENARIOS)[number], what: string): Promise<void> {
  const { total, byStatus } = await emulatorStats(apiUrl);
  console.log(`${scenario.name}, ${what}: ${total} requests; by status ${JSON.stringify(byStatus)}`);
  // Each kind of fault injected was met (P of none in ~140 requests is below 1e-5).
  if (scenario.faults.throttleRate) expect(byStatus["429"]).toBeGreaterThan(0);
  if (scenario.faults.failRate || scenario.faults.failAfterRate) expect(byStatus["503"]).toBeGreaterThan(0);
  await resetStats(apiUrl);
}

test.concurrent.each(SCENARIOS)(
  `${FLEET_SIZE} resources through $name: one up converges (every resource created once, nothing orphaned); one destroy empties the account`,
  async (scenario) => {
    const emulator: RunningEmulator = await startEmulator({ port: 0, asyncDelayMs: 100 });
    let stack: TestStack | undefined;
    try {
      const catalog = await discoverCatalog(emulator.url);
      stack = await TestStack.create({
        programDir: FLEET_PROGRAM,
        stackName: `faults-${SCENARIOS.indexOf(scenario)}`,
        config: fleetConfig(emulator.url, catalog, FLEET_SIZE),
      });
      await setFaults(emulator.url, scenario.faults);
      await resetStats(emulator.url);

      const created = await stack.up();
      expect(created.changes).toEqual({ create: FLEET_SIZE + 1 }); // and the stack
      await faultReport(emulator.url, scenario, "up");
      expect(await auditAccount(emulator.url, stack)).toEqual({
        records: FLEET_SIZE,
        duplicates: [],
        orphans: [],
        lost: [],
        sharedIds: [],
      });

      const destroyed = await stack.destroy();
      expect(destroyed.changes).toEqual({ delete: FLEET_SIZE + 1 });
      await faultReport(emulator.url, scenario, "destroy");
      expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
    } finally {
      await stack?.dispose();
      await emulator.stop();
    }
  },
);
