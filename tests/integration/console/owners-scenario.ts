/**
 * An account as the owners view must read it, built over the REST API with the demo account's keys
 * (shared by the owners tests: tests/integration/console/owners.test.ts reads GET /_emulator/owners,
 * tests/e2e/console/owners.test.ts the page in a real browser):
 *
 * - owned (a `pulumi-owner` tag): VPC `net` (a dynamic provider's full URN), network `backend` and
 *   instance `web-1` (the native plugin's full URNs), a public IP whose URN was too long (shortened);
 * - no owner: the VPC's tier `web-tier` (parent: VPC net), a second public IP (parent: network
 *   backend), a firewall rule on it (parent: that IP), volume `scratch` (tagged, but not with
 *   `pulumi-owner`), network `k8s-net`;
 * - derived: web-1's ROOT volume and the data disk created with it, the cluster's node instances and
 *   their ROOT volumes;
 * - not taggable: an egress rule, a security group, the Kubernetes cluster, the tag records.
 */
import { createHash } from "node:crypto";
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { acquireIp, createNetwork, one, request, ZONE, type Json, type Target } from "../emulator/helpers";

export const OWNER_KEY = "pulumi-owner";

export const URNS = {
  vpc: "urn:pulumi:dev::shop::pulumi-nodejs:dynamic/restcloud:Vpc::net",
  network: "urn:pulumi:app-1::shop::restcloud:index:Network::backend",
  instance: "urn:pulumi:app-1::shop::restcloud:index:Instance::web-1",
  /** A URN longer than a tag value holds (255): the provider cuts it. */
  longIp: `urn:pulumi:app-1::shop::restcloud:index:PublicIpAddress::${"web-ip-".repeat(40)}end`,
};

/** The provider's shortening, written again: the first characters, `#`, 32 hex digits of a SHA-256 of the whole. */
export function shortenUrn(urn: string): string {
  if (urn.length <= 255) return urn;
  const digest = createHash("sha256").update(urn).digest("hex").slice(0, 32);
  return `${urn.slice(0, 255 - 33)}#${digest}`;
}

export interface Scenario {
  vpc: Json;
  tier: Json;
  backend: Json;
  k8sNet: Json;
  web1: Json;
  rootOfWeb1: Json;
  dataOfWeb1: Json;
  ownedIp: Json;
  looseIp: Json;
  looseRule: Json;
  scratch: Json;
  egress: Json;
  securityGroup: Json;
  cluster: Json;
  nodes: Json[];
  /** The value of the shortened owner tag. */
  shortenedValue: string;
}

/** Tags one record through createTags; fails unless it answers 200. */
export async function tag(on: Target, resourceType: string, resourceUuid: string, key: string, value: string) {
  const reply = await request(
    on,
    "POST",
    `/restapi/resourcetags/createTags?resourceType=${resourceType}&zoneUuid=${ZONE}`,
    { resourceUuid, key, value },
  );
  if (reply.status !== 200) throw new Error(`createTags ${resourceType} ${key}: HTTP ${reply.status}`);
  return reply.body.svcCreateTagsResponse[0] as Json;
}

const list = async (on: Target, path: string, key: string, query: Json): Promise<Json[]> =>
  (await request(on, "GET", path, query)).body[key] as Json[];

export async function buildScenario(on: Target): Promise<Scenario> {
  const vpc = await one(on, "POST", "/restapi/vpc/createVpc", {
    name: "net",
    zoneUuid: ZONE,
    vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard,
    getcIDR: "10.20.0.0/16",
  });
  const tier = await one(on, "POST", "/restapi/vpc/createVpcNetwork", {
    name: "web-tier",
    vpcUuid: vpc.uuid,
    networkOfferingUuid: CATALOG_IDS.networkOfferings.vpcTier,
    gateway: "10.20.1.1",
    netmask: "255.255.255.0",
  });
  const backend = await createNetwork(on, { name: "backend" });
  const k8sNet = await createNetwork(on, { name: "k8s-net" });
  const web1 = await one(on, "POST", "/restapi/instance/createInstance", {
    name: "web-1",
    zoneUuid: ZONE,
    templateUuid: CATALOG_IDS.templates.ubuntu2404,
    computeOfferingUuid: CATALOG_IDS.computeOfferings.gp1c1g,
    networkUuid: backend.uuid,
    storageOfferingUuid: CATALOG_IDS.storageOfferings.ssd20,
    diskSize: 20,
  });
  const ownedIp = await acquireIp(on, backend.uuid);
  const looseIp = await acquireIp(on, backend.uuid);
  const looseRule = await one(on, "POST", "/restapi/firewallrule/createFirewallRule", {
    ipAddressUuid: looseIp.uuid,
    protocol: "TCP",
    startPort: "443",
    endPort: "443",
  });
  const scratch = await one(on, "POST", "/restapi/volume/createVolume", {
    name: "scratch",
    zoneUuid: ZONE,
    storageOfferingUuid: CATALOG_IDS.storageOfferings.ssd20,
    diskSize: 20,
  });
  const egress = await one(on, "POST", "/restapi/egressrule/createEgressRule", {
    networkUuid: backend.uuid,
    protocol: "TCP",
    startPort: "80",
    endPort: "80",
  });
  const securityGroup = await one(on, "POST", "/restapi/securitygroup/createSecurityGroup", {
    name: "web-sg",
    description: "web",
  });
  const clusterReply = await request(on, "POST", "/restapi/kubernetes/createKubernetes", {
    name: "kube",
    zoneUuid: ZONE,
    kubernetesSupportedVersionUuid: CATALOG_IDS.kubernetesVersions.v1_31,
    computeOfferingUuid: CATALOG_IDS.computeOfferings.gp2c4g,
    transNetworkUuid: k8sNet.uuid,
    size: 1,
  });
  if (clusterReply.status !== 200) throw new Error(`createKubernetes: HTTP ${clusterReply.status}`);
  const cluster = clusterReply.body as Json;

  const volumes = await list(on, "/restapi/volume/volumeList", "listVolumeResponse", { zoneUuid: ZONE });
  const rootOfWeb1 = volumes.find((v) => v.vmUuid === web1.uuid && v.volumeType === "ROOT")!;
  const dataOfWeb1 = volumes.find((v) => v.vmUuid === web1.uuid && v.volumeType === "DATADISK")!;
  const instances = await list(on, "/restapi/instance/instanceList", "listInstanceResponse", { zoneUuid: ZONE });
  const nodes = instances.filter((i) => String(i.name).startsWith("kube-"));
  if (!rootOfWeb1 || !dataOfWeb1 || nodes.length < 2) throw new Error("scenario: volumes or cluster nodes missing");

  const shortenedValue = shortenUrn(URNS.longIp);
  await tag(on, "Vpc", vpc.uuid, OWNER_KEY, URNS.vpc);
  await tag(on, "Network", backend.uuid, OWNER_KEY, URNS.network);
  await tag(on, "UserVm", web1.uuid, OWNER_KEY, URNS.instance);
  await tag(on, "PublicIpAddress", ownedIp.uuid, OWNER_KEY, shortenedValue);
  // Another key does not make an owner.
  await tag(on, "Volume", scratch.uuid, "env", "prod");

  return {
    vpc,
    tier,
    backend,
    k8sNet,
    web1,
    rootOfWeb1,
    dataOfWeb1,
    ownedIp,
    looseIp,
    looseRule,
    scratch,
    egress,
    securityGroup,
    cluster,
    nodes,
    shortenedValue,
  };
}
