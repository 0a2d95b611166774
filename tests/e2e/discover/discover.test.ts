/**
 * `restcloud discover` end to end, with the real Pulumi CLI against the emulator: records made by
 * hand through the REST API (a VPC and its tier; an isolated network with an instance, its data
 * volume and that volume's snapshot; a public IP with a firewall rule and a port-forwarding rule to
 * the instance; an egress rule; a security group with a rule: 12 records of 12 kinds) are
 * discovered by the built command in a project whose one stack holds nothing; then
 *
 *   pulumi import --file restcloud-discovered/import.json --generate-code=false --yes
 *
 * adopts them into the stack, whose program is the generated code (its one TODO, the VPC's
 * offering, filled in as a user would), and `pulumi preview --expect-no-changes` finds no change;
 * discover then finds nothing unheld; `pulumi up` changes nothing, and `pulumi destroy` empties
 * the account. Once with the TypeScript program (native mode), once with the Python one.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { catalogOf, demoClient, makeCoreRecords, type CoreRecords } from "../../integration/discover/records";
import { discoverCatalog, providerConfig } from "../catalog-ids";
import { REPO_ROOT, TestStack } from "../harness";
import { NATIVE_MODE, warningsOf, withEvents } from "../native/native-helpers";
import { pythonProgram, type PythonProgram } from "../python/python-helpers";
import { EMPTY_ACCOUNT, NATIVE_PREFIX, auditAccount, catalogConfig, stateResources } from "../reliability/helpers";

jest.setTimeout(600_000);

const CLI = path.join(REPO_ROOT, "dist", "provider", "cli.js");
const PLUGIN = path.join(REPO_ROOT, "plugin");

/** The records as kind -> id, for comparison with import.json and the state. */
const expectedRecords = (core: CoreRecords) =>
  [
    ["Vpc", core.vpc],
    ["VpcTier", core.tier],
    ["Network", core.network],
    ["Instance", core.vm],
    ["Volume", core.data],
    ["VolumeSnapshot", core.snapshot],
    ["PublicIpAddress", core.ip],
    ["FirewallRule", core.http],
    ["PortForwardingRule", core.ssh],
    ["EgressRule", core.egress],
    ["SecurityGroup", core.group],
    ["SecurityGroupFirewallRule", core.groupRule],
  ]
    .map(([kind, id]) => `${kind} ${id}`)
    .sort();

/** Per kind, the kinds of the resources its state's dependencies name (the core records: one of each kind). */
async function dependenciesByKind(stack: TestStack): Promise<Record<string, string[]>> {
  const { deployment } = (await stack.stack.exportStack()) as {
    deployment: { resources: { urn: string; type: string; dependencies?: string[] }[] };
  };
  const kindOf = (type: string) => (type.startsWith(NATIVE_PREFIX) ? type.slice(NATIVE_PREFIX.length) : undefined);
  const typeOf = new Map(deployment.resources.map((r) => [r.urn, r.type]));
  const found: Record<string, string[]> = {};
  for (const r of deployment.resources) {
    const kind = kindOf(r.type);
    const on = (r.dependencies ?? []).map((urn) => kindOf(typeOf.get(urn) ?? "") ?? urn).sort();
    if (kind && on.length > 0) found[kind] = on;
  }
  return found;
}

