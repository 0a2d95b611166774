/**
 * The resources that take secrets: a Kubernetes cluster pulling from a private registry (its
 * password) and a VPN customer gateway (its pre-shared key), both from secret config. `step` 1
 * updates both in place: a new pre-shared key, one more worker node.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const step = config.getNumber("step") ?? 0;
const id = (key: string) => config.require(key);

const network = new restcloud.Network("net", { networkOfferingUuid: id("isolatedOfferingUuid") });
const cluster = new restcloud.KubernetesCluster("cluster", {
  kubernetesVersionUuid: id("kubernetesVersionUuid"),
  computeOfferingUuid: id("smallPlanUuid"),
  networkUuid: network.id,
  size: step >= 1 ? 2 : 1,
  dockerRegistryUrl: "https://registry.example.com",
  dockerRegistryUsername: "deployer",
  dockerRegistryPassword: config.requireSecret("registryPassword"),
});
const gateway = new restcloud.VpnCustomerGateway("gateway", {
  gateway: "198.51.100.7",
  cidrList: "192.168.10.0/24",
  ipsecPresharedKey: config.requireSecret("presharedKey"),
  ikePolicy: "Group 14(modp2048)",
  ikeEncryption: "aes256",
  ikeHash: "sha256",
  espEncryption: "aes256",
  espHash: "sha256",
});

export const clusterId = cluster.id;
export const gatewayId = gateway.id;
/** Secret outputs: the engine must keep them encrypted. */
export const registryPassword = cluster.dockerRegistryPassword;
export const presharedKey = gateway.ipsecPresharedKey;
