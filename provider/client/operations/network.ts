// VPCs, VPC tiers and guest networks: /restapi/vpc and /restapi/network.
import { z } from "zod";
import { booleanField, recordId, stringField, cidr, flag, input, int64, ipv4, record, ref, text } from "../schema";
import { bool, first, list, one, op } from "./define";

// Some deployments name the CIDR `cIDR` (api-notes.md): the records always carry `getcIDR`.
const cidrAlias = { cIDR: "getcIDR" };

export const vpcRecord = record(
  {
    uuid: recordId,
    name: stringField,
    getcIDR: stringField,
    domainName: stringField,
    zoneUuid: stringField,
    description: stringField,
    zoneName: stringField,
    status: stringField,
    isActive: booleanField,
    // Beyond the spec's fields (neither the spec's record nor the emulator's shows them): read when a
    // deployment's record carries them, as the create's arguments of the same names.
    vpcOfferingUuid: stringField,
    networkDomain: stringField,
    publicLoadBalancerProvider: stringField,
  },
  cidrAlias,
);
export type Vpc = z.output<typeof vpcRecord>;

export const networkRecord = record(
  {
    uuid: recordId,
    name: stringField,
    getcIDR: stringField,
    zoneUuid: stringField,
    networkOfferingUuid: stringField,
    cleanUpNetwork: booleanField,
    networkAclList: stringField,
    domainName: stringField,
    networkType: stringField,
    gateway: stringField,
    networkDomain: stringField,
    status: stringField,
    isActive: booleanField,
    // Beyond the spec's fields: records that carry them (the emulator's do: emulator/README.md,
    // "Extra record fields") show the description, the VPC of a tier and the security group.
    description: stringField,
    vpcUuid: stringField,
    securityGroupUuid: stringField,
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

const listVpcs = op({
  name: "vpcList",
  method: "GET",
  path: "/restapi/vpc/vpcList",
  input: input({ zoneUuid: ref, uuid: ref.optional() }),
  response: list(VPC, vpcRecord),
  mutating: false,
});

const listNetworks = op({
  name: "networkList",
  method: "GET",
  path: "/restapi/network/networkList",
  input: input({ zoneUuid: ref, uuid: ref.optional() }),
  response: list(NETWORK, networkRecord),
  mutating: false,
});

/**
 * A delete confirmed through the zone's list when the caller names the zone (a local input: the
 * deletes of many records then share list calls), else through the get by uuid.
 */
const confirmInZone = (
  lookup: typeof listVpcs | typeof listNetworks,
  otherwise: typeof getVpc | typeof getNetwork,
) => ({
  lookup,
  params: (i: Record<string, unknown>) =>
    i.zoneUuid === undefined ? undefined : { zoneUuid: i.zoneUuid, uuid: i.uuid },
  otherwise,
});
const deleteInput = input({ uuid: ref, zoneUuid: ref.optional() });

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
  list: listVpcs,
  get: getVpc,
  update: op({
    name: "updateVpc",
    method: "PUT",
    path: "/restapi/vpc/updateVpc",
    input: input({ uuid: ref, name: ref.optional(), description: text.optional() }),
    response: list(VPC, vpcRecord),
    mutating: true,
    resend: "idempotent",
  }),
  restart: op({
    name: "restartVpc",
    method: "GET",
    path: "/restapi/vpc/restartVpc",
    input: input({ uuid: ref, cleanUpVPC: flag, redundantVpcRouter: flag }),
    response: one(VPC, vpcRecord),
    mutating: true,
    resend: "idempotent",
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
    resend: "idempotent",
  }),
  delete: op({
    name: "deleteVpc",
    method: "DELETE",
    path: "/restapi/vpc/deleteVpc/{uuid}",
    input: deleteInput,
    localFields: ["zoneUuid"],
    response: bool,
    mutating: true,
    resend: "delete",
    confirmGone: confirmInZone(listVpcs, getVpc),
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
  list: listNetworks,
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
    resend: "idempotent",
  }),
  restart: op({
    name: "restartNetwork",
    method: "GET",
    path: "/restapi/network/restartNetwork",
    input: input({ uuid: ref, cleanUpNetwork: flag }),
    response: one(NETWORK, networkRecord),
    mutating: true,
    resend: "idempotent",
  }),
  replaceAcl: op({
    name: "replaceAcl",
    method: "GET",
    path: "/restapi/network/replaceAcl",
    input: input({ uuid: ref, aclUuid: ref }),
    response: one(NETWORK, networkRecord),
    mutating: true,
    resend: "idempotent",
  }),
  changeSecurityGroup: op({
    name: "changeSecurityGroup",
    method: "GET",
    path: "/restapi/network/changeSecurityGroup",
    // The spec types it I64, yet security groups are known by uuid: either is accepted.
    input: input({ uuid: ref, securityGroupId: z.union([int64, ref]) }),
    response: one(NETWORK, networkRecord),
    mutating: true,
    resend: "idempotent",
  }),
  delete: op({
    name: "deleteNetwork",
    method: "DELETE",
    path: "/restapi/network/deleteNetwork/{uuid}",
    input: deleteInput,
    localFields: ["zoneUuid"],
    response: bool,
    mutating: true,
    resend: "delete",
    confirmGone: confirmInZone(listNetworks, getNetwork),
  }),
};
