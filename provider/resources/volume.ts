import { z } from "zod";
import { defineResource, type OperationContext, type UpdateStep } from "../engine/declaration";
import { withDefault } from "../engine/defaults";
import { byName } from "../engine/identity";
import { catalogReference, uuid } from "../engine/validators";
import { job, recordLookup } from "../engine/waits";
import { priceVolume } from "../pricing";
import { appliedWhen, args, byUuid, minutes, recordOutputs } from "./common";
import { text, type InventoryLists } from "../engine/inventory";

/** A zone's volumes, listed once for the kinds that read them (volumes, uploaded volumes, policies, instances). */
export const zoneVolumes = (lists: InventoryLists) =>
  lists.once("volume.list", () => lists.client.volume.list({ zoneUuid: lists.zoneUuid }));

/** A data volume without a storage plan was uploaded (createVolume always takes a plan). */
export const isUploaded = (volume: { volumeType?: string; storageOfferingUuid?: string }): boolean =>
  volume.volumeType !== "ROOT" && !volume.storageOfferingUuid;

export async function getVolume(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.volume.list({ zoneUuid, uuid: id }), id);
}
export type VolumeRecord = NonNullable<Awaited<ReturnType<typeof getVolume>>>;

export const volumeRecord = recordLookup("volume", (ctx, id, state: { zoneUuid?: string }) =>
  getVolume(ctx, state.zoneUuid!, id),
);

// After an ambiguous failure the volume read back shows whether the job started (its record carries
// the job's id, so the wait goes on as if the answer had arrived).
async function* attach(ctx: OperationContext, zoneUuid: string, id: string, instanceUuid: string) {
  const verify = appliedWhen(
    () => getVolume(ctx, zoneUuid, id),
    (v) => v.vmUuid === instanceUuid || v.status === "Attaching",
  );
  yield job<VolumeRecord>((await ctx.client.volume.attach({ uuid: id, instanceUuid }, { verify })).jobId);
}

export async function* detach(ctx: OperationContext, zoneUuid: string, id: string) {
  const verify = appliedWhen(
    () => getVolume(ctx, zoneUuid, id),
    (v) => !v.vmUuid || v.status === "Detaching",
  );
  yield job<VolumeRecord>((await ctx.client.volume.detach({ uuid: id }, { verify })).jobId);
}

/** Attaches the volume to the declared instance, detaching it from any other first (jobs awaited). */
export const attachmentStep: UpdateStep<{ zoneUuid?: string; instanceUuid?: string }, VolumeRecord> = {
  fields: ["instanceUuid"],
  via: "detachVolume, attachVolume",
  awaits: ["job"],
  async *apply(ctx, id, news) {
    const zoneUuid = news.zoneUuid!;
    const volume = await getVolume(ctx, zoneUuid, id);
    if (volume?.vmUuid && volume.vmUuid !== news.instanceUuid) yield* detach(ctx, zoneUuid, id);
    if (news.instanceUuid && volume?.vmUuid !== news.instanceUuid) yield* attach(ctx, zoneUuid, id, news.instanceUuid);
  },
};

/** Detaches the volume if it is attached, then deletes it; the client's deleteVolume confirms it gone. */
export async function* deleteVolume(ctx: OperationContext, id: string, state: { zoneUuid?: string }) {
  const zoneUuid = state.zoneUuid!;
  const volume = await getVolume(ctx, zoneUuid, id);
  if (!volume) return;
  if (volume.vmUuid) yield* detach(ctx, zoneUuid, id);
  await ctx.client.volume.delete({ uuid: id, zoneUuid });
}

