// BENCH_REPLAY_FLOOR=1: a floor of each mode whose no-op resources carry the fleet's own recorded state, each resource
// the inputs and outputs of the fleet's resource in its place: the same keys, values and bytes, none of our code.
// Against it, the engine's cost of storing what the schema outputs drops out, and what remains is ours.
import * as fs from "node:fs";

/** The fleet's resources of one group of ten, in the order the fleet's program and the floor's (PARENT) make them. */
const GROUP = ["vpc-#", "net-#", "tier-#-a", "tier-#-b", "vm-#-a", "vm-#-b", "vol-#", "ip-#", "fw-#", "eg-#"];

export interface ReplayedResource {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/**
 * From a fleet's exported state (layout "groups"), the inputs and outputs of its first `size` resources, by the place
 * `noop-<i>` takes in the floor; written as JSON to `file`, which the floor's program and no-op plugin both read.
 */
export function writeReplay(stateFile: string, size: number, file: string): void {
  const { resources = [] } = JSON.parse(fs.readFileSync(stateFile, "utf8")) as {
    resources?: { urn: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];
  };
  const byName = new Map(resources.map((r) => [r.urn.slice(r.urn.lastIndexOf("::") + 2), r]));
  const replay: ReplayedResource[] = [];
  for (let i = 0; i < size; i++) {
    const name = GROUP[i % 10]!.replace("#", String(Math.floor(i / 10)));
    const recorded = byName.get(name);
    if (!recorded) throw new Error(`${stateFile}: no resource named ${name} to replay`);
    // A dynamic resource's `__provider` names our runtime: the floor puts its own in its place.
    const { __provider: _in, ...inputs } = recorded.inputs ?? {};
    const { __provider: _out, ...outputs } = recorded.outputs ?? {};
    replay.push({ id: recorded.id ?? name, inputs, outputs });
  }
  fs.writeFileSync(file, JSON.stringify(replay));
}
