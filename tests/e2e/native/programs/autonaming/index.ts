/**
 * A VPC `web` and a security group `fw`, auto-named as the stack's `pulumi:autonaming` says, for
 * tests/e2e/native/autonaming.test.ts. Config (besides the provider's settings and a default zone):
 * `vpcOfferingUuid`; `vpcName`, a name the program gives the VPC; `vpcCidr` (default 10.30.0.0/16).
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const vpcName = config.get("vpcName");
new restcloud.Vpc("web", {
  ...(vpcName ? { name: vpcName } : {}),
  cidr: config.get("vpcCidr") ?? "10.30.0.0/16",
  vpcOfferingUuid: config.require("vpcOfferingUuid"),
});
new restcloud.SecurityGroup("fw", {});
