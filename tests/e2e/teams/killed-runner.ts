// A runner killed mid-up on a team's backend (PostgreSQL, S3), and another runner's `restcloud recover`
// (no `pulumi cancel` by hand): the lock found by recover's probe and judged, then `up` there, a third
// runner's discover, and `destroy`. One mode and backend per test file, the steps of killed-up-scenario.ts.
import * as os from "node:os";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { DEMO_KEYS, discoverCatalog } from "../catalog-ids";
import { NATIVE_MODE } from "../native/native-helpers";
import {
  ASYNC_DELAY_MS,
  KILLED_UP_PROGRAM,
  KILLED_UP_SIZE,
  createsAnswered,
  killUp,
  killedState,
  outsideState,
} from "../reliability/killed-up-scenario";
import { until } from "../native/native-helpers";
import {
  EMPTY_ACCOUNT,
  auditAccount,
  catalogConfig,
  faultLog,
  setFaultRules,
  stateOf,
  type FaultRule,
} from "../reliability/helpers";
import { startBackend, type BackendKind, type TeamBackend } from "./backends";
import { Runner, type RunnerResult } from "./runners";

/** A lock of a runner on another machine, as `--release-lock` names it. */
const FOREIGN = { host: "ci-runner-7", pid: 4242 };
/**
 * The two instances' creates are processed and their answers held (the service slow to answer), so
 * that A's up is still running when B's recover looks, and is killed with both creates in flight.
 */
const HELD_CREATES: FaultRule = {
  operation: "createInstance",
  effect: "hang",
  when: "after",
  hangMs: 45_000,
  count: 2,
};

const printed = (what: string, run: RunnerResult) =>
  `--- ${what}: exit ${run.code}\n${run.stdout}${run.stderr ? `${run.stderr}` : ""}`;

/** The ids recover's listing says it adopted, by logical name. */
const adoptedIn = (text: string) =>
  Object.fromEntries([...text.matchAll(/^ {2}\w+ (\S+): adopted (\S+), found by/gm)].map((m) => [m[1], m[2]]));

