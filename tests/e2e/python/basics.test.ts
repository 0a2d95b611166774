/**
 * A Python program of its own (programs/basics) with the real Pulumi CLI against the emulator,
 * through the native plugin: the provider's functions (get_zone, get_compute_plan,
 * get_vpc_offerings, get_storage_plans) with their typed results read as attributes and exported; a
 * VPN customer gateway whose pre-shared key (`ipsec_preshared_key`) comes from secret config and
 * stays encrypted in the state file; a VPC whose cidr (config `vpcCidr`) replaces it when changed;
 * and, on a second stack, a volume with a storage plan no zone has: rejected at preview and at up
 * with a message that names the field as Python spells it (`storage_offering_uuid`), nothing sent
 * to the API but reads.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog, providerConfig, type CatalogIds } from "../catalog-ids";
import { TestStack } from "../harness";
import { Events, checkpointOf, warningsOf } from "../native/native-helpers";
import {
  EMPTY_ACCOUNT,
  NATIVE_PREFIX,
  accountResources,
  auditAccount,
  emulatorStats,
  resetStats,
} from "../reliability/helpers";
import { PYTHON_PROGRAMS, pythonProgram, type PythonProgram } from "./python-helpers";

jest.setTimeout(300_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PRESHARED_KEY = "python-psk-4c1d9e0b7a";
/** A storage plan id no zone has. */
const MISSING_ID = "0badc0de-0000-4000-8000-00000000dead";
/** How Pulumi marks a secret value in a checkpoint: this key, this value, and the ciphertext beside. */
const [SECRET_SIG, SECRET_TYPE] = ["4dabf18193072939515e22adb298388d", "1b47061264138c4ac30d75fd1eb44270"];

describe("Python: functions, a secret input, a replacement and a bad argument, through the native plugin", () => {
  let emulator: RunningEmulator;
  let catalog: CatalogIds;
  let program: PythonProgram;
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    catalog = await discoverCatalog(emulator.url);
    program = pythonProgram(path.join(PYTHON_PROGRAMS, "basics"));
    stack = await TestStack.create({
      programDir: program.dir,
      config: { ...providerConfig(emulator.url), presharedKey: { value: PRESHARED_KEY, secret: true } },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    program?.remove();
    await emulator?.stop();
  });

  test("up: the functions' typed results, exported; the VPC and the gateway created, the key encrypted in state", async () => {
    const events = new Events();
    const up = await stack.up({ onEvent: events.onEvent });
    expect(up.operations).toEqual({ net: "create", office: "create" });
    expect(warningsOf(events, up.stdout, up.stderr)).toEqual([]);

    expect(up.outputs).toEqual({
      zone: {
        type: "AwaitableGetZoneResult",
        uuid: catalog.zoneUuid,
        name: "Frankfurt 1",
        country_name: expect.any(String),
        is_active: true,
      },
      plan: {
        type: "AwaitableGetComputePlanResult",
        uuid: expect.stringMatching(UUID),
        name: expect.stringMatching(/^gp\./),
        cores: expect.any(Number),
        memory_gib: expect.any(Number),
        is_custom: false,
      },
      vpcOffering: { type: "GetVpcOfferingsOffering", uuid: catalog.vpcOfferingUuid, name: expect.any(String) },
      customStoragePlans: expect.arrayContaining([catalog.customStoragePlanUuid]),
      vpcId: expect.stringMatching(UUID),
      vpcCidr: "10.60.0.0/16",
      gatewayId: expect.stringMatching(UUID),
      gatewayStatus: expect.any(String),
    });
    const plan = up.outputs.plan as { cores: number; memory_gib: number };
    expect(plan.cores).toBeGreaterThanOrEqual(2);
    expect(plan.memory_gib).toBeGreaterThanOrEqual(4);
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 2 });

    // The key reached the API, and the state file holds it only encrypted, as input and as output.
    const { text, resources } = checkpointOf(stack);
    expect(text).not.toContain(PRESHARED_KEY);
    const gateway = resources.find((r) => r.type === `${NATIVE_PREFIX}VpnCustomerGateway`);
    for (const value of [gateway?.inputs.ipsecPresharedKey, gateway?.outputs.ipsecPresharedKey]) {
      expect(value).toEqual({ [SECRET_SIG]: SECRET_TYPE, ciphertext: expect.any(String) });
    }
    const account = await accountResources(emulator.url);
    expect(JSON.stringify(account)).toContain(PRESHARED_KEY);
  });

  test("a preview then finds no change", async () => {
    const preview = await stack.preview({ expectNoChanges: true });
    expect(preview.operations).toEqual({ net: "same", office: "same" });
  });

  test("a new vpcCidr replaces the VPC: the old record gone, the new one there", async () => {
    const before = await stack.outputs();
    await stack.setConfig("vpcCidr", "10.61.0.0/16");
    const up = await stack.up();
    expect(up.operations).toEqual({ net: "replace", office: "same" });
    expect(up.outputs.vpcCidr).toBe("10.61.0.0/16");
    expect(up.outputs.vpcId).toEqual(expect.stringMatching(UUID));
    expect(up.outputs.vpcId).not.toBe(before.vpcId);
    expect(up.outputs.gatewayId).toBe(before.gatewayId);
    const vpcs = (await accountResources(emulator.url)).vpc ?? {};
    expect(Object.keys(vpcs)).toEqual([up.outputs.vpcId]);
    expect(vpcs[up.outputs.vpcId as string]).toMatchObject({ getcIDR: "10.61.0.0/16" }); // the API's spelling
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 2 });
    await stack.preview({ expectNoChanges: true });
  });

  test("a storage_offering_uuid no zone has fails at preview and at up, naming the field as Python spells it; nothing sent", async () => {
    const bad = await TestStack.create({
      programDir: program.dir,
      stackName: "python-bad-argument",
      config: {
        ...providerConfig(emulator.url),
        presharedKey: { value: PRESHARED_KEY, secret: true },
        storageOfferingUuid: MISSING_ID,
      },
    });
    try {
      await resetStats(emulator.url);
      await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
      for (const operation of [() => bad.preview(), () => bad.up()]) {
        const error = String(
          await operation().then(
            () => "no error",
            (e: unknown) => e,
          ),
        );
        expect(error).toMatch(
          /restcloud:index:Volume resource 'data': property storageOfferingUuid value .* has a problem: must be the uuid of a storage plan of zone Frankfurt 1 \(getStoragePlans lists them\); none has this uuid \(Python: storage_offering_uuid, Go: StorageOfferingUuid\)/,
        );
      }
      const { entries } = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
        entries: { method: string; operation: string | null }[];
      };
      expect(entries.length).toBeGreaterThan(0); // the functions and the catalog's lookups
      expect(entries.filter((e) => e.method !== "GET")).toEqual([]);
      expect((await emulatorStats(emulator.url)).mutating).toBe(0);
      expect(Object.keys((await accountResources(emulator.url)).volume ?? {})).toEqual([]);
    } finally {
      await bad.dispose();
    }
  });

  test("destroy empties the account", async () => {
    const destroyed = await stack.destroy();
    expect(destroyed.operations).toEqual({ net: "delete", office: "delete" });
    expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  });
});
