/**
 * Resilience against the emulator's faults: reads complete through 503s and 429s; mutations are
 * never blindly repeated (failAfterRate: processed, then 503): `verify` turns an ambiguous failure
 * into the effect, and only operations whose repeat is harmless (updates, deletes) are resent
 * without it; timeouts; the concurrency limit. Request counts come from
 * GET /_emulator/stats.
 */
import type { RunningEmulator } from "../../../emulator/index";
import { ApiError, type RestCloudClient } from "../../../provider/client";
import {
  clientFor,
  customerGatewayInput,
  discoverCatalog,
  resetStats,
  setFaults,
  start,
  stats,
  type CatalogIds,
} from "./helpers";

let emulator: RunningEmulator;
let ids: CatalogIds;

beforeAll(async () => {
  emulator = await start({ seed: 7 });
  ids = await discoverCatalog(clientFor(emulator).client);
});
afterAll(() => emulator.stop());
beforeEach(async () => {
  await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
  await setFaults(emulator, { failRate: 0, throttleRate: 0, failAfterRate: 0, latencyMs: 0 });
});

const vpcInput = (name: string, octet: number) => ({
  name,
  zoneUuid: ids.zoneUuid,
  vpcOfferingUuid: ids.vpcOfferingUuid,
  getcIDR: `10.${octet}.0.0/16`,
});

/** "Does a VPC of this name now exist?" */
const vpcNamed = (client: RestCloudClient, name: string) => async () =>
  (await client.vpc.list({ zoneUuid: ids.zoneUuid })).find((vpc) => vpc.name === name);

async function vpcCount(client: RestCloudClient): Promise<number> {
  await setFaults(emulator, { failRate: 0, throttleRate: 0, failAfterRate: 0 });
  return (await client.vpc.list({ zoneUuid: ids.zoneUuid })).length;
}

test("reads complete when half the requests fail with 503 before processing", async () => {
  const { client, lines } = clientFor(emulator);
  await setFaults(emulator, { failRate: 0.5 });
  const zones = await Promise.all(Array.from({ length: 20 }, () => client.costEstimate.zones()));
  expect(zones.every((list) => list.length > 0)).toBe(true);
  const counted = await stats(emulator);
  expect(counted.byStatus["503"]).toBeGreaterThan(0);
  expect(counted.byOperation["zone-list"]).toBe(20 + counted.byStatus["503"]!);
  expect(lines.some((line) => /zone-list: SERVICE_UNAVAILABLE; retry 1 of 5 in \d+ ms/.test(line))).toBe(true);
});

test("429: reads and mutations are retried after the server's Retry-After (1 s)", async () => {
  const { client } = clientFor(emulator);
  await setFaults(emulator, { throttleRate: 0.3 });
  const started = Date.now();
  const created = await Promise.all(
    Array.from({ length: 6 }, (_, i) => client.vpc.create(vpcInput(`throttled-${i}`, 100 + i))),
  );
  const listed = await Promise.all(Array.from({ length: 6 }, () => client.vpc.list({ zoneUuid: ids.zoneUuid })));
  const elapsed = Date.now() - started;
  const counted = await stats(emulator);
  expect(counted.byStatus["429"]).toBeGreaterThan(0);
  // A 429 is "not processed": re-sending a mutation is safe, and nothing was created twice.
  expect(created).toHaveLength(6);
  expect(listed.every((list) => list.length === 6)).toBe(true);
  expect(await vpcCount(client)).toBe(6);
  expect(elapsed).toBeGreaterThanOrEqual(1000);
});

test("failAfterRate without verify: the ambiguous error is thrown, the mutation is not repeated", async () => {
  const { client } = clientFor(emulator);
  await setFaults(emulator, { failAfterRate: 1 });
  let error: unknown;
  try {
    await client.vpc.create(vpcInput("ambiguous", 50));
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 503, ambiguous: true, attempts: 1 });
  expect((await stats(emulator)).byOperation.createVpc).toBe(1);
  expect(await vpcCount(client)).toBe(1); // it was processed
});

