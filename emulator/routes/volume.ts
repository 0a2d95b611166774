// Volume endpoints (spec section Volume).
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readBool, readEnum, readInt, readString } from "../http";
import {
  attachVolume,
  createVolume,
  deleteVolume,
  detachVolume,
  listVolumes,
  resizeVolume,
  uploadVolume,
  UPLOAD_FORMATS,
} from "../model/volume";
import type { VolumeRecord } from "../model/collections";

const KEY = "listVolumeResponse";
const required = { required: true } as const;

const volumes = (records: readonly VolumeRecord[]) => envelope(KEY, records);

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/volume/createVolume",
    operation: "createVolume",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      volumes([
        createVolume(ctx, scope, {
          name: readString(body, "name", required),
          zoneUuid: readString(body, "zoneUuid", required),
          storageOfferingUuid: readString(body, "storageOfferingUuid", required),
          diskSize: readInt(body, "diskSize", { required: true, min: 1 }),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/volume/volumeList",
    operation: "volumeList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      volumes(
        listVolumes(ctx, scope, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          vmUuid: readString(query, "vmUuid"),
          jobId: readString(query, "jobId"),
        }),
      ),
  },
  {
    method: "GET",
    path: "/restapi/volume/resizeVolume",
    operation: "resizeVolume",
    mutating: true,
    handle: ({ query, scope }, ctx) =>
      volumes([
        resizeVolume(ctx, scope, {
          uuid: readString(query, "uuid", required),
          storageOfferingUuid: readString(query, "storageOfferingUuid", required),
          diskSize: readInt(query, "diskSize", { required: true, min: 1 }),
          isShrink: readBool(query, "isShrink", required),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/volume/attachVolume",
    operation: "attachVolume",
    mutating: true,
    handle: ({ query, scope }, ctx) =>
      volumes([
        attachVolume(ctx, scope, {
          uuid: readString(query, "uuid", required),
          instanceUuid: readString(query, "instanceUuid", required),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/volume/detachVolume",
    operation: "detachVolume",
    mutating: true,
    handle: ({ query, scope }, ctx) => volumes([detachVolume(ctx, scope, readString(query, "uuid", required))]),
  },
  {
    method: "POST",
    path: "/restapi/volume/uploadVolume",
    operation: "uploadVolume",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      volumes([
        uploadVolume(ctx, scope, {
          format: readEnum(body, "format", UPLOAD_FORMATS, required),
          // The spec marks only format; an upload cannot be done without the others.
          name: readString(body, "name", required),
          zoneUuid: readString(body, "zoneUuid", required),
          url: readString(body, "url", required),
          checksum: readString(body, "checksum"),
        }),
      ]),
  },
  {
    method: "DELETE",
    path: "/restapi/volume/deleteVolume/:uuid",
    operation: "deleteVolume",
    mutating: true,
    handle: ({ params, scope }) => deleteVolume(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
