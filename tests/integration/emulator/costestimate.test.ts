/**
 * The cost-estimate area over HTTP: every row answers with its envelope key and the spec's field
 * types, names a missing or invalid required input (400), and answers 404 for an unknown zone or
 * category.
 */
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { DEMO, useEmulator, ZONE, type AccountHeaders, type Json } from "./helpers";

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

const emulator = useEmulator();

/** A GET of a cost-estimate operation. */
const get = (path: string, query: Record<string, string> = {}, headers?: AccountHeaders) =>
  emulator.call("GET", `/restapi/costestimate/${path}`, query, headers);

/** The spec's catalog record fields and JSON types. */
type Fields = Record<string, "string" | "number" | "boolean" | "array">;
const S = "string",
  N = "number",
  B = "boolean",
  A = "array";
const RECORDS = {
  zone: { imageFlag: S, name: S, countryName: S, isActive: B, uuid: S },
  currency: { isDefaultCurrency: S, cost: N, currencySymbol: S, currency: S, uuid: S },
  serviceCategory: { name: S, uuid: S, resourceList: A },
  planType: {
    displayName: S,
    key: S,
    payAsYouGoOfferingCost: A,
    customOfferingCost: A,
    reservedOfferingCost: A,
    bundleOfferingCost: A,
  },
  computeCategory: { name: S, description: S, planTypes: A, uuid: S },
  payAsYouGo: {
    instanceRunningCostVcpu: N,
    memory: N,
    instanceRunningCostMemory: N,
    cpuMax: N,
    uuid: S,
    core: N,
    categoryUuid: S,
    setupCost: N,
    clockSpeed: N,
    name: S,
    isCustom: B,
    instanceStoppageCostMemory: N,
    instanceStoppageCostVcpu: N,
  },
  reserved: { core: N, categoryUuid: S, memory: N, clockSpeed: N, name: S, offeringPlans: A, uuid: S },
  bundle: {
    core: N,
    categoryUuid: S,
    memory: N,
    clockSpeed: N,
    bandwidth: N,
    diskSpace: N,
    name: S,
    ipAddress: N,
    uuid: S,
    bundlePlan: A,
  },
  storageCategory: { name: S, description: S, listStorageCost: A, uuid: S },
  storageCost: { costForGb: N, categoryUuid: S, diskSize: N, name: S, isCustom: B, customCostPerGb: N, uuid: S },
  networkOffering: { displayText: S, cost: N, name: S, haCost: N, type: S, uuid: S, totalCost: N },
  vpcOffering: { cost: N, name: S, haCost: N, uuid: S, totalCost: N },
  keyed: { displayName: S, key: S },
  templateCategory: { categoryType: S, imageName: S, templates: A, name: S, uuid: S },
  template: {
    categoryUuid: S,
    imageName: S,
    cost: N,
    size: N,
    name: S,
    enablePerCoreLicense: B,
    minimumMemory: N,
    minimumRootdisk: N,
    uuid: S,
    minimumCore: N,
    licensePerCoreCost: N,
  },
  kubernetesVersion: { minMemory: N, name: S, description: S, isActive: B, uuid: S, minCpuNumber: N },
} satisfies Record<string, Fields>;

const INTEGERS = ["cpuMax", "core", "clockSpeed", "bandwidth", "diskSpace", "ipAddress", "diskSize", "size"];

function expectFields(record: Json, fields: Fields): void {
  for (const [field, type] of Object.entries(fields)) {
    const value = record[field];
    if (type === "array") expect({ field, isArray: Array.isArray(value) }).toEqual({ field, isArray: true });
    else expect({ field, type: typeof value }).toEqual({ field, type });
    if (INTEGERS.includes(field)) expect(Number.isInteger(value)).toBe(true);
  }
}

