// Network endpoints (spec section Network).
import type { AreaRegistrar, EmulatorContext } from "../core";
import { accepted, registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readBool, readString, spelled } from "../http";
import type { NetworkRecord } from "../model/collections";
import {
  changeSecurityGroup,
  createNetwork,
  deleteNetwork,
  listNetworks,
  replaceAcl,
  requireNetwork,
  restartNetwork,
  updateNetwork,
} from "../model/network";
import { answeredCidrNames, CIDR_NAMES } from "./spellings";

const KEY = "listNetworkResponse";
const required = { required: true } as const;

/** `{count, listNetworkResponse}` of networks or VPC tiers, spelled as the spec (or the quirk). */
export const networkEnvelope = (ctx: EmulatorContext, networks: readonly NetworkRecord[]) =>
  envelope(
    KEY,
    networks.map((network) => spelled(network, answeredCidrNames(ctx))),
  );

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/network/createNetwork",
    operation: "createNetwork",
    mutating: true,
    handle: ({ query, body, scope }, ctx) => {
      const network = createNetwork(ctx, scope, {
        name: readString(body, "name", required),
        zoneUuid: readString(body, "zoneUuid", required),
        networkOfferingUuid: readString(body, "networkOfferingUuid", required),
        virtualmachineUuid: readString(body, "virtualmachineUuid"),
        isPublic: readBool(query, "isPublic"),
        securityGroupUuid: readString(query, "securityGroupUuid"),
      });
      return networkEnvelope(ctx, [network]);
    },
  },
  {
    method: "GET",
    path: "/restapi/network/networkList",
    operation: "networkList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      networkEnvelope(
        ctx,
        listNetworks(ctx, scope, {
          zoneUuid: readString(query, "zoneUuid", required),
          uuid: readString(query, "uuid"),
          vpcUuid: readString(query, "vpcUuid"),
        }),
      ),
  },
  {
    method: "GET",
    path: "/restapi/network/networkId",
    operation: "networkId",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      networkEnvelope(ctx, [requireNetwork(scope, readString(query, "uuid", required))]),
  },
  {
    method: "PUT",
    path: "/restapi/network/updateNetwork",
    operation: "updateNetwork",
    mutating: true,
    specNames: CIDR_NAMES,
    handle: ({ body, scope }, ctx) => {
      const network = updateNetwork(ctx, scope, readString(body, "uuid", required), {
        // Deployments that answer `cIDR` also accept it.
        cidr: readString(body, "cIDR") ?? readString(body, "getcIDR"),
        name: readString(body, "name"),
        description: readString(body, "description"),
        networkDomain: readString(body, "networkDomain"),
      });
      return accepted(networkEnvelope(ctx, [network]));
    },
  },
  {
    method: "GET",
    path: "/restapi/network/restartNetwork",
    operation: "restartNetwork",
    mutating: true,
    handle: ({ query, scope }, ctx) => {
      const uuid = readString(query, "uuid", required);
      const cleanUp = readBool(query, "cleanUpNetwork", required);
      return networkEnvelope(ctx, [restartNetwork(ctx, scope, uuid, cleanUp)]);
    },
  },
  {
    method: "GET",
    path: "/restapi/network/replaceAcl",
    operation: "replaceAcl",
    mutating: true,
    handle: ({ query, scope }, ctx) => {
      const uuid = readString(query, "uuid", required);
      return networkEnvelope(ctx, [replaceAcl(scope, uuid, readString(query, "aclUuid", required))]);
    },
  },
  {
    method: "GET",
    path: "/restapi/network/changeSecurityGroup",
    operation: "changeSecurityGroup",
    mutating: true,
    handle: ({ query, scope }, ctx) => {
      const uuid = readString(query, "uuid", required);
      return networkEnvelope(ctx, [changeSecurityGroup(scope, uuid, readString(query, "securityGroupId", required))]);
    },
  },
  {
    method: "DELETE",
    path: "/restapi/network/deleteNetwork/:uuid",
    operation: "deleteNetwork",
    mutating: true,
    handle: ({ params, scope }) => deleteNetwork(scope, readString(params, "uuid", required)),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
