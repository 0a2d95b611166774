// Hosts, instances and VM snapshots: /restapi/host, /restapi/instance, /restapi/vmsnapshot.
import { z } from "zod";
import {
  booleanField,
  integerField,
  recordId,
  stringField,
  anyInput,
  flag,
  input,
  int64,
  positiveInt,
  record,
  ref,
  text,
} from "../schema";
import { list, object, one, op } from "./define";

export const hostRecord = record({
  uuid: recordId,
  name: stringField,
  hypervisor: stringField,
  podName: stringField,
  cpuCores: stringField,
  cpuAllocated: stringField,
  cpuUsed: stringField,
  memoryTotal: stringField,
  memoryUsedPercentage: stringField,
  memoryAllocatedPercentage: stringField,
  vmCount: stringField,
  status: stringField,
  isActive: booleanField,
});
export type Host = z.output<typeof hostRecord>;

export const instanceRecord = record({
  uuid: recordId,
  name: stringField,
  displayName: stringField,
  description: stringField,
  instanceOwnerName: stringField,
  zoneUuid: stringField,
  templateUuid: stringField,
  templateName: stringField,
  computeOfferingUuid: stringField,
  storageOfferingUuid: stringField,
  networkUuid: stringField,
  networkName: stringField,
  sshUuid: stringField,
  memory: stringField,
  cpuCore: stringField,
  rootDiskSize: integerField,
  diskSize: integerField,
  volumeSize: stringField,
  instancePrivateIp: stringField,
  /** Running, Stopped, ... (the spec shows only the sample Running). */
  state: stringField,
  status: stringField,
  isActive: booleanField,
});
export type Instance = z.output<typeof instanceRecord>;

export const instanceNetworkRecord = record({
  uuid: recordId,
  name: stringField,
  netmask: stringField,
  gateway: stringField,
  privateIp: stringField,
  publicIp: stringField,
  type: stringField,
  defaultNetwork: booleanField,
});
export type InstanceNetwork = z.output<typeof instanceNetworkRecord>;

export const vmStatusRecord = record({ uuid: stringField, status: stringField });
export type VmStatus = z.output<typeof vmStatusRecord>;

export const vmSnapshotRecord = record({
  uuid: recordId,
  name: stringField,
  description: stringField,
  zoneUuid: stringField,
  domainName: stringField,
  jobId: stringField,
  isCurrent: booleanField,
  createdTimeStamp: integerField,
  status: stringField,
  isActive: booleanField,
});
export type VmSnapshot = z.output<typeof vmSnapshotRecord>;

/** The answer of a delete that gives `{uuid, status}` (volume, VM snapshot); a bare `true` is accepted too. */
export const deletionRecord = z.preprocess(
  (value) => (value === true ? {} : value),
  record({ uuid: stringField, status: stringField }),
);
export type Deletion = z.output<typeof deletionRecord>;

/** The answer of the operations whose response the spec does not show: any JSON, kept as is. */
export const unknownAnswer = z.unknown();

const HOST = "listHostResponse";
const INSTANCE = "listInstanceResponse";
const VM_SNAPSHOT = "listVmSnapshotResponse";
const byUuid = input({ uuid: ref });

export const hostOperations = {
  list: op({
    name: "hostList",
    method: "GET",
    path: "/restapi/host/hostList",
    input: input({ uuid: ref.optional() }),
    response: list(HOST, hostRecord),
    mutating: false,
  }),
};

/** An action on one instance, by GET with the uuid in the query, answering the instance. */
const instanceAction = <Shape extends z.core.$ZodShape>(name: string, shape: Shape, resend?: "idempotent" | "delete") =>
  op({
    name,
    method: "GET",
    path: `/restapi/instance/${name}`,
    input: input({ uuid: ref, ...shape }),
    response: one(INSTANCE, instanceRecord),
    mutating: true,
    ...(resend ? { resend } : {}),
  });

/** The four GETs whose parameters and response the spec does not show. */
const unshownInstanceCall = (name: string, mutating: boolean) =>
  op({
    name,
    method: "GET",
    path: `/restapi/instance/${name}`,
    input: anyInput,
    response: object(unknownAnswer),
    mutating,
  });