/** A block storage volume, optionally attached to an instance. */
export const volumeDeclaration = defineResource({
  type: "Volume",
  description: "A block storage (data) volume, optionally attached to an instance.",
  price: priceVolume,
  inputs: z.object({
    name: args.name("volume"),
    zoneUuid: args.zoneUuid("volume"),
    storageOfferingUuid: catalogReference("storageOffering").describe("The storage plan (see getStoragePlans)."),
    size: z
      .number()
      .int("must be a whole number of GB")
      .min(1)
      .max(65536)
      .describe("The size in GB; shrinking needs allowShrink."),
    instanceUuid: uuid.optional().describe("The instance the volume is attached to; unset to detach."),
    allowShrink: withDefault(
      z.boolean().optional().describe("Allow a smaller size to shrink the volume (data beyond the new size is lost)."),
      false,
    ),
  }),
  outputs: z.object({
    ...recordOutputs,
    volumeType: z.string().optional().describe("DATADISK or ROOT."),
    storageOfferingName: z.string().optional().describe("The storage plan's name."),
    instanceName: z.string().optional().describe("The name of the instance the volume is attached to."),
    createdTimestamp: z.number().optional().describe("When the volume was created (epoch milliseconds)."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  // A provider-side permission, the program's alone.
  unreadable: ["allowShrink"],
  replaceOn: ["name", "zoneUuid"],
  updates: [
    {
      fields: ["storageOfferingUuid", "size", "allowShrink"],
      via: "resizeVolume",
      awaits: ["job"],
      async *apply(ctx, id, news, olds) {
        if (news.storageOfferingUuid === olds.storageOfferingUuid && news.size === olds.size) return;
        if (news.size < Number(olds.size) && !news.allowShrink) {
          throw new Error(
            `Volume ${id}: size ${news.size} is smaller than ${String(olds.size)}; set allowShrink to shrink it`,
          );
        }
        const resized = (v: { status?: string; storageOfferingUuid?: string; storageDiskSize?: string }) =>
          v.status === "Resizing" ||
          (v.storageOfferingUuid === news.storageOfferingUuid && Number(v.storageDiskSize) === news.size);
        const answer = await ctx.client.volume.resize(
          {
            uuid: id,
            storageOfferingUuid: news.storageOfferingUuid,
            diskSize: news.size,
            isShrink: news.size < Number(olds.size),
          },
          { verify: appliedWhen(() => getVolume(ctx, news.zoneUuid!, id), resized) },
        );
        yield job<VolumeRecord>(answer.jobId);
      },
    },
    attachmentStep,
  ],
  defaultTimeouts: { create: minutes(10), update: minutes(10), delete: minutes(10) },
  identity: {
    scope: (inputs) => `${inputs.zoneUuid!}/${inputs.name}`,
    candidates: (ctx, inputs, where) => ctx.client.volume.list({ zoneUuid: inputs.zoneUuid! }, { where }),
    ...byName,
  },
  tagType: "Volume",
  inventory: {
    list: async (lists) =>
      (await zoneVolumes(lists))
        .filter((volume) => !isUploaded(volume))
        .map((volume) => ({
          id: volume.uuid,
          name: text(volume.name),
          parentId: text(volume.vmUuid),
          // The service makes an instance's ROOT volume with it; the data disk, instance.ts marks.
          ...(volume.volumeType === "ROOT"
            ? { derived: `the ROOT volume of instance ${volume.vmUuid ?? "(none)"}`, derivedFrom: text(volume.vmUuid) }
            : {}),
        })),
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const zoneUuid = inputs.zoneUuid!;
    const volume = await ctx.client.volume.create(
      { name, zoneUuid, storageOfferingUuid: inputs.storageOfferingUuid, diskSize: inputs.size },
      { verify: ctx.findCreated },
    );
    return { id: volume.uuid, known: { createdTimestamp: volume.createdTimeStamp } };
  },
  record: volumeRecord,
  // The listed record names the job still running on it (the create's, or a resumed run's attach).
  ready: [job<VolumeRecord>((volume) => volume.jobId)],
  // A new volume is detached: the attach step attaches it (and finds it attached on a resumed run).
  createdAs: () => ({ instanceUuid: undefined }),
  read: async (ctx, id, state) => {
    const volume = await volumeRecord.find(ctx, id, state);
    if (!volume) return undefined;
    return {
      inputs: {
        name: volume.name,
        zoneUuid: volume.zoneUuid,
        storageOfferingUuid: volume.storageOfferingUuid,
        size: volume.storageDiskSize === undefined ? undefined : parseInt(volume.storageDiskSize, 10),
        // Attached elsewhere or detached out of band is drift; never attached and still detached is not.
        instanceUuid: volume.vmUuid || (state.instanceUuid === undefined ? undefined : ""),
      },
      outputs: {
        uuid: volume.uuid,
        status: volume.status,
        isActive: volume.isActive,
        volumeType: volume.volumeType,
        storageOfferingName: volume.storageOfferingName,
        instanceName: volume.vmInstanceName || undefined,
        createdTimestamp: volume.createdTimeStamp,
      },
    };
  },
  delete: deleteVolume,
});