/** What the core records refer to (tests/integration/discover/records.ts). */
const CORE_DEPENDENCIES = {
  VpcTier: ["Vpc"],
  Instance: ["Network"],
  Volume: ["Instance"],
  VolumeSnapshot: ["Volume"],
  PublicIpAddress: ["Network"],
  FirewallRule: ["PublicIpAddress"],
  PortForwardingRule: ["Instance", "Network", "PublicIpAddress"],
  EgressRule: ["Network"],
  SecurityGroupFirewallRule: ["SecurityGroup"],
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built `restcloud discover` in the program's directory, with the stack's environment (its pulumi, backend, passphrase). */
function discover(stack: TestStack, args: string[]): Promise<Run> {
  const workspace = stack.stack.workspace as LocalWorkspace;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "discover", ...args], {
      cwd: workspace.workDir,
      env: { ...process.env, ...workspace.envVars },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

interface Report {
  records: { kind: string; id: string; logicalName: string; todo: string[] }[];
  summary: { unheld: number; held: number; derived: number };
  files: { importFile: string; typescript: string; python: string } | null;
}

async function discoverJson(stack: TestStack, args: string[] = []): Promise<Report> {
  const run = await discover(stack, ["--json", ...args]);
  if (run.code !== 0) throw new Error(`restcloud discover failed (${run.code}):\n${run.stderr}`);
  return JSON.parse(run.stdout) as Report;
}

/**
 * Discover, import, preview without change, discover again, up, destroy: the whole adoption of the
 * records by a stack whose program `install(report)` writes from the generated code.
 */
async function adopt(
  emulator: RunningEmulator,
  core: CoreRecords,
  stack: TestStack,
  install: (report: Report) => void,
): Promise<void> {
  const listing = await discover(stack, []);
  expect(listing.stderr).toBe("");
  expect(listing.code).toBe(0);
  console.log(`restcloud discover:\n${listing.stdout}`);
  expect(listing.stdout).toContain(`Summary: ${expectedRecords(core).length} records no stack holds;`);

  const report = await discoverJson(stack);
  expect(report.records.map((r) => `${r.kind} ${r.id}`).sort()).toEqual(expectedRecords(core));
  expect(report.records.flatMap((r) => r.todo.map((t) => `${r.kind} ${t}`))).toEqual(["Vpc vpcOfferingUuid"]);
  const file = JSON.parse(fs.readFileSync(report.files!.importFile, "utf8")) as {
    resources: { type: string; name: string; id: string }[];
  };
  expect(file.resources.map((r) => `${r.type.slice(NATIVE_PREFIX.length)} ${r.id}`).sort()).toEqual(
    expectedRecords(core),
  );
  install(report);

  const imported = await stack.cliOk(["import", "--file", report.files!.importFile, "--generate-code=false", "--yes"]);
  const notImported = report.records.filter(
    (r) =>
      !new RegExp(
        `^\\s*=\\s+${NATIVE_PREFIX}${r.kind}\\s+${r.logicalName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s+import(ed)?\\b`,
        "m",
      ).test(imported.stdout),
  );
  expect(notImported.map((r) => r.logicalName)).toEqual([]);
  const held = await stateResources(stack);
  expect(held.map((r) => `${r.kind} ${r.id}`).sort()).toEqual(expectedRecords(core));
  // `pulumi import` records no dependencies: a destroy now would delete the address before its rules.
  expect(await dependenciesByKind(stack)).toEqual({});
  expect(held.every((r) => r.type.startsWith(NATIVE_PREFIX))).toBe(true);
  expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: expectedRecords(core).length });

  // The program is the generated code: the engine itself fails on any change.
  const preview = await stack.preview({ expectNoChanges: true });
  expect(preview.changes).toEqual({ same: expectedRecords(core).length + 1 });

  const after = await discoverJson(stack);
  expect(after.records).toEqual([]);
  expect(after.summary.held).toBe(expectedRecords(core).length);

  // The program takes over (and drops the protection `pulumi import` gave); destroy empties the account.
  const up = await stack.up();
  expect(up.changes).toEqual({ same: expectedRecords(core).length + 1 });
  // That up (no change) recorded the program's references as dependencies.
  expect(await dependenciesByKind(stack)).toEqual(CORE_DEPENDENCIES);
  if ((await stack.stack.exportStack()).deployment.resources?.some((r: { protect?: boolean }) => r.protect))
    await stack.cliOk(["state", "unprotect", "--all", "--yes"]);
  const destroyed = await stack.destroy();
  expect(destroyed.changes).toEqual({ delete: expectedRecords(core).length + 1 });
  expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
  const empty = await discoverJson(stack);
  expect([empty.records.length, empty.summary.held, empty.summary.derived]).toEqual([0, 0, 0]);
}

