export { Vpc, vpcDeclaration } from "./vpc";
export { VpcTier, vpcTierDeclaration } from "./vpc-tier";
export { Network, networkDeclaration } from "./network";
export { Instance, instanceDeclaration } from "./instance";
export { Volume, volumeDeclaration } from "./volume";
export { UploadedVolume, uploadedVolumeDeclaration } from "./uploaded-volume";
export { FirewallRule, EgressRule, firewallRuleDeclaration, egressRuleDeclaration } from "./rules";
export { KubernetesCluster, kubernetesClusterDeclaration } from "./kubernetes-cluster";
export { PublicIpAddress, publicIpAddressDeclaration } from "./public-ip-address";
export { SecurityGroup, securityGroupDeclaration } from "./security-group";
export {
  SecurityGroupFirewallRule,
  SecurityGroupEgressRule,
  SecurityGroupPortForwardingRule,
  securityGroupFirewallRuleDeclaration,
  securityGroupEgressRuleDeclaration,
  securityGroupPortForwardingRuleDeclaration,
} from "./security-group-rule";
export { StaticNat, staticNatDeclaration } from "./static-nat";
export { RemoteAccessVpn, remoteAccessVpnDeclaration } from "./remote-access-vpn";
export { PortForwardingRule, portForwardingRuleDeclaration } from "./port-forwarding-rule";
export { LoadBalancerRule, loadBalancerRuleDeclaration } from "./load-balancer-rule";
export { InternalLoadBalancer, internalLoadBalancerDeclaration } from "./internal-load-balancer";
export { VpnCustomerGateway, vpnCustomerGatewayDeclaration } from "./vpn-customer-gateway";
export { VpnConnection, vpnConnectionDeclaration } from "./vpn-connection";
export { VmSnapshot, vmSnapshotDeclaration } from "./vm-snapshot";
export { VolumeSnapshot, volumeSnapshotDeclaration } from "./volume-snapshot";
export { SnapshotPolicy, snapshotPolicyDeclaration } from "./snapshot-policy";
export { ResourceTag, resourceTagDeclaration } from "./resource-tag";
