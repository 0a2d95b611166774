// The dynamic floor carrying the fleet's recorded state (BENCH_REPLAY_FLOOR; replay.ts): a provider that does nothing
// but answer with the fleet's recorded outputs and, from Read, its recorded inputs, as ours does. The floor's program
// names this module in each resource's `__provider`, as ours names pulumi-restcloud/dynamic: its state carries the
// fleet's keys, values and bytes, none of our code.
import * as fs from "node:fs";
import type * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;
interface Replayed {
  id: string;
  inputs: Props;
  outputs: Props;
}

/** The fleet's recorded resources by the URN each records in its meta: create is not told its own. */
let byUrn: Map<unknown, Replayed> | undefined;
function replayedOf(props: Props): Replayed {
  byUrn ??= new Map(
    (JSON.parse(fs.readFileSync(process.env.NOOP_REPLAY!, "utf8")) as Replayed[]).map((r) => [
      (r.inputs.__restcloud as Props | undefined)?.urn,
      r,
    ]),
  );
  const urn = (props.__restcloud as Props | undefined)?.urn;
  const replayed = byUrn.get(urn);
  if (!replayed) throw new Error(`no recorded resource for ${String(urn)}`);
  return replayed;
}

/** The floor's own keys, which give it the fleet's dependencies; its diff compares them. */
const ownKeys = (props: Props): Props =>
  Object.fromEntries(["label", "parentId"].filter((k) => props[k] !== undefined).map((k) => [k, props[k]]));

const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const replayed = replayedOf(inputs);
    return { id: replayed.id, outs: { ...replayed.outputs, ...ownKeys(inputs) } };
  },
  async read(id, props) {
    const inputs = { ...replayedOf(props).inputs, ...ownKeys(props) };
    return { id, props, inputs } as pulumi.dynamic.ReadResult;
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

export = provider;
