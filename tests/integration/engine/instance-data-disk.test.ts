/**
 * An instance created with `diskSize` gets a data disk from the service (`DATA-<name>`), which its
 * expunge detaches and leaves behind: the instance's delete deletes it too, also when an earlier
 * delete expunged the instance and stopped before the disk. A volume of the same name that is
 * attached to another instance is never touched.
 */
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import type { ResourceDeclaration } from "../../../provider/engine/declaration";
import { Engine } from "../../../provider/engine/engine";
import { IdentityRegistry } from "../../../provider/engine/identity";
import { instanceDeclaration } from "../../../provider/resources/instance";
import { networkDeclaration } from "../../../provider/resources/network";
import { discoverCatalog, type CatalogIds } from "../../e2e/catalog-ids";

jest.setTimeout(120_000);

let emulator: RunningEmulator;
let catalog: CatalogIds;
let client: RestCloudClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 0 });
  catalog = await discoverCatalog(emulator.url);
  client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_CREDENTIALS });
});
afterAll(async () => emulator?.stop());

const engine = (declaration: unknown) =>
  new Engine(declaration as ResourceDeclaration, {
    client: () => client,
    settings: () => ({ zoneUuid: catalog.zoneUuid }),
    identities: new IdentityRegistry(),
  });

async function create(declaration: unknown, args: Record<string, unknown>, name: string) {
  const e = engine(declaration);
  const { inputs, failures } = e.check({}, args, { logicalName: name });
  expect(failures).toEqual([]);
  return { engine: e, ...(await e.create(inputs)) };
}

const volumesNamed = async (name: string) =>
  (await client.volume.list({ zoneUuid: catalog.zoneUuid })).filter((v) => v.name === name);

test("the instance's delete deletes the data disk made with it", async () => {
  const network = await create(networkDeclaration, { networkOfferingUuid: catalog.isolatedOfferingUuid }, "net");
  const vm = await create(
    instanceDeclaration,
    {
      templateUuid: catalog.ubuntuTemplateUuid,
      computeOfferingUuid: catalog.smallPlanUuid,
      networkUuid: network.id,
      diskSize: 20,
      storageOfferingUuid: catalog.customStoragePlanUuid,
    },
    "batch",
  );
  const disk = `DATA-${String(vm.state.name)}`;
  expect(await volumesNamed(disk)).toHaveLength(1);

  await vm.engine.delete(vm.id, vm.state);
  expect(await volumesNamed(disk)).toEqual([]);

  // A delete that expunged the instance and stopped before its disk: the next one finishes.
  const again = await create(
    instanceDeclaration,
    {
      templateUuid: catalog.ubuntuTemplateUuid,
      computeOfferingUuid: catalog.smallPlanUuid,
      networkUuid: network.id,
      diskSize: 10,
      storageOfferingUuid: catalog.customStoragePlanUuid,
    },
    "batch2",
  );
  const secondDisk = `DATA-${String(again.state.name)}`;
  await client.instance.destroy({ uuid: again.id, expunge: true });
  for (let i = 0; i < 100 && (await client.instance.list({ zoneUuid: catalog.zoneUuid, vmUuid: again.id })).length; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await volumesNamed(secondDisk)).toHaveLength(1);
  await again.engine.delete(again.id, again.state);
  expect(await volumesNamed(secondDisk)).toEqual([]);
  await network.engine.delete(network.id, network.state);
});
