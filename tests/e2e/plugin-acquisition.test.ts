/**
 * Pulumi fetches the plugin by itself: programs that name no plugin path, in a fresh PULUMI_HOME with
 * automatic acquisition on, get the released linux-amd64 plugin from a local HTTP server standing in
 * for the release that schema.json's `pluginDownloadURL` names (plugin-server.ts). A YAML program
 * (its version and source from sdk/yaml/restcloud.yaml) and a TypeScript program in the native mode
 * (the registrations' `version` and `pluginDownloadURL`): up, a preview with no change, destroy;
 * side by side, each with its own server and emulator.
 * The Python and Go SDKs carry the same URL: tests/e2e/python/new-project.test.ts and go/.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion } from "../../provider/package-files";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { discoverCatalog, providerConfig, type CatalogIds } from "./catalog-ids";
import { TestStack, REPO_ROOT } from "./harness";
import { cachedPlugins, servePluginRelease, type PluginServer } from "./plugin-server";
import { releaseArtifacts, type ReleaseArtifacts } from "./release-artifacts";
import { EMPTY_ACCOUNT, auditAccount } from "./reliability/helpers";

jest.setTimeout(300_000);

const VERSION = packageVersion();
const PLUGIN_DIR = `resource-restcloud-v${VERSION}`;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let release: ReleaseArtifacts;
let work: string;

beforeAll(async () => {
  release = await releaseArtifacts();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-acquisition-"));
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/**
 * Runs `body` with a release server and an emulator of its own (so that the two programs run side by
 * side, each with its own server log and account), and stops both after.
 */
async function withServices(
  body: (emulator: RunningEmulator, catalog: CatalogIds, server: PluginServer) => Promise<void>,
): Promise<void> {
  const server = await servePluginRelease(release.dir, VERSION);
  let emulator: RunningEmulator | undefined;
  try {
    emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
    await body(emulator, await discoverCatalog(emulator.url), server);
  } finally {
    await emulator?.stop();
    await server.stop();
  }
}

/** The executable the release's tarball holds, by its digest. */
function releasedPluginDigest(): string {
  const out = fs.mkdtempSync(path.join(work, "tarball-"));
  execFileSync("tar", ["-xzf", release.pluginTarball, "-C", out]);
  return sha256(fs.readFileSync(path.join(out, "pulumi-resource-restcloud")));
}

/** Up, a preview with no change, destroy; then the plugin cache and the server's log. */
async function lifecycle(stack: TestStack, emulator: RunningEmulator, server: PluginServer): Promise<void> {
  const requestsBefore = server.requests.length;
  const { changes } = await stack.up();
  expect(changes).toEqual({ create: 2 }); // the stack and the VPC
  expect(await auditAccount(emulator.url, stack)).toEqual({ ...EMPTY_ACCOUNT, records: 1 });
  await stack.preview({ expectNoChanges: true });
  await stack.destroy();
  expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);

  // One download, of our tarball, from the release; nothing sent elsewhere.
  expect(server.requests.slice(requestsBefore)).toEqual([`GET /v${VERSION}/${path.basename(release.pluginTarball)}`]);
  // The cache holds the released executable, and nothing else of ours.
  const home = path.join(stack.tempDir, "home");
  expect(cachedPlugins(home).filter((p) => p.includes("restcloud"))).toEqual([PLUGIN_DIR]);
  const cached = fs.readFileSync(path.join(home, "plugins", PLUGIN_DIR, "pulumi-resource-restcloud"));
  expect(sha256(cached)).toBe(releasedPluginDigest());
}

test.concurrent("a YAML program gets the plugin by its package declaration (sdk/yaml/restcloud.yaml)", () =>
  withServices(async (emulator, _catalog, server) => {
    const programDir = path.join(work, "yaml");
    fs.cpSync(path.join(__dirname, "programs", "acquired-yaml"), programDir, { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, "sdk", "yaml", "restcloud.yaml"), path.join(programDir, "restcloud.yaml"));
    const stack = await TestStack.create({ programDir, config: providerConfig(emulator.url), env: server.env });
    try {
      await lifecycle(stack, emulator, server);
    } finally {
      await stack.dispose();
    }
  }),
);

test.concurrent("a TypeScript program in the native mode gets the plugin by its registrations' options", () =>
  withServices(async (emulator, catalog, server) => {
    const stack = await TestStack.create({
      programDir: path.join(__dirname, "programs", "one-resource"),
      config: {
        ...providerConfig(emulator.url),
        "restcloud:mode": "native",
        case: JSON.stringify({
          type: "Vpc",
          args: { zoneUuid: catalog.zoneUuid, cidr: "10.61.0.0/16", vpcOfferingUuid: catalog.vpcOfferingUuid },
        }),
      },
      env: server.env,
    });
    try {
      await lifecycle(stack, emulator, server);
    } finally {
      await stack.dispose();
    }
  }),
);
