// Snapshot policy endpoints (spec section Snapshot Policy).
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readInt, readString } from "../http";
import {
  createSnapshotPolicy,
  deleteSnapshotPolicy,
  INTERVAL_TYPES,
  listSnapshotPolicies,
} from "../model/snapshotpolicy";
import type { SnapshotPolicyRecord } from "../model/collections";

const KEY = "listSnapShotPoliciesResponse";
const required = { required: true } as const;

const policies = (records: readonly SnapshotPolicyRecord[]) => envelope(KEY, records);

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/snapshotPolicy/createSnapshotPolicy",
    operation: "createSnapshotPolicy",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      policies([
        createSnapshotPolicy(ctx, scope, {
          timer: readString(body, "timer", required),
          intervalType: readEnum(body, "intervalType", INTERVAL_TYPES, required),
          timeZone: readString(body, "timeZone", required),
          // The spec leaves it optional, but a policy snapshots one volume.
          volumeUuid: readString(body, "volumeUuid", required),
          dayOfWeek: readInt(body, "dayOfWeek"),
          dayOfMonth: readInt(body, "dayOfMonth"),
          maximumSnapshots: readInt(body, "maximumSnapshots"),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/snapshotPolicy/snapshotPolicyList",
    operation: "snapshotPolicyList",
    mutating: false,
    handle: ({ query, scope }) =>
      policies(
        listSnapshotPolicies(scope, {
          volumeUuid: readString(query, "volumeUuid", required),
          uuid: readString(query, "uuid"),
        }),
      ),
  },
  {
    method: "DELETE",
    path: "/restapi/snapshotPolicy/deleteSnapshotPolicy/:uuid",
    operation: "deleteSnapshotPolicy",
    mutating: true,
    handle: ({ params, scope }) => {
      deleteSnapshotPolicy(scope, readString(params, "uuid", required));
      return true;
    },
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
