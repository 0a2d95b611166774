/**
 * Every networking resource, with `step` selecting the variant: 0 the initial stack, 1 updatable
 * arguments changed (the load-balancer rule, the customer gateway and the VPN connection update in
 * place), 2 replacing arguments changed (every other networking resource replaces).
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const step = config.getNumber("step") ?? 0;
const id = (key: string) => config.require(key);
const updated = step >= 1;
const replaced = step >= 2;

// What the networking resources sit on: a network with an instance, a VPC with a tier, addresses.
const network = new restcloud.Network("network", { networkOfferingUuid: id("isolatedOfferingUuid") });
const instance = new restcloud.Instance("instance", {
  templateUuid: id("ubuntuTemplateUuid"),
  computeOfferingUuid: id("smallPlanUuid"),
  networkUuid: network.id,
});
const vpc = new restcloud.Vpc("vpc", { cidr: "10.30.0.0/16", vpcOfferingUuid: id("vpcOfferingUuid") });
const tier = new restcloud.VpcTier("tier", {
  vpcUuid: vpc.id,
  cidr: "10.30.1.0/24",
  networkOfferingUuid: id("tierOfferingUuid"),
});
const lbIp = new restcloud.PublicIpAddress("lbIp", { networkUuid: network.id });
const natIp = new restcloud.PublicIpAddress("natIp", { networkUuid: network.id });
const natIp2 = new restcloud.PublicIpAddress("natIp2", { networkUuid: network.id });
const vpnIp = new restcloud.PublicIpAddress("vpnIp", { networkUuid: network.id });
const vpnIp2 = new restcloud.PublicIpAddress("vpnIp2", { vpcUuid: vpc.id });

// A security group with a rule of each kind (two firewall rules, added concurrently).
const group = new restcloud.SecurityGroup("group", { description: replaced ? "web servers v2" : "web servers" });
const sgHttps = new restcloud.SecurityGroupFirewallRule("sgHttps", {
  securityGroupUuid: group.id,
  protocol: "TCP",
  startPort: 443,
});
const sgSsh = new restcloud.SecurityGroupFirewallRule("sgSsh", {
  securityGroupUuid: group.id,
  protocol: "TCP",
  startPort: 22,
  cidrList: "10.0.0.0/8, 192.168.0.0/16", // the API drops the space: no drift
});
const sgEgress = new restcloud.SecurityGroupEgressRule("sgEgress", {
  securityGroupUuid: group.id,
  protocol: "TCP",
  startPort: replaced ? 8443 : 443,
});
const sgForward = new restcloud.SecurityGroupPortForwardingRule("sgForward", {
  securityGroupUuid: group.id,
  protocol: "TCP",
  publicPort: 8080,
  publicEndPort: 8081,
  privatePort: 80,
  privateEndPort: 81,
});

const nat = new restcloud.StaticNat("nat", {
  ipAddressUuid: replaced ? natIp2.id : natIp.id,
  instanceUuid: instance.id,
});
const remoteVpn = new restcloud.RemoteAccessVpn("remoteVpn", { ipAddressUuid: replaced ? vpnIp2.id : vpnIp.id });
const forward = new restcloud.PortForwardingRule("forward", {
  ipAddressUuid: lbIp.id,
  protocol: "TCP",
  publicPort: replaced ? 2223 : 2222,
  privatePort: 22,
  instanceUuid: instance.id,
  networkUuid: network.id,
});
const lb = new restcloud.LoadBalancerRule("lb", {
  name: updated ? "e2e-web-renamed" : "e2e-web",
  ipAddressUuid: lbIp.id,
  networkUuid: network.id,
  publicPort: 80,
  privatePort: replaced ? 8081 : 8080,
  algorithm: updated ? "leastconn" : "roundrobin",
  stickiness: { method: "LbCookie", name: "web-sticky", cookieName: "SRV" },
});
const ilb = new restcloud.InternalLoadBalancer("ilb", {
  networkUuid: tier.id,
  sourcePort: replaced ? 8080 : 80,
  instancePort: 8080,
});
const cgw = new restcloud.VpnCustomerGateway("cgw", {
  name: updated ? "e2e-office-renamed" : "e2e-office",
  gateway: updated ? "198.51.100.8" : "198.51.100.7",
  cidrList: "192.168.50.0/24",
  ipsecPresharedKey: config.requireSecret(updated ? "psk2" : "psk"),
  ikePolicy: "Group 14(modp2048)",
  ikeEncryption: "aes256",
  ikeHash: "sha256",
  ikeLifetime: updated ? 28800 : 86400,
  espEncryption: "aes256",
  espHash: "sha256",
  deadPeerDetection: updated,
});
const vpn = new restcloud.VpnConnection("vpn", {
  vpcUuid: vpc.id,
  customerGatewayUuid: cgw.id,
  passive: replaced,
  resetTrigger: updated ? "reset-1" : undefined,
});

export const instanceId = instance.id;
export const lbIpId = lbIp.id;
export const natIpAddress = natIp.address;
export const natIp2Address = natIp2.address;
export const groupId = group.id;
export const sgHttpsId = sgHttps.id;
export const sgSshId = sgSsh.id;
export const sgEgressId = sgEgress.id;
export const sgForwardId = sgForward.id;
export const natId = nat.id;
export const natAddress = nat.address;
export const remoteVpnId = remoteVpn.id;
export const forwardId = forward.id;
export const lbId = lb.id;
export const ilbId = ilb.id;
export const ilbAddress = ilb.ipAddress;
export const cgwId = cgw.id;
export const cgwPsk = cgw.ipsecPresharedKey;
export const vpnId = vpn.id;
export const vpnState = vpn.state;
export const zoneUuid = vpn.zoneUuid;