/** Each listing row: path, query, envelope key, record fields, and the least count. */
const ENVELOPE_ROWS: ReadonlyArray<[string, Record<string, string>, string, Fields, number]> = [
  ["zone-list", {}, "listZoneResponse", RECORDS.zone, 3],
  ["service-list", { languageUuid: CATALOG_IDS.languages.en }, "serviceCategoryList", RECORDS.serviceCategory, 5],
  ["compute-plan-types", {}, "computePlanTypeList", RECORDS.planType, 4],
  ["compute-category-list", { zoneUuid: ZONE }, "listComputeOfferingCategory", RECORDS.computeCategory, 3],
  ["storage-category-list", { zoneUuid: ZONE }, "listCategory", RECORDS.storageCategory, 2],
  ["storage-plan-list", { zoneUuid: ZONE }, "listStorageCost", RECORDS.storageCost, 7],
  ["networkoffering-list", { zoneUuid: ZONE }, "listOfferingCost", RECORDS.networkOffering, 4],
  ["vpcoffering-list", { zoneUuid: ZONE }, "vpcOfferingCost", RECORDS.vpcOffering, 2],
  ["template-platform-list", {}, "templatePlatformList", RECORDS.keyed, 2],
  ["template-distribution-list", {}, "templateDistributionList", RECORDS.keyed, 2],
  [
    "template-category-list",
    { platform: "LINUX", distribution: "OS_ONLY", zoneUuid: ZONE },
    "templateCategoryList",
    RECORDS.templateCategory,
    3,
  ],
  [
    "template-list",
    { platform: "LINUX", distribution: "OS_ONLY", zoneUuid: ZONE },
    "listTemplateCost",
    RECORDS.template,
    4,
  ],
  ["kubernetes-version-list", { zoneUuid: ZONE }, "listKubernetesVersion", RECORDS.kubernetesVersion, 3],
  ["list-sfs-storage-offerings", { zoneUuid: ZONE }, "listSfsStorageOffering", { uuid: S, costForGb: N }, 2],
  ["list-all-support-category", {}, "listSupportCategory", { uuid: S, name: S }, 2],
  ["list-all-support-plans", {}, "listSupportPlan", { uuid: S, categoryUuid: S, cost: N }, 4],
];

/** Rows answering one number under one key. */
const UNIT_COST_ROWS: ReadonlyArray<[string, string, number]> = [
  ["ip-cost", "ipCost", 3],
  ["portforwarding-cost", "portForwardCost", 0.5],
  ["loadbalancer-cost", "loadBalancerCost", 6],
  ["snapshot-cost", "snapshotCost", 0.05],
  ["vm-snapshot-cost", "vmSnapshotCost", 0.08],
  ["vm-scheduler-cost", "vmSchedulerCost", 1],
  ["k8s-cost", "k8sCost", 0.03],
  ["bandwidth-cost", "bandwidthCost", 0.01],
  ["object-storage-cost", "objectStorageCost", 0.02],
  ["additional-template-resize-cost", "additionalTemplateResizeCost", 0.1],
];

/** Every row that requires zoneUuid, with its other required inputs. */
const ZONED_ROWS: ReadonlyArray<[string, Record<string, string>]> = [
  ["compute-category-list", {}],
  ["compute-plan-list", { computeOfferingType: "PAY_AS_YOU_GO" }],
  ["storage-category-list", {}],
  ["storage-plan-list", {}],
  ["networkoffering-list", {}],
  ["vpcoffering-list", {}],
  ["template-category-list", { platform: "LINUX", distribution: "OS_ONLY" }],
  ["template-list", { platform: "LINUX", distribution: "OS_ONLY" }],
  ["kubernetes-version-list", {}],
  ["list-sfs-storage-offerings", {}],
  ["tax", {}],
  ...UNIT_COST_ROWS.map(([path]): [string, Record<string, string>] => [path, {}]),
];

