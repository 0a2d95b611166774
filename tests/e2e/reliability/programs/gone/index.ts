/**
 * A VPC and a network, both described by `label` (an argument each updates in place), for the test
 * of an update to a record deleted out of band. Outputs their ids.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const label = config.get("label") ?? "first";

const vpc = new restcloud.Vpc("vpc", {
  cidr: "10.60.0.0/16",
  vpcOfferingUuid: config.require("vpcOfferingUuid"),
  description: label,
});
const network = new restcloud.Network("network", {
  networkOfferingUuid: config.require("isolatedOfferingUuid"),
  description: label,
});

export const vpcId = vpc.id;
export const networkId = network.id;
