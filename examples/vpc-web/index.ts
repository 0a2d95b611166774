/**
 * A two-tier web application in a VPC: a frontend and a backend tier, a web server and an
 * application server, a data volume on the application server, a public IP with firewall rules, and
 * an egress rule. The catalog ids (zone, offerings, plan, template) are looked up by name.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

export = async () => {
  const config = new pulumi.Config();
  const zone = await restcloud.getZone({ nameRegex: config.get("zoneName") ?? "." });
  const zoneUuid = zone.uuid;
  const [vpcOfferings, tierOfferings, plan, template, storage] = await Promise.all([
    restcloud.getVpcOfferings({ zoneUuid }),
    restcloud.getNetworkOfferings({ zoneUuid, type: "VPC" }),
    restcloud.getComputePlan({ zoneUuid, minCores: 2, minMemoryGib: 4 }),
    restcloud.getTemplate({ zoneUuid, platform: "LINUX", distribution: "OS_ONLY", nameRegex: "ubuntu 24" }),
    restcloud.getStoragePlans({ zoneUuid, isCustom: true }),
  ]);

  const vpc = new restcloud.Vpc("web", {
    zoneUuid,
    cidr: "10.10.0.0/16",
    vpcOfferingUuid: vpcOfferings.offerings[0].uuid,
    description: "The web application's network",
  });
  const tierOfferingUuid = tierOfferings.offerings[0].uuid;
  const frontend = new restcloud.VpcTier("frontend", {
    zoneUuid,
    vpcUuid: vpc.id,
    cidr: "10.10.1.0/24",
    networkOfferingUuid: tierOfferingUuid,
  });
  const backend = new restcloud.VpcTier("backend", {
    zoneUuid,
    vpcUuid: vpc.id,
    cidr: "10.10.2.0/24",
    networkOfferingUuid: tierOfferingUuid,
  });

  const server = (name: string, tier: restcloud.VpcTier) =>
    new restcloud.Instance(name, {
      zoneUuid,
      templateUuid: template.uuid,
      computeOfferingUuid: plan.uuid,
      networkUuid: tier.id,
    });
  const web = server("web-1", frontend);
  const app = server("app-1", backend);

  const data = new restcloud.Volume("app-data", {
    zoneUuid,
    storageOfferingUuid: storage.plans[0].uuid,
    size: config.getNumber("dataSizeGb") ?? 50,
    instanceUuid: app.id,
  });

  const ip = new restcloud.PublicIpAddress("web", { zoneUuid, vpcUuid: vpc.id });
  for (const port of [80, 443]) {
    new restcloud.FirewallRule(`https-${port}`, {
      ipAddressUuid: ip.id,
      protocol: "TCP",
      startPort: port,
      cidrList: "0.0.0.0/0",
    });
  }
  new restcloud.EgressRule("backend-https", { networkUuid: backend.id, protocol: "TCP", startPort: 443 });

  return {
    zone: zone.name,
    vpcId: vpc.id,
    vpcCidr: vpc.cidr,
    publicIp: ip.address,
    webPrivateIp: web.privateIp,
    appPrivateIp: app.privateIp,
    dataVolumeId: data.id,
    computePlan: plan.name,
    template: template.name,
  };
};
