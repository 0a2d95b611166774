/**
 * The reliability issue's realistic stack: 17 resources of 14 kinds (18 with the stack), as a small
 * web deployment would hold them. A VPC with two tiers and an instance in each, a data volume with a
 * snapshot, two public IPs of the one VPC: the web address carries a firewall rule, a load-balancer
 * rule and a port-forwarding rule, the other static NAT to the app instance. A tag, a security group
 * with a rule, a VPN customer gateway.
 *
 * Output `resourceIds`: every resource's id by logical name.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const id = (key: string) => config.require(key);

/** Every resource's id by logical name. */
const ids: Record<string, pulumi.Output<string>> = {};
function add<R extends pulumi.CustomResource>(name: string, make: (name: string) => R): R {
  const resource = make(name);
  ids[name] = resource.id;
  return resource;
}

const vpc = add(
  "vpc",
  (name) =>
    new restcloud.Vpc(name, { cidr: "10.50.0.0/16", vpcOfferingUuid: id("vpcOfferingUuid"), description: "web" }),
);
const [webTier, appTier] = ["webTier", "appTier"].map((tier, i) =>
  add(
    tier,
    (name) =>
      new restcloud.VpcTier(name, {
        vpcUuid: vpc.id,
        cidr: `10.50.${i + 1}.0/24`,
        networkOfferingUuid: id("tierOfferingUuid"),
      }),
  ),
);
const instance = (vm: string, tier: restcloud.VpcTier) =>
  add(
    vm,
    (name) =>
      new restcloud.Instance(name, {
        templateUuid: id("ubuntuTemplateUuid"),
        computeOfferingUuid: id("smallPlanUuid"),
        networkUuid: tier.id,
      }),
  );
const web = instance("web", webTier);
const app = instance("app", appTier);
const data = add(
  "data",
  (name) =>
    new restcloud.Volume(name, { storageOfferingUuid: id("customStoragePlanUuid"), size: 20, instanceUuid: app.id }),
);
add("dataSnapshot", (name) => new restcloud.VolumeSnapshot(name, { volumeUuid: data.id }));

// Two public addresses of the one VPC.
const [webIp, appIp] = ["webIp", "appIp"].map((ip) =>
  add(ip, (name) => new restcloud.PublicIpAddress(name, { vpcUuid: vpc.id })),
);
add("https", (name) => new restcloud.FirewallRule(name, { ipAddressUuid: webIp.id, protocol: "TCP", startPort: 443 }));
add(
  "lb",
  (name) =>
    new restcloud.LoadBalancerRule(name, {
      ipAddressUuid: webIp.id,
      networkUuid: webTier.id,
      publicPort: 80,
      privatePort: 8080,
    }),
);
add(
  "ssh",
  (name) =>
    new restcloud.PortForwardingRule(name, {
      ipAddressUuid: webIp.id,
      protocol: "TCP",
      publicPort: 2222,
      privatePort: 22,
      instanceUuid: web.id,
      networkUuid: webTier.id,
    }),
);
add(
  "nat",
  (name) => new restcloud.StaticNat(name, { ipAddressUuid: appIp.id, instanceUuid: app.id, networkUuid: appTier.id }),
);

add(
  "role",
  (name) =>
    new restcloud.ResourceTag(name, { resourceType: "UserVm", resourceUuid: web.id, key: "role", value: "web" }),
);
const group = add("group", (name) => new restcloud.SecurityGroup(name, { description: "web servers" }));
add(
  "groupHttps",
  (name) =>
    new restcloud.SecurityGroupFirewallRule(name, { securityGroupUuid: group.id, protocol: "TCP", startPort: 443 }),
);
add(
  "office",
  (name) =>
    new restcloud.VpnCustomerGateway(name, {
      gateway: "198.51.100.7",
      cidrList: "192.168.50.0/24",
      ipsecPresharedKey: "realistic-psk",
      ikePolicy: "Group 14(modp2048)",
      ikeEncryption: "aes256",
      ikeHash: "sha256",
      espEncryption: "aes256",
      espHash: "sha256",
    }),
);

export const resourceIds = ids;
