/**
 * Catalog references confirmed before anything is created (engine/references.ts), against the
 * emulator's seeded catalog: every kind is found wherever the catalog lists it (templates of every
 * platform and distribution, compute plans of every type), an unknown uuid fails naming the
 * argument and the list that holds the right ones, unknown (preview) and unchanged values are not
 * looked up, each list is read once per client, and nothing but the catalog's reads is sent.
 */
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import type { ZoneCatalog } from "../../../emulator/seeded-catalog";
import { RestCloudClient } from "../../../provider/client";
import { catalogReference } from "../../../provider/engine/validators";
import { catalogReferenceFailures } from "../../../provider/engine/references";

const DEMO = { apiKey: "demo-api-key", secretKey: "demo-secret-key" };
const UNKNOWN = "<unknown>";
const NOWHERE = "4f000000-0000-4000-8000-00000000dead";

/** Every kind, as resources declare them. */
const schema = z.object({
  zoneUuid: catalogReference("zone").optional().describe("zone"),
  vpcOfferingUuid: catalogReference("vpcOffering").optional(),
  networkOfferingUuid: catalogReference("networkOffering").optional(),
  computeOfferingUuid: catalogReference("computeOffering").optional(),
  storageOfferingUuid: catalogReference("storageOffering").optional().describe("storage"),
  templateUuid: catalogReference("template").describe("template"),
  kubernetesVersionUuid: catalogReference("kubernetesVersion").optional(),
  networkUuid: z.string().optional(),
});

let emulator: RunningEmulator;
let frankfurt: ZoneCatalog;
let valid: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const catalog = emulator.context.catalog;
  frankfurt = catalog.zoneCatalog(catalog.zones.find((z) => z.name.startsWith("Frankfurt"))!.uuid)!;
  valid = {
    zoneUuid: frankfurt.zone.uuid,
    vpcOfferingUuid: frankfurt.vpcOfferings[0].uuid,
    networkOfferingUuid: frankfurt.networkOfferings[0].uuid,
    computeOfferingUuid: frankfurt.payAsYouGoOfferings[0].uuid,
    storageOfferingUuid: frankfurt.storageOfferings[0].uuid,
    templateUuid: frankfurt.templates[0].uuid,
    kubernetesVersionUuid: frankfurt.kubernetesVersions[0].uuid,
    networkUuid: NOWHERE, // not a catalog reference: never looked up
  };
});
afterAll(() => emulator.stop());

const client = () => new RestCloudClient({ apiUrl: emulator.url, ...DEMO });
const failures = (c: RestCloudClient, inputs: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
  catalogReferenceFailures(c, schema, olds, inputs, (v) => v === UNKNOWN);

async function stats(): Promise<{ total: number; mutating: number; byOperation: Record<string, number> }> {
  return (await fetch(`${emulator.url}/_emulator/stats`)).json() as never;
}

test("every kind is found where the catalog lists it, in every page", async () => {
  const c = client();
  expect(await failures(c, valid)).toEqual([]);
  // A template of each platform and distribution, and a plan of each type: each is found.
  for (const template of frankfurt.templates) {
    expect(await failures(c, { ...valid, templateUuid: template.uuid })).toEqual([]);
  }
  for (const plan of [...frankfurt.payAsYouGoOfferings, ...frankfurt.reservedOfferings, ...frankfurt.bundleOfferings]) {
    expect(await failures(c, { ...valid, computeOfferingUuid: plan.uuid })).toEqual([]);
  }
});

test("an unknown uuid fails, naming the argument and where the right ones are listed", async () => {
  const c = client();
  const all = await failures(c, {
    ...valid,
    vpcOfferingUuid: NOWHERE,
    templateUuid: NOWHERE,
    kubernetesVersionUuid: NOWHERE,
  });
  expect(all).toEqual([
    {
      property: "vpcOfferingUuid",
      reason: `must be the uuid of a VPC offering of zone ${frankfurt.zone.name} (getVpcOfferings lists them); none has this uuid`,
    },
    {
      property: "templateUuid",
      reason: `must be the uuid of a template of zone ${frankfurt.zone.name} (getTemplates lists them); none has this uuid`,
    },
    {
      property: "kubernetesVersionUuid",
      reason: `must be the uuid of a Kubernetes version of zone ${frankfurt.zone.name} (getKubernetesVersions lists them); none has this uuid`,
    },
  ]);
  // An unknown zone: the zone fails, and nothing is looked up in it.
  const zone = await failures(c, { ...valid, zoneUuid: NOWHERE, computeOfferingUuid: NOWHERE });
  expect(zone).toHaveLength(1);
  expect(zone[0].property).toBe("zoneUuid");
  expect(zone[0].reason).toMatch(
    /^must be the uuid of a zone \(getZones lists them: .*Frankfurt 1.*\); none has this uuid$/,
  );
});

test("unknown values and unchanged ones are not looked up; each list is read once", async () => {
  await fetch(`${emulator.url}/_emulator/stats`, { method: "DELETE" });
  const c = client();
  // At preview, before the zone is known: nothing can be looked up.
  expect(await failures(c, { ...valid, zoneUuid: UNKNOWN, templateUuid: NOWHERE })).toEqual([]);
  // The same arguments as before, in the same zone: nothing to look up.
  expect(await failures(c, { ...valid, templateUuid: NOWHERE }, { ...valid, templateUuid: NOWHERE })).toEqual([]);
  expect((await stats()).total).toBe(0);

  // A changed zone checks every reference again; a second check reads nothing new.
  await failures(c, valid, { ...valid, zoneUuid: "another-zone" });
  const first = (await stats()).total;
  expect(first).toBeGreaterThan(0);
  await failures(c, valid);
  const after = await stats();
  expect(after.total).toBe(first);
  expect(after.mutating).toBe(0);
});
