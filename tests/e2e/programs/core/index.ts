/**
 * Every core resource, with `step` selecting the variant: 0 the initial stack, 1 updatable arguments
 * changed (every resource updates in place), 2 replacing arguments changed (every resource replaces).
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const step = config.getNumber("step") ?? 0;
const id = (key: string) => config.require(key);
const updated = step >= 1;
const replaced = step >= 2;

const vpc = new restcloud.Vpc("vpc", {
  cidr: replaced ? "10.20.0.0/16" : "10.10.0.0/16",
  vpcOfferingUuid: id("vpcOfferingUuid"),
  description: updated ? "updated" : "initial",
});
const tier = new restcloud.VpcTier("tier", {
  vpcUuid: vpc.id,
  cidr: replaced ? "10.20.1.0/24" : "10.10.1.0/24",
  networkOfferingUuid: id("tierOfferingUuid"),
  description: updated ? "updated" : "initial",
});
const network = new restcloud.Network("network", {
  networkOfferingUuid: id("isolatedOfferingUuid"),
  // Renaming updates in place; the network is never replaced (the instance would have to follow).
  name: updated ? "e2e-network-renamed" : "e2e-network",
});
const instance = new restcloud.Instance("instance", {
  templateUuid: replaced ? id("debianTemplateUuid") : id("ubuntuTemplateUuid"),
  computeOfferingUuid: updated ? id("largePlanUuid") : id("smallPlanUuid"),
  networkUuid: network.id,
  displayName: updated ? "web-renamed" : "web",
});
const volume = new restcloud.Volume("volume", {
  name: replaced ? "e2e-data-2" : "e2e-data",
  storageOfferingUuid: id("customStoragePlanUuid"),
  size: updated ? 30 : 20,
  instanceUuid: instance.id,
});
const ip = new restcloud.PublicIpAddress("ip", { networkUuid: network.id });
const firewall = new restcloud.FirewallRule("firewall", {
  ipAddressUuid: ip.id,
  protocol: "TCP",
  startPort: replaced ? 8443 : 443,
  cidrList: "0.0.0.0/0",
});
const egress = new restcloud.EgressRule("egress", {
  networkUuid: network.id,
  protocol: "TCP",
  startPort: replaced ? 8080 : 80,
  endPort: replaced ? 8081 : 80,
});
const cluster = new restcloud.KubernetesCluster("cluster", {
  kubernetesVersionUuid: replaced ? id("newerKubernetesVersionUuid") : id("kubernetesVersionUuid"),
  computeOfferingUuid: id("smallPlanUuid"),
  networkUuid: network.id,
  size: updated ? 3 : 2,
  dockerRegistryUrl: "https://registry.example.com",
  dockerRegistryUsername: "deployer",
  dockerRegistryPassword: config.requireSecret("registryPassword"),
});

export const vpcId = vpc.id;
export const vpcCidr = vpc.cidr;
export const tierId = tier.id;
export const tierNetmask = tier.netmask;
export const networkId = network.id;
export const networkCidr = network.cidr;
export const instanceId = instance.id;
export const instanceIp = instance.privateIp;
export const volumeId = volume.id;
export const publicIp = ip.address;
export const firewallId = firewall.id;
export const egressId = egress.id;
export const clusterId = cluster.id;
export const clusterPassword = cluster.dockerRegistryPassword;
