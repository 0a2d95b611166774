// A team's runners on one PostgreSQL backend and one emulator (dynamic mode): a network stack and app stacks
// sharing its VPC (shared-parent.ts), each on a runner of its own, deployed at once under lost answers;
// then `restcloud discover` from a runner holding no stack: it reads every runner's stacks from the backend.
import * as path from "node:path";
import { RestCloudClient } from "../../../provider/client";
import { DEMO_KEYS, discoverCatalog } from "../catalog-ids";
import { setFaultRules } from "../reliability/helpers";
import {
  expectConverged,
  printReports,
  runSharedParent,
  SHARED_PARENT_PROGRAM,
  type DeployedStacks,
} from "../reliability/shared-parent";
import { startPostgres, type PostgresServer } from "../postgres-server";
import { Runner, type RunnerResult } from "./runners";

jest.setTimeout(600_000);

const APP_STACKS = 4;
const SEED = 3;

let pg: PostgresServer;
const runners: Runner[] = [];
const log: string[] = [];

beforeAll(async () => {
  pg = await startPostgres();
  // One runner per stack, and one that holds none (the discover job).
  const names = ["network", ...Array.from({ length: APP_STACKS }, (_, i) => `app-${i + 1}`), "discover"];
  runners.push(...(await Runner.loginAll(names, { loginUrl: pg.loginUrl, env: {} })));
});

afterAll(async () => {
  console.log(log.join("\n"));
  for (const runner of runners) runner.dispose();
  await pg?.stop();
});

interface DiscoverJson {
  stacks: string[];
  records: { kind: string; id: string }[];
  summary: { unheld: number; held: number };
  deleted?: { id: string; outcome?: string }[];
}

/**
 * The discover runner's view with the stacks deployed: one address acquired by hand on the shared VPC
 * (no stack holds it) is the only record it lists; `--delete --yes` then deletes that one alone.
 */
async function discoverFromThirdRunner(deployed: DeployedStacks): Promise<void> {
  const runner = runners[runners.length - 1];
  const { apiUrl, parent } = deployed;
  await setFaultRules(apiUrl, []);
  const client = new RestCloudClient({ apiUrl, ...DEMO_KEYS });
  const byHand = await client.ipAddress.acquire({ networkUuid: parent.vpcUuid, networkType: "VPC" });
  const { zoneUuid } = await discoverCatalog(apiUrl);
  // The runner has no stack selected: the API's settings come from its environment, as a CI job's would.
  const env = {
    RESTCLOUD_API_URL: apiUrl,
    RESTCLOUD_API_KEY: DEMO_KEYS.apiKey,
    RESTCLOUD_SECRET_KEY: DEMO_KEYS.secretKey,
    RESTCLOUD_ZONE_UUID: zoneUuid,
    // The adopting program it writes runs in the native mode (in the dynamic one it writes none).
    RESTCLOUD_MODE: "native",
  };
  const out = path.join(runner.dir, "discovered");
  const run = (args: string[]) => runner.restcloud(["discover", "--out", out, ...args], SHARED_PARENT_PROGRAM, env);
  const listed = await run([]);
  log.push(printed("runner discover: restcloud discover", listed));
  expect(listed.code).toBe(0);
  const json = await run(["--json"]);
  const report = JSON.parse(json.stdout) as DiscoverJson;
  const names = [deployed.network, ...deployed.apps].map((stack) => stack.stack.name);
  expect([...report.stacks].map((s) => s.split("/").pop()).sort()).toEqual([...names].sort());
  expect(report.records.map((r) => `${r.kind} ${r.id}`)).toEqual([`PublicIpAddress ${byHand.uuid}`]);
  const deleted = await run(["--delete", "--yes"]);
  log.push(printed("runner discover: restcloud discover --delete --yes", deleted));
  expect(deleted.code).toBe(0);
  expect((await client.ipAddress.list({ zoneUuid })).map((ip) => ip.uuid)).not.toContain(byHand.uuid);
}

const printed = (what: string, run: RunnerResult) => `--- ${what}: exit ${run.code}\n${run.stdout}${run.stderr}`;

test(`dynamic mode: ${APP_STACKS} app stacks on runners of their own share a VPC, converge under lost answers, share and orphan nothing; discover from another runner lists only a record none holds`, async () => {
  const report = await runSharedParent("dynamic", {}, SEED, {
    stackPrefix: "team-",
    appStacks: APP_STACKS,
    newStack: (options, index) => runners[index].stack(options),
    whileDeployed: discoverFromThirdRunner,
  });
  printReports([report]);
  expectConverged(report);
  // Every stack's checkpoint is in the database, none in a runner's directory.
  const keys = pg.sql("select key from pulumi_state where key like '%/.pulumi/stacks/%'");
  for (const name of report.stacks) expect(keys).toContain(`/${name}.json`);
});
