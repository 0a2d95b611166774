/**
 * Two explicit providers in one program, one per account of the same API (the stack has no
 * `restcloud:*` config: everything goes through the providers): a VPC through each, and function
 * calls through each. `getHosts` answers administrators only: through the admin provider it
 * proves that the call carried that provider's keys.
 *
 * Config: `apiUrl`, `zoneUuid`, `vpcOfferingUuid`, and each account's keys (secrets):
 * `demoApiKey`, `demoSecretKey`, `adminApiKey`, `adminSecretKey`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

export = async () => {
  const config = new pulumi.Config();
  const apiUrl = config.require("apiUrl");
  const zoneUuid = config.require("zoneUuid");
  const provider = (account: "demo" | "admin") =>
    new restcloud.Provider(account, {
      apiUrl,
      apiKey: config.requireSecret(`${account}ApiKey`),
      secretKey: config.requireSecret(`${account}SecretKey`),
      zoneUuid,
    });
  const demo = provider("demo");
  const admin = provider("admin");

  const vpc = (name: string, cidr: string, through: restcloud.Provider) =>
    new restcloud.Vpc(
      name,
      { cidr, vpcOfferingUuid: config.require("vpcOfferingUuid"), description: `a VPC of ${name}` },
      { provider: through },
    );
  const demoVpc = vpc("demo-vpc", "10.40.0.0/16", demo);
  const adminVpc = vpc("admin-vpc", "10.50.0.0/16", admin);

  const zones = await restcloud.getZones({}, { provider: demo });
  const hosts = await restcloud.getHosts({}, { provider: admin });

  return {
    demoVpcId: demoVpc.id,
    adminVpcId: adminVpc.id,
    zoneNames: zones.zones.map((z) => z.name),
    hostNames: hosts.hosts.map((h) => h.name),
  };
};
