// Volumes, snapshots and snapshot policies: /restapi/volume, /restapi/snapshot, /restapi/snapshotPolicy.
import { z } from "zod";
import {
  booleanField,
  integerField,
  recordId,
  stringField,
  flag,
  input,
  positiveInt,
  record,
  ref,
  text,
} from "../schema";
import { bool, list, object, one, op } from "./define";
import { deletionRecord } from "./compute";

export const volumeRecord = record({
  uuid: recordId,
  name: stringField,
  zoneUuid: stringField,
  volumeType: stringField,
  storageOfferingUuid: stringField,
  storageOfferingName: stringField,
  storageDiskSize: stringField,
  vmUuid: stringField,
  vmInstanceName: stringField,
  domainName: stringField,
  isShrink: booleanField,
  createdTimeStamp: integerField,
  /** Set by create, attach, detach, resize and upload: poll it with waitForJob. */
  jobId: stringField,
  errorMessage: stringField,
  status: stringField,
  isActive: booleanField,
});
export type Volume = z.output<typeof volumeRecord>;

export const snapshotRecord = record({
  uuid: recordId,
  name: stringField,
  volumeUuid: stringField,
  snapshotType: stringField,
  snapshotTime: stringField,
  zoneUuid: stringField,
  domainName: stringField,
  status: stringField,
  isActive: booleanField,
});
export type Snapshot = z.output<typeof snapshotRecord>;

export const snapshotPolicyRecord = record({
  uuid: recordId,
  volumeUuid: stringField,
  intervalType: stringField,
  scheduleTime: stringField,
  dayOfWeek: stringField,
  dayOfMonth: stringField,
  timeZone: stringField,
  maximumSnapshots: stringField,
  status: stringField,
  isActive: booleanField,
});
export type SnapshotPolicy = z.output<typeof snapshotPolicyRecord>;

const VOLUME = "listVolumeResponse";
const SNAPSHOT = "listSnapShotResponse";
const POLICY = "listSnapShotPoliciesResponse";
const byUuid = input({ uuid: ref });

const listVolumes = op({
  name: "volumeList",
  method: "GET",
  path: "/restapi/volume/volumeList",
  input: input({ zoneUuid: ref, uuid: ref.optional(), vmUuid: ref.optional(), jobId: ref.optional() }),
  response: list(VOLUME, volumeRecord),
  mutating: false,
});

/** A volume action by GET, answering the volume (with a jobId). */
const volumeAction = <Shape extends z.core.$ZodShape>(name: string, shape: Shape) =>
  op({
    name,
    method: "GET",
    path: `/restapi/volume/${name}`,
    input: input({ uuid: ref, ...shape }),
    response: one(VOLUME, volumeRecord),
    mutating: true,
  });

export const volumeOperations = {
  create: op({
    name: "createVolume",
    method: "POST",
    path: "/restapi/volume/createVolume",
    input: input({ name: ref, zoneUuid: ref, storageOfferingUuid: ref, diskSize: positiveInt }),
    response: one(VOLUME, volumeRecord),
    mutating: true,
  }),
  list: listVolumes,
  resize: volumeAction("resizeVolume", { storageOfferingUuid: ref, diskSize: positiveInt, isShrink: flag }),
  attach: volumeAction("attachVolume", { instanceUuid: ref }),
  detach: volumeAction("detachVolume", {}),
  upload: op({
    name: "uploadVolume",
    method: "POST",
    path: "/restapi/volume/uploadVolume",
    input: input({
      name: ref,
      zoneUuid: ref,
      url: z.url("must be a URL"),
      format: z.enum(["QCOW2", "OVA", "RAW", "VHDX", "VHD"]),
      checksum: text.optional(),
    }),
    response: one(VOLUME, volumeRecord),
    mutating: true,
  }),
  delete: op({
    name: "deleteVolume",
    method: "DELETE",
    path: "/restapi/volume/deleteVolume/{uuid}",
    // zoneUuid is not sent: the client lists the zone's volumes to confirm the delete (volumeList needs it).
    input: input({ uuid: ref, zoneUuid: ref.optional() }),
    localFields: ["zoneUuid"],
    response: object(deletionRecord),
    mutating: true,
    resend: "delete",
    confirmGone: {
      lookup: listVolumes,
      params: (i) => (i.zoneUuid === undefined ? undefined : { zoneUuid: i.zoneUuid, uuid: i.uuid }),
    },
  }),
};

export const snapshotOperations = {
  create: op({
    name: "createSnapshot",
    method: "POST",
    path: "/restapi/snapshot/createSnapshot",
    input: input({ name: ref, zoneUuid: ref, volumeUuid: ref }),
    response: one(SNAPSHOT, snapshotRecord),
    mutating: true,
  }),
  list: op({
    name: "snapshotList",
    method: "GET",
    path: "/restapi/snapshot/snapshotList",
    input: input({ zoneUuid: ref, uuid: ref.optional() }),
    response: list(SNAPSHOT, snapshotRecord),
    mutating: false,
  }),
  delete: op({
    name: "deleteSnapshot",
    method: "DELETE",
    path: "/restapi/snapshot/deleteSnapshot/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};

export const snapshotPolicyOperations = {
  create: op({
    name: "createSnapshotPolicy",
    method: "POST",
    path: "/restapi/snapshotPolicy/createSnapshotPolicy",
    input: input({
      volumeUuid: ref,
      intervalType: z.enum(["HOURLY", "DAILY", "MONTHLY", "WEEKLY"]),
      /** The time of day (HH:mm), or minutes past the hour for HOURLY. */
      timer: ref,
      /** A zone identifier such as Etc/GMT+12. */
      timeZone: ref,
      dayOfWeek: text.optional(),
      dayOfMonth: text.optional(),
      maximumSnapshots: text.optional(),
    }),
    response: one(POLICY, snapshotPolicyRecord),
    mutating: true,
  }),
  list: op({
    name: "snapshotPolicyList",
    method: "GET",
    path: "/restapi/snapshotPolicy/snapshotPolicyList",
    input: input({ volumeUuid: ref, uuid: ref.optional() }),
    response: list(POLICY, snapshotPolicyRecord),
    mutating: false,
  }),
  delete: op({
    name: "deleteSnapshotPolicy",
    method: "DELETE",
    path: "/restapi/snapshotPolicy/deleteSnapshotPolicy/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};
