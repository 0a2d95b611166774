// A small web deployment whose state the discover test loses (`pulumi stack rm --force`): several records of
// one kind under one parent (two tiers of one VPC, two firewall rules on one address), and a load-balancer
// rule on the VPC's address balanced to the web tier, where an instance runs.
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();

const vpc = new restcloud.Vpc("vpc", { cidr: "10.60.0.0/16", vpcOfferingUuid: config.require("vpcOfferingUuid") });
const [webTier, appTier] = ["webTier", "appTier"].map(
  (name, i) =>
    new restcloud.VpcTier(name, {
      vpcUuid: vpc.id,
      cidr: `10.60.${i + 1}.0/24`,
      networkOfferingUuid: config.require("tierOfferingUuid"),
    }),
);
const web = new restcloud.Instance("web", {
  templateUuid: config.require("ubuntuTemplateUuid"),
  computeOfferingUuid: config.require("smallPlanUuid"),
  networkUuid: webTier!.id,
});
const webIp = new restcloud.PublicIpAddress("webIp", { vpcUuid: vpc.id });
const rules = [80, 443].map(
  (port) => new restcloud.FirewallRule(`http${port}`, { ipAddressUuid: webIp.id, protocol: "TCP", startPort: port }),
);
const lb = new restcloud.LoadBalancerRule("lb", {
  ipAddressUuid: webIp.id,
  networkUuid: webTier!.id,
  publicPort: 80,
  privatePort: 8080,
});

export const ids = [vpc.id, webTier!.id, appTier!.id, web.id, webIp.id, ...rules.map((r) => r.id), lb.id];
