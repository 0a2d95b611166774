// Resource tags: /restapi/resourcetags.
import type { z } from "zod";
import { booleanField, recordId, stringField, input, record, ref, resourceType, text } from "../schema";
import { list, one, op } from "./define";

export const tagRecord = record({
  uuid: recordId,
  key: stringField,
  value: stringField,
  resourceUuid: stringField,
  resourceType: stringField,
  isActive: booleanField,
});
export type Tag = z.output<typeof tagRecord>;

// The spec's envelope key; kongCreateTagsResponse (api-notes.md) is read too, as for every svc key (define.ts).
const TAG = "svcCreateTagsResponse";

export const resourceTagOperations = {
  create: op({
    name: "createTags",
    method: "POST",
    path: "/restapi/resourcetags/createTags",
    input: input({ resourceType, zoneUuid: ref, resourceUuid: ref, key: ref, value: text }),
    queryFields: ["resourceType", "zoneUuid"],
    response: one(TAG, tagRecord),
    mutating: true,
  }),
  list: op({
    name: "resourceTagsList",
    method: "GET",
    path: "/restapi/resourcetags/resourceTagsList",
    input: input({ uuid: ref.optional(), resourceUuid: ref.optional(), resourceType: resourceType.optional() }),
    response: list(TAG, tagRecord),
    mutating: false,
  }),
  delete: op({
    name: "deleteResourceTag",
    method: "DELETE",
    path: "/restapi/resourcetags/deleteResourceTag/{uuid}",
    input: input({ uuid: ref }),
    response: list(TAG, tagRecord),
    mutating: true,
    resend: "delete",
  }),
};