/**
 * The TODOs of the generated TypeScript filled in as docs/discover.md says (the value each record was
 * created with): `values` maps "Kind field" to the code that says it. A TODO the test cannot fill fails.
 */
function fillTodos(code: string, report: Report, values: Record<string, (code: string) => string>): string {
  let filled = code;
  for (const record of report.records)
    for (const field of record.todo) {
      const value = values[`${record.kind} ${field}`];
      if (value === undefined)
        throw new Error(`a TODO the test cannot fill: ${record.kind} ${record.logicalName} ${field}`);
      const start = filled.indexOf(`new restcloud.${record.kind}(${JSON.stringify(record.logicalName)}, {`);
      const end = filled.indexOf("\n}, { import:", start);
      const block = filled.slice(start, end);
      expect(block.split("\n").filter((line) => line === `  ${field}: "",`)).toHaveLength(1);
      filled =
        filled.slice(0, start) + block.replace(`  ${field}: "",`, `  ${field}: ${value(filled)},`) + filled.slice(end);
    }
  return filled;
}

/** The variable the generated TypeScript declares a resource in. */
const variableOf = (code: string, kind: string, logicalName: string): string => {
  const match = new RegExp(`^const (\\w+) = new restcloud\\.${kind}\\(${JSON.stringify(logicalName)},`, "m").exec(code);
  if (!match) throw new Error(`no ${kind} ${logicalName} in the generated code`);
  return match[1]!;
};

/** Runs `body` with an emulator of its own (async work taking `asyncDelayMs`), and stops it after, whatever happened. */
async function onEmulator(asyncDelayMs: number, body: (emulator: RunningEmulator) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ port: 0, asyncDelayMs });
  try {
    await body(emulator);
  } finally {
    await emulator.stop();
  }
}

