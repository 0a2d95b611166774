/**
 * Every resource kind of the provider (all 25), as a user would combine them, with several records of
 * one kind under one parent wherever the API allows it: nameless records side by side are what an
 * ambiguous create can mix up (three public IPs of one network and two of one VPC, two firewall rules
 * and two port-forwarding rules of one IP, two egress rules of one network, two firewall rules of one
 * security group, two VPN connections of one VPC, two snapshots and two policies of one volume, two
 * tags of one instance).
 *
 * The layout keeps to the API's rules: static NAT and remote-access VPN each on an address of their
 * own (neither goes with rules, nor with the other); port forwarding and load balancing from the
 * address's network (or a tier of its VPC); the customer networks apart from the VPC's block.
 *
 * `label` is an updatable argument (the VPC's description). Output `resourceIds`: every resource's id
 * by logical name, so that tests can tell which resource holds which record.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const id = (key: string) => config.require(key);
const label = config.get("label") ?? "every kind";

/** Every resource's id by logical name. */
const ids: Record<string, pulumi.Output<string>> = {};
function add<R extends pulumi.CustomResource>(name: string, make: (name: string) => R): R {
  const resource = make(name);
  ids[name] = resource.id;
  return resource;
}

// ---- networks, machines, storage ---------------------------------------------------------------------
const vpc = add(
  "vpc",
  (name) =>
    new restcloud.Vpc(name, { cidr: "10.40.0.0/16", vpcOfferingUuid: id("vpcOfferingUuid"), description: label }),
);
const [tierA, tierB] = (["A", "B"] as const).map((t, i) =>
  add(
    `tier${t}`,
    (name) =>
      new restcloud.VpcTier(name, {
        vpcUuid: vpc.id,
        cidr: `10.40.${i + 1}.0/24`,
        networkOfferingUuid: id("tierOfferingUuid"),
      }),
  ),
);
const network = add(
  "network",
  (name) => new restcloud.Network(name, { networkOfferingUuid: id("isolatedOfferingUuid") }),
);
const [vmA, vmB] = ["vmA", "vmB"].map((vm) =>
  add(
    vm,
    (name) =>
      new restcloud.Instance(name, {
        templateUuid: id("ubuntuTemplateUuid"),
        computeOfferingUuid: id("smallPlanUuid"),
        networkUuid: network.id,
      }),
  ),
);
const volume = add(
  "volume",
  (name) =>
    new restcloud.Volume(name, { storageOfferingUuid: id("customStoragePlanUuid"), size: 10, instanceUuid: vmA.id }),
);
add(
  "uploaded",
  (name) => new restcloud.UploadedVolume(name, { url: "https://images.example.com/every-kind.qcow2", format: "QCOW2" }),
);
add(
  "cluster",
  (name) =>
    new restcloud.KubernetesCluster(name, {
      kubernetesVersionUuid: id("kubernetesVersionUuid"),
      computeOfferingUuid: id("smallPlanUuid"),
      networkUuid: network.id,
      size: 1,
    }),
);

// ---- public addresses: three of the network, two of the VPC ------------------------------------------
const [ipA, ipB, ipC] = ["ipA", "ipB", "ipC"].map((ip) =>
  add(ip, (name) => new restcloud.PublicIpAddress(name, { networkUuid: network.id })),
);
const [vpcIpA, vpcIpB] = ["vpcIpA", "vpcIpB"].map((ip) =>
  add(ip, (name) => new restcloud.PublicIpAddress(name, { vpcUuid: vpc.id })),
);

// ipA: two firewall rules, two port-forwarding rules (one to each instance), a load-balancer rule.
for (const [rule, port] of [
  ["fwHttps", 443],
  ["fwSsh", 22],
] as const) {
  add(
    rule,
    (name) =>
      new restcloud.FirewallRule(name, {
        ipAddressUuid: ipA.id,
        protocol: "TCP",
        startPort: port,
        cidrList: "0.0.0.0/0",
      }),
  );
}
for (const [rule, publicPort, vm] of [
  ["pfA", 2222, vmA],
  ["pfB", 2223, vmB],
] as const) {
  add(
    rule,
    (name) =>
      new restcloud.PortForwardingRule(name, {
        ipAddressUuid: ipA.id,
        protocol: "TCP",
        publicPort,
        privatePort: 22,
        instanceUuid: vm.id,
        networkUuid: network.id,
      }),
  );
}
add(
  "lbWeb",
  (name) =>
    new restcloud.LoadBalancerRule(name, {
      ipAddressUuid: ipA.id,
      networkUuid: network.id,
      publicPort: 80,
      privatePort: 8080,
    }),
);
// ipB: static NAT to vmB; ipC: remote-access VPN.
add("natB", (name) => new restcloud.StaticNat(name, { ipAddressUuid: ipB.id, instanceUuid: vmB.id }));
add("vpnC", (name) => new restcloud.RemoteAccessVpn(name, { ipAddressUuid: ipC.id }));
// The VPC's addresses: a load-balancer rule into a tier; a firewall rule.
add(
  "lbTier",
  (name) =>
    new restcloud.LoadBalancerRule(name, {
      ipAddressUuid: vpcIpA.id,
      networkUuid: tierA.id,
      publicPort: 80,
      privatePort: 8080,
    }),
);
add("fwVpc", (name) => new restcloud.FirewallRule(name, { ipAddressUuid: vpcIpB.id, protocol: "TCP", startPort: 443 }));

