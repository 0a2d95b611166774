// Block volumes: data disks (create, upload, resize, attach, detach) and the disks that come with an instance. Each
// data volume operation is a job: the record shows a transitional status until it completes, and refuses others (409)
// meanwhile.
import type { AccountScope, EmulatorContext, JobKind } from "../core";
import { badInput, conflict, notFound } from "../core";
import type { StorageCostRecord } from "../seeded-catalog";
import {
  INSTANCES,
  SNAPSHOT_POLICIES,
  SNAPSHOTS,
  VOLUMES,
  type InstanceRecord,
  type VolumeRecord,
} from "./collections";
import { domainNameOf, filterRecords, requireSameZone, requireZone } from "./records";
import { dropTagsOf } from "./resourcetags";
import { requireRecord } from "../references";

export const JOB_RESOURCE_TYPE = "Volume";

/** Sizes a custom-size storage offering accepts, in GB. */
export const CUSTOM_DISK_SIZE = { min: 1, max: 1024 } as const;
/** What an uploaded image reports once uploaded: the emulator fetches nothing, so a fixed size. */
export const UPLOADED_VOLUME_SIZE_GB = 10;

export const UPLOAD_FORMATS = ["QCOW2", "OVA", "RAW", "VHDX", "VHD"] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

/** Statuses without a job in progress. */
const SETTLED_STATUSES = new Set(["Allocated", "Ready", "Uploaded"]);

/** An instance takes volumes only in these states. */
const ATTACHABLE_INSTANCE_STATES = new Set(["Running", "Stopped"]);

/** The catalog storage offering, offered in the zone; a 404 when unknown, a 400 when not offered there. */
export function requireStorageOffering(
  ctx: EmulatorContext,
  field: string,
  uuid: string,
  zoneUuid: string,
): StorageCostRecord {
  const offering = ctx.catalog.storageOffering(uuid, zoneUuid);
  if (offering) return offering;
  if (ctx.catalog.storageOffering(uuid))
    throw badInput(field, `storage offering ${uuid} is not offered in zone ${zoneUuid}`);
  throw notFound("storage offering", uuid);
}

/** The size a disk of that offering gets: a custom-size offering takes `diskSize`, a fixed one must be asked its own. */
export function diskSizeFor(offering: StorageCostRecord, diskSize: number, field = "diskSize"): number {
  if (offering.isCustom) {
    if (diskSize < CUSTOM_DISK_SIZE.min || diskSize > CUSTOM_DISK_SIZE.max) {
      throw badInput(field, `must be from ${CUSTOM_DISK_SIZE.min} to ${CUSTOM_DISK_SIZE.max} GB`);
    }
    return diskSize;
  }
  if (diskSize !== offering.diskSize) {
    throw badInput(field, `must be ${offering.diskSize} GB, the size of storage offering ${offering.name}`);
  }
  return diskSize;
}

interface NewVolume {
  name: string;
  zoneUuid: string;
  volumeType: "ROOT" | "DATADISK";
  sizeGb: number;
  status: string;
  offering?: StorageCostRecord;
  /** The instance it is attached to from the start. */
  instance?: InstanceRecord;
}

/** A volume record with every field of the spec; stored, not persisted (the caller does). */
export function storeNewVolume(ctx: EmulatorContext, scope: AccountScope, fields: NewVolume): VolumeRecord {
  const volume: VolumeRecord = {
    uuid: ctx.newUuid(),
    name: fields.name,
    volumeType: fields.volumeType,
    zoneUuid: fields.zoneUuid,
    storageOfferingUuid: fields.offering?.uuid ?? "",
    storageOfferingName: fields.offering?.name ?? "",
    storageDiskSize: String(fields.sizeGb),
    vmUuid: fields.instance?.uuid ?? "",
    vmInstanceName: fields.instance?.name ?? "",
    isShrink: false,
    jobId: "",
    errorMessage: "",
    createdTimeStamp: ctx.now(),
    domainName: domainNameOf(scope),
    status: fields.status,
    isActive: true,
  };
  scope.collection(VOLUMES)[volume.uuid] = volume;
  return volume;
}

export function requireVolume(scope: AccountScope, uuid: string): VolumeRecord {
  return requireRecord(scope, VOLUMES, "volume", uuid);
}

