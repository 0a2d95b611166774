/**
 * The seeded catalog as the cost-estimate API shows it: fixed uuids, what each zone offers, zone
 * prices, and the references between catalog records (plans to categories, templates to categories).
 */
import { CATALOG_IDS, createCatalog } from "../../../emulator/seeded-catalog";
import { ADMIN, DEMO, useEmulator, type Json } from "./helpers";

const { frankfurt: FRANKFURT, singapore: SINGAPORE, mumbai: MUMBAI } = CATALOG_IDS.zones;
const ZONES = [FRANKFURT, SINGAPORE, MUMBAI];

const emulator = useEmulator();

async function get(path: string, query: Record<string, string> = {}, headers = DEMO): Promise<Json> {
  const reply = await emulator.call("GET", path, query, headers);
  expect(reply.status).toBe(200);
  return reply.body as Json;
}
const cost = (path: string, query: Record<string, string> = {}) => get(`/restapi/costestimate/${path}`, query);
const uuids = (records: Json[]) => records.map((r) => r.uuid);

async function allPlans(zoneUuid: string): Promise<Json[]> {
  const answers = await Promise.all(
    ["PAY_AS_YOU_GO", "CUSTOM_PLAN", "RESERVED_INSTANCE", "BUNDLE_OFFER"].map((computeOfferingType) =>
      cost("compute-plan-list", { computeOfferingType, zoneUuid }),
    ),
  );
  return answers.flatMap((a) => [...a.payAsYouGoOfferingCost, ...a.reservedOfferingCost, ...a.bundleOfferingCost]);
}