// Two egress rules of the network; an internal load balancer in a tier.
add("egHttp", (name) => new restcloud.EgressRule(name, { networkUuid: network.id, protocol: "TCP", startPort: 80 }));
add("egDns", (name) => new restcloud.EgressRule(name, { networkUuid: network.id, protocol: "UDP", startPort: 53 }));
add(
  "ilb",
  (name) => new restcloud.InternalLoadBalancer(name, { networkUuid: tierB.id, sourcePort: 80, instancePort: 8080 }),
);

// ---- a security group: two firewall rules, an egress rule, a port-forwarding rule ---------------------
const group = add("group", (name) => new restcloud.SecurityGroup(name, { description: "web servers" }));
for (const [rule, port] of [
  ["sgHttps", 443],
  ["sgSsh", 22],
] as const) {
  add(
    rule,
    (name) =>
      new restcloud.SecurityGroupFirewallRule(name, { securityGroupUuid: group.id, protocol: "TCP", startPort: port }),
  );
}
add(
  "sgEgress",
  (name) =>
    new restcloud.SecurityGroupEgressRule(name, { securityGroupUuid: group.id, protocol: "TCP", startPort: 443 }),
);
add(
  "sgForward",
  (name) =>
    new restcloud.SecurityGroupPortForwardingRule(name, {
      securityGroupUuid: group.id,
      protocol: "TCP",
      publicPort: 8080,
      privatePort: 80,
    }),
);

// ---- site-to-site VPN: two customer gateways, two connections of the one VPC --------------------------
for (const [suffix, gateway, cidrList] of [
  ["A", "198.51.100.7", "192.168.50.0/24"],
  ["B", "198.51.100.8", "192.168.60.0/24"],
] as const) {
  const customer = add(
    `cgw${suffix}`,
    (name) =>
      new restcloud.VpnCustomerGateway(name, {
        gateway,
        cidrList,
        ipsecPresharedKey: `every-kind-psk-${suffix}`,
        ikePolicy: "Group 14(modp2048)",
        ikeEncryption: "aes256",
        ikeHash: "sha256",
        espEncryption: "aes256",
        espHash: "sha256",
      }),
  );
  add(
    `vpn${suffix}`,
    (name) => new restcloud.VpnConnection(name, { vpcUuid: vpc.id, customerGatewayUuid: customer.id }),
  );
}

// ---- snapshots, policies, tags -----------------------------------------------------------------------
add("vmSnapshot", (name) => new restcloud.VmSnapshot(name, { instanceUuid: vmA.id }));
for (const snapshot of ["snapshotA", "snapshotB"]) {
  add(snapshot, (name) => new restcloud.VolumeSnapshot(name, { volumeUuid: volume.id }));
}
add(
  "policyDaily",
  (name) => new restcloud.SnapshotPolicy(name, { volumeUuid: volume.id, intervalType: "DAILY", scheduleTime: "02:00" }),
);
add(
  "policyWeekly",
  (name) =>
    new restcloud.SnapshotPolicy(name, {
      volumeUuid: volume.id,
      intervalType: "WEEKLY",
      scheduleTime: "03:30",
      dayOfWeek: 1,
    }),
);
for (const [tag, key, value] of [
  ["tagEnv", "env", "test"],
  ["tagRole", "role", "web"],
] as const) {
  add(tag, (name) => new restcloud.ResourceTag(name, { resourceType: "UserVm", resourceUuid: vmA.id, key, value }));
}
add(
  "tagIp",
  (name) =>
    new restcloud.ResourceTag(name, {
      resourceType: "PublicIpAddress",
      resourceUuid: ipA.id,
      key: "env",
      value: "test",
    }),
);

export const resourceIds = ids;
