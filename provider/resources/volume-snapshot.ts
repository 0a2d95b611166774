import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { byName } from "../engine/identity";
import { uuid } from "../engine/validators";
import { gone, recordLookup, untilOrGone } from "../engine/waits";
import { perSnapshotGb, volumeGb } from "../pricing";
import { args, byUuid, minutes, recordOutputs } from "./common";
import { text } from "../engine/inventory";

async function getSnapshot(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.snapshot.list({ zoneUuid, uuid: id }), id);
}
type Snapshot = NonNullable<Awaited<ReturnType<typeof getSnapshot>>>;

const snapshotRecord = recordLookup("snapshot", (ctx, id, state: { zoneUuid?: string }) =>
  getSnapshot(ctx, state.zoneUuid!, id),
);

/** Until the backup is taken (BackingUp -> BackedUp; a delete is refused meanwhile) or the snapshot is gone. */
const backedUp = untilOrGone<Snapshot>("to be BackedUp", (s) => s.status !== "BackingUp");

/** A snapshot of a block storage volume. It outlives its volume. */
export const volumeSnapshotDeclaration = defineResource({
  type: "VolumeSnapshot",
  description: "A point-in-time snapshot of a block storage volume. It is kept when the volume is deleted.",
  // Snapshot storage per GB and month, the GB those of the snapshotted volume.
  price: perSnapshotGb("Snapshot storage", { call: "snapshotCost", field: "snapshotCost" }, "volumeUuid", volumeGb),
  inputs: z.object({
    volumeUuid: uuid.describe("The volume to snapshot."),
    name: args.name("snapshot"),
    zoneUuid: args.zoneUuid("snapshot (the volume's zone)"),
  }),
  outputs: z.object({
    ...recordOutputs,
    snapshotType: z.string().optional().describe('How the snapshot was taken (e.g. "MANUAL").'),
    snapshotTime: z.string().optional().describe("When the snapshot was taken (ISO 8601)."),
    domainName: z.string().optional().describe("The domain (account) the snapshot belongs to."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  replaceOn: ["volumeUuid", "name", "zoneUuid"],
  updates: [],
  defaultTimeouts: { create: minutes(30), update: minutes(5), delete: minutes(10) },
  identity: {
    scope: (inputs) => `${inputs.volumeUuid}/${inputs.name}`,
    candidates: (ctx, inputs, where) => ctx.client.snapshot.list({ zoneUuid: inputs.zoneUuid! }, { where }),
    matches: (snapshot, inputs) => byName.matches(snapshot, inputs) && snapshot.volumeUuid === inputs.volumeUuid,
    where: byName.where,
  },
  tagType: "Snapshot",
  inventory: {
    list: async (lists) =>
      (await lists.client.snapshot.list({ zoneUuid: lists.zoneUuid })).map((snapshot) => ({
        id: snapshot.uuid,
        name: text(snapshot.name),
        parentId: text(snapshot.volumeUuid),
      })),
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const zoneUuid = inputs.zoneUuid!;
    const snapshot = await ctx.client.snapshot.create(
      { name, zoneUuid, volumeUuid: inputs.volumeUuid },
      { verify: ctx.findCreated },
    );
    return { id: snapshot.uuid, known: { snapshotTime: snapshot.snapshotTime } };
  },
  record: snapshotRecord,
  async *ready(_ctx, id) {
    const snapshot = (yield backedUp) as Snapshot | undefined;
    if (snapshot?.status !== "BackedUp")
      throw new Error(`snapshot ${id} ended ${snapshot ? String(snapshot.status) : "deleted"} instead of BackedUp`);
  },
  read: async (ctx, id, state) => {
    const snapshot = await snapshotRecord.find(ctx, id, state);
    if (!snapshot) return undefined;
    return {
      inputs: { volumeUuid: snapshot.volumeUuid, name: snapshot.name, zoneUuid: snapshot.zoneUuid },
      outputs: {
        uuid: snapshot.uuid,
        status: snapshot.status,
        isActive: snapshot.isActive,
        snapshotType: snapshot.snapshotType,
        snapshotTime: snapshot.snapshotTime,
        domainName: snapshot.domainName,
      },
    };
  },
  async *delete(ctx, id, state) {
    if (!(await snapshotRecord.find(ctx, id, state))) return;
    yield backedUp;
    await ctx.client.snapshot.delete({ uuid: id });
    yield gone();
  },
});
