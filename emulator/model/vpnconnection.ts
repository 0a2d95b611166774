/**
 * Site-to-site VPN connections ("vpnconnection") between a VPC and a customer gateway.
 *
 * Each VPC with connections has one VPN gateway (VPN_GATEWAYS, created with its first connection,
 * removed with its last): its public address is the VPC's source-NAT address when the VPC has one,
 * else an address allocated from the zone's pool (and released with the gateway).
 *
 * A connection is "Pending", then after the asynchronous delay "Connected", or "Disconnected" when
 * passive (it waits for the remote end to initiate). A reset goes back through "Pending".
 */
import { overlaps, parseCidr } from "../cidr";
import { conflict, type AccountScope, type ApiRecord, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import { filterRecords, removeRecord, requireZone } from "./records";

export const COLLECTION = "vpnconnection";
/** VPN gateway uuid to `{uuid, vpcUuid, zoneUuid, publicIpAddress, ownsAddress}`. */
export const VPN_GATEWAYS = "vpnconnection.vpngateway";
/** Connection uuid to `{uuid, passive}`. */
export const OPTIONS = "vpnconnection.options";

const KIND = "VPN connection";

const vpcCidr = (vpc: ApiRecord): string => String(vpc.getcIDR ?? vpc.cIDR ?? "");

/** The VPC's VPN gateway, created when absent. */
function vpnGatewayOf(scope: AccountScope, ctx: EmulatorContext, vpc: ApiRecord): ApiRecord {
  const vpcUuid = String(vpc.uuid);
  const found = filterRecords(scope, VPN_GATEWAYS, { vpcUuid })[0];
  if (found) return found;
  const zoneUuid = String(vpc.zoneUuid ?? "");
  const sourceNat = Object.values(scope.collection("ipaddress")).find(
    (ip) => ip.networkUuid === vpcUuid && ip.isSourcenat === true,
  );
  const uuid = ctx.newUuid();
  const gateway: ApiRecord = {
    uuid,
    vpcUuid,
    zoneUuid,
    publicIpAddress: sourceNat ? String(sourceNat.publicIpAddress) : ctx.allocatePublicIp(zoneUuid),
    ownsAddress: !sourceNat,
  };
  scope.collection(VPN_GATEWAYS)[uuid] = gateway;
  return gateway;
}

const settledState = (scope: AccountScope, uuid: string): string =>
  scope.collection(OPTIONS)[uuid]?.passive === true ? "Disconnected" : "Connected";

export function addVpnConnection(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: { vpcUuid: string; customerGatewayUuid: string; passive?: boolean },
): ApiRecord {
  const vpc = requireRecord(scope, "vpc", "VPC", input.vpcUuid);
  const customer = requireRecord(scope, "vpncustomergateway", "VPN customer gateway", input.customerGatewayUuid);
  const twin = filterRecords(scope, COLLECTION, {
    vpcUuid: input.vpcUuid,
    customerGatewayUuid: input.customerGatewayUuid,
  })[0];
  if (twin) throw conflict(`VPN connection ${twin.uuid} already joins this VPC and customer gateway`);
  const vpcBlock = parseCidr(vpcCidr(vpc));
  const clash = String(customer.cidrList ?? "")
    .split(",")
    .find((c) => {
      const block = parseCidr(c);
      return vpcBlock && block && overlaps(vpcBlock, block);
    });
  if (clash) throw conflict(`the customer gateway's CIDR ${clash} overlaps the VPC's CIDR ${vpcCidr(vpc)}`);

  const gateway = vpnGatewayOf(scope, ctx, vpc);
  const uuid = ctx.newUuid();
  const record: ApiRecord = {
    ikePolicy: customer.ikepolicy,
    publicIpAddress: gateway.publicIpAddress,
    espPolicy: customer.esppolicy,
    ipsecPresharedKey: customer.ipsecPresharedKey,
    zoneUuid: String(vpc.zoneUuid ?? ""),
    isActive: true,
    uuid,
    customerGatewayUuid: input.customerGatewayUuid,
    vpnGatewayUuid: gateway.uuid,
    state: "Pending",
    vpcUuid: input.vpcUuid,
    gateway: customer.gateway,
    status: "Active",
  };
  scope.collection(COLLECTION)[uuid] = record;
  scope.collection(OPTIONS)[uuid] = { uuid, passive: input.passive ?? false };
  scope.changed();
  ctx.later(scope, [{ collection: COLLECTION, uuid, set: { state: settledState(scope, uuid) } }]);
  return record;
}

export function listVpnConnections(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; vpcUuid?: string },
): ApiRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, COLLECTION, filters);
}

export function resetVpnConnection(scope: AccountScope, ctx: EmulatorContext, uuid: string): ApiRecord {
  const record = requireRecord(scope, COLLECTION, KIND, uuid);
  record.state = "Pending";
  scope.changed();
  ctx.later(scope, [{ collection: COLLECTION, uuid, set: { state: settledState(scope, uuid) } }]);
  return record;
}

/** Removes the connection, and the VPC's VPN gateway with its last connection. */
export function deleteVpnConnection(scope: AccountScope, ctx: EmulatorContext, uuid: string): true {
  const record = requireRecord(scope, COLLECTION, KIND, uuid);
  removeRecord(scope, COLLECTION, KIND, uuid);
  delete scope.collection(OPTIONS)[uuid];
  const gatewayUuid = String(record.vpnGatewayUuid);
  if (filterRecords(scope, COLLECTION, { vpnGatewayUuid: gatewayUuid }).length === 0) {
    const gateway = scope.collection(VPN_GATEWAYS)[gatewayUuid];
    if (gateway?.ownsAddress === true) ctx.releasePublicIp(String(gateway.publicIpAddress));
    delete scope.collection(VPN_GATEWAYS)[gatewayUuid];
  }
  scope.changed();
  return true;
}
