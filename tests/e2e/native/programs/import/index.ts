/**
 * The core kinds, declared with every argument their records show (what the service chose where
 * a create gave nothing: a network's or a tier's description is its name, its domain the account's;
 * a tier's gateway its first host; an instance's display name its name, its root disk the
 * template's), for the native mode's import tests: a VPC with a tier, an instance on the tier with
 * a data volume, an isolated network with a public IP, two firewall rules on that IP and an egress
 * rule. Names are explicit (config `prefix`), so that a program of another stack declares the very
 * names of the records it imports.
 *
 * Config (besides the catalog's ids and the provider's settings):
 * - `prefix`: the records' names start with it;
 * - `rootDiskSize`: the template's root disk size (GB);
 * - `ids` (optional, JSON: logical name -> id): each resource then takes its record with the
 *   `import` resource option instead of creating one.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const prefix = config.require("prefix");
const ids = config.getObject<Record<string, string>>("ids") ?? {};
/** The DNS domain the service gives a network or tier of the demo account when none is asked for. */
const DOMAIN = "demo.restcloud.internal";
const adopt = (name: string): pulumi.CustomResourceOptions => (ids[name] ? { import: ids[name] } : {});

const vpc = new restcloud.Vpc(
  "net",
  {
    name: `${prefix}-vpc`,
    cidr: "10.40.0.0/16",
    vpcOfferingUuid: config.require("vpcOfferingUuid"),
    description: "a VPC to import",
  },
  adopt("net"),
);
const tier = new restcloud.VpcTier(
  "tier",
  {
    name: `${prefix}-tier`,
    vpcUuid: vpc.id,
    cidr: "10.40.1.0/24",
    gateway: "10.40.1.1",
    networkOfferingUuid: config.require("tierOfferingUuid"),
    description: `${prefix}-tier`,
    networkDomain: DOMAIN,
  },
  adopt("tier"),
);
const vm = new restcloud.Instance(
  "vm",
  {
    name: `${prefix}-vm`,
    displayName: `${prefix}-vm`,
    templateUuid: config.require("ubuntuTemplateUuid"),
    computeOfferingUuid: config.require("smallPlanUuid"),
    networkUuid: tier.id,
    rootDiskSize: config.requireNumber("rootDiskSize"),
  },
  adopt("vm"),
);
const data = new restcloud.Volume(
  "data",
  {
    name: `${prefix}-data`,
    storageOfferingUuid: config.require("customStoragePlanUuid"),
    size: 20,
    instanceUuid: vm.id,
  },
  adopt("data"),
);
const isolated = new restcloud.Network(
  "isolated",
  {
    name: `${prefix}-isolated`,
    networkOfferingUuid: config.require("isolatedOfferingUuid"),
    description: `${prefix}-isolated`,
    networkDomain: DOMAIN,
  },
  adopt("isolated"),
);
const ip = new restcloud.PublicIpAddress("ip", { networkUuid: isolated.id }, adopt("ip"));
// Two nameless records of one kind under one parent.
const http = new restcloud.FirewallRule(
  "http",
  { ipAddressUuid: ip.id, protocol: "TCP", startPort: 80, endPort: 80, cidrList: "0.0.0.0/0" },
  adopt("http"),
);
const ssh = new restcloud.FirewallRule(
  "ssh",
  { ipAddressUuid: ip.id, protocol: "TCP", startPort: 22, endPort: 22, cidrList: "10.0.0.0/8" },
  adopt("ssh"),
);
const egress = new restcloud.EgressRule(
  "egress",
  { networkUuid: isolated.id, protocol: "TCP", startPort: 443, endPort: 443 },
  adopt("egress"),
);

export const resourceIds = {
  net: vpc.id,
  tier: tier.id,
  vm: vm.id,
  data: data.id,
  isolated: isolated.id,
  ip: ip.id,
  http: http.id,
  ssh: ssh.id,
  egress: egress.id,
};
