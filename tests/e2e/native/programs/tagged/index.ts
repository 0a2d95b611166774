/**
 * One VPC with tags, for the end-to-end test of `tags` and `restcloud:defaultTags` (tests/e2e/tags.test.ts),
 * in either mode (`restcloud:mode`). Config: `vpcOfferingUuid`, and `tags`, the VPC's own (an object).
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const vpc = new restcloud.Vpc("one", {
  cidr: "10.30.0.0/16",
  vpcOfferingUuid: config.require("vpcOfferingUuid"),
  tags: config.getObject<Record<string, string>>("tags"),
});

export const vpcId = vpc.id;
