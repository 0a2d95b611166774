/**
 * VM snapshots: a point-in-time image of an instance's disks (and memory, when asked). Creating and
 * reverting run as jobs; the snapshot the instance currently derives from is `isCurrent`.
 */
import type { AccountScope, ApiRecord, EmulatorContext } from "../core";
import { badInput, conflict } from "../core";
import { domainNameOf, filterRecords, requireSameZone, requireZone } from "./records";
import { dropTagsOf } from "./resourcetags";
import { requireRecord } from "../references";
import { requireInstance, requireState, requireUnmanaged } from "./instance";

export const VM_SNAPSHOTS = "vmsnapshot";
export const JOB_RESOURCE_TYPE = "VMSnapshot";

export interface CreateVmSnapshotInput {
  name: string;
  zoneUuid: string;
  virtualmachineUuid: string;
  description?: string;
  snapshotMemory?: boolean;
}

function requireVmSnapshot(scope: AccountScope, uuid: string): ApiRecord {
  return requireRecord(scope, VM_SNAPSHOTS, "VM snapshot", uuid);
}

function requireReady(snapshot: ApiRecord): void {
  if (snapshot.status !== "Ready") {
    throw conflict(
      `VM snapshot ${String(snapshot.uuid)} is ${String(snapshot.status)}; retry when its job has completed`,
    );
  }
}

/** Makes `current` the one snapshot of its instance marked current. */
function markCurrent(scope: AccountScope, current: ApiRecord): void {
  for (const sibling of filterRecords(scope, VM_SNAPSHOTS, {
    _virtualmachineUuid: current._virtualmachineUuid as string,
  })) {
    sibling.isCurrent = sibling === current;
  }
}

/** Starts the job that makes the snapshot Ready; the record carries its id. */
function runJob(ctx: EmulatorContext, scope: AccountScope, snapshot: ApiRecord, status: string): ApiRecord {
  const uuid = snapshot.uuid as string;
  snapshot.status = status;
  snapshot.jobId = ctx.startJob(scope, JOB_RESOURCE_TYPE, uuid, [
    { collection: VM_SNAPSHOTS, uuid, set: { status: "Ready" } },
  ]);
  scope.changed();
  return snapshot;
}

export function createVmSnapshot(ctx: EmulatorContext, scope: AccountScope, input: CreateVmSnapshotInput): ApiRecord {
  requireZone(ctx, input.zoneUuid);
  const instance = requireInstance(scope, input.virtualmachineUuid);
  requireSameZone("virtualmachineUuid", instance, input.zoneUuid);
  requireUnmanaged(instance);
  requireState(instance, ["Running", "Stopped"], "a VM snapshot");
  if (input.snapshotMemory && instance.state !== "Running") {
    throw badInput("snapshotMemory", "a memory snapshot needs a Running instance");
  }
  const snapshot: ApiRecord = {
    uuid: ctx.newUuid(),
    name: input.name,
    description: input.description ?? "",
    zoneUuid: input.zoneUuid,
    createdTimeStamp: ctx.now(),
    domainName: domainNameOf(scope),
    isCurrent: true,
    jobId: "",
    status: "Creating",
    isActive: true,
    _virtualmachineUuid: input.virtualmachineUuid,
    _snapshotMemory: input.snapshotMemory ?? false,
  };
  scope.collection(VM_SNAPSHOTS)[snapshot.uuid as string] = snapshot;
  markCurrent(scope, snapshot);
  return runJob(ctx, scope, snapshot, "Creating");
}

export function listVmSnapshots(
  ctx: EmulatorContext,
  scope: AccountScope,
  filters: { zoneUuid: string; uuid?: string; jobId?: string },
): ApiRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, VM_SNAPSHOTS, filters);
}

/** The instance's disks go back to the snapshot; its state (Running or Stopped) is kept. */
export function revertToVmSnapshot(ctx: EmulatorContext, scope: AccountScope, uuid: string): ApiRecord {
  const snapshot = requireVmSnapshot(scope, uuid);
  requireReady(snapshot);
  const instance = requireInstance(scope, snapshot._virtualmachineUuid as string);
  requireState(instance, ["Running", "Stopped"], "reverting to a VM snapshot");
  markCurrent(scope, snapshot);
  return runJob(ctx, scope, snapshot, "Reverting");
}

export function deleteVmSnapshot(scope: AccountScope, uuid: string): { uuid: string; status: string } {
  const snapshot = requireVmSnapshot(scope, uuid);
  requireReady(snapshot);
  delete scope.collection(VM_SNAPSHOTS)[uuid];
  dropTagsOf(scope, [uuid]);
  scope.changed();
  return { uuid, status: "Deleted" };
}
