/**
 * A VPC, one tier and two instances on it: what the console test watches appear, with the
 * instances going from Starting to Running. Config: the catalog's ids and the provider's settings.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();

const vpc = new restcloud.Vpc("vpc", {
  cidr: "10.30.0.0/16",
  vpcOfferingUuid: config.require("vpcOfferingUuid"),
  description: "watched by the console test",
});
const tier = new restcloud.VpcTier("web-tier", {
  vpcUuid: vpc.id,
  cidr: "10.30.1.0/24",
  networkOfferingUuid: config.require("tierOfferingUuid"),
});
const instances = ["web-1", "web-2"].map(
  (name) =>
    new restcloud.Instance(name, {
      templateUuid: config.require("ubuntuTemplateUuid"),
      computeOfferingUuid: config.require("smallPlanUuid"),
      networkUuid: tier.id,
      name, // the host name, fixed: the console shows it as the row's name
    }),
);

export const vpcId = vpc.id;
export const tierId = tier.id;
export const instanceIds = instances.map((i) => i.id);