describe("cost-estimate listings", () => {
  it.each(ENVELOPE_ROWS)("%s answers its envelope with typed records", async (path, query, key, fields, least) => {
    const { status, body } = await get(path, query);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["count", key].sort());
    expect(body.count).toBe(body[key].length);
    expect(body.count).toBeGreaterThanOrEqual(least);
    for (const record of body[key]) expectFields(record, fields);
  });

  it.each(UNIT_COST_ROWS)("%s answers {%s} with the zone's price", async (path, key, price) => {
    expect(await get(path, { zoneUuid: ZONE })).toEqual({ status: 200, body: { [key]: price } });
    const singapore = await get(path, { zoneUuid: CATALOG_IDS.zones.singapore });
    expect(singapore.body[key]).toBeCloseTo(price * 1.1, 6);
  });

  it("vpn-user-cost takes no input", async () => {
    expect(await get("vpn-user-cost")).toEqual({ status: 200, body: { vpnUserCost: 2 } });
  });

  it("tax answers the zone's tax", async () => {
    expect((await get("tax", { zoneUuid: ZONE })).body).toEqual({ taxName: "VAT", taxPercentage: 19, zoneUuid: ZONE });
    expect((await get("tax", { zoneUuid: CATALOG_IDS.zones.singapore })).body.taxPercentage).toBe(9);
  });

  it("multicurrency lists EUR as the default with USD and INR multipliers", async () => {
    const { status, body } = await get("multicurrency");
    expect(status).toBe(200);
    expect(body.organizationName).toEqual(expect.any(String));
    expect(body.count).toBe(3);
    for (const currency of body.listMultiCurrency) expectFields(currency, RECORDS.currency);
    const byCode = Object.fromEntries(body.listMultiCurrency.map((c: Json) => [c.currency, c]));
    expect(byCode.EUR).toMatchObject({ isDefaultCurrency: "true", cost: 1, currencySymbol: "€" });
    expect(byCode.USD).toMatchObject({ isDefaultCurrency: "false", cost: 1.08 });
    expect(byCode.INR).toMatchObject({ isDefaultCurrency: "false", cost: 90.5 });
  });

  it("getpublickey answers a fixed pair without authentication, never the account's keys", async () => {
    const anonymous = await get("getpublickey", {}, {});
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ apiKey: expect.any(String), secretKey: expect.any(String) });
    expect(anonymous.body.apiKey).not.toBe(DEMO.apikey);
    expect(anonymous.body.secretKey).not.toBe(DEMO.secretkey);
    expect((await get("getpublickey")).body).toEqual(anonymous.body);
  });

  it("service-list answers in German for the German language and in English otherwise", async () => {
    const german = await get("service-list", { languageUuid: CATALOG_IDS.languages.de });
    const english = await get("service-list", { languageUuid: "any-language-uuid" });
    expect(german.body.serviceCategoryList.map((c: Json) => c.name)).toContain("Netzwerk");
    expect(english.body.serviceCategoryList.map((c: Json) => c.name)).toContain("Network");
    expect(german.body.serviceCategoryList.map((c: Json) => c.uuid)).toEqual(
      english.body.serviceCategoryList.map((c: Json) => c.uuid),
    );
  });
});

