// The cost-estimate catalog: every row a GET, answered from the catalog (no account state).
import {
  COMPUTE_OFFERING_TYPES,
  TEMPLATE_DISTRIBUTIONS,
  TEMPLATE_PLATFORMS,
  type Catalog,
  type UnitCosts,
} from "../seeded-catalog";
import type { AreaRegistrar } from "../core";
import { envelope, readEnum, readString, type Inputs } from "../http";
import {
  computePlanList,
  multiCurrency,
  PUBLIC_KEY_PAIR,
  serviceList,
  storagePlanList,
  supportPlans,
  templateCategoryList,
  templateList,
  unitCost,
  zoneCatalogOf,
} from "../model/costestimate";

const BASE = "/restapi/costestimate";

const zoneUuid = (q: Inputs): string => readString(q, "zoneUuid", { required: true });
const categoryUuid = (q: Inputs): string | undefined => readString(q, "categoryUuid");
/** The zone's catalog named by the required zoneUuid (404 when unknown). */
const zoneOf = (q: Inputs, c: Catalog) => zoneCatalogOf(c, zoneUuid(q));
const templateQuery = (q: Inputs) => ({
  platform: readEnum(q, "platform", TEMPLATE_PLATFORMS, { required: true }),
  distribution: readEnum(q, "distribution", TEMPLATE_DISTRIBUTIONS, { required: true }),
  zoneUuid: zoneUuid(q),
  categoryUuid: categoryUuid(q),
});

/** Path (the operation name) to its answer from the query. */
const ROWS: ReadonlyArray<[string, (q: Inputs, c: Catalog) => unknown]> = [
  ["getpublickey", () => PUBLIC_KEY_PAIR],
  ["multicurrency", (_q, c) => multiCurrency(c)],
  ["zone-list", (_q, c) => envelope("listZoneResponse", c.zones)],
  [
    "service-list",
    (q, c) => envelope("serviceCategoryList", serviceList(c, readString(q, "languageUuid", { required: true }))),
  ],
  ["compute-plan-types", (_q, c) => envelope("computePlanTypeList", c.computePlanTypes)],
  ["compute-category-list", (q, c) => envelope("listComputeOfferingCategory", zoneOf(q, c).computeCategories)],
  [
    "compute-plan-list",
    (q, c) =>
      computePlanList(c, {
        computeOfferingType: readEnum(q, "computeOfferingType", COMPUTE_OFFERING_TYPES, { required: true }),
        categoryUuid: categoryUuid(q),
        zoneUuid: zoneUuid(q),
      }),
  ],
  ["storage-category-list", (q, c) => envelope("listCategory", zoneOf(q, c).storageCategories)],
  [
    "storage-plan-list",
    (q, c) => envelope("listStorageCost", storagePlanList(c, { zoneUuid: zoneUuid(q), categoryUuid: categoryUuid(q) })),
  ],
  ["networkoffering-list", (q, c) => envelope("listOfferingCost", zoneOf(q, c).networkOfferings)],
  ["vpcoffering-list", (q, c) => envelope("vpcOfferingCost", zoneOf(q, c).vpcOfferings)],
  ["template-platform-list", (_q, c) => envelope("templatePlatformList", c.templatePlatforms)],
  ["template-distribution-list", (_q, c) => envelope("templateDistributionList", c.templateDistributions)],
  ["template-category-list", (q, c) => envelope("templateCategoryList", templateCategoryList(c, templateQuery(q)))],
  ["template-list", (q, c) => envelope("listTemplateCost", templateList(c, templateQuery(q)))],
  ["kubernetes-version-list", (q, c) => envelope("listKubernetesVersion", zoneOf(q, c).kubernetesVersions)],
  ["vpn-user-cost", (_q, c) => ({ vpnUserCost: c.vpnUserCost })],
  ...(
    [
      ["ip-cost", "ipCost"],
      ["portforwarding-cost", "portForwardCost"],
      ["loadbalancer-cost", "loadBalancerCost"],
      ["snapshot-cost", "snapshotCost"],
      ["vm-snapshot-cost", "vmSnapshotCost"],
      ["vm-scheduler-cost", "vmSchedulerCost"],
      ["k8s-cost", "k8sCost"],
      ["bandwidth-cost", "bandwidthCost"],
      ["object-storage-cost", "objectStorageCost"],
      ["additional-template-resize-cost", "additionalTemplateResizeCost"],
    ] as ReadonlyArray<[string, keyof UnitCosts]>
  ).map(([path, key]): [string, (q: Inputs, c: Catalog) => unknown] => [path, (q, c) => unitCost(c, zoneUuid(q), key)]),
  ["list-sfs-storage-offerings", (q, c) => envelope("listSfsStorageOffering", zoneOf(q, c).sfsStorageOfferings)],
  ["list-all-support-category", (_q, c) => envelope("listSupportCategory", c.supportCategories)],
  ["list-all-support-plans", (q, c) => envelope("listSupportPlan", supportPlans(c, categoryUuid(q)))],
  ["tax", (q, c) => zoneOf(q, c).tax],
];

export const register: AreaRegistrar = (app, ctx) => {
  for (const [path, answer] of ROWS) {
    app.get(`${BASE}/${path}`, { config: { operation: path, mutating: false } }, async (request) =>
      answer(request.query as Inputs, ctx.catalog),
    );
  }
};