test("failAfterRate with verify: every create is sent exactly once and each VPC exists exactly once", async () => {
  // The read-backs meet the faults too: enough attempts that none of them runs out.
  const { client, lines } = clientFor(emulator, { retry: { maxAttempts: 10, baseDelayMs: 5, maxDelayMs: 40 } });
  await setFaults(emulator, { failAfterRate: 0.3 });
  const names = Array.from({ length: 12 }, (_, i) => `verified-${i}`);
  const created = await Promise.all(
    names.map((name, i) => client.vpc.create(vpcInput(name, 60 + i), { verify: vpcNamed(client, name) })),
  );
  expect(created.map((vpc) => vpc.name)).toEqual(names);
  const counted = await stats(emulator);
  expect(counted.byOperation.createVpc).toBe(12);
  expect(counted.byStatus["503"]).toBeGreaterThan(0);
  expect(lines.some((line) => line.includes("verification found the effect applied"))).toBe(true);
  const vpcs = await client.vpc.list({ zoneUuid: ids.zoneUuid });
  expect(vpcs.map((vpc) => vpc.name).sort()).toEqual([...names].sort());
});

test("failRate with verify: a mutation that was not processed is sent again, and created once", async () => {
  const { client } = clientFor(emulator);
  await setFaults(emulator, { failRate: 0.5 });
  const names = Array.from({ length: 8 }, (_, i) => `resent-${i}`);
  await Promise.all(
    names.map((name, i) => client.vpc.create(vpcInput(name, 80 + i), { verify: vpcNamed(client, name) })),
  );
  const counted = await stats(emulator);
  expect(counted.byOperation.createVpc).toBeGreaterThan(8); // some were re-sent after verification found nothing
  expect(await vpcCount(client)).toBe(8);
});

test("failAfterRate on deletes: the built-in read-back confirms each delete, none is sent twice", async () => {
  const { client, lines } = clientFor(emulator, { retry: { maxAttempts: 10, baseDelayMs: 5, maxDelayMs: 40 } });
  const vpcs = await Promise.all(
    Array.from({ length: 10 }, (_, i) => client.vpc.create(vpcInput(`doomed-${i}`, 120 + i))),
  );
  await resetStats(emulator);
  await setFaults(emulator, { failAfterRate: 0.5 });
  const answers = await Promise.all(vpcs.map((vpc) => client.vpc.delete({ uuid: vpc.uuid })));
  expect(answers.every((answer) => answer === true)).toBe(true);
  expect((await stats(emulator)).byOperation.deleteVpc).toBe(10);
  expect(lines).toContain(
    "deleteVpc: SERVICE_UNAVAILABLE after the request, but verification found the effect applied",
  );
  expect(await vpcCount(client)).toBe(0);
});

test("idempotent updates are sent again after an ambiguous failure, and each lands", async () => {
  const { client, lines } = clientFor(emulator, { retry: { maxAttempts: 10, baseDelayMs: 5, maxDelayMs: 40 } });
  const vpcs = await Promise.all(
    Array.from({ length: 10 }, (_, i) => client.vpc.create(vpcInput(`edited-${i}`, 140 + i))),
  );
  await resetStats(emulator);
  await setFaults(emulator, { failAfterRate: 0.5 });
  await Promise.all(vpcs.map((vpc, i) => client.vpc.update({ uuid: vpc.uuid, description: `edit ${i}` })));
  const counted = await stats(emulator);
  expect(counted.byStatus["503"]).toBeGreaterThan(0);
  expect(counted.byOperation.updateVpc).toBeGreaterThan(10); // resent, without a read-back
  expect(lines.some((line) => /updateVpc: SERVICE_UNAVAILABLE; retry 1/.test(line))).toBe(true);
  await setFaults(emulator, { failAfterRate: 0 });
  const listed = await client.vpc.list({ zoneUuid: ids.zoneUuid });
  expect(listed.map((vpc) => vpc.description).sort()).toEqual(vpcs.map((_, i) => `edit ${i}`).sort());
});

test("a delete sent again after an ambiguous failure and answered 404 succeeded", async () => {
  const { client, lines } = clientFor(emulator, { retry: { maxAttempts: 10, baseDelayMs: 5, maxDelayMs: 40 } });
  const gateways = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      client.vpnCustomerGateway.create(
        customerGatewayInput(`office-${i}`, `198.51.100.${10 + i}`, `192.168.${i}.0/24`),
      ),
    ),
  );
  await resetStats(emulator);
  await setFaults(emulator, { failAfterRate: 0.5 });
  const answers = await Promise.all(gateways.map((g) => client.vpnCustomerGateway.delete({ uuid: g.uuid })));
  expect(answers.every((answer) => answer === true)).toBe(true);
  const counted = await stats(emulator);
  expect(counted.byStatus["404"]).toBeGreaterThan(0);
  expect(lines).toContain(
    "deleteVpnCustomerGateway: 404 after an earlier ambiguous failure; the first request took effect",
  );
  await setFaults(emulator, { failAfterRate: 0 });
  expect(await client.vpnCustomerGateway.list()).toEqual([]);
});

