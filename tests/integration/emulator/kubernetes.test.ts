import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { createNetwork, errorOf, UNKNOWN, until, useEmulator, useSlowEmulator, ZONE, type Json } from "./helpers";

const { v1_31: V1_31, v1_32: V1_32 } = CATALOG_IDS.kubernetesVersions;
const { gp2c4g: NODE_PLAN, gp1c1g: TOO_SMALL, gpCustom: CUSTOM } = CATALOG_IDS.computeOfferings;

const emulator = useEmulator();
const slow = useSlowEmulator();
const { call } = emulator;

let network: Json;
const clusterInput = (overrides: Json = {}): Json => ({
  name: "prod",
  zoneUuid: ZONE,
  kubernetesSupportedVersionUuid: V1_31,
  computeOfferingUuid: NODE_PLAN,
  transNetworkUuid: network.uuid,
  size: 2,
  ...overrides,
});
const createCluster = (overrides: Json = {}) =>
  call("POST", "/restapi/kubernetes/createKubernetes", clusterInput(overrides));
const listClusters = async (query = "") =>
  (await call("GET", `/restapi/kubernetes/listCluster${query}`)).body as Json[];
const get = async (uuid: string): Promise<Json | undefined> => (await listClusters(`?clusterUuid=${uuid}`))[0];
const untilState = (uuid: string, state: string) =>
  until(
    () => get(uuid),
    (c) => c?.state === state,
  );
const nodes = async (uuid: string) =>
  (await call("GET", `/restapi/kubernetes/listNodes?clusterUuid=${uuid}`)).body as {
    count: number;
    listInstanceResponse: Json[];
  };
const nodeNames = async (uuid: string) => (await nodes(uuid)).listInstanceResponse.map((n) => n.name).sort();

async function runningCluster(overrides: Json = {}): Promise<Json> {
  const reply = await createCluster(overrides);
  expect(reply.status).toBe(200);
  return (await untilState(reply.body.uuid, "Running")) as Json;
}

beforeEach(async () => {
  await emulator.reset();
  network = await createNetwork(emulator, { name: "k8s" });
});

