// Volume snapshots: taken from a volume, BackingUp for one async delay, then BackedUp. They outlive their volume.
import type { AccountScope, EmulatorContext } from "../core";
import { SNAPSHOTS, type SnapshotRecord } from "./collections";
import { conflict } from "../core";
import { domainNameOf, filterRecords, requireSameZone, requireZone } from "./records";
import { dropTagsOf } from "./resourcetags";
import { requireRecord } from "../references";
import { requireVolume } from "./volume";

/** Volume statuses a snapshot can be taken in (no job in progress, the disk exists). */
const SNAPSHOTTABLE_VOLUME_STATUSES = ["Allocated", "Ready", "Uploaded"];

export function createSnapshot(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: { name: string; zoneUuid: string; volumeUuid: string },
): SnapshotRecord {
  requireZone(ctx, input.zoneUuid);
  const volume = requireVolume(scope, input.volumeUuid);
  requireSameZone("volumeUuid", volume, input.zoneUuid);
  if (!SNAPSHOTTABLE_VOLUME_STATUSES.includes(volume.status)) {
    throw conflict(`volume ${input.volumeUuid} is ${volume.status}; retry when its job has completed`);
  }
  const snapshot: SnapshotRecord = {
    uuid: ctx.newUuid(),
    name: input.name,
    volumeUuid: input.volumeUuid,
    zoneUuid: input.zoneUuid,
    snapshotType: "MANUAL",
    snapshotTime: new Date(ctx.now()).toISOString(),
    domainName: domainNameOf(scope),
    status: "BackingUp",
    isActive: true,
  };
  scope.collection(SNAPSHOTS)[snapshot.uuid] = snapshot;
  scope.changed();
  ctx.later(scope, "createSnapshot", [{ collection: SNAPSHOTS, uuid: snapshot.uuid, set: { status: "BackedUp" } }]);
  return snapshot;
}

export function listSnapshots(
  ctx: EmulatorContext,
  scope: AccountScope,
  filters: { zoneUuid: string; uuid?: string },
): SnapshotRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, SNAPSHOTS, filters);
}

export function deleteSnapshot(scope: AccountScope, uuid: string): void {
  const snapshot = requireRecord(scope, SNAPSHOTS, "snapshot", uuid);
  if (snapshot.status === "BackingUp") throw conflict(`snapshot ${uuid} is BackingUp; retry when it is BackedUp`);
  scope.remove(SNAPSHOTS, uuid);
  dropTagsOf(scope, [uuid]);
  scope.changed();
}
