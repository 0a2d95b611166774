// VM snapshots: a point-in-time image of an instance's disks (and memory, when asked). Creating and reverting run as
// jobs; the snapshot the instance currently derives from is `isCurrent`.
import type { AccountScope, EmulatorContext, JobKind } from "../core";
import { VM_SNAPSHOTS, type VmSnapshotRecord } from "./collections";
import { badInput, conflict } from "../core";
import { domainNameOf, filterRecords, requireSameZone, requireZone } from "./records";
import { dropTagsOf } from "./resourcetags";
import { requireRecord } from "../references";
import { requireInstance, requireState, requireUnmanaged } from "./instance";

export const JOB_RESOURCE_TYPE = "VMSnapshot";

export interface CreateVmSnapshotInput {
  name: string;
  zoneUuid: string;
  virtualmachineUuid: string;
  description?: string;
  snapshotMemory?: boolean;
}

function requireVmSnapshot(scope: AccountScope, uuid: string): VmSnapshotRecord {
  return requireRecord(scope, VM_SNAPSHOTS, "VM snapshot", uuid);
}

function requireReady(snapshot: VmSnapshotRecord): void {
  if (snapshot.status !== "Ready") {
    throw conflict(`VM snapshot ${snapshot.uuid} is ${snapshot.status}; retry when its job has completed`);
  }
}

/** The instance a VM snapshot was taken of. */
const instanceOf = (scope: AccountScope, snapshotUuid: string): string | undefined =>
  scope.internal(VM_SNAPSHOTS)[snapshotUuid]?.virtualmachineUuid;

/** Makes `current` the one snapshot of its instance marked current. */
function markCurrent(scope: AccountScope, current: VmSnapshotRecord): void {
  const instanceUuid = instanceOf(scope, current.uuid);
  for (const sibling of Object.values(scope.collection(VM_SNAPSHOTS))) {
    if (instanceOf(scope, sibling.uuid) === instanceUuid) sibling.isCurrent = sibling === current;
  }
}

/** Starts the job that makes the snapshot Ready; the record carries its id. */
function runJob(
  ctx: EmulatorContext,
  scope: AccountScope,
  snapshot: VmSnapshotRecord,
  status: string,
  kind: JobKind,
): VmSnapshotRecord {
  const uuid = snapshot.uuid;
  snapshot.status = status;
  snapshot.jobId = ctx.startJob(scope, kind, JOB_RESOURCE_TYPE, uuid, [
    { collection: VM_SNAPSHOTS, uuid, set: { status: "Ready" } },
  ]);
  scope.changed();
  return snapshot;
}

export function createVmSnapshot(
  ctx: EmulatorContext,
  scope: AccountScope,
  input: CreateVmSnapshotInput,
): VmSnapshotRecord {
  requireZone(ctx, input.zoneUuid);
  const instance = requireInstance(scope, input.virtualmachineUuid);
  requireSameZone("virtualmachineUuid", instance, input.zoneUuid);
  requireUnmanaged(scope, instance);
  requireState(instance, ["Running", "Stopped"], "a VM snapshot");
  if (input.snapshotMemory && instance.state !== "Running") {
    throw badInput("snapshotMemory", "a memory snapshot needs a Running instance");
  }
  const snapshot: VmSnapshotRecord = {
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
  };
  scope.collection(VM_SNAPSHOTS)[snapshot.uuid] = snapshot;
  scope.internal(VM_SNAPSHOTS)[snapshot.uuid] = {
    virtualmachineUuid: input.virtualmachineUuid,
    snapshotMemory: input.snapshotMemory ?? false,
  };
  markCurrent(scope, snapshot);
  return runJob(ctx, scope, snapshot, "Creating", "createVmSnapshot");
}

export function listVmSnapshots(
  ctx: EmulatorContext,
  scope: AccountScope,
  filters: { zoneUuid: string; uuid?: string; jobId?: string },
): VmSnapshotRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, VM_SNAPSHOTS, filters);
}

/** The instance's disks go back to the snapshot; its state (Running or Stopped) is kept. */
export function revertToVmSnapshot(ctx: EmulatorContext, scope: AccountScope, uuid: string): VmSnapshotRecord {
  const snapshot = requireVmSnapshot(scope, uuid);
  requireReady(snapshot);
  const instance = requireInstance(scope, instanceOf(scope, uuid) ?? "");
  requireState(instance, ["Running", "Stopped"], "reverting to a VM snapshot");
  markCurrent(scope, snapshot);
  return runJob(ctx, scope, snapshot, "Reverting", "revertToVmSnapshot");
}

export function deleteVmSnapshot(scope: AccountScope, uuid: string): { uuid: string; status: string } {
  const snapshot = requireVmSnapshot(scope, uuid);
  requireReady(snapshot);
  scope.remove(VM_SNAPSHOTS, uuid);
  dropTagsOf(scope, [uuid]);
  scope.changed();
  return { uuid, status: "Deleted" };
}
