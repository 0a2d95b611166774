/**
 * The killed-up test's stack: a small web deployment, 11 resources of 8 kinds. A VPC with one tier,
 * a web and an app instance on it, a data volume on the app instance; two public addresses of the
 * VPC, each with a firewall rule (HTTPS to the web address, SSH from the office to the app address);
 * an egress rule of the tier; a port-forwarding rule from the web address to the web instance.
 *
 * Named kinds (VPC, tier, instances, volume), nameless taggable ones (addresses, firewall and
 * port-forwarding rules) and a nameless one the API cannot tag (the egress rule): each way
 * `restcloud recover` finds a record. Config: the catalog's ids and the provider's settings.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const id = (key: string) => config.require(key);

const vpc = new restcloud.Vpc("vpc", { cidr: "10.60.0.0/16", vpcOfferingUuid: id("vpcOfferingUuid") });
const tier = new restcloud.VpcTier("tier", {
  vpcUuid: vpc.id,
  cidr: "10.60.1.0/24",
  networkOfferingUuid: id("tierOfferingUuid"),
});
const [web, app] = ["web", "app"].map(
  (name) =>
    new restcloud.Instance(name, {
      templateUuid: id("ubuntuTemplateUuid"),
      computeOfferingUuid: id("smallPlanUuid"),
      networkUuid: tier.id,
    }),
);
const data = new restcloud.Volume("data", {
  storageOfferingUuid: id("customStoragePlanUuid"),
  size: 20,
  instanceUuid: app.id,
});
const [webIp, appIp] = ["webIp", "appIp"].map((name) => new restcloud.PublicIpAddress(name, { vpcUuid: vpc.id }));
new restcloud.FirewallRule("https", { ipAddressUuid: webIp.id, protocol: "TCP", startPort: 443 });
new restcloud.FirewallRule("officeSsh", {
  ipAddressUuid: appIp.id,
  protocol: "TCP",
  startPort: 22,
  cidrList: "203.0.113.0/24",
});
new restcloud.EgressRule("egress", { networkUuid: tier.id, protocol: "TCP", startPort: 443 });
new restcloud.PortForwardingRule("ssh", {
  ipAddressUuid: webIp.id,
  protocol: "TCP",
  publicPort: 2222,
  privatePort: 22,
  instanceUuid: web.id,
  networkUuid: tier.id,
});

export const vpcId = vpc.id;
export const dataId = data.id;
