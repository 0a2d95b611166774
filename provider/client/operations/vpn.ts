// Site-to-site VPN: /restapi/vpncustomergateway and /restapi/vpnconnection.
import { z } from "zod";
import { booleanField, recordId, stringField, cidrList, flag, input, ipv4, record, ref, text } from "../schema";
import { bool, list, one, op } from "./define";

export const vpnCustomerGatewayRecord = record({
  uuid: recordId,
  name: stringField,
  gateway: stringField,
  cidrList: stringField,
  /** Secret: the pre-shared key. */
  ipsecPresharedKey: stringField,
  ikepolicy: stringField,
  esppolicy: stringField,
  ikelifetime: stringField,
  esplifetime: stringField,
  ikeVersion: stringField,
  forceencap: booleanField,
  splitConnection: booleanField,
  dpd: booleanField,
  domainName: stringField,
  status: stringField,
  isActive: booleanField,
});
export type VpnCustomerGateway = z.output<typeof vpnCustomerGatewayRecord>;

export const vpnConnectionRecord = record({
  uuid: recordId,
  vpcUuid: stringField,
  customerGatewayUuid: stringField,
  vpnGatewayUuid: stringField,
  publicIpAddress: stringField,
  gateway: stringField,
  ikePolicy: stringField,
  espPolicy: stringField,
  /** Secret: the pre-shared key. */
  ipsecPresharedKey: stringField,
  zoneUuid: stringField,
  state: stringField,
  status: stringField,
  isActive: booleanField,
});
export type VpnConnection = z.output<typeof vpnConnectionRecord>;

const encryption = z.enum(["aes128", "aes192", "aes256", "3des"]);
const hash = z.enum(["sha1", "sha256", "sha384", "sha512", "md5"]);
const seconds = z.string().trim().regex(/^\d+$/, "must be a number of seconds");

/** The body fields of add; update takes the same, all optional, plus uuid. */
const gatewayFields = {
  name: ref,
  gateway: ipv4,
  cidrlist: cidrList,
  /** Secret: the pre-shared key. */
  ipsecpsk: ref,
  /** A Diffie-Hellman group label, e.g. "Group 5(modp1536)". */
  ikepolicy: ref,
  ikeEncryption: encryption,
  ikeHash: hash,
  ikelifetime: seconds,
  /** Perfect forward secrecy, e.g. "None". */
  esppolicy: ref,
  espEncryption: encryption,
  espHash: hash,
  esplifetime: seconds,
  ikeVersion: text.optional(),
  forceencap: flag.optional(),
  splitConnection: flag.optional(),
  dpd: flag.optional(),
};

const GATEWAY = "listVpnCustomerGatewayResponse";
const CONNECTION = "listVpnConnectionResponse";
const byUuid = input({ uuid: ref });

export const vpnCustomerGatewayOperations = {
  create: op({
    name: "addVpnCustomerGateway",
    method: "POST",
    path: "/restapi/vpncustomergateway/addVpnCustomerGateway",
    input: input(gatewayFields),
    response: one(GATEWAY, vpnCustomerGatewayRecord),
    mutating: true,
  }),
  list: op({
    name: "vpnCustomerGatewayList",
    method: "GET",
    path: "/restapi/vpncustomergateway/vpnCustomerGatewayList",
    input: input({ uuid: ref.optional() }),
    response: list(GATEWAY, vpnCustomerGatewayRecord),
    mutating: false,
  }),
  update: op({
    name: "updateVpnCustomerGateway",
    method: "PUT",
    path: "/restapi/vpncustomergateway/updateVpnCustomerGateway",
    input: input(gatewayFields).partial().extend({ uuid: ref }),
    response: list(GATEWAY, vpnCustomerGatewayRecord),
    mutating: true,
    resend: "idempotent",
  }),
  delete: op({
    name: "deleteVpnCustomerGateway",
    method: "DELETE",
    path: "/restapi/vpncustomergateway/deleteVpnCustomerGateway/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};

export const vpnConnectionOperations = {
  create: op({
    name: "addVpnConnection",
    method: "POST",
    path: "/restapi/vpnconnection/addVpnConnection",
    input: input({ vpcUuid: ref, customerGatewayUuid: ref, passive: flag.optional() }),
    response: one(CONNECTION, vpnConnectionRecord),
    mutating: true,
  }),
  list: op({
    name: "vpnConnectionList",
    method: "GET",
    path: "/restapi/vpnconnection/vpnConnectionList",
    input: input({ zoneUuid: ref, uuid: ref.optional(), vpcUuid: ref.optional() }),
    response: list(CONNECTION, vpnConnectionRecord),
    mutating: false,
  }),
  reset: op({
    name: "resetVpnConnection",
    method: "PUT",
    path: "/restapi/vpnconnection/resetVpnConnection/{uuid}",
    input: byUuid,
    // No body: the uuid in the path is the only input.
    inputsIn: "query",
    response: one(CONNECTION, vpnConnectionRecord),
    mutating: true,
    resend: "idempotent",
  }),
  delete: op({
    name: "deleteVpnConnection",
    method: "DELETE",
    path: "/restapi/vpnconnection/deleteVpnConnection/{uuid}",
    input: byUuid,
    response: bool,
    mutating: true,
    resend: "delete",
  }),
};
