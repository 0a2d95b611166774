// Host endpoint (spec section Host): administrators only.
import type { AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readString } from "../http";
import { listHosts } from "../model/host";

const ENDPOINTS: Endpoint[] = [
  {
    method: "GET",
    path: "/restapi/host/hostList",
    operation: "hostList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope("listHostResponse", listHosts(ctx.catalog, scope, { uuid: readString(query, "uuid") })),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
