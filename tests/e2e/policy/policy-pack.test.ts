// The policy pack (policy/restcloud-policy) in `pulumi preview --policy-pack`, with the real CLI: a rule
// that opens SSH to the world fails the preview, naming the resource; narrowed, the preview passes.
// Groundwork of issue 35: the security policy, a TypeScript program in each mode (the two type tokens) and a
// Python program.
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
  "%s: SSH open to 0.0.0.0/0 fails the preview, naming the rule; a narrowed rule passes",
  async (language, program, modeConfig) => {
    const catalog = await discoverCatalog(emulator.url);
    const source = path.join(__dirname, "programs", program);
    const python = language === "Python" ? pythonProgram(source) : undefined;
    const stack = await TestStack.create({
      programDir: python?.dir ?? source,
      config: {
        ...providerConfig(emulator.url, catalog.zoneUuid),
        vpcOfferingUuid: catalog.vpcOfferingUuid,
        ...(modeConfig as Record<string, string>),
      },
    });
    try {
      const open = await stack.cli(["preview", "--policy-pack", PACK]);
      console.log(open.stdout);
      expect(open.code).not.toBe(0);
      expect(open.stdout).toContain("[mandatory]  no-sensitive-port-open-to-world");
      expect(open.stdout).toContain("FirewallRule ssh opens SSH (22) to 0.0.0.0/0");
      expect(open.stdout).toContain(
        language === "TypeScript, dynamic"
          ? "(pulumi-nodejs:dynamic/restcloud:FirewallRule: ssh)"
          : "(restcloud:index:FirewallRule: ssh)",
      );

      await stack.setConfig("sshCidr", "203.0.113.0/24");
      const narrowed = await stack.cli(["preview", "--policy-pack", PACK]);
      expect({ code: narrowed.code, stderr: narrowed.stderr }).toEqual({ code: 0, stderr: "" });
      expect(narrowed.stdout).toMatch(/✅ restcloud-guardrails@v0\.1\.0/);
    } finally {
      await stack.dispose();
      python?.remove();
    }
  },
);
