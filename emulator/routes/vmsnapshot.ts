// VM snapshot endpoints (spec section VM Snapshot).
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readBool, readString } from "../http";
import { createVmSnapshot, deleteVmSnapshot, listVmSnapshots, revertToVmSnapshot } from "../model/vmsnapshot";
import type { VmSnapshotRecord } from "../model/collections";

const KEY = "listVmSnapshotResponse";
const required = { required: true } as const;

const vmSnapshots = (records: readonly VmSnapshotRecord[]) => envelope(KEY, records);

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/vmsnapshot/createVmSnapshot",
    operation: "createVmSnapshot",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      vmSnapshots([
        createVmSnapshot(ctx, scope, {
          name: readString(body, "name", required),
          zoneUuid: readString(body, "zoneUuid", required),
          virtualmachineUuid: readString(body, "virtualmachineUuid", required),
          description: readString(body, "description"),
          snapshotMemory: readBool(body, "snapshotMemory"),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/vmsnapshot/vmsnapshotList",
    operation: "vmsnapshotList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      vmSnapshots(
        listVmSnapshots(ctx, scope, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          jobId: readString(query, "jobId"),
        }),
      ),
  },
  {
    method: "GET",
    path: "/restapi/vmsnapshot/revertToVmSnapshot",
    operation: "revertToVmSnapshot",
    mutating: true,
    handle: ({ query, scope }, ctx) =>
      vmSnapshots([revertToVmSnapshot(ctx, scope, readString(query, "uuid", required))]),
  },
  {
    method: "DELETE",
    path: "/restapi/vmsnapshot/deleteVmSnapshot/:uuid",
    operation: "deleteVmSnapshot",
    mutating: true,
    handle: ({ params, scope }) => deleteVmSnapshot(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
