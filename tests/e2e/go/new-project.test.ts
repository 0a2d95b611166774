/**
 * A new Go user's first stack, as the README's "From Go" section tells it, with no Node.js: in an
 * empty directory beside the checkout, a project from the template `templates/restcloud-go`
 * (`pulumi new <path> --yes`: its go.mod requires the checkout's SDK with a `replace`, and the Go
 * host's install step, `go mod tidy`, resolves it), the release's emulator executable started, the
 * keys set, `pulumi up` (a VPC, a tier and an instance), which downloads the plugin into a fresh
 * PULUMI_HOME; then the README's second route, `go run . preview -expect-no-changes` (the SDK's
 * runner, through the Automation API, on the same stack), which must find no change, and
 * `pulumi destroy`, each checked against the emulator's records.
 *
 * The lines are read from README.md's block between `<!-- new-project-go:begin -->` and
 * `<!-- new-project-go:end -->` and run in one shell (readme-steps.ts), in a temporary directory
 * that stands for the user's: in it lie `pulumi-restcloud/` (a checkout's sdk/go and
 * templates/restcloud-go) and `release/` (the emulator's tarball); the plugin's release is served over
 * loopback in place of GitHub's (plugin-server.ts). The PATH has Go and the Pulumi CLI with its Go
 * host; `node`, `npm` and `npx` are stand-ins that fail and log any call. Mechanical differences
 * only: the emulator's port (8080 in the README and the template) is a free one, and the download
 * URL is overridden to the local server. Each command's time is printed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_KEYS } from "../catalog-ids";
import { REPO_ROOT } from "../harness";
import { cachedPlugins, servePluginRelease, type PluginServer } from "../plugin-server";
import { noNodeLog, printStepTimes, readmeCommands, runSteps, userEnvironment, type Step } from "../readme-steps";
import { releaseArtifacts } from "../release-artifacts";
import { accountResources, freePort, managedRecords } from "../reliability/helpers";

jest.setTimeout(900_000);

const README_PORT = "8080";
/** One shell's commands, at most (a cold Go build included). */
const STEPS_TIMEOUT_MS = 600_000;
const TEMPLATE = path.join(REPO_ROOT, "templates", "restcloud-go");

