// Managed Kubernetes (/restapi/kubernetes). No envelopes: a bare Cluster per lifecycle call, List Cluster a bare array
// (one object on some deployments). Lifecycle calls are asynchronous: poll `list({ clusterUuid })`.
import type { z } from "zod";
import { integerField, recordId, stringField, flag, input, positiveInt, record, ref, text } from "../schema";
import { array, list, object, op } from "./define";
import { instanceRecord } from "./compute";

export const clusterRecord = record({
  uuid: recordId,
  name: stringField,
  description: stringField,
  /** Running, Stopped, ... (the spec shows only the sample Running). */
  state: stringField,
  size: integerField,
  controlNodes: integerField,
  nodeRootDiskSize: integerField,
  externalLoadbalancerIpaddress: stringField,
  transNetworkUuid: stringField,
});
export type Cluster = z.output<typeof clusterRecord>;

const byUuid = input({ uuid: ref });
const cluster = object(clusterRecord);

export const kubernetesOperations = {
  create: op({
    name: "createKubernetes",
    method: "POST",
    path: "/restapi/kubernetes/createKubernetes",
    input: input({
      name: ref,
      zoneUuid: ref,
      kubernetesSupportedVersionUuid: ref,
      computeOfferingUuid: ref,
      transNetworkUuid: ref,
      size: positiveInt,
      description: text.optional(),
      controlNodes: positiveInt.optional(),
      haEnabled: flag.optional(),
      nodeRootDiskSize: positiveInt.optional(),
      sshKeyName: ref.optional(),
      domainUuid: ref.optional(),
      externalLoadbalancerIpaddress: text.optional(),
      dockerRegistryUrl: text.optional(),
      dockerRegistryUsername: text.optional(),
      dockerRegistryPassword: text.optional(),
    }),
    response: cluster,
    mutating: true,
  }),
  list: op({
    name: "listCluster",
    method: "GET",
    path: "/restapi/kubernetes/listCluster",
    input: input({ clusterUuid: ref.optional() }),
    response: array(clusterRecord),
    mutating: false,
  }),
  nodes: op({
    name: "listNodes",
    method: "GET",
    path: "/restapi/kubernetes/listNodes",
    input: input({ clusterUuid: ref }),
    response: list("listInstanceResponse", instanceRecord),
    mutating: false,
  }),
  start: op({
    name: "startKubernetes",
    method: "PUT",
    path: "/restapi/kubernetes/startKubernetes",
    input: byUuid,
    inputsIn: "query",
    response: cluster,
    mutating: true,
  }),
  stop: op({
    name: "stopKubernetes",
    method: "PUT",
    path: "/restapi/kubernetes/stopKubernetes",
    input: byUuid,
    inputsIn: "query",
    response: cluster,
    mutating: true,
  }),
  scale: op({
    name: "scaleKubernetes",
    method: "PUT",
    path: "/restapi/kubernetes/scaleKubernetes",
    input: input({ uuid: ref, autoscalingEnabled: flag, size: positiveInt }),
    inputsIn: "query",
    response: cluster,
    mutating: true,
  }),
  destroy: op({
    name: "destroyKubernetes",
    method: "DELETE",
    path: "/restapi/kubernetes/destroyKubernetes",
    input: byUuid,
    response: cluster,
    mutating: true,
    resend: "delete",
  }),
};
