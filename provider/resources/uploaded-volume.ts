import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { byName } from "../engine/identity";
import { uuid } from "../engine/validators";
import { job } from "../engine/waits";
import { priceUploadedVolume } from "../pricing";
import { args, minutes, recordOutputs } from "./common";
import { attachmentStep, deleteVolume, isUploaded, volumeRecord, zoneVolumes, type VolumeRecord } from "./volume";
import { text } from "../engine/inventory";

/** The image formats uploadVolume takes (the spec's enumeration). */
const FORMATS = ["QCOW2", "OVA", "RAW", "VHDX", "VHD"] as const;

/**
 * A volume made from a disk image at a URL (uploadVolume). Its own kind rather than a `Volume` with a
 * source: the upload takes no storage plan and no size (the image gives the size), so none of
 * Volume's resizable arguments applies; the rest is a volume's (attached in place, deleted alike).
 */
export const uploadedVolumeDeclaration = defineResource({
  type: "UploadedVolume",
  description:
    "A data volume the cloud makes from a disk image it downloads from a URL (uploadVolume), optionally attached " +
    "to an instance. Its size is the image's.",
  price: priceUploadedVolume,
  inputs: z.object({
    name: args.name("volume"),
    zoneUuid: args.zoneUuid("volume"),
    url: z
      .url({ protocol: /^https?$/, error: "must be an http or https URL" })
      .meta({ examples: ["https://images.example.com/data-disk.qcow2"] })
      .describe("Where the cloud downloads the disk image from (http or https)."),
    format: z
      .enum(FORMATS, { error: `must be one of ${FORMATS.join(", ")}` })
      .describe("The image's format: QCOW2, OVA, RAW, VHDX or VHD."),
    checksum: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The image's digest, which the cloud checks after the download: hexadecimal, optionally prefixed by its algorithm ({SHA-256}...).",
      ),
    instanceUuid: uuid
      .optional()
      .describe("The instance the volume is attached to; unset to detach it (detachVolume, attachVolume)."),
  }),
  outputs: z.object({
    ...recordOutputs,
    size: z.number().optional().describe("The volume's size in GB: the image's, once uploaded."),
    volumeType: z.string().optional().describe("DATADISK."),
    instanceName: z.string().optional().describe("The name of the instance the volume is attached to."),
    createdTimestamp: z.number().optional().describe("When the volume was created (epoch milliseconds)."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  // The record shows none of what the upload was made from.
  unreadable: ["url", "format", "checksum"],
  replaceOn: ["name", "zoneUuid", "url", "format", "checksum"],
  updates: [attachmentStep],
  defaultTimeouts: { create: minutes(30), update: minutes(10), delete: minutes(10) },
  identity: {
    scope: (inputs) => `${inputs.zoneUuid!}/${inputs.name}`,
    candidates: (ctx, inputs, where) => ctx.client.volume.list({ zoneUuid: inputs.zoneUuid! }, { where }),
    ...byName,
  },
  tagType: "Volume",
  inventory: {
    list: async (lists) =>
      (await zoneVolumes(lists))
        .filter(isUploaded)
        .map((volume) => ({ id: volume.uuid, name: text(volume.name), parentId: text(volume.vmUuid) })),
  },
  create: async (ctx, inputs) => {
    const volume = await ctx.client.volume.upload(
      {
        name: inputs.name!,
        zoneUuid: inputs.zoneUuid!,
        url: inputs.url,
        format: inputs.format,
        checksum: inputs.checksum,
      },
      { verify: ctx.findCreated },
    );
    return { id: volume.uuid, known: { createdTimestamp: volume.createdTimeStamp } };
  },
  record: volumeRecord,
  // The upload runs as a job; the listed record names it (also when the create's answer was lost).
  ready: [job<VolumeRecord>((volume) => volume.jobId)],
  // An uploaded volume is detached: the attach step attaches it.
  createdAs: () => ({ instanceUuid: undefined }),
  read: async (ctx, id, state) => {
    const volume = await volumeRecord.find(ctx, id, state);
    if (!volume) return undefined;
    const size = volume.storageDiskSize === undefined ? undefined : parseInt(volume.storageDiskSize, 10);
    return {
      inputs: {
        name: volume.name,
        zoneUuid: volume.zoneUuid,
        // Attached elsewhere or detached out of band is drift; never attached and still detached is not.
        instanceUuid: volume.vmUuid || (state.instanceUuid === undefined ? undefined : ""),
      },
      outputs: {
        uuid: volume.uuid,
        status: volume.status,
        isActive: volume.isActive,
        size: size !== undefined && Number.isFinite(size) ? size : undefined,
        volumeType: volume.volumeType,
        instanceName: volume.vmInstanceName || undefined,
        createdTimestamp: volume.createdTimeStamp,
      },
    };
  },
  delete: deleteVolume,
});
