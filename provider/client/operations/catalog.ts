/** The cost estimate catalog: /restapi/costestimate, all GET, all read-only. */
import { z } from "zod";
import { A, B, I, ID, N, S, anyInput, input, noInput, record, ref } from "../schema";
import { type ResponseShape, list, object, op } from "./define";

export const currencyRecord = record({ uuid: S, currency: S, currencySymbol: S, cost: N, isDefaultCurrency: S });
export const multiCurrencyRecord = record({
  organizationName: S,
  count: I,
  listMultiCurrency: z.array(currencyRecord).optional(),
});
export type MultiCurrency = z.output<typeof multiCurrencyRecord>;

export const zoneRecord = record({ uuid: ID, name: S, countryName: S, imageFlag: S, isActive: B });
export type Zone = z.output<typeof zoneRecord>;

export const serviceCategoryRecord = record({ uuid: ID, name: S, resourceList: A });
export type ServiceCategory = z.output<typeof serviceCategoryRecord>;

export const computePlanTypeRecord = record({
  key: S,
  displayName: S,
  payAsYouGoOfferingCost: A,
  customOfferingCost: A,
  reservedOfferingCost: A,
  bundleOfferingCost: A,
});
export type ComputePlanType = z.output<typeof computePlanTypeRecord>;

export const computeCategoryRecord = record({ uuid: ID, name: S, description: S, planTypes: A });
export type ComputeCategory = z.output<typeof computeCategoryRecord>;

export const payAsYouGoOfferingRecord = record({
  uuid: ID,
  name: S,
  categoryUuid: S,
  core: I,
  cpuMax: I,
  memory: N,
  clockSpeed: I,
  isCustom: B,
  setupCost: N,
  instanceRunningCostVcpu: N,
  instanceRunningCostMemory: N,
  instanceStoppageCostVcpu: N,
  instanceStoppageCostMemory: N,
});
export const reservedOfferingRecord = record({
  uuid: ID,
  name: S,
  categoryUuid: S,
  core: I,
  memory: N,
  clockSpeed: I,
  offeringPlans: A,
});
export const bundleOfferingRecord = record({
  uuid: ID,
  name: S,
  categoryUuid: S,
  core: I,
  memory: N,
  clockSpeed: I,
  bandwidth: I,
  diskSpace: I,
  ipAddress: I,
  bundlePlan: A,
});
export const computePlansRecord = record({
  payAsYouGoOfferingCost: z.array(payAsYouGoOfferingRecord).optional(),
  reservedOfferingCost: z.array(reservedOfferingRecord).optional(),
  bundleOfferingCost: z.array(bundleOfferingRecord).optional(),
  count: I,
});
export type ComputePlans = z.output<typeof computePlansRecord>;
export type PayAsYouGoOffering = z.output<typeof payAsYouGoOfferingRecord>;

export const storageCategoryRecord = record({ uuid: ID, name: S, description: S, listStorageCost: A });
export type StorageCategory = z.output<typeof storageCategoryRecord>;

export const storagePlanRecord = record({
  uuid: ID,
  name: S,
  categoryUuid: S,
  diskSize: I,
  isCustom: B,
  costForGb: N,
  customCostPerGb: N,
});
export type StoragePlan = z.output<typeof storagePlanRecord>;

export const networkOfferingCostRecord = record({
  uuid: ID,
  name: S,
  displayText: S,
  type: S,
  cost: N,
  haCost: N,
  totalCost: N,
});
export type NetworkOfferingCost = z.output<typeof networkOfferingCostRecord>;

export const vpcOfferingCostRecord = record({ uuid: ID, name: S, cost: N, haCost: N, totalCost: N });
export type VpcOfferingCost = z.output<typeof vpcOfferingCostRecord>;

export const templateKindRecord = record({ key: S, displayName: S });
export type TemplateKind = z.output<typeof templateKindRecord>;

export const templateCategoryRecord = record({ uuid: ID, name: S, categoryType: S, imageName: S, templates: A });
export type TemplateCategory = z.output<typeof templateCategoryRecord>;

export const templateCostRecord = record({
  uuid: ID,
  name: S,
  categoryUuid: S,
  imageName: S,
  cost: N,
  size: I,
  minimumCore: I,
  minimumMemory: I,
  minimumRootdisk: I,
  enablePerCoreLicense: B,
  licensePerCoreCost: N,
});
export type TemplateCost = z.output<typeof templateCostRecord>;

export const kubernetesVersionRecord = record({
  uuid: ID,
  name: S,
  description: S,
  minCpuNumber: I,
  minMemory: I,
  isActive: B,
});
export type KubernetesVersion = z.output<typeof kubernetesVersionRecord>;