describe("the seeded catalog", () => {
  it("has the documented zones under their fixed uuids", async () => {
    const { listZoneResponse } = await cost("zone-list");
    expect(listZoneResponse.map((z: Json) => [z.uuid, z.name, z.countryName])).toEqual([
      [FRANKFURT, "Frankfurt 1", "Germany"],
      [SINGAPORE, "Singapore 1", "Singapore"],
      [MUMBAI, "Mumbai 1", "India"],
    ]);
    for (const zone of listZoneResponse) expect(zone).toMatchObject({ isActive: true, status: "Active" });
  });

  it("is the same data on every build", () => {
    expect(JSON.stringify(createCatalog())).toBe(JSON.stringify(createCatalog()));
  });

  it.each(ZONES)("in zone %s every plan belongs to a listed category, and every category has plans", async (zone) => {
    const plans = await allPlans(zone);
    const { listComputeOfferingCategory } = await cost("compute-category-list", { zoneUuid: zone });
    const categories = new Set(uuids(listComputeOfferingCategory));
    expect(new Set(plans.map((p) => p.categoryUuid))).toEqual(categories);
  });

  it.each(ZONES)("in zone %s every template sits in a listed category of its platform", async (zone) => {
    for (const [platform, distribution] of [
      ["LINUX", "OS_ONLY"],
      ["LINUX", "MARKETPLACE"],
      ["WINDOWS", "OS_ONLY"],
    ]) {
      const query = { platform, distribution, zoneUuid: zone };
      const { templateCategoryList } = await cost("template-category-list", query);
      const { listTemplateCost } = await cost("template-list", query);
      const nested = templateCategoryList.flatMap((c: Json) => c.templates);
      expect(uuids(nested).sort()).toEqual(uuids(listTemplateCost).sort());
      for (const template of listTemplateCost) expect(uuids(templateCategoryList)).toContain(template.categoryUuid);
    }
  });

  it("offers less in Mumbai: no memory-optimized plans, no Windows, no Kubernetes 1.32, no redundant VPC", async () => {
    const plans = uuids(await allPlans(MUMBAI));
    expect(plans).not.toContain(CATALOG_IDS.computeOfferings.mo2c8g);
    expect(plans).toContain(CATALOG_IDS.computeOfferings.gp2c4g);
    const categories = await cost("compute-category-list", { zoneUuid: MUMBAI });
    expect(uuids(categories.listComputeOfferingCategory)).not.toContain(CATALOG_IDS.computeCategories.memoryOptimized);
    const windows = await cost("template-list", { platform: "WINDOWS", distribution: "OS_ONLY", zoneUuid: MUMBAI });
    expect(windows.count).toBe(0);
    const versions = await cost("kubernetes-version-list", { zoneUuid: MUMBAI });
    expect(versions.listKubernetesVersion.map((v: Json) => v.name)).toEqual(["1.30", "1.31"]);
    const vpcs = await cost("vpcoffering-list", { zoneUuid: MUMBAI });
    expect(uuids(vpcs.vpcOfferingCost)).toEqual([CATALOG_IDS.vpcOfferings.standard]);
  });

  it("offers no shared networks and no bundle.pro in Singapore", async () => {
    const offerings = await cost("networkoffering-list", { zoneUuid: SINGAPORE });
    expect(uuids(offerings.listOfferingCost)).not.toContain(CATALOG_IDS.networkOfferings.shared);
    expect(uuids(await allPlans(SINGAPORE))).not.toContain(CATALOG_IDS.computeOfferings.bundlePro);
  });

  it("prices Singapore 10% above Frankfurt, nested terms included", async () => {
    const query = (zoneUuid: string) => ({ computeOfferingType: "RESERVED_INSTANCE", zoneUuid });
    const [fra, sin] = await Promise.all([
      cost("compute-plan-list", query(FRANKFURT)),
      cost("compute-plan-list", query(SINGAPORE)),
    ]);
    const fraTerm = fra.reservedOfferingCost[0].offeringPlans[0];
    const sinTerm = sin.reservedOfferingCost[0].offeringPlans[0];
    expect(sinTerm.monthlyCost).toBeCloseTo(fraTerm.monthlyCost * 1.1, 2);
    const [fraVpc, sinVpc] = await Promise.all([
      cost("vpcoffering-list", { zoneUuid: FRANKFURT }),
      cost("vpcoffering-list", { zoneUuid: SINGAPORE }),
    ]);
    expect(sinVpc.vpcOfferingCost[0].totalCost).toBeCloseTo(fraVpc.vpcOfferingCost[0].totalCost * 1.1, 4);
  });

  it("has Kubernetes 1.30 to 1.32, each needing 2 vCPUs and 2048 MiB", async () => {
    const { listKubernetesVersion } = await cost("kubernetes-version-list", { zoneUuid: FRANKFURT });
    expect(listKubernetesVersion.map((v: Json) => [v.uuid, v.name, v.minCpuNumber, v.minMemory])).toEqual([
      [CATALOG_IDS.kubernetesVersions.v1_30, "1.30", 2, 2048],
      [CATALOG_IDS.kubernetesVersions.v1_31, "1.31", 2, 2048],
      [CATALOG_IDS.kubernetesVersions.v1_32, "1.32", 2, 2048],
    ]);
  });

  it("has one network offering per use: isolated, shared and two for VPC tiers", async () => {
    const { listOfferingCost } = await cost("networkoffering-list", { zoneUuid: FRANKFURT });
    expect(listOfferingCost.map((o: Json) => [o.uuid, o.type])).toEqual([
      [CATALOG_IDS.networkOfferings.isolated, "Isolated"],
      [CATALOG_IDS.networkOfferings.shared, "Shared"],
      [CATALOG_IDS.networkOfferings.vpcTier, "VPC"],
      [CATALOG_IDS.networkOfferings.vpcTierInternalLb, "VPC"],
    ]);
    for (const offering of listOfferingCost) expect(offering.totalCost).toBeCloseTo(offering.cost + offering.haCost, 6);
  });

  it("lists the hypervisor hosts of every zone to an administrator, every field a string but isActive", async () => {
    const { listHostResponse } = await get("/restapi/host/hostList", {}, ADMIN);
    expect(listHostResponse).toHaveLength(6);
    for (const host of listHostResponse) {
      for (const [field, value] of Object.entries(host)) {
        expect([field, typeof value]).toEqual([field, field === "isActive" ? "boolean" : "string"]);
      }
      expect(host.hypervisor).toBe("KVM");
    }
  });
});
