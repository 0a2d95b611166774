/**
 * Secrets: through up, refresh, an update of the secrets themselves and destroy, all at the highest
 * verbosity (`--logtostderr -v=9 --logflow --debug`), neither credential, nor a registry password,
 * nor a VPN pre-shared key appears in plain text: not in the state file, not in the engine's event
 * log, not in what the CLI displays, not in the verbose log (the provider's output included).
 *
 * One exception, the Pulumi engine's own: at -v=9 it dumps every property it marshals over gRPC,
 * secrets included ("Marshaling property for RPC[...]: value={...}"); Pulumi documents that verbose
 * logs may hold sensitive values. Those dump lines are counted and left out of the check.
 */
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog, providerConfig } from "../catalog-ids";
import { TestStack } from "../harness";
import { PROGRAMS, accountResources } from "./helpers";

jest.setTimeout(300_000);

// Values no log could hold by chance: a hit is a leak.
const SECRETS = {
  apiKey: "ak-7c1f0e9a-leak-check",
  secretKey: "sk-42d9b3e1-leak-check",
  registryPassword: "registry-pw-5e8a2c71-leak-check",
  presharedKey: "psk-first-9b04d6f3-leak-check",
  rotatedPresharedKey: "psk-rotated-1d7e5a08-leak-check",
};

const VERBOSE = { color: "never", logToStdErr: true, logVerbosity: 9, logFlow: true, debug: true } as const;
/** The engine's -v=9 dumps of marshaled properties (see above). */
const ENGINE_PROPERTY_DUMP = /"msg":"(Un)?[Mm]arshaling property for RPC\[/;

describe("no secret in plain text, at the highest verbosity", () => {
  let emulator: RunningEmulator;
  let stack: TestStack;
  /** What each operation left, by channel: `<operation>: <channel>`. */
  const captured: Record<string, string> = {};
  let engineDumpLines = 0;

  beforeAll(async () => {
    emulator = await startEmulator({
      port: 0,
      asyncDelayMs: 100,
      accounts: { demo: { apiKey: SECRETS.apiKey, secretKey: SECRETS.secretKey } },
    });
    // The catalog is the same in every emulator: discover it on one with the default keys.
    const scout = await startEmulator({ port: 0 });
    const { zoneUuid, ...ids } = await discoverCatalog(scout.url);
    await scout.stop();
    const provider = {
      ...providerConfig(emulator.url, zoneUuid),
      "restcloud:apiKey": { value: SECRETS.apiKey, secret: true },
      "restcloud:secretKey": { value: SECRETS.secretKey, secret: true },
    };
    stack = await TestStack.create({
      programDir: path.join(PROGRAMS, "secrets"),
      stackName: "secrets",
      config: {
        ...provider,
        ...ids,
        step: "0",
        registryPassword: { value: SECRETS.registryPassword, secret: true },
        presharedKey: { value: SECRETS.presharedKey, secret: true },
      },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
  });

  /** Runs one verbose operation and keeps, per channel, all it left. */
  async function verbosely(name: string, run: (options: object) => Promise<{ stdout: string; stderr: string }>) {
    const events: EngineEvent[] = [];
    const displayed: string[] = [];
    const result = await run({
      ...VERBOSE,
      onOutput: (text: string) => displayed.push(text),
      onEvent: (event: EngineEvent) => events.push(event),
    });
    const verboseLines = result.stderr.split("\n");
    const log = verboseLines.filter((line) => !ENGINE_PROPERTY_DUMP.test(line));
    engineDumpLines += verboseLines.length - log.length;
    captured[`${name}: state file`] = stack.stateFileText();
    captured[`${name}: engine event log`] = JSON.stringify(events);
    captured[`${name}: CLI output`] = `${result.stdout}\n${displayed.join("")}`;
    captured[`${name}: verbose log`] = log.join("\n");
    // The capture is real: the events and the verbose log cover the provider's resources in detail.
    expect(events.length).toBeGreaterThan(5);
    expect(log.length).toBeGreaterThan(100);
    expect(captured[`${name}: verbose log`]).toContain("restcloud:VpnCustomerGateway");
  }

  function leaks(): string[] {
    return Object.entries(captured).flatMap(([where, text]) =>
      Object.entries(SECRETS)
        .filter(([, secret]) => text.includes(secret))
        .map(([what]) => `${what} in ${where}`),
    );
  }

  test("up, refresh, an update of the secrets, destroy", async () => {
    await verbosely("up", (options) => stack.stack.up(options));
    const outputs = await stack.outputs();
    // The secrets were used: the program's outputs (decrypted here) and the service hold them.
    expect(outputs.registryPassword).toBe(SECRETS.registryPassword);
    expect(outputs.presharedKey).toBe(SECRETS.presharedKey);
    const gateways = Object.values((await accountResources(emulator.url)).vpncustomergateway ?? {});
    expect(gateways.map((g) => g.ipsecPresharedKey)).toEqual([SECRETS.presharedKey]);

    await verbosely("refresh", (options) => stack.stack.refresh(options));

    await stack.setConfig("step", "1");
    await stack.setConfig("presharedKey", SECRETS.rotatedPresharedKey, true);
    await verbosely("update", (options) => stack.stack.up(options));
    expect((await stack.outputs()).presharedKey).toBe(SECRETS.rotatedPresharedKey);
    const rotated = Object.values((await accountResources(emulator.url)).vpncustomergateway ?? {});
    expect(rotated.map((g) => g.ipsecPresharedKey)).toEqual([SECRETS.rotatedPresharedKey]);

    await verbosely("destroy", (options) => stack.stack.destroy(options));
    expect(leaks()).toEqual([]);
    console.log(`${engineDumpLines} lines of the engine's own -v=9 property dumps were left out of the check`);
  });
});
