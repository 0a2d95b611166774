/**
 * A fleet of `count` resources, for the reliability tests and the benchmark.
 *
 * - layout "groups" (the default): groups of ten dependent resources (a VPC and two tiers; a
 *   network with two instances, a data volume attached to the first, a public IP with a firewall
 *   rule, an egress rule), the last group cut short when `count` is not a multiple of ten.
 * - layout "flat": `count` independent resources (VPCs, networks, detached volumes in turn), all
 *   created at once.
 *
 * `label` is an updatable argument (descriptions): changing it updates resources in place.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const layout = config.get("layout") ?? "groups";
const label = config.get("label") ?? "fleet";
const id = (key: string) => config.require(key);

/** Every resource's id by logical name. */
const ids: Record<string, pulumi.Output<string>> = {};
/** Makes the resource only while the fleet is below `count`. */
function add<R extends pulumi.CustomResource>(name: string, make: (name: string) => R): R | undefined {
  if (Object.keys(ids).length >= count) return undefined;
  const resource = make(name);
  ids[name] = resource.id;
  return resource;
}

function group(g: number): void {
  const octet = 10 + g;
  const vpc = add(
    `vpc-${g}`,
    (name) =>
      new restcloud.Vpc(name, {
        cidr: `10.${octet}.0.0/16`,
        vpcOfferingUuid: id("vpcOfferingUuid"),
        description: label,
      }),
  );
  const network = add(
    `net-${g}`,
    (name) => new restcloud.Network(name, { networkOfferingUuid: id("isolatedOfferingUuid"), description: label }),
  );
  for (const [tier, third] of [
    ["a", 1],
    ["b", 2],
  ] as const) {
    if (!vpc) break;
    add(
      `tier-${g}-${tier}`,
      (name) =>
        new restcloud.VpcTier(name, {
          vpcUuid: vpc.id,
          cidr: `10.${octet}.${third}.0/24`,
          networkOfferingUuid: id("tierOfferingUuid"),
          description: label,
        }),
    );
  }
  if (!network) return;
  const instances = ["a", "b"].map((vm) =>
    add(
      `vm-${g}-${vm}`,
      (name) =>
        new restcloud.Instance(name, {
          templateUuid: id("ubuntuTemplateUuid"),
          computeOfferingUuid: id("smallPlanUuid"),
          networkUuid: network.id,
        }),
    ),
  );
  add(
    `vol-${g}`,
    (name) =>
      new restcloud.Volume(name, {
        storageOfferingUuid: id("customStoragePlanUuid"),
        size: 10,
        instanceUuid: instances[0]?.id,
      }),
  );
  const ip = add(`ip-${g}`, (name) => new restcloud.PublicIpAddress(name, { networkUuid: network.id }));
  if (ip) {
    add(
      `fw-${g}`,
      (name) =>
        new restcloud.FirewallRule(name, {
          ipAddressUuid: ip.id,
          protocol: "TCP",
          startPort: 443,
          cidrList: "0.0.0.0/0",
        }),
    );
  }
  add(`eg-${g}`, (name) => new restcloud.EgressRule(name, { networkUuid: network.id, protocol: "TCP", startPort: 80 }));
}

function flat(i: number): void {
  switch (i % 3) {
    case 0:
      add(
        `vpc-${i}`,
        (name) =>
          new restcloud.Vpc(name, {
            cidr: `10.${10 + (i % 200)}.0.0/16`,
            vpcOfferingUuid: id("vpcOfferingUuid"),
            description: label,
          }),
      );
      break;
    case 1:
      add(
        `net-${i}`,
        (name) => new restcloud.Network(name, { networkOfferingUuid: id("isolatedOfferingUuid"), description: label }),
      );
      break;
    default:
      add(
        `vol-${i}`,
        (name) => new restcloud.Volume(name, { storageOfferingUuid: id("customStoragePlanUuid"), size: 10 }),
      );
  }
}

for (let i = 0; Object.keys(ids).length < count; i++) {
  if (layout === "flat") flat(i);
  else group(i);
}

export const resourceIds = ids;
