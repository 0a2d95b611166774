/**
 * The core kinds, declared with every argument their records show (what the service chose where
 * a create gave nothing: a network's or a tier's description is its name, its domain the account's;
 * a tier's gateway its first host; an instance's display name its name, its root disk the
 * template's), for the native mode's import tests: a VPC with two tiers, an instance on the first
 * with a data volume, an address of the VPC with a load-balancer rule into the first tier, an isolated
 * network with a public IP, two firewall rules on that IP and an egress rule, a VPN customer gateway.
 * Some arguments no record shows: the VPC's offering, the rule's tier (the VPC has two), the gateway's
 * IKE and ESP algorithms. Names are explicit (config `prefix`), so that a program of another stack
 * declares the very names of the records it imports.
 *
 * Config (besides the catalog's ids and the provider's settings):
 * - `prefix`: the records' names start with it;
 * - `presharedKey` (secret): the VPN customer gateway's pre-shared key;
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
// A second tier, so that no record tells which tier the load-balancer rule balances over.
const tier2 = new restcloud.VpcTier(
  "tier2",
  {
    name: `${prefix}-tier2`,
    vpcUuid: vpc.id,
    cidr: "10.40.2.0/24",
    gateway: "10.40.2.1",
    networkOfferingUuid: config.require("tierOfferingUuid"),
    description: `${prefix}-tier2`,
    networkDomain: DOMAIN,
  },
  adopt("tier2"),
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
const vpcIp = new restcloud.PublicIpAddress("vpcIp", { vpcUuid: vpc.id }, adopt("vpcIp"));
const web = new restcloud.LoadBalancerRule(
  "web",
  { name: `${prefix}-web`, ipAddressUuid: vpcIp.id, networkUuid: tier.id, publicPort: 80, privatePort: 8080 },
  adopt("web"),
);
const office = new restcloud.VpnCustomerGateway(
  "office",
  {
    name: `${prefix}-office`,
    gateway: "198.51.100.7",
    cidrList: "192.168.50.0/24",
    ipsecPresharedKey: config.requireSecret("presharedKey"),
    ikePolicy: "Group 14(modp2048)",
    ikeEncryption: "aes256",
    ikeHash: "sha256",
    espEncryption: "aes192",
    espHash: "sha384",
    // What the API applies when a create leaves them out, as the record shows them.
    ikeVersion: "ike",
    deadPeerDetection: false,
    forceEncapsulation: false,
    splitConnection: false,
  },
  adopt("office"),
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
  tier2: tier2.id,
  vm: vm.id,
  data: data.id,
  vpcIp: vpcIp.id,
  web: web.id,
  office: office.id,
  isolated: isolated.id,
  ip: ip.id,
  http: http.id,
  ssh: ssh.id,
  egress: egress.id,
};
