/** VPC and VPC tier endpoints (spec section VPC). */
import type { AreaRegistrar } from "../core";
import { accepted, registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readBool, readString } from "../http";
import {
  createTier,
  createVpc,
  deleteVpc,
  listVpcs,
  requireVpc,
  restartVpc,
  updateTier,
  updateVpc,
} from "../model/vpc";

const VPC_KEY = "listVpcResponse";
const NETWORK_KEY = "listNetworkResponse";
const required = { required: true } as const;

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/vpc/createVpc",
    operation: "createVpc",
    mutating: true,
    handle: ({ body, scope }, ctx) => {
      const name = readString(body, "name", required);
      const zoneUuid = readString(body, "zoneUuid", required);
      const vpcOfferingUuid = readString(body, "vpcOfferingUuid", required);
      // Deployments that answer `cIDR` also accept it.
      const cidr = readString(body, "cIDR") ?? readString(body, "getcIDR", required);
      const vpc = createVpc(ctx, scope, {
        name,
        zoneUuid,
        vpcOfferingUuid,
        cidr,
        description: readString(body, "description"),
        networkDomain: readString(body, "networkDomain"),
        publicLoadBalancerProvider: readString(body, "publicLoadBalancerProvider"),
      });
      return envelope(VPC_KEY, [vpc]);
    },
  },
  {
    method: "GET",
    path: "/restapi/vpc/vpcList",
    operation: "vpcList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(VPC_KEY, listVpcs(ctx, scope, readString(query, "zoneUuid", required), readString(query, "uuid"))),
  },
  {
    method: "GET",
    path: "/restapi/vpc/vpcId",
    operation: "vpcId",
    mutating: false,
    handle: ({ query, scope }) => envelope(VPC_KEY, [requireVpc(scope, readString(query, "uuid", required))]),
  },
  {
    method: "PUT",
    path: "/restapi/vpc/updateVpc",
    operation: "updateVpc",
    mutating: true,
    handle: ({ body, scope }, ctx) => {
      const vpc = updateVpc(ctx, scope, readString(body, "uuid", required), {
        name: readString(body, "name"),
        description: readString(body, "description"),
      });
      return accepted(envelope(VPC_KEY, [vpc]));
    },
  },
  {
    method: "GET",
    path: "/restapi/vpc/restartVpc",
    operation: "restartVpc",
    mutating: true,
    handle: ({ query, scope }, ctx) => {
      const uuid = readString(query, "uuid", required);
      readBool(query, "cleanUpVPC", required);
      readBool(query, "redundantVpcRouter", required);
      return envelope(VPC_KEY, [restartVpc(ctx, scope, uuid)]);
    },
  },
  {
    method: "POST",
    path: "/restapi/vpc/createVpcNetwork",
    operation: "createVpcNetwork",
    mutating: true,
    handle: ({ body, scope }, ctx) => {
      const tier = createTier(ctx, scope, {
        name: readString(body, "name", required),
        vpcUuid: readString(body, "vpcUuid", required),
        networkOfferingUuid: readString(body, "networkOfferingUuid", required),
        gateway: readString(body, "gateway", required),
        netmask: readString(body, "netmask", required),
        zoneUuid: readString(body, "zoneUuid"),
        aclUuid: readString(body, "aclUuid"),
      });
      return envelope(NETWORK_KEY, [tier]);
    },
  },
  {
    method: "PUT",
    path: "/restapi/vpc/updateVpcNetwork",
    operation: "updateVpcNetwork",
    mutating: true,
    handle: ({ body, scope }, ctx) => {
      const tier = updateTier(ctx, scope, readString(body, "uuid", required), {
        name: readString(body, "name"),
        description: readString(body, "description"),
        networkOfferingUuid: readString(body, "networkOfferingUuid"),
        networkDomain: readString(body, "networkDomain"),
      });
      return accepted(envelope(NETWORK_KEY, [tier]));
    },
  },
  {
    method: "DELETE",
    path: "/restapi/vpc/deleteVpc/:uuid",
    operation: "deleteVpc",
    mutating: true,
    handle: ({ params, scope }) => deleteVpc(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
