/**
 * The package depends on `@pulumi/pulumi` by a range (package.json), so that a project on any
 * release of it that the range admits ends with exactly one copy of the SDK: the project's. Two
 * projects, pinned to the oldest release the range admits (3.259.0) and to the newest served
 * (3.270.0), each install the packed tarball; `npm ls @pulumi/pulumi` then lists one copy, the
 * pinned one. On the oldest, the core lifecycle runs with the real CLI against the emulator: up, a
 * no-change preview, destroy (a JavaScript program: the project needs no TypeScript of its own).
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { discoverCatalog } from "./catalog-ids";
import { REPO_ROOT, TestStack } from "./harness";
import { EMPTY_ACCOUNT, auditAccount, catalogConfig } from "./reliability/helpers";

jest.setTimeout(600_000);

const OLDEST = "3.259.0";
const NEWEST = "3.270.0";
const RANGE = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  }
).dependencies["@pulumi/pulumi"];

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const restcloud = require("pulumi-restcloud");
const config = new pulumi.Config();
const vpc = new restcloud.Vpc("net", { cidr: "10.70.0.0/16", vpcOfferingUuid: config.require("vpcOfferingUuid") });
const tier = new restcloud.VpcTier("web", {
  vpcUuid: vpc.id,
  cidr: "10.70.1.0/24",
  networkOfferingUuid: config.require("tierOfferingUuid"),
});
exports.sdkVersion = require("@pulumi/pulumi/package.json").version;
exports.tierUuid = tier.id;
`;

let work: string;
let tarball: string;
/** Each pinned release's project, the tarball installed (the two installs run side by side). */
const projects: Record<string, string> = {};

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-sdk-range-"));
  // npm test built the package already: no prepack build again.
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    }),
  ) as { filename: string }[];
  tarball = path.join(work, packed.filename);
  await Promise.all([OLDEST, NEWEST].map(async (sdkVersion) => (projects[sdkVersion] = await project(sdkVersion))));
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A project pinned to one SDK release, with the tarball installed as a user installs it. */
async function project(sdkVersion: string): Promise<string> {
  const dir = path.join(work, `project-${sdkVersion}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: `sdk-${sdkVersion}`, main: "index.js", dependencies: { "@pulumi/pulumi": sdkVersion } }),
  );
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: sdk-range\nruntime: nodejs\n`);
  fs.writeFileSync(path.join(dir, "index.js"), PROGRAM);
  await new Promise<void>((resolve, reject) =>
    execFile("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: dir }, (error, _stdout, stderr) =>
      error ? reject(new Error(`npm install in ${dir}: ${error.message}\n${stderr}`)) : resolve(),
    ),
  );
  return dir;
}

/** Every copy of @pulumi/pulumi in the project's tree: `version path`. */
function sdkCopies(dir: string): string[] {
  const parseable = execFileSync("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable", "--long"], {
    cwd: dir,
    encoding: "utf8",
  });
  return parseable
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [where, id] = line.split(":");
      return `${id} ${path.relative(dir, where)}`;
    });
}

test(`the range ${RANGE} admits ${OLDEST} and ${NEWEST}`, () => {
  expect(RANGE).toBe(`^${OLDEST}`);
});

describe.each([OLDEST, NEWEST])("a project pinned to @pulumi/pulumi %s", (sdkVersion) => {
  let dir: string;
  beforeAll(() => {
    dir = projects[sdkVersion]!;
  });

  test("has one copy of the SDK, its own, after installing the package", () => {
    const copies = sdkCopies(dir);
    console.log(`npm ls @pulumi/pulumi in a project on ${sdkVersion}:\n  ${copies.join("\n  ")}`);
    expect(copies).toEqual([`@pulumi/pulumi@${sdkVersion} node_modules/@pulumi/pulumi`]);
    expect(fs.existsSync(path.join(dir, "node_modules", "pulumi-restcloud", "node_modules", "@pulumi"))).toBe(false);
  });

  if (sdkVersion === OLDEST) {
    test("runs the core lifecycle: up, a no-change preview, destroy", async () => {
      let emulator: RunningEmulator | undefined;
      let stack: TestStack | undefined;
      try {
        emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
        stack = await TestStack.create({
          programDir: dir,
          stackName: "oldest",
          config: catalogConfig(emulator.url, await discoverCatalog(emulator.url)),
        });
        const up = await stack.up();
        expect(up.changes).toEqual({ create: 3 });
        expect(up.outputs.sdkVersion).toBe(OLDEST);
        expect(await auditAccount(emulator.url, stack)).toMatchObject({ records: 2, orphans: [], duplicates: [] });
        const preview = await stack.preview({ expectNoChanges: true });
        expect(preview.changes).toEqual({ same: 3 });
        await stack.destroy();
        expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
      } finally {
        await stack?.dispose();
        await emulator?.stop();
      }
    });
  }
});
