// Kubernetes endpoints (spec section Kubernetes): bare Cluster objects, a bare array for the list.
import type { AreaRegistrar, EmulatorContext } from "../core";
import { registerEndpoints, type Endpoint, type EndpointInputs } from "../endpoints";
import { envelope, readBool, readInt, readString, spelled } from "../http";
import {
  changeClusterPower,
  createCluster,
  destroyCluster,
  listClusters,
  listNodes,
  scaleCluster,
} from "../model/kubernetes";
import type { ClusterRecord } from "../model/collections";
import { CLUSTER_NAMES } from "./spellings";

const required = { required: true } as const;

/** A Cluster as the spec spells it. */
const clusterOut = (cluster: ClusterRecord) => spelled(cluster, CLUSTER_NAMES);

/** start, stop, scale and destroy: `q: uuid` (plus their own inputs), answering the bare Cluster. */
function clusterAction(
  method: "PUT" | "DELETE",
  operation: string,
  action: (ctx: EmulatorContext, inputs: EndpointInputs, uuid: string) => ClusterRecord,
): Endpoint {
  return {
    method,
    path: `/restapi/kubernetes/${operation}`,
    operation,
    mutating: true,
    handle: (inputs, ctx) => clusterOut(action(ctx, inputs, readString(inputs.query, "uuid", required))),
  };
}

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/kubernetes/createKubernetes",
    operation: "createKubernetes",
    mutating: true,
    specNames: CLUSTER_NAMES,
    handle: ({ body, scope }, ctx) =>
      clusterOut(
        createCluster(ctx, scope, {
          name: readString(body, "name", required),
          zoneUuid: readString(body, "zoneUuid", required),
          kubernetesSupportedVersionUuid: readString(body, "kubernetesSupportedVersionUuid", required),
          computeOfferingUuid: readString(body, "computeOfferingUuid", required),
          networkUuid: readString(body, "transNetworkUuid", required),
          size: readInt(body, "size", required),
          controlNodes: readInt(body, "controlNodes"),
          haEnabled: readBool(body, "haEnabled"),
          nodeRootDiskSize: readInt(body, "nodeRootDiskSize"),
          description: readString(body, "description"),
          externalLoadbalancerIpaddress: readString(body, "externalLoadbalancerIpaddress"),
          sshKeyName: readString(body, "sshKeyName"),
          dockerRegistryUrl: readString(body, "dockerRegistryUrl"),
          dockerRegistryUsername: readString(body, "dockerRegistryUsername"),
          dockerRegistryPassword: readString(body, "dockerRegistryPassword"),
          // domainUuid: the account's own domain is the only one it can use; accepted and not checked.
        }),
      ),
  },
  {
    method: "GET",
    path: "/restapi/kubernetes/listCluster",
    operation: "listCluster",
    mutating: false,
    handle: ({ query, scope }) =>
      listClusters(scope, { clusterUuid: readString(query, "clusterUuid") }).map(clusterOut),
  },
  {
    method: "GET",
    path: "/restapi/kubernetes/listNodes",
    operation: "listNodes",
    mutating: false,
    handle: ({ query, scope }) =>
      envelope("listInstanceResponse", listNodes(scope, readString(query, "clusterUuid", required))),
  },
  clusterAction("PUT", "startKubernetes", (ctx, { scope }, uuid) => changeClusterPower(ctx, scope, uuid, "start")),
  clusterAction("PUT", "stopKubernetes", (ctx, { scope }, uuid) => changeClusterPower(ctx, scope, uuid, "stop")),
  clusterAction("PUT", "scaleKubernetes", (ctx, { scope, query }, uuid) =>
    scaleCluster(ctx, scope, {
      uuid,
      autoscalingEnabled: readBool(query, "autoscalingEnabled", required),
      size: readInt(query, "size", required),
    }),
  ),
  clusterAction("DELETE", "destroyKubernetes", (ctx, { scope }, uuid) => destroyCluster(ctx, scope, uuid)),
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
