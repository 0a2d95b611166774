export { Vpc, vpcDeclaration } from "./vpc";
export { VpcTier, vpcTierDeclaration } from "./vpc-tier";
export { Network, networkDeclaration } from "./network";
export { Instance, instanceDeclaration } from "./instance";
export { Volume, volumeDeclaration } from "./volume";
export { FirewallRule, EgressRule, firewallRuleDeclaration, egressRuleDeclaration } from "./rules";
export { KubernetesCluster, kubernetesClusterDeclaration } from "./kubernetes-cluster";
export { PublicIpAddress, publicIpAddressDeclaration } from "./public-ip-address";
