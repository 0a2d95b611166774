/**
 * Faults: a stack of 40 resources (VPCs and tiers, networks, instances, volumes, public IPs,
 * firewall and egress rules) deployed and destroyed while the emulator misbehaves. One `pulumi up`
 * converges and the account then holds exactly the stack's records (no duplicate, no orphan, none
 * lost); one `pulumi destroy` empties it.
 *
 * The faults: throttling and latency (20% of requests answered 429 with Retry-After: 1, 20 ms added
 * to each). Not yet here: the full set of the reliability issue (10% 503 before processing, 10% 429,
 * 503 after processing, latency), under which a 5xx after a mutation was sent is ambiguous to the
 * client and every create, update and delete must find out, by reading back, whether it took effect;
 * the follow-up calls inside creates and the job waits do not yet, and that scenario still fails.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog } from "../catalog";
import { TestStack } from "../harness";
import { FLEET_PROGRAM, auditAccount, emulatorStats, fleetConfig, resetStats, setFaults } from "./helpers";

jest.setTimeout(300_000);

const FLEET_SIZE = 40;
const SCENARIOS: { name: string; faults: Record<string, number> }[] = [
  { name: "throttling and latency", faults: { throttleRate: 0.2, latencyMs: 20 } },
];

describe.each(SCENARIOS)(`${FLEET_SIZE} resources through $name`, ({ name, faults }) => {
  let emulator: RunningEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 100 });
    const catalog = await discoverCatalog(emulator.url);
    stack = await TestStack.create({
      programDir: FLEET_PROGRAM,
      stackName: `faults-${SCENARIOS.findIndex((s) => s.name === name)}`,
      config: fleetConfig(emulator.url, catalog, FLEET_SIZE),
    });
    await setFaults(emulator.url, faults);
    await resetStats(emulator.url);
  });

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
  });

  /** Logs what the service answered, checks that faults did happen, and starts counting anew. */
  async function faultReport(what: string): Promise<void> {
    const { total, byStatus } = await emulatorStats(emulator.url);
    console.log(`${name}, ${what}: ${total} requests; by status ${JSON.stringify(byStatus)}`);
    expect((byStatus["503"] ?? 0) + (byStatus["429"] ?? 0)).toBeGreaterThan(0);
    await resetStats(emulator.url);
  }

  test("one up converges: every resource created once, nothing orphaned", async () => {
    const created = await stack.up();
    expect(created.changes).toEqual({ create: FLEET_SIZE + 1 }); // and the stack
    await faultReport("up");
    expect(await auditAccount(emulator.url, stack)).toEqual({
      records: FLEET_SIZE,
      duplicates: [],
      orphans: [],
      lost: [],
    });
  });

  test("one destroy empties the account", async () => {
    const destroyed = await stack.destroy();
    expect(destroyed.changes).toEqual({ delete: FLEET_SIZE + 1 });
    await faultReport("destroy");
    expect(await auditAccount(emulator.url, stack)).toEqual({ records: 0, duplicates: [], orphans: [], lost: [] });
  });
});