function requireSettled(volume: VolumeRecord): void {
  if (!SETTLED_STATUSES.has(volume.status)) {
    throw conflict(`volume ${volume.uuid} is ${volume.status}; retry when its job has completed`);
  }
}

/**
 * Apply the transitional fields now and start the job that applies `onCompletion`; the record
 * carries the job's id. The volume must already be stored (so that the job fails, rather than
 * recreating it, if the volume is deleted meanwhile).
 */
function runJob(
  ctx: EmulatorContext,
  scope: AccountScope,
  volume: VolumeRecord,
  kind: JobKind,
  transitional: Partial<VolumeRecord>,
  onCompletion: Partial<VolumeRecord>,
): VolumeRecord {
  Object.assign(volume, transitional);
  const uuid = volume.uuid;
  volume.jobId = ctx.startJob(scope, kind, JOB_RESOURCE_TYPE, uuid, [{ collection: VOLUMES, uuid, set: onCompletion }]);
  scope.changed();
  return volume;
}

export interface CreateVolumeInput {
  name: string;
  zoneUuid: string;
  storageOfferingUuid: string;
  diskSize: number;
}

export function createVolume(ctx: EmulatorContext, scope: AccountScope, input: CreateVolumeInput): VolumeRecord {
  requireZone(ctx, input.zoneUuid);
  const offering = requireStorageOffering(ctx, "storageOfferingUuid", input.storageOfferingUuid, input.zoneUuid);
  const sizeGb = diskSizeFor(offering, input.diskSize);
  const volume = storeNewVolume(ctx, scope, { ...input, volumeType: "DATADISK", sizeGb, offering, status: "Creating" });
  return runJob(ctx, scope, volume, "createVolume", {}, { status: "Allocated" });
}

export function listVolumes(
  ctx: EmulatorContext,
  scope: AccountScope,
  filters: { zoneUuid: string; uuid?: string; vmUuid?: string; jobId?: string },
): VolumeRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, VOLUMES, filters);
}

export interface ResizeVolumeInput {
  uuid: string;
  storageOfferingUuid: string;
  diskSize: number;
  isShrink: boolean;
}

export function resizeVolume(ctx: EmulatorContext, scope: AccountScope, input: ResizeVolumeInput): VolumeRecord {
  const volume = requireVolume(scope, input.uuid);
  requireSettled(volume);
  const zoneUuid = volume.zoneUuid;
  const offering = requireStorageOffering(ctx, "storageOfferingUuid", input.storageOfferingUuid, zoneUuid);
  const sizeGb = diskSizeFor(offering, input.diskSize);
  const current = Number(volume.storageDiskSize);
  if (sizeGb < current && !input.isShrink) {
    throw badInput("diskSize", `${sizeGb} GB is smaller than the current ${current} GB; shrinking needs isShrink=true`);
  }
  return runJob(
    ctx,
    scope,
    volume,
    "resizeVolume",
    { status: "Resizing", isShrink: input.isShrink },
    {
      status: volume.status,
      storageDiskSize: String(sizeGb),
      storageOfferingUuid: offering.uuid,
      storageOfferingName: offering.name,
    },
  );
}

/** The instance a volume may be attached to: the account's, in the volume's zone, Running or Stopped. */
function requireAttachableInstance(scope: AccountScope, volume: VolumeRecord, instanceUuid: string): InstanceRecord {
  const instance = requireRecord(scope, INSTANCES, "instance", instanceUuid);
  requireSameZone("instanceUuid", instance, volume.zoneUuid);
  const clusterUuid = scope.internal(INSTANCES)[instanceUuid]?.clusterUuid;
  if (clusterUuid) throw conflict(`instance ${instanceUuid} is a node of Kubernetes cluster ${clusterUuid}`);
  if (!ATTACHABLE_INSTANCE_STATES.has(instance.state)) {
    throw conflict(`instance ${instanceUuid} is ${instance.state}; volumes attach to Running or Stopped instances`);
  }
  return instance;
}

export function attachVolume(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: { uuid: string; instanceUuid: string },
): VolumeRecord {
  const volume = requireVolume(scope, input.uuid);
  if (volume.vmUuid) throw conflict(`volume ${input.uuid} is attached to instance ${volume.vmUuid}`);
  requireSettled(volume);
  const instance = requireAttachableInstance(scope, volume, input.instanceUuid);
  scope.internal(VOLUMES)[volume.uuid] = { attachingTo: instance.uuid };
  return runJob(
    ctx,
    scope,
    volume,
    "attachVolume",
    { status: "Attaching" },
    { status: "Ready", vmUuid: instance.uuid, vmInstanceName: instance.name },
  );
}

