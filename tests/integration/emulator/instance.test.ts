import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import {
  acquireIp,
  allocatedVolume,
  createNetwork,
  errorOf,
  instanceInput,
  readInstance,
  runningInstance as startInstance,
  until,
  useEmulator,
  useSlowEmulator,
  ZONE,
  type Json,
} from "./helpers";

const MUMBAI = CATALOG_IDS.zones.mumbai;
const { ubuntu2404: UBUNTU, windows2022: WINDOWS } = CATALOG_IDS.templates;
const { gp1c1g: SMALL, gp2c4g: MEDIUM, gpCustom: CUSTOM } = CATALOG_IDS.computeOfferings;

const emulator = useEmulator();
const slow = useSlowEmulator();
const { call } = emulator;

const instanceOf = (reply: { body: Json }): Json => reply.body.listInstanceResponse[0];

let network: Json;
const input = (overrides: Json = {}): Json => instanceInput({ networkUuid: network.uuid, ...overrides });
const get = (uuid: string) => readInstance(emulator, uuid);
const untilState = (uuid: string, state: string) =>
  until(
    () => get(uuid),
    (i) => i?.state === state,
  );
const runningInstance = (overrides: Json = {}) => startInstance(emulator, { networkUuid: network.uuid, ...overrides });
const action = (operation: string, query: string) => call("GET", `/restapi/instance/${operation}?${query}`);

beforeEach(async () => {
  await emulator.reset();
  network = await createNetwork(emulator);
});

describe("createInstance", () => {
  it("answers the Instance envelope with every field of the spec, Starting, then Running", async () => {
    const reply = await call("POST", "/restapi/instance/createInstance", input());
    expect(reply.status).toBe(200);
    expect(reply.body.count).toBe(1);
    const created = instanceOf(reply);
    expect(created).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "web-1",
      displayName: "web-1",
      description: "",
      zoneUuid: ZONE,
      templateUuid: UBUNTU,
      templateName: "Ubuntu 24.04 LTS",
      computeOfferingUuid: SMALL,
      cpuCore: "1",
      memory: "1024",
      rootDiskSize: 10,
      diskSize: 0,
      volumeSize: "10",
      storageOfferingUuid: "",
      networkUuid: network.uuid,
      networkName: "backend",
      instancePrivateIp: expect.any(String),
      sshUuid: "",
      instanceOwnerName: "demo",
      state: "Starting",
      status: "Active",
      isActive: true,
    });
    const [prefix] = String(network.getcIDR).split(".0/");
    expect(created.instancePrivateIp.startsWith(`${prefix}.`)).toBe(true);
    expect(created.instancePrivateIp).not.toBe(network.gateway);

    const running = await untilState(created.uuid, "Running");
    expect(running).toEqual({ ...created, state: "Running" });
    const status = await action("vmStatus", `uuid=${created.uuid}`);
    expect(status.body).toEqual({ uuid: created.uuid, status: "Running" });
  });

  it("gives each instance of a network its own address, and comes with a ROOT volume (and a data disk when asked)", async () => {
    const a = await runningInstance();
    const b = await runningInstance({
      name: "web-2",
      storageOfferingUuid: CATALOG_IDS.storageOfferings.ssdCustom,
      diskSize: 30,
      rootDiskSize: 25,
    });
    expect(a.instancePrivateIp).not.toBe(b.instancePrivateIp);
    expect(b).toMatchObject({ rootDiskSize: 25, diskSize: 30, volumeSize: "55" });
    const volumes = await call("GET", `/restapi/volume/volumeList?zoneUuid=${ZONE}&vmUuid=${b.uuid}`);
    const byType = Object.fromEntries(volumes.body.listVolumeResponse.map((v: Json) => [v.volumeType, v]));
    expect(byType.ROOT).toMatchObject({ storageDiskSize: "25", vmInstanceName: "web-2", status: "Ready" });
    expect(byType.DATADISK).toMatchObject({ storageDiskSize: "30", vmUuid: b.uuid, status: "Ready" });
  });

  it("takes vCPUs and memory from the caller for a custom offering, within its bounds", async () => {
    const custom = await runningInstance({ computeOfferingUuid: CUSTOM, cpuCore: "3", memory: "6144" });
    expect(custom).toMatchObject({ cpuCore: "3", memory: "6144", computeOfferingUuid: CUSTOM });
    const tooMuch = await call(
      "POST",
      "/restapi/instance/createInstance",
      input({ name: "x", computeOfferingUuid: CUSTOM, cpuCore: 2, memory: 32768 }),
    );
    expect(tooMuch.status).toBe(400);
    expect(errorOf(tooMuch).errorMsg).toMatch(/^memory:/);
  });

  it.each([
    ["name", { name: undefined }, 400, /^name: is required/],
    ["zoneUuid", { zoneUuid: undefined }, 400, /^zoneUuid: is required/],
    ["templateUuid", { templateUuid: undefined }, 400, /^templateUuid: is required/],
    ["computeOfferingUuid", { computeOfferingUuid: undefined }, 400, /^computeOfferingUuid: is required/],
    ["networkUuid", { networkUuid: undefined }, 400, /^networkUuid: is required/],
    ["a name that is no host name", { name: "web_1" }, 400, /^name:/],
    ["an unknown zone", { zoneUuid: "00000000-0000-4000-8000-000000000000" }, 404, /zone/],
    ["an unknown template", { templateUuid: "00000000-0000-4000-8000-000000000000" }, 404, /template/],
    ["a template the zone does not offer", { zoneUuid: MUMBAI, templateUuid: WINDOWS }, 400, /^templateUuid:/],
    ["an unknown network", { networkUuid: "00000000-0000-4000-8000-000000000000" }, 404, /network/],
    ["a compute offering too small for the template", { templateUuid: WINDOWS }, 400, /^computeOfferingUuid:/],
    ["cpuCore with a fixed offering", { cpuCore: "2" }, 400, /^cpuCore:/],
    ["a custom offering without cpuCore", { computeOfferingUuid: CUSTOM, memory: "2048" }, 400, /^cpuCore:/],
    ["a root disk below the template's", { rootDiskSize: 5 }, 400, /^rootDiskSize:/],
    ["diskSize without a storage offering", { diskSize: 10 }, 400, /^diskSize:/],
    ["an unknown hypervisor", { hypervisorName: "XenServer" }, 400, /^hypervisorName:/],
    ["an unknown security group", { securitygroupName: "nope" }, 404, /security group/],
  ])("refuses %s, and a rejected call changes nothing", async (_what, overrides, status, message) => {
    const reply = await call("POST", "/restapi/instance/createInstance", input(overrides));
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toMatch(message);
    const list = await call("GET", `/restapi/instance/instanceList?zoneUuid=${ZONE}`);
    expect(list.body).toEqual({ count: 0, listInstanceResponse: [] });
    const volumes = await call("GET", `/restapi/volume/volumeList?zoneUuid=${ZONE}`);
    expect(volumes.body.count).toBe(0);
  });

  it("refuses a network of another zone", async () => {
    const reply = await call(
      "POST",
      "/restapi/instance/createInstance",
      input({ zoneUuid: CATALOG_IDS.zones.singapore }),
    );
    expect(reply.status).toBe(400);
    expect(errorOf(reply).errorMsg).toMatch(/^networkUuid:/);
  });
});

