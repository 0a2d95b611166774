/**
 * Concurrency: 50 independent resources created, updated and destroyed all at once
 * (`--parallel 50`) go through the provider's one client, whose request limit
 * (`restcloud:maxConcurrentRequests`, default 8) bounds what the service sees; nothing is lost or
 * made twice. The requests in flight are measured by a counting proxy between the provider and the
 * emulator (the emulator's stats count requests, not their overlap).
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog } from "../catalog-ids";
import { TestStack } from "../harness";
import { FLEET_PROGRAM, auditAccount, countingProxy, fleetConfig, type CountingProxy, EMPTY_ACCOUNT } from "./helpers";

jest.setTimeout(300_000);

const FLEET_SIZE = 50;
const DEFAULT_LIMIT = 8;
const LIMIT = 3;
const ALL_AT_ONCE = { color: "never", parallel: FLEET_SIZE } as const;

describe("50 resources at once, under the client's request limit", () => {
  let emulator: RunningEmulator;
  let proxy: CountingProxy;
  let stack: TestStack;

  beforeAll(async () => {
    // Latency makes requests overlap, so that the limit is what bounds them.
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50, latencyMs: 40 });
    proxy = await countingProxy(emulator.url);
    const catalog = await discoverCatalog(emulator.url);
    stack = await TestStack.create({
      programDir: FLEET_PROGRAM,
      stackName: "concurrency",
      config: fleetConfig(proxy.url, catalog, FLEET_SIZE, "flat"),
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await proxy?.close();
    await emulator?.stop();
  });

  function report(what: string, elapsed: number, limit: number): void {
    console.log(
      `${what} of ${FLEET_SIZE} resources at --parallel ${FLEET_SIZE}: ${elapsed} ms, ${proxy.requests()} requests, ` +
        `at most ${proxy.maxInFlight()} in flight (limit ${limit})`,
    );
  }

  test(`up creates all ${FLEET_SIZE} with at most ${DEFAULT_LIMIT} requests in flight (the default), losing nothing`, async () => {
    proxy.reset();
    const started = Date.now();
    const result = await stack.stack.up(ALL_AT_ONCE);
    report("up", Date.now() - started, DEFAULT_LIMIT);
    expect(result.summary.resourceChanges).toEqual({ create: FLEET_SIZE + 1 }); // and the stack
    const ids = result.outputs.resourceIds!.value as Record<string, string>;
    expect(new Set(Object.values(ids)).size).toBe(FLEET_SIZE);
    // The limit, not the demand, bounded the requests.
    expect(proxy.maxInFlight()).toBe(DEFAULT_LIMIT);
    expect(await auditAccount(emulator.url, stack)).toEqual({
      records: FLEET_SIZE,
      duplicates: [],
      orphans: [],
      lost: [],
      sharedIds: [],
    });
  });

  test(`with restcloud:maxConcurrentRequests ${LIMIT}, updates in place keep to ${LIMIT} in flight`, async () => {
    await stack.setConfig("restcloud:maxConcurrentRequests", String(LIMIT));
    await stack.setConfig("label", "relabelled");
    proxy.reset();
    const started = Date.now();
    const result = await stack.stack.up(ALL_AT_ONCE);
    report("update", Date.now() - started, LIMIT);
    const labelled = Math.ceil((FLEET_SIZE * 2) / 3); // the VPCs and networks carry the label; volumes do not
    expect(result.summary.resourceChanges).toEqual({ update: labelled, same: FLEET_SIZE + 1 - labelled });
    expect(proxy.maxInFlight()).toBe(LIMIT);
    await stack.preview({ expectNoChanges: true });
  });

  test(`destroy deletes all ${FLEET_SIZE}, still within the limit`, async () => {
    proxy.reset();
    const started = Date.now();
    const result = await stack.stack.destroy(ALL_AT_ONCE);
    report("destroy", Date.now() - started, LIMIT);
    expect(result.summary.resourceChanges).toEqual({ delete: FLEET_SIZE + 1 });
    expect(proxy.maxInFlight()).toBe(LIMIT);
    expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  });
});
