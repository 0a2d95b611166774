/**
 * examples/vpc-web-go, the Go twin of examples/vpc-web, run as its README says (`pulumi up` in its
 * directory: the CLI's Go language host builds and runs it) with the real Pulumi CLI and the native
 * plugin (found through Pulumi.yaml's `plugins.providers`), against the emulator: up and its
 * outputs, a preview without changes, a resize in place through config, a refresh after a change
 * made outside Pulumi, destroy. Every step is audited against the emulator's records.
 *
 * Every run of the program costs a `go build` by the host, so the program runs where the Go side is
 * what is tested: the no-change preview after up covers the SDK's inputs; that an update converges
 * (no change after it) is the plugin's, which the Python twin's test (../python/vpc-web.test.ts) checks.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { DEMO_KEYS, providerConfig } from "../catalog-ids";
import { TestStack } from "../harness";
import { Events, until, warningsOf } from "../native/native-helpers";
import { EMPTY_ACCOUNT, NATIVE_PREFIX, accountResources, auditAccount, stateOf } from "../reliability/helpers";
import { Timings, VPC_WEB_GO } from "./go-helpers";

jest.setTimeout(300_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
/** The ten resources of the program, by logical name. */
const RESOURCE_NAMES = [
  "app-1",
  "app-data",
  "backend",
  "backend-https",
  "frontend",
  "https-443",
  "https-80",
  "web",
  "web",
  "web-1",
].sort();

describe("Go: examples/vpc-web-go under pulumi up", () => {
  let emulator: RunningEmulator;
  let stack: TestStack;
  const timings = new Timings();

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    stack = await TestStack.create({ programDir: VPC_WEB_GO, config: providerConfig(emulator.url) });
  });

  afterAll(async () => {
    timings.print("examples/vpc-web-go, step by step:");
    await stack?.dispose();
    await emulator?.stop();
  });

  test("up creates the ten resources, natively typed, and prints the outputs the TypeScript example has", async () => {
    const events = new Events();
    const up = await timings.time("up", () => stack.up({ onEvent: events.onEvent }));
    expect(up.changes).toEqual({ create: 11 }); // the ten and the stack
    expect(warningsOf(events, up.stdout, up.stderr)).toEqual([]);

    const account = await accountResources(emulator.url);
    const vpcId = up.outputs.vpcId as string;
    expect(up.outputs).toEqual({
      zone: account.vpc?.[vpcId]?.zoneName,
      vpcId: expect.stringMatching(UUID),
      vpcCidr: "10.10.0.0/16",
      publicIp: expect.stringMatching(IPV4),
      webPrivateIp: expect.stringMatching(/^10\.10\.1\.\d+$/),
      appPrivateIp: expect.stringMatching(/^10\.10\.2\.\d+$/),
      dataVolumeId: expect.stringMatching(UUID),
      computePlan: expect.stringMatching(/^gp\.2c4g/),
      template: expect.stringMatching(/^Ubuntu 24\.04/),
    });

    // The records are the ones the outputs name, and the stack holds each once.
    expect(Object.keys(account.vpc ?? {})).toEqual([vpcId]);
    const volume = account.volume?.[up.outputs.dataVolumeId as string];
    expect(volume?.storageDiskSize).toBe("50");
    const app = Object.values(account.instance ?? {}).find((i) => i.uuid === volume?.vmUuid);
    expect(app?.name).toMatch(/^app-1-/);
    expect(Object.values(account.ipaddress ?? {}).map((ip) => ip.publicIpAddress)).toEqual([up.outputs.publicIp]);
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 10 });

    const { resources } = await stateOf(stack);
    const ours = resources.filter((r) => r.type.startsWith(NATIVE_PREFIX));
    expect(ours.map((r) => r.name).sort()).toEqual(RESOURCE_NAMES);
    // The keys came in as secrets (stack config) and stay so in the state.
    const stateText = stack.stateFileText();
    expect(stateText).not.toContain(DEMO_KEYS.apiKey);
    expect(stateText).not.toContain(DEMO_KEYS.secretKey);
  });

  test("a preview then finds no change (the engine checks it: --expect-no-changes)", async () => {
    const events = new Events();
    const preview = await timings.time("preview --expect-no-changes", () =>
      stack.preview({ expectNoChanges: true, onEvent: events.onEvent }),
    );
    expect(preview.changes).toEqual({ same: 11 });
    expect(warningsOf(events, preview.stdout, preview.stderr)).toEqual([]);
  });

  test("dataSizeGb 100 resizes the volume in place: same id, the emulator's volume 100 GB", async () => {
    const before = await stack.outputs();
    await stack.setConfig("dataSizeGb", "100");

    // The no-change preview is a real check: with a change pending it fails, naming the change.
    const refused = await stack.preview({ expectNoChanges: true }).then(
      () => "no error",
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(/~ size: 50 => 100/);
    expect(refused).toMatch(/no changes were expected/);

    const up = await timings.time("up (dataSizeGb 50 -> 100)", () => stack.up());
    expect(up.changes).toEqual({ update: 1, same: 10 });
    expect(up.operations["app-data"]).toBe("update");
    expect(up.outputs).toEqual(before);
    const volumes = (await accountResources(emulator.url)).volume ?? {};
    expect(volumes[before.dataVolumeId as string]?.storageDiskSize).toBe("100");
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 10 });
  });

  test("refresh takes in a change made outside Pulumi (the VPC's description), and up puts it back", async () => {
    const { vpcId } = await stack.outputs();
    const response = await fetch(`${emulator.url}/restapi/vpc/updateVpc`, {
      method: "PUT",
      headers: { apikey: DEMO_KEYS.apiKey, secretkey: DEMO_KEYS.secretKey, "content-type": "application/json" },
      body: JSON.stringify({ uuid: vpcId, description: "changed outside Pulumi" }),
    });
    expect(response.status).toBeLessThan(300);
    // An update is accepted (202) and visible after the emulator's delay.
    await until("the VPC's new description", 10_000, async () =>
      (await accountResources(emulator.url)).vpc?.[vpcId as string]?.description === "changed outside Pulumi"
        ? true
        : undefined,
    );

    const refresh = await timings.time("refresh (after an out-of-band change)", () => stack.refresh());
    expect(refresh.changes).toEqual({ update: 1, same: 10 });
    const vpcState = (await stateOf(stack)).resources.find((r) => r.type === `${NATIVE_PREFIX}Vpc`);
    expect(vpcState?.outputs.description).toBe("changed outside Pulumi");

    const up = await timings.time("up (puts the description back)", () => stack.up());
    expect(up.changes).toEqual({ update: 1, same: 10 });
    expect(up.operations.web).toBe("update");
    expect((await accountResources(emulator.url)).vpc?.[vpcId as string]?.description).toBe(
      "The web application's network",
    );
  });

  test("destroy empties the account", async () => {
    const destroy = await timings.time("destroy", () => stack.destroy());
    expect(destroy.changes).toEqual({ delete: 11 });
    expect((await stateOf(stack)).resources).toEqual([]);
    expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  });
});
