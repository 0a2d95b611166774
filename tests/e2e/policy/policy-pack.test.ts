// The policy pack (policy/restcloud-policy) in `pulumi preview --policy-pack`, with the real CLI, for a TypeScript
// program in each mode (the two type tokens) and a Python program (the native plugin): a stack over its budget with
// SSH open to 0.0.0.0/0 fails the preview on both policies, priced from the emulator's catalog with the API's URL
// and keys from the stack's config (secrets included: the engine hands them to the pack decrypted); with the budget
// raised (--policy-pack-config) and the rule narrowed, the same stack passes. Two previews a case.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog, providerConfig } from "../catalog-ids";
import { REPO_ROOT, TestStack } from "../harness";
import { NATIVE_MODE } from "../native/native-helpers";
import { pythonProgram } from "../python/python-helpers";

jest.setTimeout(180_000);

const PACK = path.join(REPO_ROOT, "policy", "restcloud-policy");

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
});

afterAll(async () => {
  await emulator?.stop();
});

/** The program per case: TypeScript in either mode, Python (always the native plugin). */
const CASES = [
  ["TypeScript, dynamic", "guarded", {}],
  ["TypeScript, native", "guarded", NATIVE_MODE],
  ["Python", "guarded-python", {}],
] as const;

test.each(CASES)(
  "%s: over the budget with SSH open to 0.0.0.0/0, the preview fails on both; within it and narrowed, it passes",
  async (language, program, modeConfig) => {
    const catalog = await discoverCatalog(emulator.url);
    const source = path.join(__dirname, "programs", program);
    const python = language === "Python" ? pythonProgram(source) : undefined;
    const stack = await TestStack.create({
      programDir: python?.dir ?? source,
      config: {
        ...providerConfig(emulator.url, catalog.zoneUuid),
        vpcOfferingUuid: catalog.vpcOfferingUuid,
        tierOfferingUuid: catalog.tierOfferingUuid,
        templateUuid: catalog.ubuntuTemplateUuid,
        planUuid: catalog.smallPlanUuid,
        ...(modeConfig as Record<string, string>),
      },
    });
    const policyConfig = path.join(stack.tempDir, "policy-config.json");
    const preview = (maxMonthly: number) => {
      fs.writeFileSync(policyConfig, JSON.stringify({ "monthly-budget": { maxMonthly } }));
      return stack.cli(["preview", "--policy-pack", PACK, "--policy-pack-config", policyConfig]);
    };
    try {
      const failing = await preview(10);
      console.log(`${language}, the failing preview:\n${failing.stdout}`);
      expect(failing.code).not.toBe(0);
      const token = language === "TypeScript, dynamic" ? "pulumi-nodejs:dynamic/restcloud" : "restcloud:index";
      expect(failing.stdout).toContain("[mandatory]  monthly-budget  (pulumi:pulumi:Stack: "); // a stack-level violation
      expect(failing.stdout).toMatch(
        /the monthly total [\d.,]+ EUR is over the budget of 10\.00 EUR \(maxMonthly\):\n\s+- Instance web: [\d.,]+ EUR\n/,
      );
      expect(failing.stdout).toContain(`[mandatory]  no-sensitive-port-open-to-world  (${token}:FirewallRule: ssh)`);
      expect(failing.stdout).toContain("FirewallRule ssh opens SSH (22) to 0.0.0.0/0");

      await stack.setConfig("sshCidr", "203.0.113.0/24");
      const passing = await preview(1000);
      expect({ code: passing.code, stderr: passing.stderr }).toEqual({ code: 0, stderr: "" });
      expect(passing.stdout).toMatch(/✅ restcloud-guardrails@v0\.1\.0/);
    } finally {
      await stack.dispose();
      python?.remove();
    }
  },
);