export const instanceOperations = {
  create: op({
    name: "createInstance",
    method: "POST",
    path: "/restapi/instance/createInstance",
    input: input({
      name: ref,
      zoneUuid: ref,
      templateUuid: ref,
      computeOfferingUuid: ref,
      networkUuid: ref,
      storageOfferingUuid: ref.optional(),
      /** Custom offerings only. */
      cpuCore: text.optional(),
      memory: text.optional(),
      rootDiskSize: positiveInt.optional(),
      /** GB, of the data disk. */
      diskSize: positiveInt.optional(),
      sshKeyName: ref.optional(),
      securitygroupName: ref.optional(),
      hypervisorName: ref.optional(),
    }),
    response: one(INSTANCE, instanceRecord),
    mutating: true,
  }),
  list: op({
    name: "instanceList",
    method: "GET",
    path: "/restapi/instance/instanceList",
    input: input({ zoneUuid: ref, vmUuid: ref.optional() }),
    response: list(INSTANCE, instanceRecord),
    mutating: false,
  }),
  status: op({
    name: "vmStatus",
    method: "GET",
    path: "/restapi/instance/vmStatus",
    input: byUuid,
    response: object(vmStatusRecord),
    mutating: false,
  }),
  start: instanceAction("startInstance", {}),
  stop: instanceAction("stopInstance", { forceStop: flag }),
  resize: instanceAction(
    "resizeVm",
    {
      offeringUuid: ref,
      /** Custom offerings only. */
      cpuCore: int64.optional(),
      memory: int64.optional(),
    },
    "idempotent",
  ),
  recover: instanceAction("recoverVm", {}),
  destroy: instanceAction("destroyInstance", { expunge: flag }, "delete"),
  updateName: op({
    name: "updateInstanceName",
    method: "PUT",
    path: "/restapi/instance/updateInstanceName",
    input: input({ uuid: ref, displayName: ref }),
    response: list(INSTANCE, instanceRecord),
    mutating: true,
    resend: "idempotent",
  }),
  networks: op({
    name: "instanceNetworkList",
    method: "GET",
    path: "/restapi/instance/instanceNetworkList",
    input: byUuid,
    response: list("svcInstanceNetworkResponses", instanceNetworkRecord),
    mutating: false,
  }),
  attachNetwork: op({
    name: "attachNetwork",
    method: "POST",
    path: "/restapi/instance/attachNetwork",
    input: input({ uuid: ref, networkUuid: ref }),
    response: one(INSTANCE, instanceRecord),
    mutating: true,
  }),
  detachNetwork: op({
    name: "detachNetwork",
    method: "POST",
    path: "/restapi/instance/detachNetwork",
    input: input({ uuid: ref, networkUuid: ref }),
    // Response: not shown; kept as is.
    response: object(unknownAnswer),
    mutating: true,
  }),
  attachIso: unshownInstanceCall("attachIso", true),
  detachIso: unshownInstanceCall("detachIso", true),
  resetSshKey: unshownInstanceCall("resetSSHkey", true),
  passwords: unshownInstanceCall("instancePasswordList", false),
};

export const vmSnapshotOperations = {
  create: op({
    name: "createVmSnapshot",
    method: "POST",
    path: "/restapi/vmsnapshot/createVmSnapshot",
    input: input({
      name: ref,
      zoneUuid: ref,
      virtualmachineUuid: ref,
      description: text.optional(),
      snapshotMemory: flag.optional(),
    }),
    response: one(VM_SNAPSHOT, vmSnapshotRecord),
    mutating: true,
  }),
  list: op({
    name: "vmsnapshotList",
    method: "GET",
    path: "/restapi/vmsnapshot/vmsnapshotList",
    input: input({ zoneUuid: ref, uuid: ref.optional(), jobId: ref.optional() }),
    response: list(VM_SNAPSHOT, vmSnapshotRecord),
    mutating: false,
  }),
  revert: op({
    name: "revertToVmSnapshot",
    method: "GET",
    path: "/restapi/vmsnapshot/revertToVmSnapshot",
    input: byUuid,
    response: one(VM_SNAPSHOT, vmSnapshotRecord),
    mutating: true,
  }),
  delete: op({
    name: "deleteVmSnapshot",
    method: "DELETE",
    path: "/restapi/vmsnapshot/deleteVmSnapshot/{uuid}",
    input: byUuid,
    response: object(deletionRecord),
    mutating: true,
    resend: "delete",
  }),
};
