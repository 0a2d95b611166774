/**
 * Import in the native mode (`restcloud:mode native`), with the real Pulumi CLI against the
 * emulator: records made once, then taken into three successive stacks, each way Pulumi offers.
 *
 * The records: programs/import (a VPC and its two tiers, an instance on the first with a data volume,
 * an address of the VPC with a load-balancer rule into the first tier, an isolated network with a
 * public IP, two firewall rules on that IP, an egress rule of the network, a VPN customer gateway),
 * deployed by a stack whose state is then forgotten (`pulumi stack rm --force`). Some arguments no
 * record shows: the VPC's offering, the rule's tier (the VPC has two), the gateway's IKE and ESP
 * algorithms. Each next stack takes the same records, then previews the program that declares the
 * records' arguments, which must find no change (`expectNoChanges`), and is forgotten in turn (never
 * destroyed):
 *  (a) the `import` resource option (the program takes the ids from config): `pulumi up` imports
 *      each, creates none, replaces none (the engine refuses to replace an import);
 *  (b) `pulumi import restcloud:index:<Kind> <name> <id> --generate-code=false --yes`, one command
 *      per resource (imported protected, as the CLI does by default); before them, ids no record
 *      has fail, with a message that says so; no import warns that imported inputs "failed to
 *      validate" (the CLI's Check of what Read answered, which calls that a bug in the provider);
 *  (c) `pulumi import --file resources.json --generate-code=false --yes`, all at once, with no such
 *      warning either; then an up
 *      that changes nothing, and a destroy through this last stack that empties the account.
 * No import sends a mutating request, nor changes a record. (The CLI's Node.js language host
 * generates no code: the CLI imports need `--generate-code=false`.)
 *
 * At the end, the table of kind x way, pass or fail (console.log), and the time of each step.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { RestCloudClient } from "../../../provider/client";
import { DEMO_KEYS, discoverCatalog, providerConfig, type CatalogIds } from "../catalog-ids";
import { TestStack, type CliResult } from "../harness";
import { EMPTY_ACCOUNT, NATIVE_PREFIX, auditAccount, emulatorStats, resetStats } from "../reliability/helpers";
import { Events, NATIVE_MODE, NATIVE_PROGRAMS, type ResourceSteps } from "./native-helpers";

jest.setTimeout(180_000);

const IMPORT_PROGRAM = path.join(NATIVE_PROGRAMS, "import");

/** The program's resources, logical name -> kind, in the order the program declares them. */
const RESOURCES = {
  net: "Vpc",
  tier: "VpcTier",
  tier2: "VpcTier",
  vm: "Instance",
  data: "Volume",
  vpcIp: "PublicIpAddress",
  web: "LoadBalancerRule",
  office: "VpnCustomerGateway",
  isolated: "Network",
  ip: "PublicIpAddress",
  http: "FirewallRule",
  ssh: "FirewallRule",
  egress: "EgressRule",
} as const;
type Name = keyof typeof RESOURCES;
const NAMES = Object.keys(RESOURCES) as Name[];
/** The resources in dependency layers, dependents first. */
const DESTROY_LAYERS: Name[][] = [
  ["http", "ssh", "egress", "data", "web", "office"],
  ["ip", "vm", "vpcIp"],
  ["isolated", "tier", "tier2"],
  ["net"],
];
/** The resources and the stack itself. */
const ALL = NAMES.length + 1;
const tokenOf = (name: Name) => `${NATIVE_PREFIX}${RESOURCES[name]}`;

/** Ids that no record has. */
const MISSING_ID = "0badc0de-0000-4000-8000-00000000dead";

// ---- the matrix ------------------------------------------------------------------------------------

const WAYS = ["option", "CLI", "file"] as const;
type Way = (typeof WAYS)[number];
/** Per way and logical name: "pass", or why not; absent: not reached. */
const matrix: Record<Way, Partial<Record<Name, string>>> = { option: {}, CLI: {}, file: {} };
/** What else the table's reader should see (the messages of failed imports). */
const notes: string[] = [];

