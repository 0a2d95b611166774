// docs/teams.md, run as written: every `sh` block of the page in one shell, in the page's order, on a
// PostgreSQL backend (the S3 login on an object store of its own), with the page's program. Between
// blocks the test plays what the page only tells: a runner killed mid-up, a dead runner's lock.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_KEYS } from "../catalog-ids";
import { REPO_ROOT } from "../harness";
import { startPostgres, type PostgresServer } from "../postgres-server";
import { docBlock, linkPackageInto, runSteps, splitCommands, userEnvironment } from "../readme-steps";
import { faultLog, managedRecords, setFaultRules } from "../reliability/helpers";
import { until } from "../native/native-helpers";
import { startS3, type S3Server } from "../s3-server";
import { insertPostgresLock } from "./backends";

jest.setTimeout(15 * 60_000);

const PAGE = "docs/teams.md";
/** The page's shell blocks in the order they run on PostgreSQL (login-s3 runs apart, on the object store). */
const BLOCKS = ["login-postgres", "stacks", "emulator", "runners", "recover", "release-lock", "discover", "cleanup"];
const DEAD_RUNNER = { host: "runner-7", pid: 4242 };

let pg: PostgresServer;
let s3: S3Server;
let work: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startS3()]);
  work = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-teams-"));
  env = userEnvironment(work);
  delete env.PULUMI_BACKEND_URL; // the page logs in
  const port = /127\.0\.0\.1:(\d+)/.exec(pg.loginUrl)![1];
  Object.assign(env, {
    PGUSER: "postgres",
    PGHOST: "127.0.0.1",
    PGPORT: port,
    DEAD_RUNNER: `${DEAD_RUNNER.host}:${DEAD_RUNNER.pid}`,
  });
  project = path.join(work, "shop");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: shop\nruntime: nodejs\n");
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "shop", private: true }));
  fs.writeFileSync(path.join(project, "index.ts"), docBlock(PAGE, "teams:program", "ts"));
  linkPackageInto(project);
});

afterAll(async () => {
  await Promise.all([pg?.stop(), s3?.stop()]);
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** The API the page's emulator block started, with the demo keys the page exports. */
function apiOf(): { url: string; env: NodeJS.ProcessEnv } {
  const url = /http:\/\/[0-9.:]+/.exec(fs.readFileSync(path.join(project, "emulator.log"), "utf8"))![0];
  return {
    url,
    env: {
      ...env,
      RESTCLOUD_API_URL: url,
      RESTCLOUD_API_KEY: DEMO_KEYS.apiKey,
      RESTCLOUD_SECRET_KEY: DEMO_KEYS.secretKey,
    },
  };
}

/**
 * A runner killed mid-up, as a machine that went away: app-a destroyed, then its up started again, the
 * firewall rule's create made by the service and its answer held (the service slow to answer), and the
 * run's whole process group killed then: the rule's create is left pending, its record made.
 */
async function killAppUp(): Promise<void> {
  const api = apiOf();
  const cli = (args: string[]) =>
    spawn("pulumi", args, { cwd: project, env: api.env, detached: true, stdio: "ignore" });
  const destroyed = cli(["destroy", "--yes", "--stack", "app-a"]);
  expect(await new Promise((resolve) => destroyed.on("exit", resolve))).toBe(0);
  await setFaultRules(api.url, [
    { operation: "createFirewallRule", effect: "hang", when: "after", hangMs: 20_000, count: 1 },
  ]);
  const up = cli(["up", "--yes", "--stack", "app-a"]);
  const exited = new Promise((resolve) => up.on("exit", resolve));
  await until("the firewall rule's create to be held", 60_000, async () => {
    if (up.exitCode !== null) throw new Error("the up ended before it could be killed");
    return (await faultLog(api.url)).length > 0 ? true : undefined;
  });
  process.kill(-up.pid!, "SIGKILL");
  await exited;
}

/** At the end, while the page's emulator still runs: no record left of any stack. */
async function accountIsEmpty(): Promise<void> {
  const left = [...(await managedRecords(apiOf().url))].filter(([, records]) => Object.keys(records).length > 0);
  expect(left.map(([kind, records]) => `${kind}: ${Object.keys(records).length}`)).toEqual([]);
}

test("the page's S3 login: a stack kept in the object store", async () => {
  const commands = splitCommands(docBlock(PAGE, "teams:login-s3", "sh"));
  const s3Env = {
    ...env,
    ...s3.env,
    STATE_BUCKET: /^s3:\/\/([^?]+)/.exec(s3.loginUrl)![1],
    S3_ENDPOINT: /endpoint=([^&]+)/.exec(s3.loginUrl)![1],
    AWS_REGION: "us-east-1",
    PULUMI_HOME: path.join(work, "s3-home"),
  };
  const run = await runSteps(project, s3Env, [...commands, "pulumi stack init s3-probe", "pulumi stack ls"], {
    timeoutMs: 120_000,
  });
  expect(run.code).toBe(0);
  expect(run.output).toContain("s3-probe");
  expect((await s3.keys()).some((key) => key.startsWith(".pulumi/stacks/shop/s3-probe"))).toBe(true);
});

test("every other shell block of the page, in order, on PostgreSQL: runners, a dead runner, adoption", async () => {
  const page = fs.readFileSync(path.join(REPO_ROOT, PAGE), "utf8");
  // Every sh block of the page is one of the blocks run here.
  expect([...page.matchAll(/<!-- (teams:[\w-]+):begin -->\s*```sh/g)].map((m) => m[1]).sort()).toEqual(
    [...BLOCKS, "login-s3"].map((b) => `teams:${b}`).sort(),
  );
  const blocks = BLOCKS.map((name) => ({ name, commands: splitCommands(docBlock(PAGE, `teams:${name}`, "sh")) }));
  const commands = blocks.flatMap((b) => b.commands);
  const lastOf = (name: string) => blocks.slice(0, BLOCKS.indexOf(name) + 1).flatMap((b) => b.commands).length - 1;
  const checkpoints = new Map<number, () => Promise<void>>([
    [lastOf("runners"), killAppUp],
    [lastOf("recover"), async () => insertPostgresLock(pg, "app-b", DEAD_RUNNER)],
    [lastOf("cleanup"), accountIsEmpty],
  ]);
  const run = await runSteps(project, env, commands, { timeoutMs: 12 * 60_000, checkpoints });
  console.log(run.output);
  if (run.checkFailure) throw run.checkFailure;
  expect(run.code).toBe(0);
  // The dead runner's lock found and removed, the killed up's pending rule adopted; then the foreign lock named.
  expect(run.output).toMatch(/FirewallRule https: adopted [0-9a-f-]{36}/);
  expect(run.output).toMatch(/Removed the lock the killed `pulumi up` left \(root@\S+ \(pid \d+\), gone\)/);
  expect(run.output).toContain(`${DEAD_RUNNER.host}`);
  // app-b's records, which no stack holds once its state is removed, listed and then deleted.
  expect(run.output).toMatch(/PublicIpAddress \(1\)/);
  // The adopting program: app-b's address and rule, each with its import option.
  const adopting = fs.readFileSync(path.join(project, "adopt", "index.ts"), "utf8");
  expect(adopting.match(/\{ import: "[0-9a-f-]{36}" \}/g)).toHaveLength(2);
  expect(pg.sql("select count(*) from pulumi_state where key like '.pulumi/locks/%'").trim()).toBe("0");
});
