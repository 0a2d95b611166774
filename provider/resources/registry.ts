/** Every resource declaration, by type name: what the dynamic-provider runtime serves. */
import type { ResourceDeclaration } from "../engine/declaration";
import { vpcDeclaration } from "./vpc";
import { vpcTierDeclaration } from "./vpc-tier";
import { networkDeclaration } from "./network";
import { instanceDeclaration } from "./instance";
import { volumeDeclaration } from "./volume";
import { uploadedVolumeDeclaration } from "./uploaded-volume";
import { egressRuleDeclaration, firewallRuleDeclaration } from "./rules";
import { kubernetesClusterDeclaration } from "./kubernetes-cluster";
import { publicIpAddressDeclaration } from "./public-ip-address";
import { securityGroupDeclaration } from "./security-group";
import {
  securityGroupEgressRuleDeclaration,
  securityGroupFirewallRuleDeclaration,
  securityGroupPortForwardingRuleDeclaration,
} from "./security-group-rule";
import { staticNatDeclaration } from "./static-nat";
import { remoteAccessVpnDeclaration } from "./remote-access-vpn";
import { portForwardingRuleDeclaration } from "./port-forwarding-rule";
import { loadBalancerRuleDeclaration } from "./load-balancer-rule";
import { internalLoadBalancerDeclaration } from "./internal-load-balancer";
import { vpnCustomerGatewayDeclaration } from "./vpn-customer-gateway";
import { vpnConnectionDeclaration } from "./vpn-connection";
import { vmSnapshotDeclaration } from "./vm-snapshot";
import { volumeSnapshotDeclaration } from "./volume-snapshot";
import { snapshotPolicyDeclaration } from "./snapshot-policy";
import { resourceTagDeclaration } from "./resource-tag";

export const DECLARATIONS: readonly ResourceDeclaration[] = [
  vpcDeclaration,
  vpcTierDeclaration,
  networkDeclaration,
  instanceDeclaration,
  volumeDeclaration,
  uploadedVolumeDeclaration,
  firewallRuleDeclaration,
  egressRuleDeclaration,
  kubernetesClusterDeclaration,
  publicIpAddressDeclaration,
  securityGroupDeclaration,
  securityGroupFirewallRuleDeclaration,
  securityGroupEgressRuleDeclaration,
  securityGroupPortForwardingRuleDeclaration,
  staticNatDeclaration,
  remoteAccessVpnDeclaration,
  portForwardingRuleDeclaration,
  loadBalancerRuleDeclaration,
  internalLoadBalancerDeclaration,
  vpnCustomerGatewayDeclaration,
  vpnConnectionDeclaration,
  vmSnapshotDeclaration,
  volumeSnapshotDeclaration,
  snapshotPolicyDeclaration,
  resourceTagDeclaration,
] as unknown as readonly ResourceDeclaration[];

let byType: Map<string, ResourceDeclaration> | undefined;
export function declarationsByType(): Map<string, ResourceDeclaration> {
  byType ??= new Map(DECLARATIONS.map((d) => [d.type, d]));
  return byType;
}
