/**
 * The engine's procedure driver (provider/engine/waits.ts): a step's waits must be of the kinds its
 * declaration lists in `awaits` (the docs say so), and a step that awaits nothing runs as it is.
 */
import type { OperationContext } from "../../../provider/engine/declaration";
import { gone, runProcedure, showing } from "../../../provider/engine/waits";

const ctx = {
  timeoutMs: 1000,
  progress: () => undefined,
  client: { pollIntervalMs: 10 },
} as unknown as OperationContext;

test("a step that yields a wait its declaration does not list is refused before it waits", async () => {
  let finished = false;
  async function* step() {
    try {
      yield gone();
    } finally {
      finished = true;
    }
  }
  const lookup = { noun: "VPC", find: () => Promise.reject(new Error("no wait may poll")) };
  await expect(
    runProcedure(ctx, lookup, "v-1", {}, step(), { what: "Vpc's update step (updateVpc)", awaits: ["visible"] }),
  ).rejects.toThrow("Vpc's update step (updateVpc) yields a wait (gone) its declaration does not list in awaits");
  expect(finished).toBe(true);
});

test("a declared wait polls the lookup until the record shows the change, and answers the record", async () => {
  const reads = [{ name: "old" }, { name: "old" }, { name: "new" }];
  const lookup = { noun: "VPC", find: () => Promise.resolve(reads.shift()) };
  const seen: unknown[] = [];
  async function* step() {
    seen.push(yield showing<{ name: string }>({ name: "new" }));
  }
  await runProcedure(ctx, lookup, "v-1", {}, step(), { what: "step", awaits: ["visible"] });
  expect(seen).toEqual([{ name: "new" }]);
  expect(reads).toEqual([]);
});

test("a wait reads at the client's pace (restcloud:pollInterval), from the start of one read to the next", async () => {
  const times: number[] = [];
  const reads = [{ name: "old" }, { name: "old" }, { name: "old" }, { name: "new" }];
  const lookup = {
    noun: "VPC",
    find: () => {
      times.push(Date.now());
      return Promise.resolve(reads.shift());
    },
  };
  async function* step() {
    yield showing<{ name: string }>({ name: "new" });
  }
  const paced = { ...ctx, client: { pollIntervalMs: 60 } } as unknown as OperationContext;
  await runProcedure(paced, lookup, "v-1", {}, step(), { what: "step", awaits: ["visible"] });
  expect(times).toHaveLength(4);
  // Timers may fire a millisecond early; never a whole pace early.
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(55);
});

test("a plain async step runs without any wait", async () => {
  let ran = false;
  await runProcedure(ctx, undefined, "v-1", {}, (async () => void (ran = true))());
  expect(ran).toBe(true);
});
