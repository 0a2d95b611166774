/**
 * A VPC with one tier and one instance on RestCloud. The catalog ids (zone, offerings, compute plan,
 * template) are looked up by name, so the program runs unchanged against any account or the emulator.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

export = async () => {
  const config = new pulumi.Config();
  const zone = await restcloud.getZone({ nameRegex: config.get("zoneName") ?? "." });
  const zoneUuid = zone.uuid;
  const [vpcOfferings, tierOfferings, plan, template] = await Promise.all([
    restcloud.getVpcOfferings({ zoneUuid }),
    restcloud.getNetworkOfferings({ zoneUuid, type: "VPC" }),
    restcloud.getComputePlan({ zoneUuid, minCores: 2, minMemoryGib: 4 }),
    restcloud.getTemplate({ zoneUuid, nameRegex: "ubuntu 24" }),
  ]);

  const vpc = new restcloud.Vpc("main", {
    zoneUuid,
    cidr: "10.20.0.0/16",
    vpcOfferingUuid: vpcOfferings.offerings[0].uuid,
  });
  const tier = new restcloud.VpcTier("app", {
    zoneUuid,
    vpcUuid: vpc.id,
    cidr: "10.20.1.0/24",
    networkOfferingUuid: tierOfferings.offerings[0].uuid,
  });
  const server = new restcloud.Instance("app-1", {
    zoneUuid,
    templateUuid: template.uuid,
    computeOfferingUuid: plan.uuid,
    networkUuid: tier.id,
  });

  return {
    zone: zone.name,
    vpcId: vpc.id,
    tierId: tier.id,
    instanceId: server.id,
    privateIp: server.privateIp,
  };
};
