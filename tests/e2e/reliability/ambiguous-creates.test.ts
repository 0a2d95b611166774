/**
 * Ambiguous creates, the matrix: every one of the 25 resource kinds has its first create fail
 * ambiguously (the client cannot know whether the service processed it), once per fault kind:
 *
 * - a 503 answered after processing;
 * - an answer withheld past the client's request timeout (restcloud:requestTimeout 3s; the service
 *   would hold the answer 120 s, then close the connection);
 * - the connection reset after processing (the third ambiguous failure the issue names);
 * - the connection reset before processing: nothing was made, and the client cannot tell. Its
 *   siblings' creates meanwhile made records of the same kind under the same parent: the check
 *   after the failure must not take one of theirs for its own (with count 1 the "after" faults hit
 *   the first record of a kind, which a naive "the new record is mine" check gets right by luck).
 *
 * One stack of the every-kind program per fault kind, with one rule per create operation (count 1:
 * each kind's first create fails, its siblings' do not). Then one `pulumi up` converges; the fault
 * log shows each kind's fault fired as the rule says; the account holds exactly the stack's records
 * (no orphan, none lost, no duplicate name, no record held by two resources); a preview shows no
 * change; one `pulumi destroy` empties the account. The four fault kinds run side by side, each on
 * its own emulator and stack.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { discoverCatalog } from "../catalog-ids";
import { TestStack } from "../harness";
import {
  EVERY_KIND_PROGRAM,
  EVERY_KIND_SIZE,
  CREATE_OPERATIONS,
  auditAccount,
  catalogConfig,
  faultLog,
  setFaultRules,
  type FaultRule,
  EMPTY_ACCOUNT,
} from "./helpers";

jest.setTimeout(900_000);

const KINDS = Object.keys(CREATE_OPERATIONS);

/**
 * How long a hung answer is withheld: far past the 3 s request timeout the stack sets, and past the
 * client's default one too. The up must finish before a single hang does: the client gave up on
 * each hung request (a timeout after sending), it did not wait for the connection to close.
 */
const HANG_MS = 120_000;

const FAULT_KINDS: {
  name: string;
  rule: Omit<FaultRule, "operation" | "count">;
  config: Record<string, string>;
}[] = [
  { name: "503 after processing", rule: { effect: "status", status: 503, when: "after" }, config: {} },
  {
    name: "hang after processing",
    rule: { effect: "hang", hangMs: HANG_MS, when: "after" },
    config: { "restcloud:requestTimeout": "3s" },
  },
  { name: "reset after processing", rule: { effect: "reset", when: "after" }, config: {} },
  { name: "reset before processing", rule: { effect: "reset", when: "before" }, config: {} },
];

/** Per fault kind, per resource kind: how often its create's fault fired (undefined: not run). */
const fired: Record<string, Record<string, number>> = {};
/** Per fault kind: what became of the stack ("converged, audit clean", or the first failure). */
const outcome: Record<string, string> = {};

afterAll(() => {
  const width = Math.max(...KINDS.map((k) => k.length));
  const columns = FAULT_KINDS.map((f) => f.name);
  const cell = (fault: string, kind: string) => {
    const n = fired[fault]?.[kind];
    return (n === undefined ? "not run" : n === 0 ? "NOT FIRED" : `fired ${n}x`).padEnd(fault.length);
  };
  const lines = [
    `${"kind".padEnd(width)}  ${"create operation".padEnd(38)}  ${columns.join("  ")}`,
    ...KINDS.map(
      (kind) =>
        `${kind.padEnd(width)}  ${CREATE_OPERATIONS[kind].padEnd(38)}  ${columns.map((c) => cell(c, kind)).join("  ")}`,
    ),
    ...FAULT_KINDS.map((f) => `${f.name}: ${outcome[f.name] ?? "not run"}`),
  ];
  console.log(`ambiguous creates, kinds x fault kinds:\n${lines.join("\n")}`);
});

test.concurrent.each(FAULT_KINDS)(
  "$name on the first create of each of the 25 kinds: one up converges, each kind's fault observed, the audit clean; a preview then shows no change; one destroy empties the account",
  async ({ name, rule, config }) => {
    const emulator: RunningEmulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
    let stack: TestStack | undefined;
    try {
      stack = await TestStack.create({
        programDir: EVERY_KIND_PROGRAM,
        stackName: `ambiguous-${FAULT_KINDS.findIndex((f) => f.name === name)}`,
        config: { ...catalogConfig(emulator.url, await discoverCatalog(emulator.url)), ...config },
      });
      await setFaultRules(
        emulator.url,
        KINDS.map((kind) => ({ operation: CREATE_OPERATIONS[kind], count: 1, ...rule })),
      );
      outcome[name] = "up failed";

      // One up converges, each kind's fault observed, the audit clean.
      const started = Date.now();
      const created = await stack.up();
      const seconds = (Date.now() - started) / 1000;
      console.log(`${name}: the up took ${seconds.toFixed(1)} s`);
      if (rule.effect === "hang") expect(seconds).toBeLessThan(HANG_MS / 1000);
      expect(created.changes).toEqual({ create: EVERY_KIND_SIZE + 1 }); // and the stack
      expect(Object.keys(created.outputs.resourceIds as object)).toHaveLength(EVERY_KIND_SIZE);

      const log = await faultLog(emulator.url);
      fired[name] = Object.fromEntries(
        KINDS.map((kind) => [
          kind,
          log.filter((e) => e.rule !== undefined && e.operation === CREATE_OPERATIONS[kind]).length,
        ]),
      );
      // Every kind's create failed once, as the rule says (processed or not, the client cannot tell).
      expect(KINDS.filter((kind) => fired[name][kind] !== 1)).toEqual([]);
      const unexpected = log.filter(
        (e) =>
          e.rule !== undefined &&
          !(e.effect === rule.effect && e.when === rule.when && e.applied === (rule.when === "after")),
      );
      expect(unexpected).toEqual([]);

      outcome[name] = "up converged, audit failed";
      expect(await auditAccount(emulator.url, stack)).toEqual({
        records: EVERY_KIND_SIZE,
        duplicates: [],
        orphans: [],
        lost: [],
        sharedIds: [],
      });
      outcome[name] = "up converged, audit clean";

      // A preview then shows no change.
      await stack.preview({ expectNoChanges: true });
      outcome[name] += "; preview no change";

      // One destroy empties the account.
      const destroyed = await stack.destroy();
      expect(destroyed.changes).toEqual({ delete: EVERY_KIND_SIZE + 1 });
      expect(await auditAccount(emulator.url, stack)).toEqual(EMPTY_ACCOUNT);
      outcome[name] += "; destroy empties the account";
    } finally {
      await stack?.dispose();
      await emulator.stop();
    }
  },
);
