/**
 * A VPC with one tier and, once config `withInstance` is "true", an instance on the tier: the
 * cancel test deploys the network on a fast service first, then the instance on a slow one, and
 * interrupts that instance's create. Config: the catalog's ids and the provider's settings.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();

const vpc = new restcloud.Vpc("net", {
  cidr: "10.40.0.0/16",
  vpcOfferingUuid: config.require("vpcOfferingUuid"),
  description: "the cancel test's VPC",
});
const tier = new restcloud.VpcTier("tier", {
  vpcUuid: vpc.id,
  cidr: "10.40.1.0/24",
  networkOfferingUuid: config.require("tierOfferingUuid"),
});
const vm = config.getBoolean("withInstance")
  ? new restcloud.Instance("vm", {
      templateUuid: config.require("ubuntuTemplateUuid"),
      computeOfferingUuid: config.require("smallPlanUuid"),
      networkUuid: tier.id,
    })
  : undefined;

export const vpcId = vpc.id;
export const instanceId = vm?.id;
export const instanceState = vm?.state;
