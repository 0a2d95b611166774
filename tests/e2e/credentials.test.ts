/**
 * The README's "Credentials" paragraph, sentence by sentence, against an emulator whose keys are
 * rotated (restarted from its state file on the same port with new keys; the old ones then get 401):
 *
 * 1. Pulumi stores the default provider's configuration in the stack's state, the credentials
 *    included (encrypted).
 * 2. `pulumi refresh` and `pulumi destroy` use the configuration stored by the last `pulumi up`,
 *    not the stack's current config: after `pulumi config set --secret` of the new keys, a refresh
 *    still sends the old ones.
 * 3. To rotate keys: the new ones in the config, then `pulumi up` (which replaces nothing); refresh
 *    and destroy then work.
 * 4. Keys given only as RESTCLOUD_API_KEY and RESTCLOUD_SECRET_KEY are never stored: after a
 *    rotation, refresh and destroy work with the new environment, without an up.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { DEMO_CREDENTIALS, startEmulator, type RunningEmulator } from "../../emulator";
import { discoverCatalog } from "./catalog-ids";
import { REPO_ROOT, TestStack } from "./harness";
import { freePort } from "./reliability/helpers";

jest.setTimeout(300_000);

const PROGRAM = path.join(REPO_ROOT, "tests", "e2e", "programs", "one-resource");
const ROTATED = { apiKey: "rotated-api-key", secretKey: "rotated-secret-key" };
const ROTATED_AGAIN = { apiKey: "rotated-again-api-key", secretKey: "rotated-again-secret-key" };

/** An emulator on a fixed port and state file, restarted with other keys to rotate them. */
class RotatingEmulator {
  private running?: RunningEmulator;
  constructor(
    private readonly port: number,
    private readonly stateFile: string,
  ) {}
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  async start(keys: { apiKey: string; secretKey: string }): Promise<void> {
    await this.running?.stop();
    this.running = await startEmulator({
      port: this.port,
      stateFile: this.stateFile,
      asyncDelayMs: 50,
      accounts: { demo: keys },
    });
  }
  async vpcs(): Promise<number> {
    const all = (await (await fetch(`${this.url}/_emulator/resources?account=demo`)).json()) as Record<string, object>;
    return Object.keys(all.vpc ?? {}).length;
  }
  async stop(): Promise<void> {
    await this.running?.stop();
  }
}

const failureOf = (operation: Promise<unknown>): Promise<string> =>
  operation.then(
    () => "",
    (error: unknown) => String(error),
  );

let work: string;
let emulator: RotatingEmulator;
let vpcCase: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-credentials-"));
  emulator = new RotatingEmulator(await freePort(), path.join(work, "emulator.json"));
  await emulator.start(DEMO_CREDENTIALS);
  const ids = await discoverCatalog(emulator.url);
  vpcCase = JSON.stringify({
    type: "Vpc",
    args: { zoneUuid: ids.zoneUuid, cidr: "10.1.0.0/16", vpcOfferingUuid: ids.vpcOfferingUuid },
  });
});

afterAll(async () => {
  await emulator?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

test("the README's paragraph says what it checks", () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8").replace(/\s+/g, " ");
  for (const sentence of [
    "Pulumi stores the default provider's configuration in the stack's state, the credentials included (encrypted)",
    "`pulumi refresh` and `pulumi destroy` use the configuration stored by the last `pulumi up`",
    "To rotate keys, set the new ones and run `pulumi up` before any refresh or destroy: `pulumi config set --secret restcloud:apiKey NEW_KEY`, `pulumi config set --secret restcloud:secretKey NEW_SECRET`, `pulumi up`.",
    "Keys given only as `RESTCLOUD_API_KEY` and `RESTCLOUD_SECRET_KEY` (no `restcloud:apiKey` in the config) are never stored: every operation, refresh and destroy included, reads them from its environment.",
  ]) {
    expect(readme).toContain(sentence);
  }
});

test("keys in the config: stored encrypted; refresh uses the stored ones until an up stores the new", async () => {
  await emulator.start(DEMO_CREDENTIALS);
  const stack = await TestStack.create({
    programDir: PROGRAM,
    config: {
      case: vpcCase,
      "restcloud:apiUrl": emulator.url,
      "restcloud:apiKey": { value: DEMO_CREDENTIALS.apiKey, secret: true },
      "restcloud:secretKey": { value: DEMO_CREDENTIALS.secretKey, secret: true },
    },
  });
  try {
    expect((await stack.up()).operations.one).toBe("create");
    // 1. Stored in the state, as secrets: the keys' names are there, their values are not.
    const state = stack.stateFileText();
    expect(state).toContain('"restcloud:apiKey"');
    expect(state).toContain('"restcloud:secretKey"');
    expect(state).not.toContain(DEMO_CREDENTIALS.apiKey);
    expect(state).not.toContain(DEMO_CREDENTIALS.secretKey);

    // 2. The keys are rotated, and the config holds the new ones: a refresh still sends the old.
    await emulator.start(ROTATED);
    await stack.setConfig("restcloud:apiKey", ROTATED.apiKey, true);
    await stack.setConfig("restcloud:secretKey", ROTATED.secretKey, true);
    expect(await failureOf(stack.refresh())).toMatch(/401 UNAUTHORIZED/);

    // 3. `pulumi up` stores the new configuration, replacing nothing; refresh and destroy work.
    const up = await stack.up();
    expect(Object.values(up.operations).filter((op) => op !== "same")).toEqual([]);
    await stack.refresh();
    await stack.destroy();
    expect(await emulator.vpcs()).toBe(0);
  } finally {
    await stack.dispose();
  }
});

test("keys in the environment only: never stored, refresh and destroy read the new ones", async () => {
  await emulator.start(ROTATED);
  const stack = await TestStack.create({
    programDir: PROGRAM,
    config: { case: vpcCase, "restcloud:apiUrl": emulator.url },
    env: { RESTCLOUD_API_KEY: ROTATED.apiKey, RESTCLOUD_SECRET_KEY: ROTATED.secretKey },
  });
  try {
    expect((await stack.up()).operations.one).toBe("create");
    const state = stack.stateFileText();
    expect(state).not.toContain("restcloud:apiKey");
    expect(state).not.toContain(ROTATED.apiKey);

    // Rotated again, and only the environment says so: no up needed.
    await emulator.start(ROTATED_AGAIN);
    const workspace = stack.stack.workspace as LocalWorkspace;
    Object.assign(workspace.envVars, {
      RESTCLOUD_API_KEY: ROTATED_AGAIN.apiKey,
      RESTCLOUD_SECRET_KEY: ROTATED_AGAIN.secretKey,
    });
    await stack.refresh();
    await stack.destroy();
    expect(await emulator.vpcs()).toBe(0);
  } finally {
    await stack.dispose();
  }
});
