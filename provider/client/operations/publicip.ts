// Public IP addresses and what hangs on them: /restapi/ipaddress, /restapi/portforwardingrule,
// /restapi/loadbalancerrule, /restapi/internallb.
import { z } from "zod";
import {
  booleanField,
  recordId,
  stringField,
  input,
  ipv4,
  lbAlgorithm,
  port,
  portOrder,
  portProtocol,
  record,
  ref,
  text,
} from "../schema";
import { bool, list, one, op } from "./define";

export const ipAddressRecord = record({
  uuid: recordId,
  publicIpAddress: stringField,
  zoneUuid: stringField,
  zoneName: stringField,
  networkUuid: stringField,
  isSourcenat: booleanField,
  state: stringField,
  status: stringField,
  isActive: booleanField,
  /** Beyond the spec's fields: the VPC of an address acquired for one, where the record carries it. */
  vpcUuid: stringField,
});
export type IpAddress = z.output<typeof ipAddressRecord>;

/** The static NAT binding carries no uuid of its own: it is the IP address's. */
export const staticNatRecord = record({
  ipAddressUuid: stringField,
  vmUuid: stringField,
  vmName: stringField,
  networkUuid: stringField,
  status: stringField,
  isActive: booleanField,
});
export type StaticNat = z.output<typeof staticNatRecord>;

export const portForwardingRuleRecord = record({
  uuid: recordId,
  ipAddressUuid: stringField,
  protocol: stringField,
  privatePort: stringField,
  privateEndPort: stringField,
  publicPort: stringField,
  publicEndPort: stringField,
  virtualMachineName: stringField,
  zoneUuid: stringField,
  status: stringField,
  isActive: booleanField,
});
export type PortForwardingRule = z.output<typeof portForwardingRuleRecord>;

export const loadBalancerRuleRecord = record({
  uuid: recordId,
  name: stringField,
  ipAddressUuid: stringField,
  publicPort: stringField,
  privatePort: stringField,
  algorithm: stringField,
  stickinessName: stringField,
  zoneUuid: stringField,
  state: stringField,
  status: stringField,
  isActive: booleanField,
});
export type LoadBalancerRule = z.output<typeof loadBalancerRuleRecord>;

/** The spec says this record carries no uuid; deployments that add one are kept (loose record). */
export const internalLbRecord = record({
  uuid: stringField,
  name: stringField,
  description: stringField,
  networkUuid: stringField,
  sourceIpAddress: stringField,
  sourcePort: stringField,
  instancePort: stringField,
  algorithm: stringField,
  zoneUuid: stringField,
  status: stringField,
  isActive: booleanField,
});
export type InternalLb = z.output<typeof internalLbRecord>;

const IP = "listIpAddressResponse";
const PORT_FORWARDING = "listPortForwardingResponse";
const LB = "listLoadBalancerRuleResponse";
const INTERNAL_LB = "listInternalLbResponse";
const byUuid = input({ uuid: ref });
const byIp = input({ ipAddressUuid: ref });

