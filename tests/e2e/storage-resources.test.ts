/**
 * The storage resources (VmSnapshot, VolumeSnapshot, SnapshotPolicy, ResourceTag) through their whole
 * lifecycle with the real Pulumi CLI against the emulator: create, a no-change preview, a revert in
 * place (revertTrigger), replacements, drift and out-of-band deletes found by refresh and undone by
 * up, and a destroy that leaves the account empty. The program finds its catalog
 * ids with the look-up functions, configured by the stack alone.
 */
import type { RunningEmulator } from "../../emulator";
import type { RestCloudClient } from "../../provider/client";
import { DEMO_KEYS, type CatalogIds } from "./catalog-ids";
import type { TestStack } from "./harness";
import { expected, operationsOf, resourceStack } from "./resource-stack";

jest.setTimeout(600_000);

const STORAGE = ["vmSnapshot", "volumeSnapshot", "policy", "volumeTag", "snapshotTag"];
const SUPPORT = ["network", "instance", "volume"];
const COLLECTIONS = ["network", "instance", "volume", "vmsnapshot", "snapshot", "snapshotpolicy", "tag"];

describe("storage resources with the real Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let client: RestCloudClient;
  let zoneUuid: string;
  let stack: TestStack;

  beforeAll(async () => {
    let catalog: CatalogIds;
    ({ emulator, client, catalog, stack } = await resourceStack("storage"));
    zoneUuid = catalog.zoneUuid;
  });

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
  });

  async function operationCount(name: string): Promise<number> {
    const stats = (await (await fetch(`${emulator.url}/_emulator/stats`)).json()) as {
      byOperation: Record<string, number>;
    };
    return stats.byOperation[name] ?? 0;
  }

  async function accountRecords(): Promise<Record<string, number>> {
    const response = await fetch(`${emulator.url}/_emulator/resources?account=demo`);
    const collections = (await response.json()) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(COLLECTIONS.map((c) => [c, Object.keys(collections[c] ?? {}).length]));
  }

  const vmSnapshotOf = async (id: string) => (await client.vmSnapshot.list({ zoneUuid, uuid: id }))[0];
  const snapshotOf = async (id: string) => (await client.snapshot.list({ zoneUuid, uuid: id }))[0];
  const tagOf = async (id: string) => (await client.resourceTag.list({ uuid: id }))[0];
  const policyOf = async (volumeUuid: string, id: string) =>
    (await client.snapshotPolicy.list({ volumeUuid, uuid: id }))[0];

  test("up creates every resource, awaiting the snapshots; a second preview finds no change", async () => {
    const created = await stack.up();
    expect(operationsOf(created.operations, [...SUPPORT, ...STORAGE])).toEqual(
      expected("create", [...SUPPORT, ...STORAGE]),
    );
    const out = created.outputs;
    expect(out.templateName).toBe("Ubuntu 24.04 LTS"); // found by getTemplate in the program
    // The create waited for the job and for BackingUp -> BackedUp.
    expect(out.vmSnapshotStatus).toBe("Ready");
    expect(out.vmSnapshotIsCurrent).toBe(true);
    expect(out.volumeSnapshotStatus).toBe("BackedUp");

    expect(await vmSnapshotOf(out.vmSnapshotId as string)).toMatchObject({
      description: "before the upgrade",
      status: "Ready",
    });
    expect(await snapshotOf(out.volumeSnapshotId as string)).toMatchObject({
      name: "data-backup-1",
      volumeUuid: out.volumeId,
    });
    expect(await policyOf(out.volumeId as string, out.policyId as string)).toMatchObject({
      intervalType: "WEEKLY",
      scheduleTime: "02:00",
      dayOfWeek: "1",
      timeZone: "Europe/Berlin",
      maximumSnapshots: "4",
    });
    expect(await tagOf(out.volumeTagId as string)).toMatchObject({
      resourceType: "Volume",
      resourceUuid: out.volumeId,
      key: "tier",
      value: "silver",
    });
    expect(await tagOf(out.snapshotTagId as string)).toMatchObject({
      resourceType: "VMSnapshot",
      resourceUuid: out.vmSnapshotId,
    });

    const again = await stack.preview({ expectNoChanges: true });
    expect(operationsOf(again.operations, STORAGE)).toEqual(expected("same", STORAGE));
  });

  test("setting revertTrigger reverts the instance in place, once", async () => {
    const before = await stack.outputs();
    await stack.setConfig("step", "1");
    expect(await operationCount("revertToVmSnapshot")).toBe(0);
    const updated = await stack.up();
    expect(updated.operations.vmSnapshot).toBe("update");
    const others = STORAGE.filter((n) => n !== "vmSnapshot");
    expect(operationsOf(updated.operations, others)).toEqual(expected("same", others));
    expect(updated.outputs.vmSnapshotId).toBe(before.vmSnapshotId);
    expect(await operationCount("revertToVmSnapshot")).toBe(1);
    // The revert's job was awaited: the snapshot is Ready again, and current.
    expect(await vmSnapshotOf(updated.outputs.vmSnapshotId as string)).toMatchObject({
      status: "Ready",
      isCurrent: true,
    });

    await stack.preview({ expectNoChanges: true });
    expect(await operationCount("revertToVmSnapshot")).toBe(1);
  });

  test("changed replacing arguments replace, and the old records are gone", async () => {
    const before = await stack.outputs();
    await stack.setConfig("step", "2");
    const replaced = await stack.up();
    expect(operationsOf(replaced.operations, STORAGE)).toEqual(expected("replace", STORAGE));
    expect(operationsOf(replaced.operations, SUPPORT)).toEqual(expected("same", SUPPORT));
    const out = replaced.outputs;
    expect(await vmSnapshotOf(before.vmSnapshotId as string)).toBeUndefined();
    expect(await snapshotOf(before.volumeSnapshotId as string)).toBeUndefined();
    expect(await policyOf(out.volumeId as string, before.policyId as string)).toBeUndefined();
    expect(await tagOf(before.volumeTagId as string)).toBeUndefined();

    expect(await vmSnapshotOf(out.vmSnapshotId as string)).toMatchObject({ description: "before the upgrade, again" });
    expect(await snapshotOf(out.volumeSnapshotId as string)).toMatchObject({ name: "data-backup-2" });
    expect(await policyOf(out.volumeId as string, out.policyId as string)).toMatchObject({ scheduleTime: "03:30" });
    expect(await tagOf(out.volumeTagId as string)).toMatchObject({ key: "tier", value: "gold" });
    expect(await tagOf(out.snapshotTagId as string)).toMatchObject({ resourceUuid: out.vmSnapshotId });
    expect(await operationCount("revertToVmSnapshot")).toBe(1);
    await stack.preview({ expectNoChanges: true });
  });

  test("out-of-band changes and deletes are found by refresh and undone by up", async () => {
    const outputs = await stack.outputs();
    // The API cannot change a tag or a policy; the portal can. Change the records in the emulator.
    const demo = emulator.scope("demo");
    demo.collection("tag")[outputs.volumeTagId as string]!.value = "bronze";
    demo.collection("snapshotpolicy")[outputs.policyId as string]!.maximumSnapshots = "9";
    await client.snapshot.delete({ uuid: outputs.volumeSnapshotId as string });
    await client.vmSnapshot.delete({ uuid: outputs.vmSnapshotId as string }); // takes its tag with it

    const refreshed = await stack.refresh();
    expect(operationsOf(refreshed.operations, STORAGE)).toEqual({
      volumeTag: "update",
      policy: "update",
      volumeSnapshot: "delete",
      vmSnapshot: "delete",
      snapshotTag: "delete",
    });

    const restored = await stack.up();
    expect(operationsOf(restored.operations, STORAGE)).toEqual({
      volumeTag: "replace",
      policy: "replace",
      volumeSnapshot: "create",
      vmSnapshot: "create",
      snapshotTag: "create",
    });
    const out = restored.outputs;
    expect(await tagOf(out.volumeTagId as string)).toMatchObject({ value: "gold" });
    expect(await policyOf(out.volumeId as string, out.policyId as string)).toMatchObject({ maximumSnapshots: "4" });
    expect(out.vmSnapshotId).not.toBe(outputs.vmSnapshotId);
    expect(await tagOf(out.snapshotTagId as string)).toMatchObject({ resourceUuid: out.vmSnapshotId });
    // The recreated snapshot is not reverted to: revertTrigger's value at creation reverts nothing.
    expect(await operationCount("revertToVmSnapshot")).toBe(1);
    await stack.preview({ expectNoChanges: true });
  });

  test("the state holds no credential in plain text", () => {
    const state = stack.stateFileText();
    expect(state.length).toBeGreaterThan(1000);
    expect(state).not.toContain(DEMO_KEYS.apiKey);
    expect(state).not.toContain(DEMO_KEYS.secretKey);
  });

  test("destroy leaves the account with none of the program's resources", async () => {
    const destroyed = await stack.destroy();
    expect(operationsOf(destroyed.operations, [...SUPPORT, ...STORAGE])).toEqual(
      expected("delete", [...SUPPORT, ...STORAGE]),
    );
    expect(await accountRecords()).toEqual(Object.fromEntries(COLLECTIONS.map((c) => [c, 0])));
  });
});