function printMatrix(timings: string[], totalMs: number): void {
  const width = Math.max(...NAMES.map((name) => `${RESOURCES[name]} (${name})`.length)) + 2;
  const cell = (way: Way, name: Name) => (matrix[way][name] === undefined ? "-" : matrix[way][name]!);
  const cellWidth = Math.max(8, ...WAYS.flatMap((way) => NAMES.map((name) => cell(way, name).length + 2)));
  console.log(
    [
      "import in the native mode: kind x way (pass: imported, and the preview after showed no change;",
      "import ok: imported, no preview reached; -: not reached)",
      ["kind (name)".padEnd(width), ...WAYS.map((way) => way.padEnd(cellWidth))].join(""),
      ...NAMES.map((name) =>
        [`${RESOURCES[name]} (${name})`.padEnd(width), ...WAYS.map((way) => cell(way, name).padEnd(cellWidth))].join(
          "",
        ),
      ),
      "",
      ...notes,
      "",
      ...timings,
      `total: ${(totalMs / 1000).toFixed(1)} s`,
    ].join("\n"),
  );
}

// ---- the CLI ---------------------------------------------------------------------------------------

const failure = (result: CliResult) =>
  new Error(`${result.command}: exit ${result.code}\n${result.stdout}\n${result.stderr}`);

const pulumi = (stack: TestStack, args: string[]) => stack.cli(args);
const pulumiOk = (stack: TestStack, args: string[]) => stack.cliOk(args);

/** Whether `pulumi import`'s output shows the resource imported (`= <type> <name> import`). */
const importedIn = (stdout: string, name: Name) =>
  new RegExp(`^\\s*=\\s+${tokenOf(name)}\\s+${name}\\s+import(ed)?\\b`, "m").test(stdout);

/**
 * The CLI's warnings that an imported resource's inputs failed the provider's Check (ImportStep:
 * "One or more imported inputs failed to validate. This is almost certainly a bug in the ...
 * provider"), and the failures it lists after them ("... has a problem: <reason>").
 */
const validationWarnings = (result: CliResult) =>
  `${result.stdout}\n${result.stderr}`
    .split("\n")
    .filter((line) => /failed to validate|bug in the|has a problem/i.test(line));

/** Forgets the stack's state, leaving its records as they are. */
const forget = (stack: TestStack) => pulumiOk(stack, ["stack", "rm", "--force", "--yes"]);

// ---- the state and the events ----------------------------------------------------------------------

interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  protect?: boolean;
  dependencies?: string[];
}

/** The program's resources in the stack's state, by logical name. */
async function stateByName(stack: TestStack): Promise<Partial<Record<Name, ExportedResource>>> {
  const { deployment } = (await stack.stack.exportStack()) as { deployment: { resources?: ExportedResource[] } };
  return Object.fromEntries(
    (deployment.resources ?? [])
      .filter((r) => r.type.startsWith(NATIVE_PREFIX))
      .map((r) => [r.urn.split("::").pop(), r]),
  ) as Partial<Record<Name, ExportedResource>>;
}

/** How the engine's events show a value not known before the update (the output of a replacement). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The first line of each error the engine reported about the resource. */
const errorsAbout = (events: Events, name: Name) =>
  events
    .about(tokenOf(name), name)
    .filter((d) => d.severity === "error")
    .map((d) => d.message.split("\n")[0]!);

/** Whether the events show the resource's operation done (its outputs). */
const doneIn = (events: Events, name: Name) =>
  events.all.some((e) => e.resOutputsEvent?.metadata.urn.endsWith(`::${tokenOf(name)}::${name}`));

/** A resource's step in a preview: "pass" when `same`, else its steps and the changed properties. */
function verdictOf(steps: ResourceSteps | undefined): string {
  if (steps === undefined) return "FAIL: no step";
  if (steps.ops.every((op) => op === "same")) return "pass";
  const changed = Object.keys(steps.detailedDiff);
  // A change only of references to what the preview replaces: this resource's own record matched.
  const follows = changed.length > 0 && changed.every((key) => steps.newInputs[key] === UNKNOWN);
  return `FAIL: ${steps.ops.filter((op) => op !== "same").join(",")} of ${changed.join(",")}${follows ? " (follows a replaced dependency)" : ""}`;
}

