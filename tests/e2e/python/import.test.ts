/**
 * Import from Python (programs/import: one VPC, declared with every argument its record holds),
 * with the real Pulumi CLI against the emulator, through the native plugin. The record is made once
 * by a stack whose state is then forgotten (`pulumi stack rm --force`); then taken into a stack
 * (a) by the `import_` resource option (`pulumi.ResourceOptions(import_=id)`, the id from config):
 *     `pulumi up` imports it and creates nothing;
 * (b) by `pulumi import restcloud:index:Vpc net <id> --generate-code=false --yes`;
 * each followed by a preview that must find no change. Neither import sends a mutating request.
 * The last stack then destroys the record, and the account is left empty.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { providerConfig } from "../catalog-ids";
import { TestStack } from "../harness";
import { Events, warningsOf } from "../native/native-helpers";
import {
  EMPTY_ACCOUNT,
  NATIVE_PREFIX,
  accountResources,
  auditAccount,
  emulatorStats,
  resetStats,
  stateResources,
} from "../reliability/helpers";
import { PYTHON_PROGRAMS, pythonProgram, type PythonProgram } from "./python-helpers";

jest.setTimeout(300_000);

const pulumiOk = (stack: TestStack, args: string[]) => stack.cliOk(args);

describe("Python: import of a VPC, by the resource option and by pulumi import", () => {
  let emulator: RunningEmulator;
  let program: PythonProgram;
  let vpcId: string;
  /** The account's records as the stack that made them left them. */
  let records: string;

  const importStack = (stackName: string, extra: Record<string, string> = {}) =>
    TestStack.create({ programDir: program.dir, stackName, config: { ...providerConfig(emulator.url), ...extra } });
  const account = async () => JSON.stringify(await accountResources(emulator.url));

  /** Since `resetStats`: no mutating request, and the record as it was. */
  async function expectUntouched(): Promise<void> {
    expect((await emulatorStats(emulator.url)).mutating).toBe(0);
    expect(await account()).toBe(records);
  }

  /** The stack holds the record, and a preview of the program finds no change, warning of nothing. */
  async function expectHeldWithoutChange(stack: TestStack): Promise<void> {
    expect((await stateResources(stack)).map((r) => [r.type, r.name, r.id])).toEqual([
      [`${NATIVE_PREFIX}Vpc`, "net", vpcId],
    ]);
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 1 });
    const events = new Events();
    const preview = await stack.preview({ expectNoChanges: true, onEvent: events.onEvent });
    expect(preview.operations).toEqual({ net: "same" });
    expect(warningsOf(events, preview.stdout, preview.stderr)).toEqual([]);
  }

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    program = pythonProgram(path.join(PYTHON_PROGRAMS, "import"));
    const stack = await importStack("python-import-records");
    try {
      const up = await stack.up();
      expect(up.operations).toEqual({ net: "create" });
      vpcId = up.outputs.vpcId as string;
      await pulumiOk(stack, ["stack", "rm", "--force", "--yes"]);
    } finally {
      await stack.dispose();
    }
    records = await account();
  });

  afterAll(async () => {
    program?.remove();
    await emulator?.stop();
  });

  test("(a) import_=id: up imports the record and creates nothing; a preview after finds no change", async () => {
    const stack = await importStack("python-import-option", { importId: vpcId });
    try {
      await resetStats(emulator.url);
      const events = new Events();
      const up = await stack.up({ onEvent: events.onEvent });
      expect(up.operations).toEqual({ net: "import" });
      expect(up.outputs.vpcId).toBe(vpcId);
      expect(warningsOf(events, up.stdout, up.stderr)).toEqual([]);
      await expectUntouched();
      await expectHeldWithoutChange(stack);
      await expectUntouched();
      await pulumiOk(stack, ["stack", "rm", "--force", "--yes"]);
    } finally {
      await stack.dispose();
    }
  });

  test("(b) pulumi import: the record imported (protected); a preview after finds no change; destroy empties the account", async () => {
    const stack = await importStack("python-import-cli");
    try {
      await resetStats(emulator.url);
      const imported = await pulumiOk(stack, [
        "import",
        `${NATIVE_PREFIX}Vpc`,
        "net",
        vpcId,
        "--generate-code=false",
        "--yes",
      ]);
      expect(imported.stdout).toMatch(new RegExp(`^\\s*=\\s+${NATIVE_PREFIX}Vpc\\s+net\\s+import(ed)?\\b`, "m"));
      // No warning: the API's VPC record does not say its offering, and the read inputs' marker lets the
      // CLI's Check of them pass (the program's value is then no change: the preview below).
      const warnings = `${imported.stdout}\n${imported.stderr}`.split("\n").filter((l) => /\bwarning:/i.test(l));
      expect(warnings).toEqual([]);
      await expectUntouched();
      await expectHeldWithoutChange(stack);
      await expectUntouched();

      // The CLI protects what it imports; the program asks for no protection, so an up lifts it.
      const up = await stack.up();
      expect(up.changes).toEqual({ same: 2 });
      const destroyed = await stack.destroy();
      expect(destroyed.operations).toEqual({ net: "delete" });
      expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
      expect((await accountResources(emulator.url)).vpc).toEqual({});
    } finally {
      await stack.dispose();
    }
  });
});
