// A VPC with a tier, an instance on it and a public IP with an SSH firewall rule: the policy pack's case. The rule's
// sources come from config `sshCidr` (none: the API's default, 0.0.0.0/0); the catalog's ids from config too.
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const vpc = new restcloud.Vpc("net", { cidr: "10.80.0.0/16", vpcOfferingUuid: config.require("vpcOfferingUuid") });
const tier = new restcloud.VpcTier("tier", {
  vpcUuid: vpc.id,
  cidr: "10.80.1.0/24",
  networkOfferingUuid: config.require("tierOfferingUuid"),
});
new restcloud.Instance("web", {
  networkUuid: tier.id,
  templateUuid: config.require("templateUuid"),
  computeOfferingUuid: config.require("planUuid"),
});
const ip = new restcloud.PublicIpAddress("ip", { vpcUuid: vpc.id });
new restcloud.FirewallRule("ssh", {
  ipAddressUuid: ip.id,
  protocol: "TCP",
  startPort: 22,
  cidrList: config.get("sshCidr"),
});
