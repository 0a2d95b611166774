// Instance endpoints (spec section Instance).
import type { AccountScope, AreaRegistrar, EmulatorContext } from "../core";
import { accepted, registerEndpoints, type Endpoint, type EndpointInputs } from "../endpoints";
import { envelope, readBool, readInt, readString, type Inputs } from "../http";
import {
  attachIso,
  attachNetwork,
  changePower,
  createInstance,
  destroyInstance,
  detachIso,
  detachNetwork,
  instanceNetworks,
  instancePassword,
  listInstances,
  recoverInstance,
  renameInstance,
  requireInstance,
  resetSshKey,
  resizeInstance,
} from "../model/instance";
import type { InstanceRecord } from "../model/collections";

const KEY = "listInstanceResponse";
const required = { required: true } as const;
const positive = { min: 1 } as const;

const instances = (records: readonly InstanceRecord[]) => envelope(KEY, records);

/**
 * The many GET operations on one instance (`q: uuid` plus their own inputs) that answer the Instance
 * envelope: one row each.
 */
function instanceAction(
  operation: string,
  action: (ctx: EmulatorContext, inputs: EndpointInputs, uuid: string, query: Inputs) => InstanceRecord,
): Endpoint {
  return {
    method: "GET",
    path: `/restapi/instance/${operation}`,
    operation,
    mutating: true,
    handle: (inputs, ctx) => instances([action(ctx, inputs, readString(inputs.query, "uuid", required), inputs.query)]),
  };
}

/** attachNetwork and detachNetwork: `b: uuid, networkUuid`, answering the Instance envelope. */
function networkChange(
  operation: string,
  action: (ctx: EmulatorContext, scope: AccountScope, input: { uuid: string; networkUuid: string }) => InstanceRecord,
): Endpoint {
  return {
    method: "POST",
    path: `/restapi/instance/${operation}`,
    operation,
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      instances([
        action(ctx, scope, {
          uuid: readString(body, "uuid", required),
          networkUuid: readString(body, "networkUuid", required),
        }),
      ]),
  };
}

const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/restapi/instance/createInstance",
    operation: "createInstance",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      instances([
        createInstance(ctx, scope, {
          name: readString(body, "name", required),
          zoneUuid: readString(body, "zoneUuid", required),
          templateUuid: readString(body, "templateUuid", required),
          computeOfferingUuid: readString(body, "computeOfferingUuid", required),
          networkUuid: readString(body, "networkUuid", required),
          cpuCore: readInt(body, "cpuCore", positive),
          memory: readInt(body, "memory", positive),
          rootDiskSize: readInt(body, "rootDiskSize", positive),
          diskSize: readInt(body, "diskSize", positive),
          storageOfferingUuid: readString(body, "storageOfferingUuid"),
          sshKeyName: readString(body, "sshKeyName"),
          securitygroupName: readString(body, "securitygroupName"),
          hypervisorName: readString(body, "hypervisorName"),
        }),
      ]),
  },
  {
    method: "GET",
    path: "/restapi/instance/instanceList",
    operation: "instanceList",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      instances(
        listInstances(ctx, scope, {
          zoneUuid: readString(query, "zoneUuid", required),
          vmUuid: readString(query, "vmUuid"),
        }),
      ),
  },
  {
    method: "GET",
    path: "/restapi/instance/vmStatus",
    operation: "vmStatus",
    mutating: false,
    handle: ({ query, scope }) => {
      const instance = requireInstance(scope, readString(query, "uuid", required));
      return { uuid: instance.uuid, status: instance.state };
    },
  },
  instanceAction("startInstance", (ctx, { scope }, uuid) => changePower(ctx, scope, uuid, "start")),
  instanceAction("stopInstance", (ctx, { scope }, uuid, query) => {
    // Forced or not, the emulated guest always stops within the delay.
    readBool(query, "forceStop", required);
    return changePower(ctx, scope, uuid, "stop");
  }),
  instanceAction("resizeVm", (ctx, { scope }, uuid, query) =>
    resizeInstance(ctx, scope, {
      uuid,
      offeringUuid: readString(query, "offeringUuid", required),
      cpuCore: readInt(query, "cpuCore", positive),
      memory: readInt(query, "memory", positive),
    }),
  ),
  instanceAction("recoverVm", (_ctx, { scope }, uuid) => recoverInstance(scope, uuid)),
  instanceAction("destroyInstance", (ctx, { scope }, uuid, query) =>
    destroyInstance(ctx, scope, uuid, readBool(query, "expunge", required)),
  ),
  {
    method: "PUT",
    path: "/restapi/instance/updateInstanceName",
    operation: "updateInstanceName",
    mutating: true,
    handle: ({ body, scope }, ctx) => {
      const instance = renameInstance(ctx, scope, {
        uuid: readString(body, "uuid", required),
        displayName: readString(body, "displayName", required),
      });
      return accepted(instances([instance]));
    },
  },
  {
    method: "GET",
    path: "/restapi/instance/instanceNetworkList",
    operation: "instanceNetworkList",
    mutating: false,
    handle: ({ query, scope }) =>
      envelope("svcInstanceNetworkResponses", instanceNetworks(scope, readString(query, "uuid", required))),
  },
  networkChange("attachNetwork", attachNetwork),
  // The spec does not show detachNetwork's response: the Instance envelope, as for attachNetwork.
  networkChange("detachNetwork", (_ctx, scope, input) => detachNetwork(scope, input)),
  // The rows whose parameters and response the spec does not show: our choice of inputs, answered
  // with the Instance envelope (the password list with its own envelope).
  instanceAction("attachIso", (_ctx, { scope }, uuid, query) =>
    attachIso(scope, { uuid, isoUuid: readString(query, "isoUuid", required) }),
  ),
  instanceAction("detachIso", (_ctx, { scope }, uuid) => detachIso(scope, uuid)),
  instanceAction("resetSSHkey", (ctx, { scope }, uuid, query) =>
    resetSshKey(ctx, scope, { uuid, sshKeyName: readString(query, "sshKeyName", required) }),
  ),
  {
    method: "GET",
    path: "/restapi/instance/instancePasswordList",
    operation: "instancePasswordList",
    mutating: false,
    handle: ({ query, scope }) =>
      envelope("listInstancePasswordResponse", [instancePassword(scope, readString(query, "uuid", required))]),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
