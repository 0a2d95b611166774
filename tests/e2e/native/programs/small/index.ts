/**
 * A VPC with one tier, an instance on it and a data volume attached to the instance, for the native
 * mode's lifecycle tests. Config (besides the catalog's ids and the provider's settings):
 * - `vpcCidr` (default 10.20.0.0/16): the tier takes its first /24, so a change replaces both;
 * - `description`: the VPC's description, updated in place;
 * - `volumeSize` (default 20): the volume's size in GB, updated in place;
 * - `vpcOption`: "replaceOnChanges" or "ignoreChanges" puts that option (on `description`) on the VPC.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const vpcCidr = config.get("vpcCidr") ?? "10.20.0.0/16";
const vpcOption = config.get("vpcOption");
const options: pulumi.CustomResourceOptions =
  vpcOption === "replaceOnChanges"
    ? { replaceOnChanges: ["description"] }
    : vpcOption === "ignoreChanges"
      ? { ignoreChanges: ["description"] }
      : {};

const vpc = new restcloud.Vpc(
  "net",
  {
    cidr: vpcCidr,
    vpcOfferingUuid: config.require("vpcOfferingUuid"),
    description: config.get("description") ?? "the native mode's VPC",
  },
  options,
);
const tier = new restcloud.VpcTier("tier", {
  vpcUuid: vpc.id,
  cidr: vpcCidr.replace(/^(\d+\.\d+)\.\d+\.\d+\/\d+$/, "$1.1.0/24"),
  networkOfferingUuid: config.require("tierOfferingUuid"),
});
const vm = new restcloud.Instance("vm", {
  templateUuid: config.require("ubuntuTemplateUuid"),
  computeOfferingUuid: config.require("smallPlanUuid"),
  networkUuid: tier.id,
});
const data = new restcloud.Volume("data", {
  storageOfferingUuid: config.require("customStoragePlanUuid"),
  size: config.getNumber("volumeSize") ?? 20,
  instanceUuid: vm.id,
});

export const vpcId = vpc.id;
export const vpcName = vpc.name;
export const tierId = tier.id;
export const instanceId = vm.id;
export const volumeId = data.id;
