/**
 * The networking of a small web site and its office link:
 * - a security group for the web servers (HTTP and HTTPS from anywhere, SSH from the office, HTTPS out);
 * - a public address balanced over two web servers (port 80 to 8080, sticky by cookie), with port
 *   2222 forwarded to the first server's SSH;
 * - an admin server reachable on its own address through static NAT;
 * - an address that accepts remote-access VPN users;
 * - a VPC whose database tier sits behind an internal load balancer, linked to the office network
 *   by a site-to-site VPN (the pre-shared key is a secret: encrypted in config and state).
 * The zone, offerings, plan and template are looked up by name with the package's functions.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

export = async () => {
  const config = new pulumi.Config();
  const officeCidr = config.get("officeCidr") ?? "192.168.0.0/24";
  const zone = await restcloud.getZone({ nameRegex: config.get("zoneName") ?? "." });
  const zoneUuid = zone.uuid;
  const [isolatedOfferings, tierOfferings, vpcOfferings, plan, template] = await Promise.all([
    restcloud.getNetworkOfferings({ zoneUuid, type: "Isolated" }),
    restcloud.getNetworkOfferings({ zoneUuid, type: "VPC" }),
    restcloud.getVpcOfferings({ zoneUuid }),
    restcloud.getComputePlan({ zoneUuid, minCores: 2, minMemoryGib: 4 }),
    restcloud.getTemplate({ zoneUuid, platform: "LINUX", distribution: "OS_ONLY", nameRegex: "ubuntu 24" }),
  ]);

  // The web servers' security group.
  const webGroup = new restcloud.SecurityGroup("web", { description: "web servers" });
  for (const [name, startPort] of [
    ["http", 80],
    ["https", 443],
  ] as const) {
    new restcloud.SecurityGroupFirewallRule(name, { securityGroupUuid: webGroup.id, protocol: "TCP", startPort });
  }
  new restcloud.SecurityGroupFirewallRule("ssh-from-office", {
    securityGroupUuid: webGroup.id,
    protocol: "TCP",
    startPort: 22,
    cidrList: officeCidr,
  });
  new restcloud.SecurityGroupEgressRule("https-out", {
    securityGroupUuid: webGroup.id,
    protocol: "TCP",
    startPort: 443,
  });

  // The web network: two web servers behind a load balancer, an admin server with its own address.
  const network = new restcloud.Network("web", {
    zoneUuid,
    networkOfferingUuid: isolatedOfferings.offerings[0].uuid,
  });
  const server = (name: string, securityGroupName?: pulumi.Input<string>) =>
    new restcloud.Instance(name, {
      zoneUuid,
      templateUuid: template.uuid,
      computeOfferingUuid: plan.uuid,
      networkUuid: network.id,
      securityGroupName,
    });
  // The group is auto-named: its name is known once it exists (and the servers then wait for it).
  const webGroupName = webGroup.name.apply((name) => name!);
  const web1 = server("web-1", webGroupName);
  server("web-2", webGroupName);
  const admin = server("admin");

  const webAddress = new restcloud.PublicIpAddress("web", { zoneUuid, networkUuid: network.id });
  new restcloud.LoadBalancerRule("web", {
    ipAddressUuid: webAddress.id,
    networkUuid: network.id,
    publicPort: 80,
    privatePort: 8080,
    algorithm: "leastconn",
    stickiness: { method: "LbCookie", name: "web-sticky", cookieName: "SERVERID" },
  });
  new restcloud.PortForwardingRule("web-1-ssh", {
    ipAddressUuid: webAddress.id,
    protocol: "TCP",
    publicPort: 2222,
    privatePort: 22,
    instanceUuid: web1.id,
    networkUuid: network.id,
  });

  const adminAddress = new restcloud.PublicIpAddress("admin", { zoneUuid, networkUuid: network.id });
  new restcloud.StaticNat("admin", { ipAddressUuid: adminAddress.id, instanceUuid: admin.id });

  const vpnAddress = new restcloud.PublicIpAddress("remote-access", { zoneUuid, networkUuid: network.id });
  new restcloud.RemoteAccessVpn("remote-access", { ipAddressUuid: vpnAddress.id });

  // The VPC: a database tier behind an internal load balancer, linked to the office by VPN.
  const vpc = new restcloud.Vpc("backend", {
    zoneUuid,
    cidr: "10.20.0.0/16",
    vpcOfferingUuid: vpcOfferings.offerings[0].uuid,
  });
  const databaseTier = new restcloud.VpcTier("database", {
    zoneUuid,
    vpcUuid: vpc.id,
    cidr: "10.20.1.0/24",
    networkOfferingUuid: tierOfferings.offerings[0].uuid,
  });
  const database = new restcloud.InternalLoadBalancer("database", {
    networkUuid: databaseTier.id,
    sourcePort: 5432,
    instancePort: 5432,
    algorithm: "leastconn",
  });
  const office = new restcloud.VpnCustomerGateway("office", {
    gateway: config.get("officeGateway") ?? "198.51.100.7",
    cidrList: officeCidr,
    ipsecPresharedKey: config.requireSecret("vpnPresharedKey"),
    ikePolicy: "Group 14(modp2048)",
    ikeEncryption: "aes256",
    ikeHash: "sha256",
    espEncryption: "aes256",
    espHash: "sha256",
    deadPeerDetection: true,
  });
  const officeLink = new restcloud.VpnConnection("office", { vpcUuid: vpc.id, customerGatewayUuid: office.id });

  return {
    webAddress: webAddress.address,
    adminAddress: adminAddress.address,
    remoteAccessAddress: vpnAddress.address,
    databaseAddress: database.ipAddress,
    databaseLoadBalancerName: database.id,
    officeLinkState: officeLink.state,
    vpcVpnAddress: officeLink.publicIpAddress,
  };
};
