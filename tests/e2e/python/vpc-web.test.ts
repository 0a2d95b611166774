/**
 * examples/vpc-web-python, the Python twin of examples/vpc-web, with the real Pulumi CLI and the
 * Python language host (scripts/install-pulumi-cli.sh) against the emulator, through the native
 * plugin (named in the example's Pulumi.yaml): up (outputs; the emulator's records audited against
 * the state), a preview without changes, the data volume resized in place (config `dataSizeGb`), an
 * out-of-band change that refresh picks up and up undoes, destroy leaving the account empty. No
 * operation prints a warning (neither a plugin found on $PATH nor one not found).
 *
 * The program runs from a copy in a temporary directory, its `venv` a link to a venv with the SDK's
 * wheel installed (python-helpers.ts), as `pip install <wheel>` makes it for a user.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { RestCloudClient } from "../../../provider/client";
import { DEMO_KEYS, discoverCatalog, providerConfig, type CatalogIds } from "../catalog-ids";
import { TestStack, pulumiCliRoot } from "../harness";
import { Events, warningsOf } from "../native/native-helpers";
import { EMPTY_ACCOUNT, NATIVE_PREFIX, accountResources, auditAccount, stateOf } from "../reliability/helpers";
import { VPC_WEB_PYTHON, pythonProgram, type PythonProgram } from "./python-helpers";

jest.setTimeout(300_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The example's resources by logical name (the VPC and the public IP are both "web"). */
const NAMES = ["web", "frontend", "backend", "web-1", "app-1", "app-data", "https-80", "https-443", "backend-https"];
const RECORDS = 10;
const all = (op: string, names = NAMES) => Object.fromEntries(names.map((name) => [name, op]));

describe("Python: examples/vpc-web-python through the native plugin", () => {
  let emulator: RunningEmulator;
  let catalog: CatalogIds;
  let client: RestCloudClient;
  let program: PythonProgram;
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    catalog = await discoverCatalog(emulator.url);
    client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS });
    program = pythonProgram(VPC_WEB_PYTHON);
    stack = await TestStack.create({ programDir: program.dir, config: providerConfig(emulator.url) });
  });

  afterAll(async () => {
    await stack?.dispose();
    program?.remove();
    await emulator?.stop();
  });

  /** The volume's record. */
  const volumeRecord = async (uuid: string) => (await client.volume.list({ zoneUuid: catalog.zoneUuid, uuid }))[0];

  test("the Python language host, its launcher and its exec script are installed beside pulumi", () => {
    const bin = path.join(pulumiCliRoot(), "bin");
    for (const file of ["pulumi-language-python", "pulumi-language-python-exec"]) {
      expect(fs.statSync(path.join(bin, file)).mode & 0o111).not.toBe(0);
    }
  });

  test("up creates the VPC, the tiers, the servers, the volume, the IP and the rules; the outputs are the records'", async () => {
    const events = new Events();
    const up = await stack.up({ onEvent: events.onEvent });
    expect(up.changes).toEqual({ create: RECORDS + 1 }); // and the stack
    expect(up.operations).toEqual(all("create"));
    expect(warningsOf(events, up.stdout, up.stderr)).toEqual([]);

    const zones = await client.costEstimate.zones();
    const plan = (
      await client.costEstimate.computePlans({ zoneUuid: catalog.zoneUuid, computeOfferingType: "PAY_AS_YOU_GO" })
    ).payAsYouGoOfferingCost as { uuid?: string; name?: string }[];
    expect(up.outputs).toEqual({
      zone: zones[0]!.name,
      vpcId: expect.stringMatching(UUID),
      vpcCidr: "10.10.0.0/16",
      publicIp: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      webPrivateIp: expect.stringMatching(/^10\.10\.1\.\d+$/),
      appPrivateIp: expect.stringMatching(/^10\.10\.2\.\d+$/),
      dataVolumeId: expect.stringMatching(UUID),
      computePlan: expect.any(String),
      template: expect.stringMatching(/^Ubuntu 24/),
    });
    expect(plan.map((p) => p.name)).toContain(up.outputs.computePlan);

    const account = await accountResources(emulator.url);
    expect(account.vpc?.[up.outputs.vpcId as string]).toMatchObject({
      description: "The web application's network",
      zoneUuid: catalog.zoneUuid,
      getcIDR: "10.10.0.0/16", // the API's spelling
    });
    expect(await volumeRecord(up.outputs.dataVolumeId as string)).toMatchObject({ storageDiskSize: "50" });
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: RECORDS });
    // Every resource is the native plugin's (Python programs have no other way).
    const types = (await stateOf(stack)).resources.map((r) => r.type);
    expect(types.filter((t) => t.startsWith(NATIVE_PREFIX))).toHaveLength(RECORDS);
    expect(stack.stateFileText()).not.toContain(DEMO_KEYS.secretKey);
  });

  test("a preview then finds no change, and warns of nothing", async () => {
    const events = new Events();
    const preview = await stack.preview({ expectNoChanges: true, onEvent: events.onEvent });
    expect(preview.operations).toEqual(all("same"));
    expect(warningsOf(events, preview.stdout, preview.stderr)).toEqual([]);
  });

  test("a new dataSizeGb resizes the volume in place", async () => {
    const before = await stack.outputs();
    await stack.setConfig("dataSizeGb", "80");
    const up = await stack.up();
    expect(up.operations).toEqual({ ...all("same"), "app-data": "update" });
    expect(up.outputs).toEqual(before);
    expect(await volumeRecord(before.dataVolumeId as string)).toMatchObject({ storageDiskSize: "80" });
    await stack.preview({ expectNoChanges: true });
  });

  test("refresh picks up a description changed out of band; up puts the program's back", async () => {
    const { vpcId } = (await stack.outputs()) as { vpcId: string };
    await client.vpc.update({ uuid: vpcId, description: "changed out of band" });
    const vpcInState = async () =>
      (await stateOf(stack)).resources.find((r) => r.type === `${NATIVE_PREFIX}Vpc` && r.id === vpcId);

    const refreshed = await stack.refresh();
    expect(refreshed.changes).toEqual({ same: RECORDS, update: 1 }); // the stack counts as same
    expect((await vpcInState())?.outputs.description).toBe("changed out of band");

    const restored = await stack.up();
    expect(restored.operations).toEqual({ ...all("same"), web: "update" });
    expect((await accountResources(emulator.url)).vpc?.[vpcId]?.description).toBe("The web application's network");
    await stack.preview({ expectNoChanges: true });
  });

  test("destroy empties the account", async () => {
    const destroyed = await stack.destroy();
    expect(destroyed.operations).toEqual(all("delete"));
    expect((await stateOf(stack)).resources).toEqual([]);
    expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  });
});
