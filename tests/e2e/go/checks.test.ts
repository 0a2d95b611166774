/**
 * The Go SDK beside the example (programs/checks, run by `pulumi` and its Go language host, with the
 * native plugin named in its Pulumi.yaml, against the emulator): a bad argument rejected at
 * preview with nothing sent to the API; the functions' typed results (fields of the SDK's result
 * structs) equal to what the catalog holds; a secret argument (the VPN customer gateway's pre-shared
 * key) sent to the API yet encrypted in the state; a change that replaces (the VPC's CIDR); destroy.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { RestCloudClient } from "../../../provider/client";
import { DEMO_KEYS, discoverCatalog, providerConfig, type CatalogIds } from "../catalog-ids";
import { TestStack } from "../harness";
import { Events, checkpointOf, warningsOf } from "../native/native-helpers";
import { EMPTY_ACCOUNT, accountResources, auditAccount, emulatorStats, resetStats } from "../reliability/helpers";
import { CHECKS_PROGRAM, Timings } from "./go-helpers";

jest.setTimeout(300_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PRESHARED_KEY = "go-e2e-psk-7f3a9c";
const BAD_STORAGE_PLAN = "no-such-storage-plan";
/** Pulumi's mark of a secret value in a checkpoint. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

describe("Go: functions, a secret, a replacement, a bad argument", () => {
  let emulator: RunningEmulator;
  let catalog: CatalogIds;
  let stack: TestStack;
  const timings = new Timings();

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    catalog = await discoverCatalog(emulator.url);
    stack = await TestStack.create({
      programDir: CHECKS_PROGRAM,
      config: { ...providerConfig(emulator.url), presharedKey: { value: PRESHARED_KEY, secret: true } },
    });
  });

  afterAll(async () => {
    timings.print("programs/checks, step by step:");
    await stack?.dispose();
    await emulator?.stop();
  });

  test("a storage plan that does not exist fails the preview, naming the field, and nothing reaches the API", async () => {
    const bad = await TestStack.create({
      programDir: CHECKS_PROGRAM,
      config: {
        ...providerConfig(emulator.url),
        presharedKey: { value: PRESHARED_KEY, secret: true },
        storageOfferingUuid: BAD_STORAGE_PLAN,
      },
    });
    try {
      await resetStats(emulator.url);
      const failure = await timings.time("preview (a bad argument)", () =>
        bad.preview().then(
          () => "no error",
          (error: unknown) => String(error),
        ),
      );
      // The native plugin's Check error, on the volume's row (the CLI's output is in the error).
      const errors = failure.split("\n").filter((l) => /error: .*Volume resource 'data'/.test(l));
      expect(errors.length).toBeGreaterThan(0);
      expect(errors[0]).toContain("storageOfferingUuid");
      expect(errors[0]).toContain(BAD_STORAGE_PLAN);
      console.log(`the preview's error for a bad storageOfferingUuid:\n${errors[0].trim()}`);

      // Only the functions' and Check's reads were sent: no create, nothing in the account.
      expect((await emulatorStats(emulator.url)).mutating).toBe(0);
      expect(await auditAccount(emulator.url, bad)).toEqual(EMPTY_ACCOUNT);
    } finally {
      await bad.dispose();
    }
  });

  test("up: the functions' typed results equal the catalog's records", async () => {
    const events = new Events();
    const up = await timings.time("up", () => stack.up({ onEvent: events.onEvent }));
    expect(up.changes).toEqual({ create: 4 }); // the stack, a VPC, a gateway, a volume
    // Quiet: the Go host found beside pulumi, the plugin where Pulumi.yaml names it.
    expect(warningsOf(events, up.stdout, up.stderr)).toEqual([]);

    const client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS });
    const zones = await client.costEstimate.zones();
    // What getComputePlan({ minCores: 2, minMemoryGib: 4 }) should pick: the smallest fixed plan that fits.
    const plans = await client.costEstimate.computePlans({
      zoneUuid: catalog.zoneUuid,
      computeOfferingType: "PAY_AS_YOU_GO",
    });
    const fitting = ((plans.payAsYouGoOfferingCost ?? []) as { uuid?: string; core?: number; memory?: number }[])
      .filter((p) => (p.core ?? 0) >= 2 && (p.memory ?? 0) >= 4096)
      .sort((a, b) => (a.core ?? 0) - (b.core ?? 0) || (a.memory ?? 0) - (b.memory ?? 0));
    expect(up.outputs).toEqual({
      zoneCount: zones.length,
      firstZoneUuid: catalog.zoneUuid,
      zoneUuid: catalog.zoneUuid,
      zoneName: zones[0].name,
      planUuid: fitting[0]?.uuid,
      planName: expect.stringMatching(/^gp\.2c4g/),
      planCores: 2,
      planMemoryGib: 4,
      planType: "PAY_AS_YOU_GO",
      templateUuid: catalog.ubuntuTemplateUuid,
      templateName: expect.stringMatching(/^Ubuntu 24\.04/),
      storagePlanUuid: catalog.customStoragePlanUuid,
      storagePlanIsCustom: true,
      vpcOfferingUuid: catalog.vpcOfferingUuid,
      vpcId: expect.stringMatching(UUID),
      vpcCidr: "10.60.0.0/16",
      gatewayId: expect.stringMatching(UUID),
      presharedKey: PRESHARED_KEY, // a secret output, which the harness reads decrypted
      volumeId: expect.stringMatching(UUID),
    });
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 3 });
  });

  test("the pre-shared key reaches the API, yet the state and the stack's settings hold it encrypted", async () => {
    const { gatewayId } = await stack.outputs();
    const gateway = (await accountResources(emulator.url)).vpncustomergateway?.[gatewayId as string];
    expect(gateway?.ipsecPresharedKey).toBe(PRESHARED_KEY);

    const { text, resources } = checkpointOf(stack);
    expect(text).not.toContain(PRESHARED_KEY);
    const inState = resources.find((r) => r.id === gatewayId);
    for (const side of [inState?.inputs, inState?.outputs]) {
      expect(side?.ipsecPresharedKey).toEqual({
        [SECRET_SIGNATURE]: expect.any(String),
        ciphertext: expect.any(String),
      });
    }
    const settings = fs.readFileSync(path.join(CHECKS_PROGRAM, `Pulumi.${stack.stack.name}.yaml`), "utf8");
    expect(settings).toMatch(/presharedKey:\s*\n\s*secure:/);
    expect(settings).not.toContain(PRESHARED_KEY);
  });

  test("a new CIDR replaces the VPC: the old record gone, the new one there", async () => {
    const before = await stack.outputs();
    await stack.setConfig("vpcCidr", "10.61.0.0/16");
    const up = await timings.time("up (vpcCidr: a replacement)", () => stack.up());
    expect(up.operations).toEqual({ net: "replace", office: "same", data: "same" });
    expect(up.outputs.vpcId).not.toBe(before.vpcId);
    expect(up.outputs).toEqual({ ...before, vpcId: up.outputs.vpcId, vpcCidr: "10.61.0.0/16" });

    const vpcs = (await accountResources(emulator.url)).vpc ?? {};
    expect(Object.keys(vpcs)).toEqual([up.outputs.vpcId]);
    expect(vpcs[up.outputs.vpcId as string]?.getcIDR).toBe("10.61.0.0/16");
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 3 });
  });

  test("destroy empties the account", async () => {
    const destroy = await timings.time("destroy", () => stack.destroy());
    expect(destroy.changes).toEqual({ delete: 4 });
    expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  });
});