/**
 * A preview that must find no change (the engine itself fails otherwise). Per resource: "pass", or
 * its steps and detailed diff, read from the events even when the preview failed.
 */
async function previewNoChanges(stack: TestStack): Promise<{ verdicts: Record<Name, string>; error?: Error }> {
  const events = new Events();
  let error: Error | undefined;
  try {
    const { changes } = await stack.preview({ expectNoChanges: true, onEvent: events.onEvent });
    if (JSON.stringify(changes) !== JSON.stringify({ same: ALL })) {
      error = new Error(`the preview's summary: ${JSON.stringify(changes)}, expected { same: ${ALL} }`);
    }
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(String(caught));
  }
  const steps = events.steps();
  const verdicts = Object.fromEntries(NAMES.map((name) => [name, verdictOf(steps[name])])) as Record<Name, string>;
  if (error) {
    const changed = NAMES.filter((name) => verdicts[name] !== "pass").map(
      (name) => `  ${name}: ${JSON.stringify(steps[name]?.ops)} ${JSON.stringify(steps[name]?.detailedDiff)}`,
    );
    error.message = `a preview with no change expected; the resources with a change:\n${changed.join("\n")}\n${error.message}`;
  }
  return { verdicts, error };
}

describe("import in the native mode: the core kinds, three ways, into three successive stacks", () => {
  let emulator: RunningEmulator;
  let catalog: CatalogIds;
  /** The Ubuntu template's root disk (GB): what an instance's record shows when its create named none. */
  let rootDiskSize: number;
  /** The records' ids, by logical name. */
  let ids: Record<Name, string>;
  /** The account as the stack that made the records left it. */
  let records: string;
  const started = Date.now();
  const timings: string[] = [];
  const timed = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    try {
      return await run();
    } finally {
      timings.push(`${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  };

  /** A stack of the import program on the emulator, `extra` config besides. */
  const importStack = (stackName: string, extra: Record<string, string> = {}) => {
    const { zoneUuid, ...catalogIds } = catalog;
    return TestStack.create({
      programDir: IMPORT_PROGRAM,
      stackName,
      config: {
        ...NATIVE_MODE,
        ...providerConfig(emulator.url, zoneUuid),
        ...catalogIds,
        prefix: "imp",
        rootDiskSize: String(rootDiskSize),
        presharedKey: { value: "import-psk", secret: true },
        ...extra,
      },
    });
  };

  /** The account's records (both accounts), empty collections left out (a list may make one). */
  const accountSnapshot = async (): Promise<string> => {
    const all = (await (await fetch(`${emulator.url}/_emulator/resources`)).json()) as Record<string, object>;
    return JSON.stringify(Object.entries(all).filter(([, records]) => Object.keys(records).length > 0));
  };

  /** Since `resetStats`: no mutating request, and every record as it was. */
  async function expectAccountUntouched(): Promise<void> {
    expect((await emulatorStats(emulator.url)).mutating).toBe(0);
    expect(await accountSnapshot()).toBe(records);
  }

  /** Each resource of the stack holds its record, under the native type token; nothing else is held. */
  async function expectHeld(stack: TestStack): Promise<Partial<Record<Name, ExportedResource>>> {
    const state = await stateByName(stack);
    expect(Object.fromEntries(Object.entries(state).map(([name, r]) => [name, [r.type, r.id]]))).toEqual(
      Object.fromEntries(NAMES.map((name) => [name, [tokenOf(name), ids[name]]])),
    );
    expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: NAMES.length });
    return state;
  }

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    catalog = await discoverCatalog(emulator.url);
    const templates = await new RestCloudClient({ apiUrl: emulator.url, ...DEMO_KEYS }).costEstimate.templates({
      zoneUuid: catalog.zoneUuid,
      platform: "LINUX",
      distribution: "OS_ONLY",
    });
    rootDiskSize = Number(templates.find((t) => t.uuid === catalog.ubuntuTemplateUuid)?.minimumRootdisk);
    expect(rootDiskSize).toBeGreaterThan(0);
    const stack = await importStack("native-import-records");
    try {
      const up = await timed("records: up", () => stack.up());
      expect(up.changes).toEqual({ create: ALL });
      ids = up.outputs.resourceIds as Record<Name, string>;
      expect(Object.keys(ids).sort()).toEqual([...NAMES].sort());
      expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: NAMES.length });
      await timed("records: stack rm --force", () => forget(stack));
    } finally {
      await stack.dispose();
    }
    records = await accountSnapshot();
  });

  afterAll(async () => {
    await emulator?.stop();
    printMatrix(timings, Date.now() - started);
  });

  test("(a) the import resource option: up imports each record, creates none; a preview after finds no change", async () => {
    const stack = await importStack("native-import-option", { ids: JSON.stringify(ids) });
    try {
      await resetStats(emulator.url);
      // Each resource's one step an import. (--continue-on-error: a failed step does not stop the
      // steps independent of it; an error of the engine's own, such as a replace of an import, does.)
      const events = new Events();
      const up = await timed("(a) up with the import option", () =>
        stack.stack
          .up({ color: "never", diff: true, continueOnError: true, onEvent: events.onEvent })
          .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
      );
      const steps = events.steps();
      for (const name of NAMES) {
        const ops = steps[name]?.ops ?? [];
        if (ops.length === 0) continue; // not reached
        const errors = errorsAbout(events, name);
        const imported = ops.join(",") === "import" && doneIn(events, name) && errors.length === 0;
        // (The engine's message up to its first ";": the rest repeats it at length.)
        const reasons = errors.map((message) => message.split(";")[0]);
        matrix.option[name] = imported ? "import ok" : `FAIL: ${ops.join(",")}: ${reasons.join(" / ")}`;
      }
      if (up instanceof Error) throw up;
      expect(Object.fromEntries(NAMES.map((name) => [name, steps[name]?.ops]))).toEqual(
        Object.fromEntries(NAMES.map((name) => [name, ["import"]])),
      );
      await expectAccountUntouched();
      await expectHeld(stack);

      const { verdicts, error } = await timed("(a) preview", () => previewNoChanges(stack));
      for (const name of NAMES) matrix.option[name] = verdicts[name];
      if (error) throw error;
      await expectAccountUntouched();
      await timed("(a) stack rm --force", () => forget(stack));
    } finally {
      await stack.dispose();
    }
  });

  test("(b) pulumi import per resource: ids no record has fail clearly; each record imported (protected); a preview after finds no change", async () => {
    const stack = await importStack("native-import-cli");
    try {
      await resetStats(emulator.url);
      // A kind searched for by zone (Vpc), one found through its parent's zone (FirewallRule).
      for (const kind of ["Vpc", "FirewallRule"]) {
        const missing = await timed(`(b) pulumi import of a missing ${kind}`, () =>
          pulumi(stack, ["import", `${NATIVE_PREFIX}${kind}`, "ghost", MISSING_ID, "--generate-code=false", "--yes"]),
        );
        const output = `${missing.stdout}\n${missing.stderr}`;
        notes.push(`pulumi import ${kind} ghost <missing id>: exit ${missing.code}: ${output.match(/error: .*/)?.[0]}`);
        expect({ kind, code: missing.code === 0 ? 0 : "non-zero" }).toEqual({ kind, code: "non-zero" });
        expect(output).toContain(`resource '${MISSING_ID}' does not exist`);
        expect(output).not.toMatch(/panic|TypeError|at .*\.js:\d+/);
      }
      expect(await stateByName(stack)).toEqual({});

      const warned: string[] = [];
      for (const name of NAMES) {
        const result = await timed(`(b) pulumi import ${RESOURCES[name]} ${name}`, () =>
          pulumi(stack, ["import", tokenOf(name), name, ids[name], "--generate-code=false", "--yes"]),
        );
        const imported = result.code === 0 && importedIn(result.stdout, name);
        const warnings = validationWarnings(result);
        matrix.CLI[name] = !imported
          ? `FAIL: import (exit ${result.code})`
          : warnings.length > 0
            ? "FAIL: import warned"
            : "import ok";
        if (!imported) throw failure(result);
        warned.push(...warnings.map((line) => `${name}: ${line.trim()}`));
      }
      expect(warned).toEqual([]);
      await expectAccountUntouched();
      const state = await expectHeld(stack);
      // The CLI protects what it imports, unless told otherwise.
      expect(Object.values(state).map((r) => r.protect)).toEqual(NAMES.map(() => true));

      const { verdicts, error } = await timed("(b) preview", () => previewNoChanges(stack));
      for (const name of NAMES) matrix.CLI[name] = verdicts[name];
      if (error) throw error;
      await expectAccountUntouched();
      await timed("(b) stack rm --force", () => forget(stack));
    } finally {
      await stack.dispose();
    }
  });

  test("(c) pulumi import --file: all at once; a preview after finds no change; an up changes nothing; destroy empties the account", async () => {
    const stack = await importStack("native-import-file");
    try {
      await resetStats(emulator.url);
      const file = path.join(stack.tempDir, "resources.json");
      const resources = NAMES.map((name) => ({ type: tokenOf(name), name, id: ids[name] }));
      fs.writeFileSync(file, JSON.stringify({ resources }, null, 2));
      const result = await timed("(c) pulumi import --file", () =>
        pulumi(stack, ["import", "--file", file, "--generate-code=false", "--yes"]),
      );
      for (const name of NAMES) {
        const imported = result.code === 0 && importedIn(result.stdout, name);
        matrix.file[name] = imported ? "import ok" : `FAIL: import (exit ${result.code})`;
      }
      if (result.code !== 0) throw failure(result);
      expect(NAMES.filter((name) => !importedIn(result.stdout, name))).toEqual([]);
      // What Read answered passed the CLI's Check: no warning that it "failed to validate".
      expect(validationWarnings(result)).toEqual([]);
      await expectAccountUntouched();
      await expectHeld(stack);

      const { verdicts, error } = await timed("(c) preview", () => previewNoChanges(stack));
      for (const name of NAMES) matrix.file[name] = verdicts[name];
      await expectAccountUntouched();

      if (error === undefined) {
        // The program takes over: an up changes nothing, and records the dependencies an import cannot know.
        const up = await timed("(c) up", () => stack.up());
        expect(up.changes).toEqual({ same: ALL });
        await expectAccountUntouched();
        const state = await stateByName(stack);
        expect(state.data?.dependencies).toEqual([state.vm?.urn]);
      }
      // What `pulumi import` protected, the up left unprotected (the program asks for no protection);
      // without an up, `pulumi state unprotect` does it.
      if (Object.values(await stateByName(stack)).some((r) => r.protect)) {
        await timed("(c) state unprotect --all", () => pulumiOk(stack, ["state", "unprotect", "--all", "--yes"]));
      }
      if (error === undefined) {
        const destroyed = await timed("(c) destroy", () => stack.destroy());
        expect(destroyed.changes).toEqual({ delete: ALL });
      } else {
        // Without the up the state knows no dependencies (an import cannot): the records go layer by
        // layer, dependents first, so that the account is left empty all the same.
        const state = await stateByName(stack);
        await timed("(c) destroy, layer by layer", async () => {
          for (const layer of DESTROY_LAYERS) {
            await stack.stack.destroy({ color: "never", target: layer.map((name) => state[name]!.urn) });
          }
        });
        expect(await stateByName(stack)).toEqual({});
      }
      expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
      if (error) throw error;
    } finally {
      await stack.dispose();
    }
  });
});
