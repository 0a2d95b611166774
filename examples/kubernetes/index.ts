/**
 * A managed Kubernetes cluster on its own isolated network: the newest Kubernetes version of the
 * zone, nodes on the smallest plan that meets its minimums, a private registry whose password is a
 * secret (encrypted in state). `workers` scales the cluster in place.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

export = async () => {
  const config = new pulumi.Config();
  const zone = await restcloud.getZone({ nameRegex: config.get("zoneName") ?? "." });
  const zoneUuid = zone.uuid;
  const [offerings, versions] = await Promise.all([
    restcloud.getNetworkOfferings({ zoneUuid, type: "Isolated" }),
    restcloud.getKubernetesVersions({ zoneUuid }),
  ]);
  const version = [...versions.versions]
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }))
    .pop()!;
  const plan = await restcloud.getComputePlan({
    zoneUuid,
    minCores: version.minCores,
    minMemoryGib: (version.minMemoryMib ?? 0) / 1024,
  });

  const network = new restcloud.Network("k8s", { zoneUuid, networkOfferingUuid: offerings.offerings[0].uuid });
  const cluster = new restcloud.KubernetesCluster("apps", {
    zoneUuid,
    kubernetesVersionUuid: version.uuid,
    computeOfferingUuid: plan.uuid,
    networkUuid: network.id,
    size: config.getNumber("workers") ?? 3,
    dockerRegistryUrl: "https://registry.example.com",
    dockerRegistryUsername: "deployer",
    dockerRegistryPassword: config.getSecret("registryPassword") ?? pulumi.secret("change-me"),
  });

  return {
    kubernetesVersion: version.name,
    nodePlan: plan.name,
    networkCidr: network.cidr,
    clusterId: cluster.id,
    clusterState: cluster.currentState,
    workers: cluster.currentSize,
  };
};
