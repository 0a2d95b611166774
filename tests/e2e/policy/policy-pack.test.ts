// The policy pack (policy/restcloud-policy) in `pulumi preview --policy-pack`, with the real CLI: a rule
// that opens SSH to the world fails the preview, naming the resource; narrowed, the preview passes.
// Groundwork of issue 35: the security policy, a TypeScript program in the default (dynamic) mode.
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog, providerConfig } from "../catalog-ids";
import { REPO_ROOT, TestStack } from "../harness";

jest.setTimeout(180_000);

const PACK = path.join(REPO_ROOT, "policy", "restcloud-policy");

let emulator: RunningEmulator;
let stack: TestStack;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  const catalog = await discoverCatalog(emulator.url);
  stack = await TestStack.create({
    programDir: path.join(__dirname, "programs", "guarded"),
    config: { ...providerConfig(emulator.url, catalog.zoneUuid), vpcOfferingUuid: catalog.vpcOfferingUuid },
  });
});

afterAll(async () => {
  await stack?.dispose();
  await emulator?.stop();
});

test("SSH open to 0.0.0.0/0 fails the preview, naming the rule; a narrowed rule passes", async () => {
  const open = await stack.cli(["preview", "--policy-pack", PACK]);
  console.log(open.stdout);
  expect(open.code).not.toBe(0);
  expect(open.stdout).toContain("[mandatory]  no-sensitive-port-open-to-world");
  expect(open.stdout).toContain("FirewallRule ssh opens SSH (22) to 0.0.0.0/0");

  await stack.setConfig("sshCidr", "203.0.113.0/24");
  const narrowed = await stack.cli(["preview", "--policy-pack", PACK]);
  expect({ code: narrowed.code, stderr: narrowed.stderr }).toEqual({ code: 0, stderr: "" });
  expect(narrowed.stdout).toMatch(/✅ restcloud-guardrails@v0\.1\.0/);
});