/** Secret values, despite the name "public key". */
export const publicKeyRecord = record({ apiKey: S, secretKey: S });

const byZone = input({ zoneUuid: ref });
const platform = z.enum(["LINUX", "WINDOWS"]);
const distribution = z.enum(["OS_ONLY", "MARKETPLACE"]);
const unknownAnswer = object(z.unknown());

/** Every catalog call is a read by GET under /restapi/costestimate. */
const read = <Input extends z.ZodType, R extends ResponseShape>(name: string, inputSchema: Input, response: R) =>
  op({ name, method: "GET", path: `/restapi/costestimate/${name}`, input: inputSchema, response, mutating: false });

/** A price in one named field, e.g. `{ipCost: 1.5}`. */
const price = <Field extends string>(field: Field) => object(record({ [field]: N } as Record<Field, typeof N>));

export const costEstimateOperations = {
  publicKey: {
    ...read("getpublickey", noInput, object(publicKeyRecord)),
    // The spec's example sends no credentials.
    authenticated: false,
  },
  currencies: read("multicurrency", noInput, object(multiCurrencyRecord)),
  zones: read("zone-list", noInput, list("listZoneResponse", zoneRecord)),
  serviceCategories: read(
    "service-list",
    input({ languageUuid: ref }),
    list("serviceCategoryList", serviceCategoryRecord),
  ),
  computePlanTypes: read("compute-plan-types", noInput, list("computePlanTypeList", computePlanTypeRecord)),
  computeCategories: read("compute-category-list", byZone, list("listComputeOfferingCategory", computeCategoryRecord)),
  computePlans: read(
    "compute-plan-list",
    input({
      zoneUuid: ref,
      computeOfferingType: z.enum(["PAY_AS_YOU_GO", "BUNDLE_OFFER", "RESERVED_INSTANCE", "CUSTOM_PLAN"]),
      categoryUuid: ref.optional(),
    }),
    object(computePlansRecord),
  ),
  storageCategories: read("storage-category-list", byZone, list("listCategory", storageCategoryRecord)),
  storagePlans: read(
    "storage-plan-list",
    input({ zoneUuid: ref, categoryUuid: ref.optional() }),
    list("listStorageCost", storagePlanRecord),
  ),
  networkOfferings: read("networkoffering-list", byZone, list("listOfferingCost", networkOfferingCostRecord)),
  vpcOfferings: read("vpcoffering-list", byZone, list("vpcOfferingCost", vpcOfferingCostRecord)),
  templatePlatforms: read("template-platform-list", noInput, list("templatePlatformList", templateKindRecord)),
  templateDistributions: read(
    "template-distribution-list",
    noInput,
    list("templateDistributionList", templateKindRecord),
  ),
  templateCategories: read(
    "template-category-list",
    input({ zoneUuid: ref, platform, distribution }),
    list("templateCategoryList", templateCategoryRecord),
  ),
  templates: read(
    "template-list",
    input({ zoneUuid: ref, platform, distribution, categoryUuid: ref.optional() }),
    list("listTemplateCost", templateCostRecord),
  ),
  kubernetesVersions: read("kubernetes-version-list", byZone, list("listKubernetesVersion", kubernetesVersionRecord)),
  ipCost: read("ip-cost", byZone, price("ipCost")),
  portForwardingCost: read("portforwarding-cost", byZone, price("portForwardCost")),
  loadBalancerCost: read("loadbalancer-cost", byZone, price("loadBalancerCost")),
  vpnUserCost: read("vpn-user-cost", noInput, price("vpnUserCost")),
  snapshotCost: read("snapshot-cost", byZone, price("snapshotCost")),
  vmSnapshotCost: read("vm-snapshot-cost", byZone, price("vmSnapshotCost")),
  vmSchedulerCost: read("vm-scheduler-cost", byZone, unknownAnswer),
  // Parameters and responses not shown: any scalar parameters, any JSON answer.
  k8sCost: read("k8s-cost", anyInput, unknownAnswer),
  bandwidthCost: read("bandwidth-cost", anyInput, unknownAnswer),
  objectStorageCost: read("object-storage-cost", anyInput, unknownAnswer),
  additionalTemplateResizeCost: read("additional-template-resize-cost", anyInput, unknownAnswer),
  sfsStorageOfferings: read("list-sfs-storage-offerings", anyInput, unknownAnswer),
  supportCategories: read("list-all-support-category", anyInput, unknownAnswer),
  supportPlans: read("list-all-support-plans", anyInput, unknownAnswer),
  tax: read("tax", anyInput, unknownAnswer),
};