export function detachVolume(ctx: EmulatorContext, scope: AccountScope, uuid: string): VolumeRecord {
  const volume = requireVolume(scope, uuid);
  if (volume.volumeType === "ROOT") throw conflict(`volume ${uuid} is a ROOT volume; it goes with its instance`);
  if (!volume.vmUuid) throw conflict(`volume ${uuid} is not attached`);
  requireSettled(volume);
  return runJob(
    ctx,
    scope,
    volume,
    "detachVolume",
    { status: "Detaching" },
    { status: "Ready", vmUuid: "", vmInstanceName: "" },
  );
}

export interface UploadVolumeInput {
  name: string;
  zoneUuid: string;
  format: UploadFormat;
  url: string;
  checksum?: string;
}

export function uploadVolume(ctx: EmulatorContext, scope: AccountScope, input: UploadVolumeInput): VolumeRecord {
  requireZone(ctx, input.zoneUuid);
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw badInput("url", "must be an http or https URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badInput("url", "must be an http or https URL");
  if (input.checksum !== undefined && !/^(\{[A-Za-z0-9-]+\})?[0-9a-fA-F]{32,128}$/.test(input.checksum)) {
    throw badInput("checksum", "must be a hexadecimal digest, optionally prefixed by its algorithm ({SHA-256}...)");
  }
  const volume = storeNewVolume(ctx, scope, {
    name: input.name,
    zoneUuid: input.zoneUuid,
    volumeType: "DATADISK",
    sizeGb: 0,
    status: "UploadOp",
  });
  return runJob(
    ctx,
    scope,
    volume,
    "uploadVolume",
    {},
    { status: "Uploaded", storageDiskSize: String(UPLOADED_VOLUME_SIZE_GB) },
  );
}

/** Deletes a detached data volume with its snapshot policies and tags (its snapshots stay). */
export function deleteVolume(scope: AccountScope, uuid: string): { uuid: string; status: string } {
  const volume = requireVolume(scope, uuid);
  if (volume.volumeType === "ROOT") throw conflict(`volume ${uuid} is a ROOT volume; it goes with its instance`);
  if (volume.vmUuid) throw conflict(`volume ${uuid} is attached to instance ${volume.vmUuid}; detach it first`);
  requireSettled(volume);
  const backingUp = filterRecords(scope, SNAPSHOTS, { volumeUuid: uuid, status: "BackingUp" });
  if (backingUp.length) throw conflict(`volume ${uuid} has a snapshot in progress (${backingUp[0].uuid})`);

  scope.remove(VOLUMES, uuid);
  for (const policy of filterRecords(scope, SNAPSHOT_POLICIES, { volumeUuid: uuid })) {
    scope.remove(SNAPSHOT_POLICIES, policy.uuid);
  }
  dropTagsOf(scope, [uuid]);
  scope.changed();
  return { uuid, status: "Deleted" };
}

// ---------------------------------------------------------------------------------------------
// What the instance model does to the volumes of an instance (the caller persists)

export function volumesOf(scope: AccountScope, vmUuid: string): VolumeRecord[] {
  return filterRecords(scope, VOLUMES, { vmUuid });
}

/** A job that attaches a volume to this instance is in progress. */
export function volumeAttaching(scope: AccountScope, vmUuid: string): VolumeRecord | undefined {
  const internal = scope.internal(VOLUMES);
  return filterRecords(scope, VOLUMES, { status: "Attaching" }).find((v) => internal[v.uuid]?.attachingTo === vmUuid);
}

/** Data volumes leave the instance at once (when it is destroyed). */
export function releaseDataVolumes(scope: AccountScope, vmUuid: string): void {
  for (const volume of volumesOf(scope, vmUuid)) {
    if (volume.volumeType === "ROOT") continue;
    Object.assign(volume, { vmUuid: "", vmInstanceName: "" });
  }
}

/** The ROOT volumes of an instance follow its lifecycle: destroyed with it, recovered with it. */
export function setRootVolumes(scope: AccountScope, vmUuid: string, fields: Partial<VolumeRecord>): void {
  for (const volume of volumesOf(scope, vmUuid)) if (volume.volumeType === "ROOT") Object.assign(volume, fields);
}