export function killedRunnerSuite(mode: "dynamic" | "native", backendKind: BackendKind = "postgres"): void {
  let backend: TeamBackend;
  let emulator: RunningEmulator;
  const runners: Runner[] = [];
  const log: string[] = [];

  beforeAll(async () => {
    [backend, emulator] = await Promise.all([
      startBackend(backendKind),
      startEmulator({ port: 0, asyncDelayMs: ASYNC_DELAY_MS }),
    ]);
    runners.push(...(await Runner.loginAll([`a-${mode}`, `b-${mode}`, `c-${mode}`], backend)));
  });

  afterAll(async () => {
    console.log(log.join("\n"));
    for (const runner of runners) runner.dispose();
    await emulator?.stop();
    await backend?.stop();
  });

  test(`${mode} mode: runner A's up killed mid-create; runner B's recover finds the lock, judges it, adopts; up and destroy from B`, async () => {
    const [a, b, c] = runners;
    const stackName = `team-killed-${mode}`;
    const config = {
      ...catalogConfig(emulator.url, await discoverCatalog(emulator.url)),
      ...(mode === "native" ? NATIVE_MODE : {}),
    };
    const stackA = await a.stack({ programDir: KILLED_UP_PROGRAM, stackName, config });
    await setFaultRules(emulator.url, [HELD_CREATES]);
    let stackB;
    try {
      // ---- A's up: B's recover while it runs refuses, naming A's lock; then A is killed ----
      let whileRunning: RunnerResult | undefined;
      let cliPid = 0;
      const killed = await killUp(
        stackA,
        emulator.url,
        a.home,
        { label: "mid-create", creates: 1 },
        undefined,
        async (pid) => {
          cliPid = pid;
          await until("both instance creates to be held", 60_000, async () =>
            (await faultLog(emulator.url)).length >= HELD_CREATES.count! ? true : undefined,
          );
          whileRunning = await b.restcloud(["recover", "--stack", stackName], KILLED_UP_PROGRAM);
        },
      );
      log.push(
        `${mode} mode, stack ${stackName}: runner A's pulumi up (pid ${cliPid}) killed after ${killed.createsAtKill} creates answered (the 2 instances' held), ${(killed.killedAtMs / 1000).toFixed(1)} s in; its providers gone ${(killed.providersGoneMs / 1000).toFixed(1)} s later`,
      );
      log.push(printed("runner B: restcloud recover while A's up ran", whileRunning!));
      expect(whileRunning!.code).toBe(1);
      expect(whileRunning!.stderr).toContain(`the stack is locked by`);
      expect(whileRunning!.stderr).toContain(
        `@${os.hostname()} (pid ${cliPid}), a process of this machine that still runs`,
      );
      expect(await backend.lockKeys(stackName)).toHaveLength(1);

      // ---- B's recover: the lock found by the probe, A's pid dead on this host: released; creates adopted ----
      stackB = await b.stack({ programDir: KILLED_UP_PROGRAM, stackName, config });
      const left = await killedState(stackB);
      const pendingBefore = left.pending.filter((r) => r.kind !== undefined).length;
      const outsideBefore = await outsideState(emulator.url, left);
      const recovered = await b.restcloud(["recover", "--stack", stackName], KILLED_UP_PROGRAM);
      log.push(
        `pending creates left by the kill: ${pendingBefore}; records outside the state: ${outsideBefore}; creates answered when recover ran: ${await createsAnswered(emulator.url)}`,
      );
      log.push(printed("runner B: restcloud recover", recovered));
      expect({ exit: recovered.code, recovered }).toEqual({ exit: 0, recovered });
      expect(recovered.stdout).toContain("Removed the lock the killed `pulumi up` left");
      expect(recovered.stdout).toContain(`@${os.hostname()} (pid ${cliPid}), gone)`);
      expect(await backend.lockKeys(stackName)).toEqual([]);
      expect((await stateOf(stackB)).pending).toEqual([]);
      expect(await outsideState(emulator.url, await killedState(stackB))).toBe(0);
      const adopted = adoptedIn(recovered.stdout);
      expect(Object.keys(adopted).length).toBeGreaterThan(0);

      // ---- B's up: nothing duplicated, what recover adopted left in place ----
      await stackB.up();
      const afterUp = await auditAccount(emulator.url, stackB);
      expect(afterUp).toEqual({ ...EMPTY_ACCOUNT, records: KILLED_UP_SIZE });
      const held = (await stateOf(stackB)).resources.filter((r) => r.kind !== undefined && r.id);
      for (const [name, id] of Object.entries(adopted))
        expect({ [name]: held.find((r) => r.name === name)?.id }).toEqual({ [name]: id });

      // ---- runner C, which holds no stack: discover reads B's stack from the backend, lists nothing ----
      const discovered = await c.restcloud(["discover", "--json", "--out", c.dir], KILLED_UP_PROGRAM, {
        RESTCLOUD_API_URL: emulator.url,
        RESTCLOUD_API_KEY: DEMO_KEYS.apiKey,
        RESTCLOUD_SECRET_KEY: DEMO_KEYS.secretKey,
      });
      expect(discovered.code).toBe(0);
      const report = JSON.parse(discovered.stdout) as { stacks: string[]; records: unknown[] };
      expect({ stacks: report.stacks.map((s) => s.split("/").pop()), records: report.records }).toEqual({
        stacks: [stackName],
        records: [],
      });

      // ---- a lock of another machine: refused, then released by --release-lock HOST:PID ----
      await backend.insertLock(stackName, FOREIGN);
      const refused = await b.restcloud(["recover", "--stack", stackName], KILLED_UP_PROGRAM);
      log.push(printed("runner B: restcloud recover, a lock of another machine in the backend", refused));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`@${FOREIGN.host} (pid ${FOREIGN.pid}), a run on another machine`);
      expect(refused.stderr).toContain(`restcloud recover --release-lock ${FOREIGN.host}:${FOREIGN.pid}`);
      expect(await backend.lockKeys(stackName)).toHaveLength(1);
      const released = await b.restcloud(
        ["recover", "--stack", stackName, "--release-lock", `${FOREIGN.host}:${FOREIGN.pid}`],
        KILLED_UP_PROGRAM,
      );
      log.push(printed(`runner B: restcloud recover --release-lock ${FOREIGN.host}:${FOREIGN.pid}`, released));
      expect(released.code).toBe(0);
      expect(released.stdout).toContain(
        `Removed the lock the killed \`pulumi up\` left (ci@${FOREIGN.host} (pid ${FOREIGN.pid}), named by --release-lock)`,
      );
      expect(await backend.lockKeys(stackName)).toEqual([]);

      // ---- B's destroy: the account is empty ----
      await stackB.destroy();
      expect(await auditAccount(emulator.url, stackB)).toEqual(EMPTY_ACCOUNT);
    } finally {
      await stackB?.dispose();
      await stackA.dispose();
    }
  });
}