export const ipAddressOperations = {
  acquire: op({
    name: "acquireIpAddress",
    method: "GET",
    path: "/restapi/ipaddress/acquireIpAddress",
    input: input({ networkUuid: ref, networkType: z.enum(["NETWORK", "VPC"]) }),
    response: one(IP, ipAddressRecord),
    mutating: true,
  }),
  list: op({
    name: "ipAddressList",
    method: "GET",
    path: "/restapi/ipaddress/ipAddressList",
    input: input({ zoneUuid: ref, networkUuid: ref.optional() }),
    response: list(IP, ipAddressRecord),
    mutating: false,
  }),
  release: op({
    name: "releaseIpAddress",
    method: "DELETE",
    path: "/restapi/ipaddress/releaseIpAddress",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
  enableStaticNat: op({
    name: "enableStaticNat",
    method: "POST",
    path: "/restapi/ipaddress/enableStaticNat",
    input: input({ ipAddressUuid: ref, vmUuid: ref, networkUuid: ref.optional() }),
    response: one("svcAttachStaticNatResponse", staticNatRecord),
    mutating: true,
  }),
  disableStaticNat: op({
    name: "disableStaticNat",
    method: "DELETE",
    path: "/restapi/ipaddress/disableStaticNat",
    input: byIp,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
  enableRemoteVpnAccess: op({
    name: "enableremotevpnaccess",
    method: "GET",
    path: "/restapi/ipaddress/enableremotevpnaccess",
    input: byIp,
    response: one(IP, ipAddressRecord),
    mutating: true,
  }),
  disableRemoteVpnAccess: op({
    name: "disableremotevpnaccess",
    method: "DELETE",
    path: "/restapi/ipaddress/disableremotevpnaccess",
    input: byIp,
    response: one(IP, ipAddressRecord),
    mutating: true,
    resend: "delete",
  }),
};

export const portForwardingRuleOperations = {
  create: op({
    name: "createPortForwardingRule",
    method: "POST",
    path: "/restapi/portforwardingrule/createPortForwardingRule",
    input: input({
      ipAddressUuid: ref,
      protocol: portProtocol,
      privatePort: port,
      publicPort: port,
      privateEndPort: port.optional(),
      publicEndPort: port.optional(),
      virtualmachineUuid: ref,
      networkUuid: ref,
    })
      .refine(...portOrder("privatePort", "privateEndPort"))
      .refine(...portOrder("publicPort", "publicEndPort")),
    response: one(PORT_FORWARDING, portForwardingRuleRecord),
    mutating: true,
  }),
  list: op({
    name: "portForwardingRuleList",
    method: "GET",
    path: "/restapi/portforwardingrule/portForwardingRuleList",
    input: input({ zoneUuid: ref, uuid: ref.optional(), vmUuid: ref.optional(), ipAddressUuid: ref.optional() }),
    response: list(PORT_FORWARDING, portForwardingRuleRecord),
    mutating: false,
  }),
  delete: op({
    name: "deletePortForwardingRule",
    method: "DELETE",
    path: "/restapi/portforwardingrule/deletePortForwardingRule/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};

export const loadBalancerRuleOperations = {
  create: op({
    name: "createLoadBalancerRule",
    method: "POST",
    path: "/restapi/loadbalancerrule/createLoadBalancerRule",
    input: input({
      name: ref,
      publicIpUuid: ref,
      networkUuid: ref,
      publicport: port,
      privateport: port,
      algorithm: lbAlgorithm,
      stickinessPolicyUuid: ref.optional(),
      svcLbSticky: z
        .strictObject({
          stickinessMethod: text.optional(),
          stickinessName: text.optional(),
          stickyHoldTime: text.optional(),
          cookieName: text.optional(),
          uuid: ref.optional(),
        })
        .optional(),
    }),
    response: one(LB, loadBalancerRuleRecord),
    mutating: true,
  }),
  list: op({
    name: "loadBalancerRuleList",
    method: "GET",
    path: "/restapi/loadbalancerrule/loadBalancerRuleList",
    input: input({ zoneUuid: ref, uuid: ref.optional(), ipAddressUuid: ref.optional() }),
    response: list(LB, loadBalancerRuleRecord),
    mutating: false,
  }),
  update: op({
    name: "updateLoadBalancerRule",
    method: "PUT",
    path: "/restapi/loadbalancerrule/updateLoadBalancerRule",
    input: input({ uuid: ref, name: ref.optional(), algorithm: lbAlgorithm.optional() }),
    response: list(LB, loadBalancerRuleRecord),
    mutating: true,
    resend: "idempotent",
  }),
  delete: op({
    name: "deleteLoadBalancerRule",
    method: "DELETE",
    path: "/restapi/loadbalancerrule/deleteLoadBalancerRule/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};

export const internalLbOperations = {
  create: op({
    name: "createInternalLb",
    method: "POST",
    path: "/restapi/internallb/createInternalLb",
    input: input({
      name: ref,
      networkUuid: ref,
      sourceport: port,
      instanceport: port,
      algorithm: lbAlgorithm,
      sourceIpAddress: ipv4.optional(),
      description: text.optional(),
    }),
    response: one(INTERNAL_LB, internalLbRecord),
    mutating: true,
  }),
  list: op({
    name: "internalLbList",
    method: "GET",
    path: "/restapi/internallb/internalLbList",
    input: input({ zoneUuid: ref, uuid: ref.optional(), networkUuid: ref.optional() }),
    response: list(INTERNAL_LB, internalLbRecord),
    mutating: false,
  }),
  assignRule: op({
    name: "assignLbRule",
    method: "GET",
    path: "/restapi/internallb/assignLbRule",
    input: byUuid,
    response: list(INTERNAL_LB, internalLbRecord),
    mutating: true,
    resend: "idempotent",
  }),
  delete: op({
    name: "deleteInternalLb",
    method: "DELETE",
    path: "/restapi/internallb/deleteInternalLb/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};
