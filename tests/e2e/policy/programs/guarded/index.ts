// A VPC's public IP with an SSH firewall rule, its sources from config `sshCidr`: the security policy's case.
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const vpc = new restcloud.Vpc("net", { cidr: "10.80.0.0/16", vpcOfferingUuid: config.require("vpcOfferingUuid") });
const ip = new restcloud.PublicIpAddress("ip", { vpcUuid: vpc.id });
new restcloud.FirewallRule("ssh", {
  ipAddressUuid: ip.id,
  protocol: "TCP",
  startPort: 22,
  cidrList: config.get("sshCidr"),
});
