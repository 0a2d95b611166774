// VPC and VPC tier endpoints (spec section VPC).
import type { AreaRegistrar, EmulatorContext } from "../core";
import { accepted, registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readBool, readString, spelled } from "../http";
import type { VpcRecord } from "../model/collections";
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
import { networkEnvelope } from "./network";
import { answeredCidrNames, CIDR_NAMES } from "./spellings";

const VPC_KEY = "listVpcResponse";
const required = { required: true } as const;

/** `{count, listVpcResponse}`, spelled as the spec (or the cidr-as-cIDR quirk). */
const vpcEnvelope = (ctx: EmulatorContext, vpcs: readonly VpcRecord[]) =>
  envelope(
    VPC_KEY,
    vpcs.map((vpc) => spelled(vpc, answeredCidrNames(ctx))),
  );

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/vpc/createVpc",
    operation: "createVpc",
    mutating: true,
    specNames: CIDR_NAMES,
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
      return vpcEnvelope(ctx, [vpc]);
    },
  },
  {
    method: "GET",
    path: "/restapi/vpc/vpcList",
    operation: "vpcList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      vpcEnvelope(ctx, listVpcs(ctx, scope, readString(query, "zoneUuid", required), readString(query, "uuid"))),
  },
  {
    method: "GET",
    path: "/restapi/vpc/vpcId",
    operation: "vpcId",
    mutating: false,
    handle: ({ query, scope }, ctx) => vpcEnvelope(ctx, [requireVpc(scope, readString(query, "uuid", required))]),
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
      return accepted(vpcEnvelope(ctx, [vpc]));
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
      return vpcEnvelope(ctx, [restartVpc(ctx, scope, uuid)]);
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
      return networkEnvelope(ctx, [tier]);
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
      return accepted(networkEnvelope(ctx, [tier]));
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