describe("a new Go project from the README", () => {
  let work: string;
  let server: PluginServer | undefined;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-new-project-go-"));
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test("pulumi new, the emulator's executable, keys, pulumi up (the plugin downloaded); a no-change preview by go run .; destroy", async () => {
    const port = String(await freePort());
    const apiUrl = `http://127.0.0.1:${port}`;
    const commands = readmeCommands("new-project-go");
    expect(commands.some((c) => /^pulumi new \S*templates\/restcloud-go --yes$/.test(c))).toBe(true);
    expect(commands.some((c) => /\b(npm|npx|node)\b/.test(c))).toBe(false);
    expect(commands[commands.length - 1]).toBe("pulumi up --yes");

    // Beside the project: a checkout's sdk/go and the template (the emulator's port made a free one), the release.
    const checkout = path.join(work, "pulumi-restcloud");
    fs.cpSync(path.join(REPO_ROOT, "sdk", "go"), path.join(checkout, "sdk", "go"), { recursive: true });
    fs.cpSync(TEMPLATE, path.join(checkout, "templates", "restcloud-go"), { recursive: true });
    const pulumiYaml = path.join(checkout, "templates", "restcloud-go", "Pulumi.yaml");
    fs.writeFileSync(pulumiYaml, fs.readFileSync(pulumiYaml, "utf8").replaceAll(README_PORT, port));
    const started = Date.now();
    const release = await releaseArtifacts();
    const releaseMs = Date.now() - started;
    fs.mkdirSync(path.join(work, "release"));
    fs.copyFileSync(release.emulatorTarball, path.join(work, "release", path.basename(release.emulatorTarball)));
    server = await servePluginRelease(release.dir, release.version);

    const env = { ...userEnvironment(work, { node: false }), ...server.env };
    const project = path.join(work, "my-cloud-go");
    // The README's lines, then what the section says comes next: a preview by the second route that
    // finds nothing to change, and destroy.
    const lines = [
      ...commands.map((c) => c.replaceAll(README_PORT, port)),
      "go run . preview -expect-no-changes",
      "pulumi destroy --yes",
    ];
    const upStep = commands.length - 1;
    const destroyStep = lines.length - 1;
    // The emulator's records, read while the shell waits (its emulator still running).
    const checkpoints = new Map<number, () => Promise<void>>([
      [
        upStep,
        async () => {
          const account = await accountResources(apiUrl);
          const vpcs = Object.values(account.vpc ?? {});
          expect(vpcs.map((v) => v.getcIDR)).toEqual(["10.20.0.0/16"]);
          const tiers = Object.values(account.network ?? {});
          expect(tiers.map((t) => [t.vpcUuid, t.getcIDR])).toEqual([[vpcs[0].uuid, "10.20.1.0/24"]]);
          // One instance, running, on the tier.
          const instances = Object.values(account.instance ?? {});
          expect(instances.map((i) => [i.state, i.networkUuid])).toEqual([["Running", tiers[0].uuid]]);
        },
      ],
      [
        destroyStep,
        async () => {
          // No record a program makes is left, of any kind.
          const left = [...(await managedRecords(apiUrl))].filter(([, records]) => Object.keys(records).length > 0);
          expect(left).toEqual([]);
        },
      ],
    ]);
    const steps: Step[] = [{ command: "(the release's linux-amd64 files, or their cache)", ms: releaseMs }];
    let totalMs: number | undefined;
    try {
      const shellStarted = Date.now();
      const run = await runSteps(work, env, lines, { timeoutMs: STEPS_TIMEOUT_MS, checkpoints });
      totalMs = Date.now() - shellStarted;
      steps.push(...run.steps);
      if (run.checkFailure !== undefined) throw run.checkFailure;
      if (run.code !== 0) throw new Error(`exit code ${run.code}:\n${run.output.slice(-6000)}`);
      expect(run.steps).toHaveLength(lines.length);
      expect(run.output).toMatch(/\+ 4 created/); // the stack, the VPC, the tier, the instance
      expect(run.output).toMatch(/Resources:\s+4 unchanged/);
      expect(run.output).toMatch(/- 4 deleted/);
      // Quiet: no warning from Pulumi (the Go host found beside pulumi, the plugin in the plugin cache).
      expect(run.output.split("\n").filter((l) => /^\s*warning:/i.test(l))).toEqual([]);
      // Nothing called node, npm or npx; the plugin was downloaded once, from the release.
      expect(fs.existsSync(noNodeLog(work)) ? fs.readFileSync(noNodeLog(work), "utf8") : "").toBe("");
      expect(server.requests).toEqual([`GET /v${release.version}/${path.basename(release.pluginTarball)}`]);
      expect(cachedPlugins(path.join(work, "pulumi-home"))).toContain(`resource-restcloud-v${release.version}`);

      // What the user's project holds: the template's runtime, a module named after the project, the
      // replace, the keys encrypted.
      expect(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")).toMatch(/^runtime: go$/m);
      const goMod = fs.readFileSync(path.join(project, "go.mod"), "utf8");
      expect(goMod).toMatch(/^module my-cloud-go$/m);
      expect(goMod).toMatch(
        /replace github\.com\/restcloud\/pulumi-restcloud\/sdk\/go => \.\.\/pulumi-restcloud\/sdk\/go/,
      );
      const stackFile = fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
      expect(stackFile).toMatch(/restcloud:apiKey:\s*\n\s*secure:/);
      expect(stackFile).not.toContain(DEMO_KEYS.apiKey);
      expect(stackFile).not.toContain(DEMO_KEYS.secretKey);
    } finally {
      printStepTimes("The README's commands, as a new Go user types them:", steps, totalMs);
    }
  });
});
