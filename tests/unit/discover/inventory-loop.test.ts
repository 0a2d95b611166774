/**
 * listAccount's loop over the declarations' inventory facets (provider/discover/inventory.ts): shared
 * lists asked once per zone, account-wide facets first (their marks seen by the zones'), marks
 * applied to other kinds' records, counts summed, duplicates dropped, owner tags added by tag type.
 */
import type { RestCloudClient } from "../../../provider/client";
import type { ResourceDeclaration } from "../../../provider/engine/declaration";
import type { InventoryFacet } from "../../../provider/engine/inventory";
import { listAccount } from "../../../provider/discover/inventory";

const declaration = (type: string, inventory: InventoryFacet, tagType?: string) =>
  ({ type, inventory, ...(tagType ? { tagType } : {}) }) as unknown as ResourceDeclaration;

test("the facets' records, marks, counts, shared lists and owner tags", async () => {
  let sharedCalls = 0;
  const client = {
    costEstimate: { zones: async () => [{ uuid: "z1" }, { uuid: "z2" }] },
    resourceTag: {
      list: async ({ resourceType }: { resourceType: string }) =>
        resourceType === "UserVm"
          ? [{ key: "pulumi-owner", resourceUuid: "vm-z1", value: "urn:pulumi:dev::p::t::n" }]
          : [],
    },
  } as unknown as RestCloudClient;
  const shared = (lists: Parameters<InventoryFacet["list"]>[0]) =>
    lists.once("vm.list", async () => {
      sharedCalls++;
      return [`vm-${lists.zoneUuid}`, "node"];
    });
  const seenMarked: boolean[] = [];
  const declarations = [
    declaration("Cluster", {
      accountWide: true,
      list: async () => [{ id: "c1" }],
      marks: async () => [{ kinds: ["Vm"], id: "node", derived: "a node", derivedFrom: "c1" }],
    }),
    declaration(
      "Vm",
      {
        list: async (lists) => (await shared(lists)).map((id) => ({ id })),
        destroyed: async () => 2,
        marks: async (lists) => [
          { kinds: ["Disk"], id: `disk-${lists.zoneUuid}`, derived: "its disk", outlives: true },
        ],
      },
      "UserVm",
    ),
    declaration("Disk", {
      list: async (lists) => [{ id: `disk-${lists.zoneUuid}` }, { id: `disk-${lists.zoneUuid}` }],
    }),
    declaration("Nat", {
      list: async (lists) => {
        seenMarked.push(lists.marked("Vm", "node"));
        await shared(lists);
        return [];
      },
    }),
    { type: "Unlisted" } as unknown as ResourceDeclaration,
  ];

  const inventory = await listAccount(client, declarations);

  expect(inventory.zoneUuids).toEqual(["z1", "z2"]);
  expect(inventory.destroyedInstances).toBe(4);
  expect(sharedCalls).toBe(2); // once per zone, for Vm and Nat alike
  expect(seenMarked).toEqual([true, true]);
  const byKey = new Map(inventory.records.map((r) => [`${r.kind}/${r.id}/${r.zoneUuid ?? ""}`, r]));
  expect(byKey.get("Cluster/c1/")).toEqual({ kind: "Cluster", id: "c1" });
  expect(byKey.get("Vm/vm-z1/z1")).toEqual({
    kind: "Vm",
    id: "vm-z1",
    zoneUuid: "z1",
    ownerTag: "urn:pulumi:dev::p::t::n",
  });
  // A node is listed once (per kind and id), marked by the cluster's facet.
  expect(inventory.records.filter((r) => r.id === "node")).toEqual([
    { kind: "Vm", id: "node", zoneUuid: "z1", derived: "a node", derivedFrom: "c1" },
  ]);
  expect(byKey.get("Disk/disk-z2/z2")).toEqual({
    kind: "Disk",
    id: "disk-z2",
    zoneUuid: "z2",
    derived: "its disk",
    outlives: true,
  });
  expect(inventory.records.filter((r) => r.kind === "Disk")).toHaveLength(2);
});