describe("compute-plan-list", () => {
  const plans = async (computeOfferingType: string, extra: Record<string, string> = {}) =>
    (await get("compute-plan-list", { computeOfferingType, zoneUuid: ZONE, ...extra })).body;

  it("answers the pay-as-you-go plans, fixed sizes from 1 vCPU/1 GiB to 8/32", async () => {
    const body = await plans("PAY_AS_YOU_GO");
    expect(Object.keys(body).sort()).toEqual(
      ["bundleOfferingCost", "count", "payAsYouGoOfferingCost", "reservedOfferingCost"].sort(),
    );
    expect(body.reservedOfferingCost).toEqual([]);
    expect(body.bundleOfferingCost).toEqual([]);
    expect(body.count).toBe(body.payAsYouGoOfferingCost.length);
    for (const plan of body.payAsYouGoOfferingCost) {
      expectFields(plan, RECORDS.payAsYouGo);
      expect(plan.isCustom).toBe(false);
    }
    const sizes = body.payAsYouGoOfferingCost.map((p: Json) => `${p.core}/${p.memory}`);
    expect(sizes).toEqual(expect.arrayContaining(["1/1024", "8/32768"]));
  });

  it("answers the custom plan under CUSTOM_PLAN", async () => {
    const body = await plans("CUSTOM_PLAN");
    expect(body.count).toBe(1);
    expect(body.payAsYouGoOfferingCost[0]).toMatchObject({
      uuid: CATALOG_IDS.computeOfferings.gpCustom,
      isCustom: true,
      cpuMax: 16,
    });
  });

  it("answers reserved plans with 1-year and 3-year terms", async () => {
    const body = await plans("RESERVED_INSTANCE");
    expect(body.count).toBe(3);
    for (const plan of body.reservedOfferingCost) {
      expectFields(plan, RECORDS.reserved);
      expect(plan.offeringPlans.map((t: Json) => t.termMonths)).toEqual([12, 36]);
    }
  });

  it("answers bundle plans with their bundlePlan terms", async () => {
    const body = await plans("BUNDLE_OFFER");
    expect(body.count).toBe(3);
    for (const plan of body.bundleOfferingCost) {
      expectFields(plan, RECORDS.bundle);
      expect(plan.bundlePlan.length).toBeGreaterThan(0);
    }
  });

  it("filters by categoryUuid", async () => {
    const body = await plans("PAY_AS_YOU_GO", { categoryUuid: CATALOG_IDS.computeCategories.memoryOptimized });
    expect(body.count).toBe(3);
    expect(new Set(body.payAsYouGoOfferingCost.map((p: Json) => p.categoryUuid))).toEqual(
      new Set([CATALOG_IDS.computeCategories.memoryOptimized]),
    );
  });

  it("names an invalid computeOfferingType and 404s an unknown category", async () => {
    const invalid = await get("compute-plan-list", { computeOfferingType: "SPOT", zoneUuid: ZONE });
    expect(invalid.status).toBe(400);
    expect(invalid.body.listErrorResponse.errorMsg).toMatch(/^computeOfferingType/);
    const unknown = await get("compute-plan-list", {
      computeOfferingType: "PAY_AS_YOU_GO",
      zoneUuid: ZONE,
      categoryUuid: UNKNOWN,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.listErrorResponse.errorMsg).toContain(UNKNOWN);
  });
});

describe("templates and storage", () => {
  it.each([
    ["LINUX", "OS_ONLY", ["Ubuntu", "Debian", "Rocky Linux"]],
    ["LINUX", "MARKETPLACE", ["WordPress"]],
    ["WINDOWS", "OS_ONLY", ["Windows Server"]],
    ["WINDOWS", "MARKETPLACE", []],
  ])("template-category-list %s/%s", async (platform, distribution, names) => {
    const { body } = await get("template-category-list", { platform, distribution, zoneUuid: ZONE });
    expect(body.templateCategoryList.map((c: Json) => c.name)).toEqual(names);
    for (const category of body.templateCategoryList) {
      expect(category.categoryType).toBe(distribution);
      for (const template of category.templates) expectFields(template, RECORDS.template);
    }
  });

  it("template-list filters by category and carries the Windows per-core licence", async () => {
    const ubuntu = await get("template-list", {
      platform: "LINUX",
      distribution: "OS_ONLY",
      zoneUuid: ZONE,
      categoryUuid: CATALOG_IDS.templateCategories.ubuntu,
    });
    expect(ubuntu.body.listTemplateCost.map((t: Json) => t.name)).toEqual(["Ubuntu 24.04 LTS", "Ubuntu 22.04 LTS"]);
    const windows = await get("template-list", { platform: "WINDOWS", distribution: "OS_ONLY", zoneUuid: ZONE });
    expect(windows.body.listTemplateCost).toEqual([
      expect.objectContaining({ name: "Windows Server 2022", enablePerCoreLicense: true, licensePerCoreCost: 0.0125 }),
    ]);
  });

  it.each([
    ["template-category-list", { distribution: "OS_ONLY", zoneUuid: ZONE }, 400, /^platform: is required/],
    ["template-list", { platform: "LINUX", zoneUuid: ZONE }, 400, /^distribution: is required/],
    ["template-list", { platform: "BSD", distribution: "OS_ONLY", zoneUuid: ZONE }, 400, /^platform: must be one of/],
    [
      "template-list",
      { platform: "LINUX", distribution: "OS_ONLY", zoneUuid: ZONE, categoryUuid: UNKNOWN },
      404,
      /template category/,
    ],
    ["storage-plan-list", { zoneUuid: ZONE, categoryUuid: UNKNOWN }, 404, /storage category/],
    ["list-all-support-plans", { categoryUuid: UNKNOWN }, 404, /support category/],
    ["service-list", {}, 400, /^languageUuid: is required/],
  ])("%s %j answers %i", async (path, query, status, message) => {
    const reply = await get(path, query as Record<string, string>);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
  });

  it("storage-plan-list has fixed 20/50/100/500 GB plans and a custom-size plan per GB", async () => {
    const { body } = await get("storage-plan-list", {
      zoneUuid: ZONE,
      categoryUuid: CATALOG_IDS.storageCategories.ssd,
    });
    const fixed = body.listStorageCost.filter((s: Json) => !s.isCustom).map((s: Json) => s.diskSize);
    expect(fixed).toEqual([20, 50, 100, 500]);
    expect(body.listStorageCost.find((s: Json) => s.isCustom)).toMatchObject({
      uuid: CATALOG_IDS.storageOfferings.ssdCustom,
      customCostPerGb: 0.11,
    });
  });
});

describe("zone inputs", () => {
  it.each(ZONED_ROWS)("%s requires zoneUuid (400) and 404s an unknown zone", async (path, query) => {
    const missing = await get(path, query);
    expect(missing.status).toBe(400);
    expect(missing.body.listErrorResponse).toEqual({
      errorCode: "MISSING_PARAMETER",
      errorMsg: "zoneUuid: is required",
    });
    const unknown = await get(path, { ...query, zoneUuid: UNKNOWN });
    expect(unknown.status).toBe(404);
    expect(unknown.body.listErrorResponse.errorMsg).toBe(`zone ${UNKNOWN} does not exist`);
  });

  it("needs authentication on every row but getpublickey", async () => {
    expect((await get("zone-list", {}, {})).status).toBe(401);
  });
});
