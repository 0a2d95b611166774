// Site-to-site VPN connections between a VPC and a customer gateway. A VPC's VPN gateway (VPN_GATEWAYS) lives from its
// first connection to its last, on the VPC's source-NAT address or one from the pool. "Pending", then "Connected" (or
// "Disconnected" when passive) after the delay; a reset goes back through "Pending".
import { overlaps, parseCidr } from "../cidr";
import { conflict, type AccountScope, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import {
  IP_ADDRESSES,
  VPCS,
  VPN_CONNECTION_OPTIONS,
  VPN_CONNECTIONS,
  VPN_CUSTOMER_GATEWAYS,
  VPN_GATEWAYS,
  type VpcRecord,
  type VpnConnectionRecord,
  type VpnGatewayRecord,
} from "./collections";
import { filterRecords, removeRecord, requireZone } from "./records";

const KIND = "VPN connection";

const vpcCidr = (vpc: VpcRecord): string => vpc.cidr;

/** The VPC's VPN gateway, created when absent. */
function vpnGatewayOf(scope: AccountScope, ctx: EmulatorContext, vpc: VpcRecord): VpnGatewayRecord {
  const vpcUuid = vpc.uuid;
  const found = filterRecords(scope, VPN_GATEWAYS, { vpcUuid })[0];
  if (found) return found;
  const zoneUuid = String(vpc.zoneUuid ?? "");
  const sourceNat = Object.values(scope.collection(IP_ADDRESSES)).find(
    (ip) => ip.networkUuid === vpcUuid && ip.isSourcenat === true,
  );
  const uuid = ctx.newUuid();
  const gateway: VpnGatewayRecord = {
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
  scope.collection(VPN_CONNECTION_OPTIONS)[uuid]?.passive === true ? "Disconnected" : "Connected";

export function addVpnConnection(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: { vpcUuid: string; customerGatewayUuid: string; passive?: boolean },
): VpnConnectionRecord {
  const vpc = requireRecord(scope, VPCS, "VPC", input.vpcUuid);
  const customer = requireRecord(scope, VPN_CUSTOMER_GATEWAYS, "VPN customer gateway", input.customerGatewayUuid);
  const twin = filterRecords(scope, VPN_CONNECTIONS, {
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
  const record: VpnConnectionRecord = {
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
  scope.collection(VPN_CONNECTIONS)[uuid] = record;
  scope.collection(VPN_CONNECTION_OPTIONS)[uuid] = { uuid, passive: input.passive ?? false };
  scope.changed();
  ctx.later(scope, "addVpnConnection", [
    { collection: VPN_CONNECTIONS, uuid, set: { state: settledState(scope, uuid) } },
  ]);
  return record;
}

export function listVpnConnections(
  scope: AccountScope,
  ctx: EmulatorContext,
  filters: { zoneUuid: string; uuid?: string; vpcUuid?: string },
): VpnConnectionRecord[] {
  requireZone(ctx, filters.zoneUuid);
  return filterRecords(scope, VPN_CONNECTIONS, filters);
}

export function resetVpnConnection(scope: AccountScope, ctx: EmulatorContext, uuid: string): VpnConnectionRecord {
  const record = requireRecord(scope, VPN_CONNECTIONS, KIND, uuid);
  record.state = "Pending";
  scope.changed();
  ctx.later(scope, "resetVpnConnection", [
    { collection: VPN_CONNECTIONS, uuid, set: { state: settledState(scope, uuid) } },
  ]);
  return record;
}

/** Removes the connection, and the VPC's VPN gateway with its last connection. */
export function deleteVpnConnection(scope: AccountScope, ctx: EmulatorContext, uuid: string): true {
  const record = requireRecord(scope, VPN_CONNECTIONS, KIND, uuid);
  removeRecord(scope, VPN_CONNECTIONS, KIND, uuid);
  scope.remove(VPN_CONNECTION_OPTIONS, uuid);
  const gatewayUuid = record.vpnGatewayUuid;
  if (filterRecords(scope, VPN_CONNECTIONS, { vpnGatewayUuid: gatewayUuid }).length === 0) {
    const gateway = scope.collection(VPN_GATEWAYS)[gatewayUuid];
    if (gateway?.ownsAddress === true) ctx.releasePublicIp(gateway.publicIpAddress);
    scope.remove(VPN_GATEWAYS, gatewayUuid);
  }
  scope.changed();
  return true;
}
