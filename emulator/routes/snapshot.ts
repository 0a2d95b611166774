// Snapshot endpoints (spec section Snapshot).
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readString } from "../http";
import { createSnapshot, deleteSnapshot, listSnapshots } from "../model/snapshot";
import type { SnapshotRecord } from "../model/collections";

const KEY = "listSnapShotResponse";
const required = { required: true } as const;

const snapshots = (records: readonly SnapshotRecord[]) => envelope(KEY, records);

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/snapshot/createSnapshot",
    operation: "createSnapshot",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      snapshots([
        createSnapshot(ctx, scope, {
          name: readString(body, "name", required),
          zoneUuid: readString(body, "zoneUuid", required),
          volumeUuid: readString(body, "volumeUuid", required),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/snapshot/snapshotList",
    operation: "snapshotList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      snapshots(
        listSnapshots(ctx, scope, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
        }),
      ),
  },
  {
    method: "DELETE",
    path: "/restapi/snapshot/deleteSnapshot/:uuid",
    operation: "deleteSnapshot",
    mutating: true,
    handle: ({ params, scope }) => {
      deleteSnapshot(scope, readString(params, "uuid", required));
      return true;
    },
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