describe("instanceList and vmStatus", () => {
  it("needs the zone, filters by vmUuid, and 404s an unknown instance", async () => {
    const a = await runningInstance();
    await runningInstance({ name: "web-2" });
    expect((await call("GET", "/restapi/instance/instanceList")).status).toBe(400);
    expect((await call("GET", `/restapi/instance/instanceList?zoneUuid=${ZONE}`)).body.count).toBe(2);
    const one = await call("GET", `/restapi/instance/instanceList?zoneUuid=${ZONE}&vmUuid=${a.uuid}`);
    expect(one.body.listInstanceResponse.map((i: Json) => i.uuid)).toEqual([a.uuid]);
    const unknown = await action("vmStatus", "uuid=00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).errorCode).toBe("NOT_FOUND");
  });
});

describe("power", () => {
  it("stops through Stopping and starts through Starting; refuses what the state does not allow", async () => {
    const { uuid } = await runningInstance();
    expect((await action("stopInstance", `uuid=${uuid}`)).status).toBe(400); // forceStop is required
    expect((await action("startInstance", `uuid=${uuid}`)).status).toBe(409); // already Running
    const stopping = await action("stopInstance", `uuid=${uuid}&forceStop=true`);
    expect(stopping.status).toBe(200);
    expect(instanceOf(stopping).state).toBe("Stopping");
    await untilState(uuid, "Stopped");

    const starting = await action("startInstance", `uuid=${uuid}`);
    expect(instanceOf(starting).state).toBe("Starting");
    await untilState(uuid, "Running");
    expect((await action("startInstance", "uuid=00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });
});

describe("in transitional states", () => {
  it("refuses to stop, resize, destroy or reconfigure a Starting instance", async () => {
    const slowNetwork = await createNetwork(slow, { name: "slow" });
    const created = await slow.call(
      "POST",
      "/restapi/instance/createInstance",
      input({ networkUuid: slowNetwork.uuid }),
    );
    const { uuid } = instanceOf(created);
    for (const query of [
      `stopInstance?uuid=${uuid}&forceStop=false`,
      `startInstance?uuid=${uuid}`,
      `resizeVm?uuid=${uuid}&offeringUuid=${MEDIUM}`,
      `destroyInstance?uuid=${uuid}&expunge=true`,
      `attachIso?uuid=${uuid}&isoUuid=iso-1`,
    ]) {
      const reply = await slow.call("GET", `/restapi/instance/${query}`);
      expect(reply.status).toBe(409);
      expect(errorOf(reply).errorMsg).toMatch(/is Starting/);
    }
  });
});

describe("resizeVm", () => {
  it("applies a fixed offering's size after the delay", async () => {
    const { uuid } = await runningInstance();
    const reply = await action("resizeVm", `uuid=${uuid}&offeringUuid=${MEDIUM}`);
    expect(reply.status).toBe(200);
    expect(instanceOf(reply).cpuCore).toBe("1"); // not yet
    const resized = await until(
      () => get(uuid),
      (i) => i?.cpuCore === "2",
    );
    expect(resized).toMatchObject({ computeOfferingUuid: MEDIUM, cpuCore: "2", memory: "4096", state: "Running" });
  });

  it("takes cpuCore and memory only for a custom offering", async () => {
    const { uuid } = await runningInstance();
    expect((await action("resizeVm", `uuid=${uuid}`)).status).toBe(400);
    const fixedWithCores = await action("resizeVm", `uuid=${uuid}&offeringUuid=${MEDIUM}&cpuCore=4`);
    expect(errorOf(fixedWithCores).errorMsg).toMatch(/^cpuCore:/);
    const customWithout = await action("resizeVm", `uuid=${uuid}&offeringUuid=${CUSTOM}&cpuCore=4`);
    expect(errorOf(customWithout).errorMsg).toMatch(/^memory:/);
    const unknown = await action("resizeVm", `uuid=${uuid}&offeringUuid=00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    await action("resizeVm", `uuid=${uuid}&offeringUuid=${CUSTOM}&cpuCore=4&memory=8192`);
    await until(
      () => get(uuid),
      (i) => i?.cpuCore === "4" && i.memory === "8192",
    );
  });
});

describe("destroy and recover", () => {
  it("destroys without expunge: Destroyed, still listed, the network stays in use; recovers to Stopped", async () => {
    const { uuid } = await runningInstance();
    const destroyed = await action("destroyInstance", `uuid=${uuid}&expunge=false`);
    expect(instanceOf(destroyed)).toMatchObject({ state: "Destroyed", isActive: false });
    expect((await get(uuid))?.state).toBe("Destroyed");
    expect((await action("startInstance", `uuid=${uuid}`)).status).toBe(409);
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${network.uuid}`)).status).toBe(409);

    const recovered = await action("recoverVm", `uuid=${uuid}`);
    expect(instanceOf(recovered)).toMatchObject({ state: "Stopped", status: "Active", isActive: true });
    expect((await action("recoverVm", `uuid=${uuid}`)).status).toBe(409);
  });

  it("expunges: Expunging, then gone with its ROOT volume; data volumes are released; the network is free", async () => {
    const { uuid } = await runningInstance();
    const volumeUuid = (await allocatedVolume(emulator)).uuid;
    const listVolume = async () =>
      (await call("GET", `/restapi/volume/volumeList?zoneUuid=${ZONE}&uuid=${volumeUuid}`)).body.listVolumeResponse[0];
    await call("GET", `/restapi/volume/attachVolume?uuid=${volumeUuid}&instanceUuid=${uuid}`);
    await until(listVolume, (v) => v.vmUuid === uuid);

    expect((await action("destroyInstance", `uuid=${uuid}`)).status).toBe(400); // expunge is required
    const expunging = await action("destroyInstance", `uuid=${uuid}&expunge=true`);
    expect(instanceOf(expunging).state).toBe("Expunging");
    expect((await listVolume()).vmUuid).toBe("");
    await until(
      () => get(uuid),
      (i) => i === undefined,
    );
    const left = await call("GET", `/restapi/volume/volumeList?zoneUuid=${ZONE}`);
    expect(left.body.listVolumeResponse.map((v: Json) => v.uuid)).toEqual([volumeUuid]);
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${network.uuid}`)).status).toBe(200);
  });

  it("expunges a destroyed instance", async () => {
    const { uuid } = await runningInstance();
    await action("destroyInstance", `uuid=${uuid}&expunge=false`);
    expect((await action("destroyInstance", `uuid=${uuid}&expunge=false`)).status).toBe(409);
    expect((await action("destroyInstance", `uuid=${uuid}&expunge=true`)).status).toBe(200);
    await until(
      () => get(uuid),
      (i) => i === undefined,
    );
  });
});

describe("updateInstanceName", () => {
  it("answers 202 with the current record; the new display name shows after the delay", async () => {
    const { uuid } = await runningInstance();
    const reply = await call("PUT", "/restapi/instance/updateInstanceName", { uuid, displayName: "Web server" });
    expect(reply.status).toBe(202);
    expect(instanceOf(reply).displayName).toBe("web-1");
    await until(
      () => get(uuid),
      (i) => i?.displayName === "Web server",
    );
    expect((await call("PUT", "/restapi/instance/updateInstanceName", { uuid })).status).toBe(400);
  });
});

describe("networks of an instance", () => {
  it("lists the default network, attaches and detaches another one, and keeps it in use meanwhile", async () => {
    const instance = await runningInstance();
    const listNetworks = async () =>
      (await action("instanceNetworkList", `uuid=${instance.uuid}`)).body as {
        count: number;
        svcInstanceNetworkResponses: Json[];
      };
    expect(await listNetworks()).toEqual({
      count: 1,
      svcInstanceNetworkResponses: [
        {
          uuid: network.uuid,
          name: "backend",
          type: network.networkType,
          defaultNetwork: true,
          privateIp: instance.instancePrivateIp,
          gateway: network.gateway,
          netmask: "255.255.255.0",
          publicIp: "",
          status: "Active",
          isActive: true,
        },
      ],
    });

    const second = await createNetwork(emulator, { name: "frontend" });
    const pair = { uuid: instance.uuid, networkUuid: second.uuid };
    const attached = await call("POST", "/restapi/instance/attachNetwork", pair);
    expect(attached.status).toBe(200);
    expect(instanceOf(attached).uuid).toBe(instance.uuid);
    expect((await call("POST", "/restapi/instance/attachNetwork", pair)).status).toBe(409);
    const both = await listNetworks();
    expect(both.count).toBe(2);
    expect(both.svcInstanceNetworkResponses[1]).toMatchObject({ uuid: second.uuid, defaultNetwork: false });
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${second.uuid}`)).status).toBe(409);

    const detachDefault = await call("POST", "/restapi/instance/detachNetwork", {
      uuid: instance.uuid,
      networkUuid: network.uuid,
    });
    expect(detachDefault.status).toBe(409);
    const detached = await call("POST", "/restapi/instance/detachNetwork", pair);
    expect(detached.status).toBe(200);
    expect(detached.body.listInstanceResponse[0].uuid).toBe(instance.uuid);
    expect((await listNetworks()).count).toBe(1);
    expect((await call("POST", "/restapi/instance/detachNetwork", pair)).status).toBe(409);
    expect((await call("POST", "/restapi/instance/attachNetwork", { uuid: instance.uuid })).status).toBe(400);
  });

  it("shows the public address static NAT gives the instance", async () => {
    const instance = await runningInstance();
    const ip = await acquireIp(emulator, network.uuid);
    const nat = await call("POST", "/restapi/ipaddress/enableStaticNat", {
      ipAddressUuid: ip.uuid,
      vmUuid: instance.uuid,
      networkUuid: network.uuid,
    });
    expect(nat.status).toBe(200);
    const networks = await action("instanceNetworkList", `uuid=${instance.uuid}`);
    expect(networks.body.svcInstanceNetworkResponses[0].publicIp).toBe(ip.publicIpAddress);
  });
});

describe("ISOs, SSH keys and passwords (parameters not shown by the spec)", () => {
  it("attaches one ISO at a time and detaches it", async () => {
    const { uuid } = await runningInstance();
    expect((await action("attachIso", `uuid=${uuid}`)).status).toBe(400);
    expect((await action("attachIso", `uuid=${uuid}&isoUuid=iso-1`)).status).toBe(200);
    expect((await action("attachIso", `uuid=${uuid}&isoUuid=iso-2`)).status).toBe(409);
    const detached = await action("detachIso", `uuid=${uuid}`);
    expect(instanceOf(detached).uuid).toBe(uuid);
    expect((await action("detachIso", `uuid=${uuid}`)).status).toBe(409);
  });

  it("resets the SSH key of a stopped instance only", async () => {
    const { uuid } = await runningInstance({ sshKeyName: "laptop" });
    expect((await get(uuid))?.sshUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await action("resetSSHkey", `uuid=${uuid}&sshKeyName=desk`)).status).toBe(409);
    await action("stopInstance", `uuid=${uuid}&forceStop=false`);
    const before = await untilState(uuid, "Stopped");
    const reset = await action("resetSSHkey", `uuid=${uuid}&sshKeyName=desk`);
    expect(reset.status).toBe(200);
    expect(instanceOf(reset).sshUuid).not.toBe(before?.sshUuid);
  });

  it("lists the instance's password", async () => {
    const { uuid } = await runningInstance();
    const reply = await action("instancePasswordList", `uuid=${uuid}`);
    expect(reply.body).toEqual({
      count: 1,
      listInstancePasswordResponse: [
        { uuid, name: "web-1", password: expect.stringMatching(/^\w{12}$/), status: "Active", isActive: true },
      ],
    });
  });
});
