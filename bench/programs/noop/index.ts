// The floor of the benchmark: `count` do-nothing dynamic resources with the fleet's dependencies (layout "groups"):
// what the Pulumi engine itself costs for that many resources.
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";

const noop: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: `noop-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async diff(_id, olds, news) {
    return { changes: olds.label !== news.label || olds.parentId !== news.parentId };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {
    return;
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: { label: string; parentId?: pulumi.Input<string>; padding?: string }) {
    super(noop, name, args, {});
  }
}

/**
 * With `replay` (bench/replay.ts), each resource carries the inputs of the fleet's resource in its place, and its
 * provider (bench/noop-dynamic-replay.ts) answers with that one's outputs: `__provider` names the module, as ours does.
 */
const REPLAY_MODULE = path.resolve(__dirname, "..", "..", "..", "dist", "bench", "noop-dynamic-replay.js");
class ReplayedNoop extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, unknown>) {
    const __provider = `exports.handler=()=>require(${JSON.stringify(REPLAY_MODULE)})`;
    super("pulumi-nodejs:dynamic:Resource", name, { ...args, __provider }, {});
  }
}

const config = new pulumi.Config();
const count = config.requireNumber("count");
const label = config.get("label") ?? "fleet";
/** Characters of filler each resource carries (an input, echoed as an output): a floor with as much state as the fleet's. */
const padding = config.getNumber("padding") ?? 0;
const replay = config.get("replay");
const replayed = replay ? (JSON.parse(fs.readFileSync(replay, "utf8")) as { inputs: Record<string, unknown> }[]) : [];
/** Within each group of ten, the position of each resource's parent, as in the fleet. */
const PARENT = [undefined, undefined, 0, 0, 1, 1, 4, 1, 7, 1];

// Inline, as in the other floor's program, not a shared helper: each frame of the constructing
// stack is kept in every resource's state, and the floor must carry no more of it than it must.
const resources: pulumi.CustomResource[] = [];
for (let i = 0; i < count; i++) {
  const group = i - (i % 10);
  const parent = PARENT[i % 10];
  const args = {
    label,
    parentId: parent === undefined ? undefined : resources[group + parent]!.id,
    ...(padding > 0 ? { padding: "x".repeat(padding) } : {}),
  };
  resources.push(
    replay ? new ReplayedNoop(`noop-${i}`, { ...replayed[i]!.inputs, ...args }) : new Noop(`noop-${i}`, args),
  );
}

export const resourceCount = resources.length;
