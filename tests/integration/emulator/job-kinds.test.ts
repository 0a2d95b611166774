/**
 * The kinds of asynchronous work (`JOB_KINDS`): each is an operation of the route table, and each is
 * passed by some call site of the areas or the quirks (the compiler checks that every call site
 * passes a listed kind: `ctx.later` and `ctx.startJob` take a `JobKind`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { JOB_KINDS } from "../../../emulator/index";
import { useEmulator } from "./helpers";

const emulator = useEmulator();
const EMULATOR_DIR = join(__dirname, "../../../emulator");

describe("JOB_KINDS", () => {
  it("lists each kind once", () => {
    expect(new Set(JOB_KINDS).size).toBe(JOB_KINDS.length);
  });

  it("spells each kind as an operation of the route table", async () => {
    // Fault rules accept only the route table's operation names; probability 0 never fires.
    const reply = await emulator.call("PUT", "/_emulator/faults", {
      rules: [{ operation: [...JOB_KINDS], effect: "status", when: "before", probability: 0 }],
    });
    expect(reply.status).toBe(200);
    await emulator.call("DELETE", "/_emulator/faults/rules");
  });

  it("names only kinds that the areas or the quirks start", () => {
    const sources = [
      ...readdirSync(join(EMULATOR_DIR, "model")).map((file) => join(EMULATOR_DIR, "model", file)),
      join(EMULATOR_DIR, "quirks.ts"),
    ].map((file) => readFileSync(file, "utf8"));
    const unused = JOB_KINDS.filter((kind) => !sources.some((source) => source.includes(`"${kind}"`)));
    expect(unused).toEqual([]);
  });
});
