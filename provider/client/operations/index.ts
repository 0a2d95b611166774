// Every operation of the API, grouped by area. The client's facades (`client.vpc.create(...)`) are generated from
// this table; a test counts it against the spec.
import type { AnyOperation } from "./define";
import { costEstimateOperations } from "./cost-estimate";
import { invoiceOperations } from "./billing";
import { hostOperations, instanceOperations, vmSnapshotOperations } from "./compute";
import { asyncJobOperations } from "./jobs";
import { kubernetesOperations } from "./kubernetes";
import { networkOperations, vpcOperations } from "./network";
import {
  internalLbOperations,
  ipAddressOperations,
  loadBalancerRuleOperations,
  portForwardingRuleOperations,
} from "./publicip";
import { egressRuleOperations, firewallRuleOperations, securityGroupOperations } from "./security";
import { snapshotOperations, snapshotPolicyOperations, volumeOperations } from "./storage";
import { resourceTagOperations } from "./tags";
import { vpnConnectionOperations, vpnCustomerGatewayOperations } from "./vpn";

export const AREAS = {
  host: hostOperations,
  vpc: vpcOperations,
  securityGroup: securityGroupOperations,
  instance: instanceOperations,
  network: networkOperations,
  volume: volumeOperations,
  invoice: invoiceOperations,
  kubernetes: kubernetesOperations,
  ipAddress: ipAddressOperations,
  costEstimate: costEstimateOperations,
  vpnCustomerGateway: vpnCustomerGatewayOperations,
  loadBalancerRule: loadBalancerRuleOperations,
  vpnConnection: vpnConnectionOperations,
  internalLb: internalLbOperations,
  vmSnapshot: vmSnapshotOperations,
  portForwardingRule: portForwardingRuleOperations,
  snapshotPolicy: snapshotPolicyOperations,
  firewallRule: firewallRuleOperations,
  egressRule: egressRuleOperations,
  resourceTag: resourceTagOperations,
  snapshot: snapshotOperations,
  asyncJob: asyncJobOperations,
} as const;

export type AreaName = keyof typeof AREAS;

/** An operation as the client spells it, `area.operation`: `client.vpc.restart(...)` is `vpc.restart`. */
export type OperationKey = {
  [A in AreaName]: `${A}.${keyof (typeof AREAS)[A] & string}`;
}[AreaName];

/** Every operation, flat (the async job status included: see `outsideSpec`). */
export const OPERATIONS: readonly AnyOperation[] = Object.values(AREAS).flatMap(
  (area) => Object.values(area) as AnyOperation[],
);
