/**
 * Stacks that share a parent, as parallel CI jobs deploy them: with config `role: network`, a VPC
 * and a tier (outputs `vpcUuid`, `tierUuid`); with `role: app`, on that VPC and tier (config
 * `vpcUuid`, `tierUuid`, `appIndex`), `ipCount` public IPs each guarded by a firewall rule for
 * HTTPS, and an egress rule on the shared tier for the app's own port (8000 + appIndex).
 *
 * Output `resourceIds`: every resource's id by logical name.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const ids: Record<string, pulumi.Output<string>> = {};

function network() {
  const vpc = new restcloud.Vpc("shared", { cidr: "10.60.0.0/16", vpcOfferingUuid: config.require("vpcOfferingUuid") });
  const tier = new restcloud.VpcTier("apps", {
    vpcUuid: vpc.id,
    cidr: "10.60.1.0/24",
    networkOfferingUuid: config.require("tierOfferingUuid"),
  });
  ids.shared = vpc.id;
  ids.apps = tier.id;
  return { vpcUuid: vpc.id, tierUuid: tier.id };
}

function app() {
  const appIndex = config.requireNumber("appIndex");
  for (let i = 0; i < (config.getNumber("ipCount") ?? 3); i++) {
    const ip = new restcloud.PublicIpAddress(`ip-${i}`, { vpcUuid: config.require("vpcUuid") });
    const rule = new restcloud.FirewallRule(`https-${i}`, { ipAddressUuid: ip.id, protocol: "TCP", startPort: 443 });
    ids[`ip-${i}`] = ip.id;
    ids[`https-${i}`] = rule.id;
  }
  const egress = new restcloud.EgressRule("egress", {
    networkUuid: config.require("tierUuid"),
    protocol: "TCP",
    startPort: 8000 + appIndex,
  });
  ids.egress = egress.id;
  return {};
}

const made = config.require("role") === "network" ? network() : app();
export const vpcUuid = "vpcUuid" in made ? made.vpcUuid : undefined;
export const tierUuid = "tierUuid" in made ? made.tierUuid : undefined;
export const resourceIds = ids;