// The three cases, each with its own emulator, project directory and stack, run side by side.
describe("restcloud discover, then pulumi import --file", () => {
  test.concurrent(
    "a TypeScript stack in the native mode: 12 records of 12 kinds made by hand: discovered, imported, no change in a preview, destroyed",
    () =>
      onEmulator(50, async (emulator) => {
        const client = demoClient(emulator.url);
        const cat = await catalogOf(client);
        const core = await makeCoreRecords(client, cat, "adopt");
        // A project of its own: its program is what discover writes (resolving the package from the
        // repository's node_modules, as the test programs do).
        const programDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-discover-ts-"));
        let stack: TestStack | undefined;
        try {
          fs.writeFileSync(
            path.join(programDir, "Pulumi.yaml"),
            `name: discover-adopt\nruntime: nodejs\nplugins:\n  providers:\n    - name: restcloud\n      path: ${PLUGIN}\n`,
          );
          fs.writeFileSync(path.join(programDir, "package.json"), '{ "name": "discover-adopt", "private": true }\n');
          fs.writeFileSync(
            path.join(programDir, "tsconfig.json"),
            JSON.stringify({
              compilerOptions: {
                target: "ES2022",
                module: "nodenext",
                moduleResolution: "nodenext",
                strict: true,
                skipLibCheck: true,
              },
              files: ["index.ts"],
            }),
          );
          fs.writeFileSync(path.join(programDir, "index.ts"), "export {};\n");
          fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(programDir, "node_modules"), "dir");
          stack = await TestStack.create({
            programDir,
            stackName: "adopt",
            config: { ...NATIVE_MODE, ...providerConfig(emulator.url, cat.zoneUuid) },
          });
          await adopt(emulator, core, stack, (report) => {
            const code = fs.readFileSync(report.files!.typescript, "utf8");
            const todo = '  vpcOfferingUuid: "",';
            expect(code.split("\n").filter((line) => line === todo)).toHaveLength(1);
            fs.writeFileSync(
              path.join(programDir, "index.ts"),
              code.replace(todo, `  vpcOfferingUuid: ${JSON.stringify(cat.vpcOfferingUuid)},`),
            );
          });
        } finally {
          await stack?.dispose();
          fs.rmSync(programDir, { recursive: true, force: true });
        }
      }),
  );

  test.concurrent(
    "a Python stack: the same records, adopted by the generated __main__.py: no change in a preview, destroyed",
    () =>
      onEmulator(50, async (emulator) => {
        const client = demoClient(emulator.url);
        const cat = await catalogOf(client);
        const core = await makeCoreRecords(client, cat, "adopt-py");
        const source = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-discover-py-src-"));
        let program: PythonProgram | undefined;
        let stack: TestStack | undefined;
        try {
          fs.writeFileSync(
            path.join(source, "Pulumi.yaml"),
            [
              "name: discover-adopt-python",
              "runtime:",
              "  name: python",
              "  options:",
              "    virtualenv: venv",
              "plugins:",
              "  providers:",
              "    - name: restcloud",
              `      path: ${PLUGIN}`,
              "",
            ].join("\n"),
          );
          fs.writeFileSync(path.join(source, "__main__.py"), "import pulumi\n");
          program = pythonProgram(source);
          const dir = program.dir;
          stack = await TestStack.create({
            programDir: dir,
            stackName: "adopt-py",
            config: providerConfig(emulator.url, cat.zoneUuid),
          });
          await adopt(emulator, core, stack, (report) => {
            const code = fs.readFileSync(report.files!.python, "utf8");
            const todo = '    vpc_offering_uuid="",';
            expect(code.split("\n").filter((line) => line === todo)).toHaveLength(1);
            fs.writeFileSync(
              path.join(dir, "__main__.py"),
              code.replace(todo, `    vpc_offering_uuid=${JSON.stringify(cat.vpcOfferingUuid)},`),
            );
          });
        } finally {
          await stack?.dispose();
          program?.remove();
          fs.rmSync(source, { recursive: true, force: true });
        }
      }),
  );

  test.concurrent(
    "after `pulumi stack rm --force`, one `pulumi up` of the generated program adopts: two tiers of one VPC, two rules on one address, a load-balancer rule: discover refuses in the dynamic mode; the program fails there, creating nothing; in the native mode it imports all, no change, destroy empties the account",
    () =>
      onEmulator(20, async (emulator) => {
        const LOST_PROGRAM = path.join(__dirname, "programs", "lost-state");
        const RECORDS = 8;
        const cat = await discoverCatalog(emulator.url);
        const programDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-discover-lost-"));
        let stack: TestStack | undefined;
        try {
          for (const file of ["index.ts", "package.json", "tsconfig.json"])
            fs.copyFileSync(path.join(LOST_PROGRAM, file), path.join(programDir, file));
          fs.writeFileSync(
            path.join(programDir, "Pulumi.yaml"),
            `name: restcloud-e2e-lost-state\nruntime: nodejs\nplugins:\n  providers:\n    - name: restcloud\n      path: ${PLUGIN}\n`,
          );
          fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(programDir, "node_modules"), "dir");
          const config = catalogConfig(emulator.url, cat);
          stack = await TestStack.create({ programDir, stackName: "web", config: { ...config, ...NATIVE_MODE } });
          const made = await stack.up();
          expect(made.changes).toEqual({ create: RECORDS + 1 });
          const ids = made.outputs.ids as string[];

          // The state is lost; a new stack of the same name, in the default (dynamic) mode.
          await stack.cliOk(["stack", "rm", "--force", "--yes"]);
          await stack.cliOk(["stack", "init"]);
          for (const [key, value] of Object.entries(config))
            await stack.setConfig(key, typeof value === "string" ? value : value.value, typeof value !== "string");
          expect((await auditAccount(emulator.url, stack)).orphans).toHaveLength(RECORDS);

          // The dynamic mode: listed, no file written, exit 1, one line saying how to proceed.
          const out = path.join(programDir, "restcloud-discovered");
          const refused = await discover(stack, []);
          expect(refused.code).toBe(1);
          expect(refused.stdout).toContain(`Summary: ${RECORDS} records no stack holds`);
          expect(refused.stderr.trim().split("\n")).toEqual([
            "restcloud discover: wrote no files: stack web runs in the dynamic mode, where an import cannot adopt a record (its program would create new ones beside those found); run `pulumi config set restcloud:mode native`, then `restcloud discover` again",
          ]);
          expect(fs.existsSync(out)).toBe(false);

          await stack.setConfig("restcloud:mode", "native");
          const report = await discoverJson(stack);
          expect(report.records.map((r) => r.id).sort()).toEqual([...ids].sort());
          const generated = fs.readFileSync(report.files!.typescript, "utf8");
          console.log(`index.ts as discover wrote it:\n${generated}`);
          expect(generated.match(/^\}, \{ import: "[0-9a-f-]+" \}\);$/gm)).toHaveLength(RECORDS);
          fs.writeFileSync(
            path.join(programDir, "index.ts"),
            fillTodos(generated, report, {
              "Vpc vpcOfferingUuid": () => JSON.stringify(cat.vpcOfferingUuid),
              "LoadBalancerRule networkUuid": (code) => `${variableOf(code, "VpcTier", "webTier")}.id`,
            }),
          );

          // The generated program in the dynamic mode anyway: it fails, and creates nothing.
          await stack.setConfig("restcloud:mode", "dynamic");
          const dynamicUp = await stack.cli(["up", "--yes", "--skip-preview"]);
          console.log(
            `pulumi up in the dynamic mode (exit ${dynamicUp.code}):\n${dynamicUp.stdout}\n${dynamicUp.stderr}`,
          );
          expect(dynamicUp.code).not.toBe(0);
          expect(`${dynamicUp.stdout}${dynamicUp.stderr}`).toContain(
            "Vpc vpc: the `import` option needs the native mode (pulumi config set restcloud:mode native)",
          );
          const afterDynamic = await auditAccount(emulator.url, stack);
          expect([afterDynamic.records, afterDynamic.duplicates, afterDynamic.orphans.length]).toEqual([
            RECORDS,
            [],
            RECORDS,
          ]);
          expect(await stateResources(stack)).toEqual([]);

          // The native mode: one up imports every record, creating and replacing nothing.
          await stack.setConfig("restcloud:mode", "native");
          const adopted = await withEvents((onEvent) => stack!.up({ onEvent }));
          console.log(`pulumi up:\n${adopted.stdout}`);
          const warnings = warningsOf(adopted.events, adopted.stdout, adopted.stderr);
          if (warnings.length > 0) console.log(`warnings:\n${warnings.join("\n")}`);
          expect(Object.values(adopted.operations)).toEqual(Array(RECORDS).fill("import"));
          expect(adopted.changes).toEqual({ import: RECORDS, same: 1 });
          expect(warnings.filter((w) => /bug in the restcloud provider/.test(w))).toEqual([]);
          const held = await stateResources(stack);
          expect(held.map((r) => r.id).sort()).toEqual([...ids].sort());
          expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: RECORDS });
          // The program's references are the state's dependencies: each rule on the address, the tiers on the VPC.
          const { deployment } = (await stack.stack.exportStack()) as {
            deployment: { resources: { urn: string; dependencies?: string[]; protect?: boolean }[] };
          };
          const dependencies = Object.fromEntries(
            deployment.resources.map((r) => [
              r.urn.split("::").pop()!,
              (r.dependencies ?? []).map((d) => d.split("::").pop()!).sort(),
            ]),
          );
          expect([dependencies.http80, dependencies.http443, dependencies.lb]).toEqual([
            ["webIp"],
            ["webIp"],
            ["webIp", "webTier"],
          ]);
          expect([dependencies.webTier, dependencies.appTier, dependencies.webIp]).toEqual([["vpc"], ["vpc"], ["vpc"]]);
          expect(deployment.resources.filter((r) => r.protect).map((r) => r.urn)).toEqual([]);

          const preview = await stack.preview({ expectNoChanges: true });
          expect(preview.changes).toEqual({ same: RECORDS + 1 });

          // Straight after: destroy deletes in dependency order, and the account is empty.
          const destroyed = await stack.destroy();
          expect(destroyed.changes).toEqual({ delete: RECORDS + 1 });
          expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
        } finally {
          await stack?.dispose();
          fs.rmSync(programDir, { recursive: true, force: true });
        }
      }),
  );
});
