/**
 * examples/vpc-web-go, the Go twin of examples/vpc-web, built once and run as its README says
 * (`vpc-web-go up|preview|refresh|destroy`: the Automation API on the project in its directory) with
 * the real Pulumi CLI and the native plugin (found through Pulumi.yaml's `plugins.providers`),
 * against the emulator: up and its outputs, a preview without changes, a resize in place through
 * config, a refresh after a change made outside Pulumi, destroy. Every step is audited against the
 * emulator's records.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { DEMO_KEYS, providerConfig } from "../catalog";
import { EMPTY_ACCOUNT, NATIVE_PREFIX, accountResources, auditAccount, stateOf } from "../reliability/helpers";
import { until } from "../native/native-helpers";
import { GoStack, VPC_WEB_GO, buildGoProgram, removeBuild, warnings, type GoBuild } from "./go-helpers";

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

describe("Go: examples/vpc-web-go through the Automation API", () => {
  let emulator: RunningEmulator;
  let build: GoBuild;
  let stack: GoStack;
  const timings: string[] = [];
  const timed = <T extends { ms: number }>(what: string, result: T): T => {
    timings.push(`${what.padEnd(40)} ${(result.ms / 1000).toFixed(1)} s`);
    return result;
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    build = timed("go build (examples/vpc-web-go)", await buildGoProgram(VPC_WEB_GO));
    stack = await GoStack.create(build, { programDir: VPC_WEB_GO, config: providerConfig(emulator.url) });
  });

  afterAll(async () => {
    console.log(`examples/vpc-web-go, step by step:\n${timings.join("\n")}`);
    await stack?.dispose();
    removeBuild(build);
    await emulator?.stop();
  });

  test("up creates the ten resources, natively typed, and prints the outputs the TypeScript example has", async () => {
    const up = timed("up", await stack.up());
    expect(up.stdout).toMatch(/\+ 11 created/); // the ten and the stack
    expect(warnings(up)).toEqual([]);

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
    expect(await auditAccount(emulator.url, stack.harness)).toEqual({ ...EMPTY_ACCOUNT, records: 10 });

    const { resources } = await stateOf(stack.harness);
    const ours = resources.filter((r) => r.type.startsWith(NATIVE_PREFIX));
    expect(ours.map((r) => r.name).sort()).toEqual(RESOURCE_NAMES);
    // The keys came in as secrets (stack config) and stay so in the state.
    const stateText = stack.harness.stateFileText();
    expect(stateText).not.toContain(DEMO_KEYS.apiKey);
    expect(stateText).not.toContain(DEMO_KEYS.secretKey);
  });

  test("a preview then finds no change (the engine checks it: -expect-no-changes)", async () => {
    const preview = timed("preview -expect-no-changes", await stack.runOk("preview", "-expect-no-changes"));
    expect(preview.stdout).toMatch(/Resources:\s+11 unchanged/);
    expect(warnings(preview)).toEqual([]);
  });

  test("dataSizeGb 100 resizes the volume in place: same id, the emulator's volume 100 GB", async () => {
    const before = await stack.harness.outputs();
    await stack.harness.setConfig("dataSizeGb", "100");

    // The no-change preview is a real check: with a change pending it fails, naming the change.
    const refused = await stack.run("preview", "-expect-no-changes");
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toMatch(/~ size: 50 => 100/);
    expect(refused.stderr).toMatch(/no changes were expected/);

    const up = timed("up (dataSizeGb 50 -> 100)", await stack.up());
    expect(up.stdout).toMatch(/Resources:\s+~ 1 updated\s+10 unchanged/);
    expect(up.outputs).toEqual(before);
    const volumes = (await accountResources(emulator.url)).volume ?? {};
    expect(volumes[before.dataVolumeId as string]?.storageDiskSize).toBe("100");
    expect(await auditAccount(emulator.url, stack.harness)).toEqual({ ...EMPTY_ACCOUNT, records: 10 });
    await stack.runOk("preview", "-expect-no-changes");
  });

  test("refresh takes in a change made outside Pulumi (the VPC's description), and up puts it back", async () => {
    const { vpcId } = await stack.harness.outputs();
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

    const refresh = timed("refresh (after an out-of-band change)", await stack.runOk("refresh"));
    expect(refresh.stdout).toMatch(/~ 1 updated/);
    const vpcState = (await stateOf(stack.harness)).resources.find((r) => r.type === `${NATIVE_PREFIX}Vpc`);
    expect(vpcState?.outputs.description).toBe("changed outside Pulumi");

    const up = timed("up (puts the description back)", await stack.up());
    expect(up.stdout).toMatch(/~ 1 updated/);
    expect((await accountResources(emulator.url)).vpc?.[vpcId as string]?.description).toBe(
      "The web application's network",
    );
    await stack.runOk("preview", "-expect-no-changes");
  });

  test("destroy empties the account", async () => {
    const destroy = timed("destroy", await stack.runOk("destroy"));
    expect(destroy.stdout).toMatch(/- 11 deleted/);
    expect((await stateOf(stack.harness)).resources).toEqual([]);
    expect(await auditAccount(emulator.url, stack.harness)).toEqual(EMPTY_ACCOUNT);
  });
});
