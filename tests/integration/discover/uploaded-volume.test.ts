/**
 * `restcloud discover`'s inventory tells an uploaded volume (uploadVolume: a data volume without a
 * storage plan) from one created with a plan (createVolume), so that it proposes the resource kind
 * that can adopt each: UploadedVolume, Volume.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import type { ResourceDeclaration } from "../../../provider/engine/declaration";
import { listAccount } from "../../../provider/discover/inventory";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { discoverCatalog } from "../../e2e/catalog-ids";
import { demoClient } from "./records";

jest.setTimeout(60_000);

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 0 });
});
afterAll(async () => emulator?.stop());

test("an uploaded volume is listed as an UploadedVolume, a created one as a Volume", async () => {
  const client = demoClient(emulator.url);
  const catalog = await discoverCatalog(emulator.url);
  const zoneUuid = catalog.zoneUuid;
  const created = await client.volume.create({
    name: "made",
    zoneUuid,
    storageOfferingUuid: catalog.customStoragePlanUuid,
    diskSize: 5,
  });
  const uploaded = await client.volume.upload({
    name: "image",
    zoneUuid,
    url: "https://images.example.com/image.qcow2",
    format: "QCOW2",
  });
  const { records } = await listAccount(client, DECLARATIONS as readonly ResourceDeclaration[]);
  const kinds = Object.fromEntries(records.filter((r) => r.zoneUuid === zoneUuid).map((r) => [r.name, r.kind]));
  expect(kinds).toMatchObject({ made: "Volume", image: "UploadedVolume" });
  expect(records.find((r) => r.id === created.uuid)?.kind).toBe("Volume");
  expect(records.find((r) => r.id === uploaded.uuid)?.kind).toBe("UploadedVolume");
});