describe("createKubernetes", () => {
  it("answers one bare Cluster (Starting) that lists Running later, with its nodes as instances", async () => {
    const reply = await createCluster({
      description: "production",
      dockerRegistryUrl: "registry.example:5000",
      dockerRegistryUsername: "ci",
      dockerRegistryPassword: "s3cret",
      externalLoadbalancerIpaddress: "203.0.113.50",
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "prod",
      description: "production",
      state: "Starting",
      size: 2,
      controlNodes: 1,
      nodeRootDiskSize: 8,
      externalLoadbalancerIpaddress: "203.0.113.50",
      transNetworkUuid: network.uuid,
      status: "Active",
      isActive: true,
    });
    expect(JSON.stringify(await listClusters())).not.toContain("s3cret");
    const { uuid } = reply.body;
    expect(await nodeNames(uuid)).toEqual(["prod-control-1", "prod-node-1", "prod-node-2"]);

    expect(await untilState(uuid, "Running")).toEqual({ ...reply.body, state: "Running" });
    const listed = await nodes(uuid);
    expect(listed.count).toBe(3);
    expect(listed.listInstanceResponse[0]).toMatchObject({
      networkUuid: network.uuid,
      zoneUuid: ZONE,
      computeOfferingUuid: NODE_PLAN,
      cpuCore: "2",
      memory: "4096",
      rootDiskSize: 8,
      state: "Running",
    });
    // The nodes are the account's instances, driven by the cluster only, and keep the network in use.
    const instances = await call("GET", `/restapi/instance/instanceList?zoneUuid=${ZONE}`);
    expect(instances.body.count).toBe(3);
    const node = listed.listInstanceResponse[0];
    const stop = await call("GET", `/restapi/instance/stopInstance?uuid=${node.uuid}&forceStop=true`);
    expect(stop.status).toBe(409);
    expect(errorOf(stop).errorMsg).toMatch(/Kubernetes cluster/);
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${network.uuid}`)).status).toBe(409);
  });

  it("makes an HA cluster three control nodes unless told", async () => {
    const reply = await createCluster({ haEnabled: true, size: 1 });
    expect(reply.body.controlNodes).toBe(3);
    const two = await createCluster({ name: "two", controlNodes: 2, size: 1 });
    expect(two.body.controlNodes).toBe(2);
    expect(await nodeNames(two.body.uuid)).toEqual(["two-control-1", "two-control-2", "two-node-1"]);
  });

  it.each([
    ["name", { name: undefined }, 400, /^name: is required/],
    ["zoneUuid", { zoneUuid: undefined }, 400, /^zoneUuid: is required/],
    [
      "kubernetesSupportedVersionUuid",
      { kubernetesSupportedVersionUuid: undefined },
      400,
      /^kubernetesSupportedVersionUuid: is required/,
    ],
    ["computeOfferingUuid", { computeOfferingUuid: undefined }, 400, /^computeOfferingUuid: is required/],
    ["transNetworkUuid", { transNetworkUuid: undefined }, 400, /^transNetworkUuid: is required/],
    ["size", { size: undefined }, 400, /^size: is required/],
    ["an unknown version", { kubernetesSupportedVersionUuid: UNKNOWN }, 404, /Kubernetes version/],
    [
      "a version the zone does not offer",
      { zoneUuid: CATALOG_IDS.zones.mumbai, kubernetesSupportedVersionUuid: V1_32 },
      400,
      /^kubernetesSupportedVersionUuid:/,
    ],
    [
      "nodes below the version's minimum",
      { computeOfferingUuid: TOO_SMALL },
      400,
      /^computeOfferingUuid:.*at least 2 vCPUs/,
    ],
    ["a custom compute offering", { computeOfferingUuid: CUSTOM }, 400, /^computeOfferingUuid:/],
    ["an unknown network", { transNetworkUuid: UNKNOWN }, 404, /network/],
    ["no workers", { size: 0 }, 400, /^size:/],
    ["51 workers", { size: 51 }, 400, /^size:/],
    ["HA with one control node", { haEnabled: true, controlNodes: 1 }, 400, /^controlNodes:/],
    ["two control nodes without HA", { haEnabled: false, controlNodes: 2 }, 400, /^haEnabled:/],
    [
      "a registry without its password",
      { dockerRegistryUrl: "r.example", dockerRegistryUsername: "u" },
      400,
      /^dockerRegistryPassword:/,
    ],
    [
      "a load balancer address that is no IPv4",
      { externalLoadbalancerIpaddress: "lb.example" },
      400,
      /^externalLoadbalancerIpaddress:/,
    ],
    ["a root disk below 8 GB", { nodeRootDiskSize: 4 }, 400, /^nodeRootDiskSize:/],
    ["a name that is no host name", { name: "Prod cluster" }, 400, /^name:/],
  ])("refuses %s, and a rejected call changes nothing", async (_what, overrides, status, message) => {
    const reply = await createCluster(overrides);
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toMatch(message);
    expect(await listClusters()).toEqual([]);
    expect((await call("GET", `/restapi/instance/instanceList?zoneUuid=${ZONE}`)).body.count).toBe(0);
  });
});

describe("in transitional states", () => {
  it("starts its nodes with the cluster, and refuses stop, scale and destroy until it is Running", async () => {
    const slowNetwork = await createNetwork(slow, { name: "slow" });
    const input = clusterInput({ transNetworkUuid: slowNetwork.uuid });
    const { uuid } = (await slow.call("POST", "/restapi/kubernetes/createKubernetes", input)).body;
    const listed = await slow.call("GET", `/restapi/kubernetes/listNodes?clusterUuid=${uuid}`);
    expect(listed.body.listInstanceResponse.map((n: Json) => n.state)).toEqual(["Starting", "Starting", "Starting"]);
    for (const [method, query] of [
      ["PUT", `stopKubernetes?uuid=${uuid}`],
      ["PUT", `scaleKubernetes?uuid=${uuid}&size=3&autoscalingEnabled=false`],
      ["DELETE", `destroyKubernetes?uuid=${uuid}`],
    ]) {
      const reply = await slow.call(method, `/restapi/kubernetes/${query}`);
      expect(reply.status).toBe(409);
      expect(errorOf(reply).errorMsg).toMatch(/is Starting/);
    }
  });
});

describe("listCluster and listNodes", () => {
  it("list a bare array (all, or one by clusterUuid); listNodes needs a known cluster", async () => {
    const a = await createCluster({ name: "a", size: 1 });
    await createCluster({ name: "b", size: 1 });
    expect((await listClusters()).map((c) => c.name).sort()).toEqual(["a", "b"]);
    expect((await listClusters(`?clusterUuid=${a.body.uuid}`)).map((c) => c.name)).toEqual(["a"]);
    expect(await listClusters(`?clusterUuid=${UNKNOWN}`)).toEqual([]);
    expect((await call("GET", `/restapi/kubernetes/listNodes?clusterUuid=${UNKNOWN}`)).status).toBe(404);
    expect((await call("GET", "/restapi/kubernetes/listNodes")).status).toBe(400);
  });
});

describe("cluster lifecycle", () => {
  it("stops and starts with its nodes, scales up and down, and is destroyed with its nodes", async () => {
    const { uuid } = await runningCluster();
    const action = (method: string, operation: string, query = "") =>
      call(method, `/restapi/kubernetes/${operation}?uuid=${uuid}${query}`);

    expect((await action("PUT", "startKubernetes")).status).toBe(409);
    const stopping = await action("PUT", "stopKubernetes");
    expect(stopping.body).toMatchObject({ uuid, state: "Stopping" });
    await untilState(uuid, "Stopped");
    expect((await nodes(uuid)).listInstanceResponse.map((n) => n.state)).toEqual(["Stopped", "Stopped", "Stopped"]);
    expect((await action("PUT", "scaleKubernetes", "&size=3&autoscalingEnabled=false")).status).toBe(409);
    expect((await action("PUT", "startKubernetes")).body.state).toBe("Starting");
    await untilState(uuid, "Running");

    expect((await action("PUT", "scaleKubernetes", "&size=3")).status).toBe(400);
    expect((await action("PUT", "scaleKubernetes", "&autoscalingEnabled=false")).status).toBe(400);
    expect((await action("PUT", "scaleKubernetes", "&size=60&autoscalingEnabled=false")).status).toBe(400);
    const scaling = await action("PUT", "scaleKubernetes", "&size=4&autoscalingEnabled=false");
    expect(scaling.body).toMatchObject({ state: "Scaling", size: 2 });
    expect(await untilState(uuid, "Running")).toMatchObject({ size: 4 });
    expect(await nodeNames(uuid)).toEqual([
      "prod-control-1",
      "prod-node-1",
      "prod-node-2",
      "prod-node-3",
      "prod-node-4",
    ]);
    expect((await nodes(uuid)).listInstanceResponse.every((n) => n.state === "Running")).toBe(true);

    await action("PUT", "scaleKubernetes", "&size=1&autoscalingEnabled=true");
    expect(await untilState(uuid, "Running")).toMatchObject({ size: 1 });
    expect(await nodeNames(uuid)).toEqual(["prod-control-1", "prod-node-1"]);

    expect((await call("DELETE", "/restapi/kubernetes/destroyKubernetes")).status).toBe(400);
    const destroying = await action("DELETE", "destroyKubernetes");
    expect(destroying.body).toMatchObject({ uuid, state: "Destroying" });
    await until(
      () => get(uuid),
      (c) => c === undefined,
    );
    expect((await call("GET", `/restapi/instance/instanceList?zoneUuid=${ZONE}`)).body.count).toBe(0);
    expect((await call("GET", `/restapi/volume/volumeList?zoneUuid=${ZONE}`)).body.count).toBe(0);
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${network.uuid}`)).status).toBe(200);
    expect((await action("DELETE", "destroyKubernetes")).status).toBe(404);
  });
});
