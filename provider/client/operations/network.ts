/** VPCs, VPC tiers and guest networks: /restapi/vpc and /restapi/network. */
import { z } from "zod";
import { B, ID, S, cidr, flag, input, int64, ipv4, record, ref, text } from "../schema";
import { bool, first, list, one, op } from "./define";

// Some deployments name the CIDR `cIDR` (api-notes.md): the records always carry `getcIDR`.
const cidrAlias = { cIDR: "getcIDR" };

export const vpcRecord = record(
  {
    uuid: ID,
    name: S,
    getcIDR: S,
    domainName: S,
    zoneUuid: S,
    description: S,
    zoneName: S,
    status: S,
    isActive: B,
  },
  cidrAlias,
);
export type Vpc = z.output<typeof vpcRecord>;

export const networkRecord = record(
  {
    uuid: ID,
    name: S,
    getcIDR: S,
    zoneUuid: S,
    networkOfferingUuid: S,
    cleanUpNetwork: B,
    networkAclList: S,
    domainName: S,
    networkType: S,
    gateway: S,
    networkDomain: S,
    status: S,
    isActive: B,
  },
  cidrAlias,
);
export type Network = z.output<typeof networkRecord>;

const VPC = "listVpcResponse";
const NETWORK = "listNetworkResponse";
const byUuid = input({ uuid: ref });

const getVpc = op({
  name: "vpcId",
  method: "GET",
  path: "/restapi/vpc/vpcId",
  input: byUuid,
  response: first(VPC, vpcRecord),
  mutating: false,
  notFoundIsEmpty: true,
});

const getNetwork = op({
  name: "networkId",
  method: "GET",
  path: "/restapi/network/networkId",
  input: byUuid,
  response: first(NETWORK, networkRecord),
  mutating: false,
  notFoundIsEmpty: true,
});

const confirmByUuid = <L extends typeof getVpc | typeof getNetwork>(lookup: L) => ({
  lookup,
  params: (i: Record<string, unknown>) => ({ uuid: i.uuid }),
});

export const vpcOperations = {
  create: op({
    name: "createVpc",
    method: "POST",
    path: "/restapi/vpc/createVpc",
    input: input({
      name: ref,
      zoneUuid: ref,
      vpcOfferingUuid: ref,
      getcIDR: cidr,
      description: text.optional(),
      networkDomain: text.optional(),
      publicLoadBalancerProvider: text.optional(),
    }),
    response: one(VPC, vpcRecord),
    mutating: true,
  }),
  list: op({
    name: "vpcList",
    method: "GET",
    path: "/restapi/vpc/vpcList",
    input: input({ zoneUuid: ref, uuid: ref.optional() }),
    response: list(VPC, vpcRecord),
    mutating: false,
  }),
  get: getVpc,
  update: op({
    name: "updateVpc",
    method: "PUT",
    path: "/restapi/vpc/updateVpc",
    input: input({ uuid: ref, name: ref.optional(), description: text.optional() }),
    response: list(VPC, vpcRecord),
    mutating: true,
  }),
  restart: op({
    name: "restartVpc",
    method: "GET",
    path: "/restapi/vpc/restartVpc",
    input: input({ uuid: ref, cleanUpVPC: flag, redundantVpcRouter: flag }),
    response: one(VPC, vpcRecord),
    mutating: true,
  }),
  createTier: op({
    name: "createVpcNetwork",
    method: "POST",
    path: "/restapi/vpc/createVpcNetwork",
    input: input({
      name: ref,
      zoneUuid: ref,
      networkOfferingUuid: ref,
      vpcUuid: ref,
      gateway: ipv4,
      netmask: ipv4,
      aclUuid: ref.optional(),
    }),
    response: one(NETWORK, networkRecord),
    mutating: true,
  }),
  updateTier: op({
    name: "updateVpcNetwork",
    method: "PUT",
    path: "/restapi/vpc/updateVpcNetwork",
    input: input({
      uuid: ref,
      name: ref.optional(),
      description: text.optional(),
      networkOfferingUuid: ref.optional(),
      networkDomain: text.optional(),
    }),
    response: list(NETWORK, networkRecord),
    mutating: true,
  }),
  delete: op({
    name: "deleteVpc",
    method: "DELETE",
    path: "/restapi/vpc/deleteVpc/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    confirmGone: confirmByUuid(getVpc),
  }),
};

export const networkOperations = {
  create: op({
    name: "createNetwork",
    method: "POST",
    path: "/restapi/network/createNetwork",
    input: input({
      name: ref,
      zoneUuid: ref,
      networkOfferingUuid: ref,
      virtualmachineUuid: ref.optional(),
      isPublic: flag.optional(),
      securityGroupUuid: ref.optional(),
    }),
    queryFields: ["isPublic", "securityGroupUuid"],
    response: one(NETWORK, networkRecord),
    mutating: true,
  }),
  list: op({
    name: "networkList",
    method: "GET",
    path: "/restapi/network/networkList",
    input: input({ zoneUuid: ref, uuid: ref.optional() }),
    response: list(NETWORK, networkRecord),
    mutating: false,
  }),
  get: getNetwork,
  update: op({
    name: "updateNetwork",
    method: "PUT",
    path: "/restapi/network/updateNetwork",
    input: input({
      uuid: ref,
      name: ref.optional(),
      description: text.optional(),
      getcIDR: cidr.optional(),
      networkDomain: text.optional(),
    }),
    response: list(NETWORK, networkRecord),
    mutating: true,
  }),
  restart: op({
    name: "restartNetwork",
    method: "GET",
    path: "/restapi/network/restartNetwork",
    input: input({ uuid: ref, cleanUpNetwork: flag }),
    response: one(NETWORK, networkRecord),
    mutating: true,
  }),
  replaceAcl: op({
    name: "replaceAcl",
    method: "GET",
    path: "/restapi/network/replaceAcl",
    input: input({ uuid: ref, aclUuid: ref }),
    response: one(NETWORK, networkRecord),
    mutating: true,
  }),
  changeSecurityGroup: op({
    name: "changeSecurityGroup",
    method: "GET",
    path: "/restapi/network/changeSecurityGroup",
    // The spec types it I64, yet security groups are known by uuid: either is accepted.
    input: input({ uuid: ref, securityGroupId: z.union([int64, ref]) }),
    response: one(NETWORK, networkRecord),
    mutating: true,
  }),
  delete: op({
    name: "deleteNetwork",
    method: "DELETE",
    path: "/restapi/network/deleteNetwork/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    confirmGone: confirmByUuid(getNetwork),
  }),
};
