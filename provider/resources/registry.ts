/** Every resource declaration, by type name: what the dynamic-provider runtime serves. */
import type { ResourceDeclaration } from "../engine/declaration";
import { vpcDeclaration } from "./vpc";
import { vpcTierDeclaration } from "./vpc-tier";
import { networkDeclaration } from "./network";
import { instanceDeclaration } from "./instance";
import { volumeDeclaration } from "./volume";
import { egressRuleDeclaration, firewallRuleDeclaration } from "./rules";
import { kubernetesClusterDeclaration } from "./kubernetes-cluster";
import { publicIpAddressDeclaration } from "./public-ip-address";

export const DECLARATIONS: readonly ResourceDeclaration[] = [
  vpcDeclaration,
  vpcTierDeclaration,
  networkDeclaration,
  instanceDeclaration,
  volumeDeclaration,
  firewallRuleDeclaration,
  egressRuleDeclaration,
  kubernetesClusterDeclaration,
  publicIpAddressDeclaration,
] as unknown as readonly ResourceDeclaration[];

let byType: Map<string, ResourceDeclaration> | undefined;
export function declarationsByType(): Map<string, ResourceDeclaration> {
  byType ??= new Map(DECLARATIONS.map((d) => [d.type, d]));
  return byType;
}
