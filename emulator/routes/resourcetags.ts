// Resource tag endpoints (spec section Resource Tags): envelope svcCreateTagsResponse.
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readString } from "../http";
import { createTag, deleteTag, listTags, RESOURCE_TYPES } from "../model/resourcetags";

const KEY = "svcCreateTagsResponse";
const required = { required: true } as const;

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/resourcetags/createTags",
    operation: "createTags",
    mutating: true,
    handle: ({ query, body, scope }, ctx) =>
      envelope(KEY, [
        createTag(ctx, scope, {
          resourceType: readEnum(query, "resourceType", RESOURCE_TYPES, required),
          zoneUuid: readString(query, "zoneUuid", required),
          resourceUuid: readString(body, "resourceUuid", required),
          key: readString(body, "key", required),
          value: readString(body, "value", required),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/resourcetags/resourceTagsList",
    operation: "resourceTagsList",
    mutating: false,
    handle: ({ query, scope }) =>
      envelope(
        KEY,
        listTags(scope, {
          uuid: readString(query, "uuid"),
          resourceUuid: readString(query, "resourceUuid"),
          resourceType: readEnum(query, "resourceType", RESOURCE_TYPES),
        }),
      ),
  },
  {
    method: "DELETE",
    path: "/restapi/resourcetags/deleteResourceTag/:uuid",
    operation: "deleteResourceTag",
    mutating: true,
    handle: ({ params, scope }) => envelope(KEY, [deleteTag(scope, readString(params, "uuid", required))]),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