test("a 404 to a delete's first request is still an error (no earlier ambiguous failure)", async () => {
  const { client } = clientFor(emulator);
  await expect(
    client.vpnCustomerGateway.delete({ uuid: "00000000-0000-4000-8000-000000000000" }),
  ).rejects.toMatchObject({ status: 404 });
});

test("a mutation sent by GET (stop) is verified by state, not repeated", async () => {
  const { client } = clientFor(emulator);
  const network = await client.network.create({
    name: "n",
    zoneUuid: ids.zoneUuid,
    networkOfferingUuid: ids.networkOfferingUuid,
  });
  const vm = await client.instance.create({
    name: "vm",
    zoneUuid: ids.zoneUuid,
    templateUuid: ids.templateUuid,
    computeOfferingUuid: ids.computeOfferingUuid,
    networkUuid: network.uuid,
  });
  const current = async () => (await client.instance.list({ zoneUuid: ids.zoneUuid, vmUuid: vm.uuid }))[0];
  for (let i = 0; i < 50 && (await current())?.state !== "Running"; i++) await new Promise((r) => setTimeout(r, 20));
  await resetStats(emulator);
  await setFaults(emulator, { failAfterRate: 1 });
  const stopped = await client.instance.stop(
    { uuid: vm.uuid, forceStop: false },
    {
      verify: async () => {
        await setFaults(emulator, { failAfterRate: 0 }); // let the read-back through
        const instance = await current();
        return instance && ["Stopping", "Stopped"].includes(instance.state ?? "") ? instance : undefined;
      },
    },
  );
  expect(["Stopping", "Stopped"]).toContain(stopped.state);
  expect((await stats(emulator)).byOperation.stopInstance).toBe(1);
});

test("timeouts: a read times out and is retried; a mutation that times out is ambiguous and verified", async () => {
  const { client, events } = clientFor(emulator, { timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 5 } });
  await setFaults(emulator, { latencyMs: 300 });
  let error: unknown;
  try {
    await client.vpc.list({ zoneUuid: ids.zoneUuid });
  } catch (caught) {
    error = caught;
  }
  expect(error).toMatchObject({ status: undefined, errorCode: "ETIMEDOUT", retryable: true, attempts: 2 });
  expect(events).toHaveLength(2);

  // A mutation that times out may or may not have been processed: without verify, that is the error.
  const slow = clientFor(emulator, { timeoutMs: 5000 });
  let ambiguous: unknown;
  try {
    await slow.client.vpc.create(vpcInput("unverified", 91), { timeoutMs: 100 });
  } catch (caught) {
    ambiguous = caught;
  }
  expect(ambiguous).toMatchObject({ errorCode: "ETIMEDOUT", ambiguous: true, attempts: 1 });

  // With verify: the read-back (the service is fast again) finds nothing, so the create is sent again, once.
  const vpc = await slow.client.vpc.create(vpcInput("slow", 90), {
    timeoutMs: 100,
    verify: async () => {
      await setFaults(emulator, { latencyMs: 0 });
      return vpcNamed(slow.client, "slow")();
    },
  });
  expect(vpc.name).toBe("slow");
  expect(slow.lines).toContain("createVpc: ETIMEDOUT and verification found no effect; sending again");
  expect((await slow.client.vpc.list({ zoneUuid: ids.zoneUuid })).filter((v) => v.name === "slow")).toHaveLength(1);
});

test("connection refused: nothing was sent, so even a mutation is retried, then the error is thrown", async () => {
  const { client, events } = clientFor(emulator, { apiUrl: "http://127.0.0.1:1" });
  let error: unknown;
  try {
    await client.securityGroup.create({ name: "never" });
  } catch (caught) {
    error = caught;
  }
  expect(error).toMatchObject({ errorCode: "ECONNREFUSED", ambiguous: false, retryable: true, attempts: 6 });
  expect(events).toHaveLength(6);
});

test("maxConcurrentRequests bounds the requests in flight", async () => {
  await setFaults(emulator, { latencyMs: 100 });
  const limited = clientFor(emulator, { maxConcurrentRequests: 2 }).client;
  const started = Date.now();
  await Promise.all(Array.from({ length: 10 }, () => limited.costEstimate.zones()));
  // 10 requests of at least 100 ms, 2 at a time: at least 5 rounds.
  expect(Date.now() - started).toBeGreaterThanOrEqual(500);
});
