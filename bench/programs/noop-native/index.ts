// The native floor of the benchmark: `count` resources of a do-nothing plugin (bench/noop-plugin.ts), with the fleet's
// dependencies (layout "groups"): what the Pulumi engine costs for that many native resources.
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";

class Noop extends pulumi.CustomResource {
  constructor(
    name: string,
    args: { label: string; parentId?: pulumi.Input<string>; padding?: string } & Record<string, unknown>,
  ) {
    super("noop:index:Noop", name, args, {});
  }
}

const config = new pulumi.Config();
const count = config.requireNumber("count");
const label = config.get("label") ?? "fleet";
/** Characters of filler each resource carries (an input, echoed as an output): a floor with as much state as the fleet's. */
const padding = config.getNumber("padding") ?? 0;
/** A file of the fleet's recorded resources (bench/replay.ts): each resource takes the inputs of the one in its place. */
const replay = config.get("replay");
const replayed = replay ? (JSON.parse(fs.readFileSync(replay, "utf8")) as { inputs: Record<string, unknown> }[]) : [];
/** Within each group of ten, the position of each resource's parent, as in the fleet. */
const PARENT = [undefined, undefined, 0, 0, 1, 1, 4, 1, 7, 1];

// Inline, as in the other floor's program, not a shared helper: each frame of the constructing
// stack is kept in every resource's state, and the floor must carry no more of it than it must.
const resources: Noop[] = [];
for (let i = 0; i < count; i++) {
  const group = i - (i % 10);
  const parent = PARENT[i % 10];
  resources.push(
    new Noop(`noop-${i}`, {
      ...replayed[i]?.inputs,
      label,
      parentId: parent === undefined ? undefined : resources[group + parent]!.id,
      ...(padding > 0 ? { padding: "x".repeat(padding) } : {}),
    }),
  );
}

export const resourceCount = resources.length;
