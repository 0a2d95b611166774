// Internal load balancers of VPC tiers; identified by name (the record carries no uuid).
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readEnum, readString } from "../http";
import { assignLbRule, createInternalLb, deleteInternalLb, listInternalLbs } from "../model/internallb";
import { ALGORITHMS } from "../model/loadbalancerrule";

const KEY = "listInternalLbResponse";
const required = { required: true } as const;

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/internallb/createInternalLb",
    operation: "createInternalLb",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(KEY, [
        createInternalLb(scope, ctx, {
          name: readString(body, "name", required),
          networkUuid: readString(body, "networkUuid", required),
          algorithm: readEnum(body, "algorithm", ALGORITHMS, required),
          sourceport: readString(body, "sourceport", required),
          instanceport: readString(body, "instanceport", required),
          description: readString(body, "description"),
          sourceIpAddress: readString(body, "sourceIpAddress"),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/internallb/internalLbList",
    operation: "internalLbList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(
        KEY,
        listInternalLbs(scope, ctx, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          networkUuid: readString(query, "networkUuid"),
        }),
      ),
  },
  {
    method: "GET",
    path: "/restapi/internallb/assignLbRule",
    operation: "assignLbRule",
    mutating: true,
    handle: ({ query, scope }) => envelope(KEY, [assignLbRule(scope, readString(query, "uuid", required))]),
  },
  {
    method: "DELETE",
    path: "/restapi/internallb/deleteInternalLb/:uuid",
    operation: "deleteInternalLb",
    mutating: true,
    handle: ({ params, scope }) => deleteInternalLb(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
