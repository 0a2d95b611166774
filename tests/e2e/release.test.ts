/**
 * The release's single executables (tools/release, `npm run release`), on a machine without Node.js:
 * the linux-amd64 emulator and plugin run with a PATH that holds no `node`. The emulator answers the
 * API and serves its console; the plugin, installed from its archive with `pulumi plugin install
 * --file` into a fresh PULUMI_HOME, serves a Pulumi YAML program's up and destroy against that
 * emulator.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { discoverCatalog, providerConfig } from "./catalog-ids";
import { TestStack, pulumiCliRoot } from "./harness";
import { accountResources } from "./reliability/helpers";
import { releaseArtifacts, type ReleaseArtifacts } from "./release-artifacts";

jest.setTimeout(300_000);

const PROGRAM = path.join(__dirname, "release", "program");

let artifacts: ReleaseArtifacts;
let work: string;
/** A PATH with nothing on it but Pulumi's own executables (which include no `node`). */
let pathWithoutNode: string;
let emulator: ChildProcess;
let apiUrl: string;

const unpack = (tarball: string): string => {
  const dir = fs.mkdtempSync(path.join(work, "unpacked-"));
  execFileSync("tar", ["-xzf", tarball, "-C", dir]);
  return dir;
};

beforeAll(async () => {
  artifacts = await releaseArtifacts();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-release-test-"));
  pathWithoutNode = path.join(pulumiCliRoot(), "bin");
  expect(fs.readdirSync(pathWithoutNode).filter((name) => name === "node" || name === "node.exe")).toEqual([]);

  const executable = path.join(unpack(artifacts.emulatorTarball), "restcloud-emulator");
  emulator = spawn(executable, ["--port", "0", "--async-delay-ms", "50"], {
    env: { PATH: pathWithoutNode, HOME: work },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    emulator.once("error", reject);
    emulator.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it listened`)));
    readline.createInterface({ input: emulator.stdout! }).once("line", resolve);
  });
  apiUrl = /^listening on (\S+)/.exec(firstLine)![1];
});

afterAll(() => {
  emulator?.kill();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("the archives hold the executables at their root, and SHA256SUMS their checksums", () => {
  const list = (tarball: string) => execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim();
  expect(list(artifacts.pluginTarball)).toBe("pulumi-resource-restcloud");
  expect(list(artifacts.emulatorTarball)).toBe("restcloud-emulator");
  const sums = execFileSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: artifacts.dir, encoding: "utf8" });
  expect(sums.trim().split("\n").sort()).toEqual(
    [`${path.basename(artifacts.emulatorTarball)}: OK`, `${path.basename(artifacts.pluginTarball)}: OK`].sort(),
  );
});

test("the emulator executable, with no node on PATH, answers the API with the demo keys and serves its console", async () => {
  const catalog = await discoverCatalog(apiUrl);
  expect(catalog.zoneUuid).toMatch(/^[0-9a-f-]{36}$/);
  const console = await fetch(`${apiUrl}/_emulator/`);
  expect(console.status).toBe(200);
  expect(await console.text()).toContain("<title>RestCloud emulator console</title>");
});

test("the plugin installed from its archive serves a YAML program's up and destroy, with no node on PATH", async () => {
  const stack = await TestStack.create({
    programDir: PROGRAM,
    config: providerConfig(apiUrl),
    env: { PATH: pathWithoutNode },
  });
  try {
    const pulumiHome = path.join(stack.tempDir, "home");
    const pulumi = path.join(pulumiCliRoot(), "bin", "pulumi");
    const env = { PATH: pathWithoutNode, HOME: work, PULUMI_HOME: pulumiHome, PULUMI_SKIP_UPDATE_CHECK: "true" };
    const install = [
      "plugin",
      "install",
      "resource",
      "restcloud",
      artifacts.version,
      "--file",
      artifacts.pluginTarball,
    ];
    execFileSync(pulumi, install, { env, stdio: "pipe" });
    const installed = path.join(pulumiHome, "plugins", `resource-restcloud-v${artifacts.version}`);
    expect(fs.readdirSync(installed)).toContain("pulumi-resource-restcloud");

    const up = await stack.up();
    expect(up.operations).toEqual({ net: "create" });
    const vpcId = up.outputs.vpcId as string;
    expect(Object.keys((await accountResources(apiUrl)).vpc ?? {})).toEqual([vpcId]);

    const destroyed = await stack.destroy();
    expect(destroyed.operations).toEqual({ net: "delete" });
    expect(Object.keys((await accountResources(apiUrl)).vpc ?? {})).toEqual([]);
  } finally {
    await stack.dispose();
  }
});
