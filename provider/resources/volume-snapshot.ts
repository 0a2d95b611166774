import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { uuid } from "../engine/validators";
import { restcloudResource } from "../sdk/resource";
import { pollUntil, waitForGone } from "../client/waiters";
import { args, byUuid, minutes, recordOutputs, waitOptions } from "./common";

async function getSnapshot(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.snapshot.list({ zoneUuid, uuid: id }), id);
}

/** Until the backup is taken (BackingUp -> BackedUp; a delete is refused meanwhile) or the snapshot is gone. */
function waitBackedUp(ctx: OperationContext, zoneUuid: string, id: string) {
  return pollUntil(
    `snapshot ${id} to be BackedUp`,
    () => getSnapshot(ctx, zoneUuid, id),
    (s) => s === undefined || s.status !== "BackingUp",
    waitOptions(ctx),
  );
}

/** A snapshot of a block storage volume. It outlives its volume. */
export const volumeSnapshotDeclaration = defineResource({
  type: "VolumeSnapshot",
  description: "A point-in-time snapshot of a block storage volume. It is kept when the volume is deleted.",
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
    ownerTag: "Snapshot",
    scope: (inputs) => `${inputs.volumeUuid}/${inputs.name}`,
    candidates: (ctx, inputs) => ctx.client.snapshot.list({ zoneUuid: inputs.zoneUuid! }),
    matches: (snapshot, inputs) => snapshot.name === inputs.name && snapshot.volumeUuid === inputs.volumeUuid,
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
  awaitReady: async (ctx, id, state) => {
    const snapshot = await waitBackedUp(ctx, state.zoneUuid!, id);
    if (snapshot?.status !== "BackedUp")
      throw new Error(`snapshot ${id} ended ${snapshot ? String(snapshot.status) : "deleted"} instead of BackedUp`);
  },
  read: async (ctx, id, state) => {
    const snapshot = await getSnapshot(ctx, state.zoneUuid!, id);
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
  delete: async (ctx, id, state) => {
    const zoneUuid = state.zoneUuid!;
    if (!(await getSnapshot(ctx, zoneUuid, id))) return;
    await waitBackedUp(ctx, zoneUuid, id);
    await ctx.client.snapshot.delete({ uuid: id });
    await waitForGone(
      { awaited: `snapshot ${id} to be deleted`, poll: () => getSnapshot(ctx, zoneUuid, id) },
      waitOptions(ctx),
    );
  },
});

/** A snapshot of a block storage volume. */
export class VolumeSnapshot extends restcloudResource(volumeSnapshotDeclaration) {}
