/**
 * The engine drives every wait a declaration states (provider/engine/waits.ts), against an emulator
 * whose asynchronous work takes a while (state changes, jobs, updates that show late):
 * - after a create, `ready` and the follow-up steps of `createdAs` (an instance made Stopped, with a
 *   display name and a second network; a volume attached at create; a cluster stopped at create);
 * - an update step's `showing` wait: the record reads back the update when update returns;
 * - a delete's `gone` wait: the record is no longer listed when delete returns;
 * - a wait that cannot end fails the operation at its timeout, and a failed ready wait keeps the id.
 */
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import type { ResourceDeclaration } from "../../../provider/engine/declaration";
import { Engine, ResourceInitError } from "../../../provider/engine/engine";
import { IdentityRegistry } from "../../../provider/engine/identity";
import { instanceDeclaration } from "../../../provider/resources/instance";
import { kubernetesClusterDeclaration } from "../../../provider/resources/kubernetes-cluster";
import { networkDeclaration } from "../../../provider/resources/network";
import { volumeDeclaration } from "../../../provider/resources/volume";
import { vpcDeclaration } from "../../../provider/resources/vpc";
import { discoverCatalog, type CatalogIds } from "../../e2e/catalog-ids";

jest.setTimeout(120_000);

const ASYNC_DELAY_MS = 300;
let emulator: RunningEmulator;
let catalog: CatalogIds;
let client: RestCloudClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: ASYNC_DELAY_MS });
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

async function create(declaration: unknown, args: Record<string, unknown>, name: string, timeoutMs?: number) {
  const e = engine(declaration);
  const { inputs, failures } = e.check({}, args, { logicalName: name });
  expect(failures).toEqual([]);
  return { engine: e, inputs, ...(await e.create(inputs, timeoutMs === undefined ? {} : { timeoutMs })) };
}

const network = () => create(networkDeclaration, { networkOfferingUuid: catalog.isolatedOfferingUuid }, "net");
const instanceRecord = async (id: string) =>
  (await client.instance.list({ zoneUuid: catalog.zoneUuid, vmUuid: id })).find((vm) => vm.uuid === id);

test("an instance declared Stopped, with a display name and a second network, is so when its create returns", async () => {
  const [first, second] = [await network(), await network()];
  const vm = await create(
    instanceDeclaration,
    {
      templateUuid: catalog.ubuntuTemplateUuid,
      computeOfferingUuid: catalog.smallPlanUuid,
      networkUuid: first.id,
      displayName: "shown-name",
      additionalNetworkUuids: [second.id],
      state: "Stopped",
    },
    "app",
  );
  const record = await instanceRecord(vm.id);
  expect(record).toMatchObject({ state: "Stopped", displayName: "shown-name" });
  const nics = await client.instance.networks({ uuid: vm.id });
  expect(nics.map((n) => n.uuid)).toEqual(expect.arrayContaining([first.id, second.id]));
  expect(vm.state).toMatchObject({ state: "Stopped", displayName: "shown-name" });

  // An update that starts it: Running when update returns (startInstance, then the state awaited).
  const news = { ...vm.inputs, state: "Running" };
  await vm.engine.update(vm.id, vm.state, news);
  expect((await instanceRecord(vm.id))?.state).toBe("Running");

  // The delete returns once the instance is gone from its list (expunged).
  await vm.engine.delete(vm.id, { ...vm.state, ...news });
  expect(await instanceRecord(vm.id)).toBeUndefined();
});

test("a volume declared attached is attached when its create returns, and detached by its delete", async () => {
  const net = await network();
  const vm = await create(
    instanceDeclaration,
    { templateUuid: catalog.ubuntuTemplateUuid, computeOfferingUuid: catalog.smallPlanUuid, networkUuid: net.id },
    "host",
  );
  const volume = await create(
    volumeDeclaration,
    { storageOfferingUuid: catalog.customStoragePlanUuid, size: 10, instanceUuid: vm.id },
    "data",
  );
  const listed = async () =>
    (await client.volume.list({ zoneUuid: catalog.zoneUuid, uuid: volume.id })).find((v) => v.uuid === volume.id);
  expect((await listed())?.vmUuid).toBe(vm.id);
  await volume.engine.delete(volume.id, volume.state);
  expect(await listed()).toBeUndefined();
  await vm.engine.delete(vm.id, vm.state);
});

test("a cluster declared Stopped is stopped when its create returns", async () => {
  const net = await network();
  const cluster = await create(
    kubernetesClusterDeclaration,
    {
      kubernetesVersionUuid: catalog.kubernetesVersionUuid,
      computeOfferingUuid: catalog.smallPlanUuid,
      networkUuid: net.id,
      size: 1,
      state: "Stopped",
    },
    "k8s",
  );
  const listed = async () =>
    (await client.kubernetes.list({ clusterUuid: cluster.id })).find((c) => c.uuid === cluster.id);
  expect((await listed())?.state).toBe("Stopped");
  await cluster.engine.delete(cluster.id, cluster.state);
  expect(await listed()).toBeUndefined();
});

test("an update returns once the record shows it (updateVpc answers before the change is visible)", async () => {
  const vpc = await create(vpcDeclaration, { cidr: "10.7.0.0/16", vpcOfferingUuid: catalog.vpcOfferingUuid }, "web");
  const news = { ...vpc.inputs, description: "shown after a while" };
  await vpc.engine.update(vpc.id, vpc.state, news);
  const listed = (await client.vpc.list({ zoneUuid: catalog.zoneUuid, uuid: vpc.id })).find((v) => v.uuid === vpc.id);
  expect(listed?.description).toBe("shown after a while");
  await vpc.engine.delete(vpc.id, { ...vpc.state, ...news });
});

test("a ready wait that cannot end fails at the create's timeout and keeps the id", async () => {
  const net = await network();
  // The instance takes ASYNC_DELAY_MS to be Running: a timeout shorter than that ends the wait.
  const e = engine(instanceDeclaration);
  const { inputs } = e.check(
    {},
    { templateUuid: catalog.ubuntuTemplateUuid, computeOfferingUuid: catalog.smallPlanUuid, networkUuid: net.id },
    { logicalName: "slow" },
  );
  const failure = await e.create(inputs, { timeoutMs: 50 }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ResourceInitError);
  const init = failure as ResourceInitError;
  expect(init.message).toMatch(/was created but did not become ready/);
  expect(init.message).toMatch(/instance .* to be Running/);
  expect(await instanceRecord(init.id)).toBeDefined();

  // The next update finishes the create (pendingReady): Running, then nothing else to do.
  await e.update(init.id, init.properties, inputs, { pendingReady: true });
  expect((await instanceRecord(init.id))?.state).toBe("Running");
  await e.delete(init.id, init.properties);
  expect(await instanceRecord(init.id)).toBeUndefined();
});
