/**
 * The core resources through their whole lifecycle with the real Pulumi CLI against the emulator:
 * create, a no-change preview, updates in place that reach the emulator, replacements, drift found by
 * refresh, out-of-band deletes dropped by refresh and recreated by up, and a destroy that leaves the
 * account empty. Also: the state holds no credential and no registry password in plain text.
 */
import type { RunningEmulator } from "../../emulator";
import type { RestCloudClient } from "../../provider/client";
import { DEMO_KEYS, type CatalogIds } from "./catalog-ids";
import type { TestStack } from "./harness";
import { expected, operationsOf, resourceStack } from "./resource-stack";

jest.setTimeout(900_000);

const REGISTRY_PASSWORD = "registry-password-e2e-7f3a";
const RESOURCES = ["vpc", "tier", "network", "instance", "volume", "ip", "firewall", "egress", "cluster"];
const RESOURCE_COLLECTIONS = [
  "vpc",
  "network",
  "instance",
  "volume",
  "ipaddress",
  "firewallrule",
  "egressrule",
  "cluster",
  "nic",
];

describe("core resources with the real Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let client: RestCloudClient;
  let catalog: CatalogIds;
  let stack: TestStack;

  beforeAll(async () => {
    ({ emulator, client, catalog, stack } = await resourceStack("core", {
      registryPassword: { value: REGISTRY_PASSWORD, secret: true },
    }));
  });

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
  });

  async function accountRecords(): Promise<Record<string, number>> {
    const response = await fetch(`${emulator.url}/_emulator/resources?account=demo`);
    const collections = (await response.json()) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(RESOURCE_COLLECTIONS.map((c) => [c, Object.keys(collections[c] ?? {}).length]));
  }

  test("up creates every resource; a second preview finds no change", async () => {
    const created = await stack.up();
    expect(operationsOf(created.operations, RESOURCES)).toEqual(expected("create", RESOURCES));
    expect(created.outputs.vpcCidr).toBe("10.10.0.0/16");
    expect(created.outputs.tierNetmask).toBe("255.255.255.0");
    expect(created.outputs.instanceIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(created.outputs.publicIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(created.outputs.clusterPassword).toBe(REGISTRY_PASSWORD); // decrypted by the harness

    const vpc = await client.vpc.get({ uuid: created.outputs.vpcId as string });
    expect(vpc).toMatchObject({ getcIDR: "10.10.0.0/16", description: "initial" });
    const volume = (
      await client.volume.list({ zoneUuid: catalog.zoneUuid, uuid: created.outputs.volumeId as string })
    )[0];
    expect(volume).toMatchObject({ vmUuid: created.outputs.instanceId, storageDiskSize: "20" });

    const again = await stack.preview({ expectNoChanges: true });
    expect(operationsOf(again.operations, RESOURCES)).toEqual(expected("same", RESOURCES));
  });

  test("changed updatable arguments update in place, and the changes reach the emulator", async () => {
    await stack.setConfig("step", "1");
    // The up's own steps (a preview first would plan the same diffs with the same engine code).
    const updated = await stack.up();
    const updatable = ["vpc", "tier", "network", "instance", "volume", "cluster"];
    expect(operationsOf(updated.operations, updatable)).toEqual(expected("update", updatable));
    expect(operationsOf(updated.operations, ["ip", "firewall", "egress"])).toEqual(
      expected("same", ["ip", "firewall", "egress"]),
    );
    const outputs = updated.outputs;
    expect(await client.vpc.get({ uuid: outputs.vpcId as string })).toMatchObject({ description: "updated" });
    expect(await client.network.get({ uuid: outputs.networkId as string })).toMatchObject({
      name: "e2e-network-renamed",
    });
    const instance = (
      await client.instance.list({ zoneUuid: catalog.zoneUuid, vmUuid: outputs.instanceId as string })
    )[0];
    expect(instance).toMatchObject({
      computeOfferingUuid: catalog.largePlanUuid,
      displayName: "web-renamed",
      state: "Running",
    });
    const volume = (await client.volume.list({ zoneUuid: catalog.zoneUuid, uuid: outputs.volumeId as string }))[0];
    expect(volume).toMatchObject({ storageDiskSize: "30" });
    const cluster = (await client.kubernetes.list({ clusterUuid: outputs.clusterId as string }))[0];
    expect(cluster).toMatchObject({ size: 3, state: "Running" });
    await stack.preview({ expectNoChanges: true });
  });

  test("changed replacing arguments replace, and the old records are gone", async () => {
    const before = await stack.outputs();
    await stack.setConfig("step", "2");
    const replaced = await stack.up();
    const replacing = ["vpc", "tier", "instance", "volume", "firewall", "egress", "cluster"];
    expect(operationsOf(replaced.operations, replacing)).toEqual(expected("replace", replacing));
    expect(operationsOf(replaced.operations, ["network", "ip"])).toEqual(expected("same", ["network", "ip"]));
    expect(replaced.outputs.vpcCidr).toBe("10.20.0.0/16");
    expect(await client.vpc.get({ uuid: before.vpcId as string })).toBeUndefined();
    const instances = await client.instance.list({ zoneUuid: catalog.zoneUuid });
    expect(instances.find((i) => i.uuid === before.instanceId)).toBeUndefined();
    const volume = (
      await client.volume.list({ zoneUuid: catalog.zoneUuid, uuid: replaced.outputs.volumeId as string })
    )[0];
    expect(volume).toMatchObject({ vmUuid: replaced.outputs.instanceId }); // reattached to the new instance
  });

  test("an out-of-band change is found by refresh and undone by up", async () => {
    const outputs = await stack.outputs();
    await client.vpc.update({ uuid: outputs.vpcId as string, name: "renamed-out-of-band" });
    await client.instance.stop({ uuid: outputs.instanceId as string, forceStop: false });
    await new Promise((resolve) => setTimeout(resolve, 500)); // the 202 update and the stop settle

    // (`preview --refresh` reads the same drift with the same Read: the demo shows it, examples.test.ts.)
    const refreshed = await stack.refresh();
    expect(refreshed.operations.vpc).toBe("update");
    expect(refreshed.operations.instance).toBe("update");

    const restored = await stack.up();
    expect(restored.operations.vpc).toBe("update");
    expect(restored.operations.instance).toBe("update");
    expect((await client.vpc.get({ uuid: outputs.vpcId as string }))?.name).not.toBe("renamed-out-of-band");
    const instance = (
      await client.instance.list({ zoneUuid: catalog.zoneUuid, vmUuid: outputs.instanceId as string })
    )[0];
    expect(instance?.state).toBe("Running");
    await stack.preview({ expectNoChanges: true });
  });

  test("an out-of-band delete is dropped by refresh and recreated by up", async () => {
    const outputs = await stack.outputs();
    await client.firewallRule.delete({ uuid: outputs.firewallId as string });
    await client.egressRule.delete({ uuid: outputs.egressId as string });

    const refreshed = await stack.refresh();
    expect(refreshed.operations.firewall).toBe("delete");
    expect(refreshed.operations.egress).toBe("delete");

    const recreated = await stack.up();
    expect(recreated.operations.firewall).toBe("create");
    expect(recreated.operations.egress).toBe("create");
    expect(recreated.outputs.firewallId).not.toBe(outputs.firewallId);
  });

  test("the state holds neither credential nor the registry password in plain text", () => {
    const state = stack.stateFileText();
    expect(state.length).toBeGreaterThan(1000);
    expect(state).not.toContain(DEMO_KEYS.apiKey);
    expect(state).not.toContain(DEMO_KEYS.secretKey);
    expect(state).not.toContain(REGISTRY_PASSWORD);
  });

  test("destroy leaves the account with none of the program's resources", async () => {
    const destroyed = await stack.destroy();
    expect(operationsOf(destroyed.operations, RESOURCES)).toEqual(expected("delete", RESOURCES));
    expect(await accountRecords()).toEqual(Object.fromEntries(RESOURCE_COLLECTIONS.map((c) => [c, 0])));
  });
});
