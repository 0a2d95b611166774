// The cost estimate catalog: /restapi/costestimate, all GET, all read-only.
import { z } from "zod";
import {
  objectArrayField,
  booleanField,
  integerField,
  recordId,
  numberField,
  stringField,
  anyInput,
  input,
  noInput,
  record,
  ref,
} from "../schema";
import { type ResponseShape, list, object, op } from "./define";

export const currencyRecord = record({
  uuid: stringField,
  currency: stringField,
  currencySymbol: stringField,
  cost: numberField,
  isDefaultCurrency: stringField,
});
export const multiCurrencyRecord = record({
  organizationName: stringField,
  count: integerField,
  listMultiCurrency: z.array(currencyRecord).optional(),
});
export type MultiCurrency = z.output<typeof multiCurrencyRecord>;

export const zoneRecord = record({
  uuid: recordId,
  name: stringField,
  countryName: stringField,
  imageFlag: stringField,
  isActive: booleanField,
});
export type Zone = z.output<typeof zoneRecord>;

export const serviceCategoryRecord = record({ uuid: recordId, name: stringField, resourceList: objectArrayField });
export type ServiceCategory = z.output<typeof serviceCategoryRecord>;

export const computePlanTypeRecord = record({
  key: stringField,
  displayName: stringField,
  payAsYouGoOfferingCost: objectArrayField,
  customOfferingCost: objectArrayField,
  reservedOfferingCost: objectArrayField,
  bundleOfferingCost: objectArrayField,
});
export type ComputePlanType = z.output<typeof computePlanTypeRecord>;

export const computeCategoryRecord = record({
  uuid: recordId,
  name: stringField,
  description: stringField,
  planTypes: objectArrayField,
});
export type ComputeCategory = z.output<typeof computeCategoryRecord>;

export const payAsYouGoOfferingRecord = record({
  uuid: recordId,
  name: stringField,
  categoryUuid: stringField,
  core: integerField,
  cpuMax: integerField,
  memory: numberField,
  clockSpeed: integerField,
  isCustom: booleanField,
  setupCost: numberField,
  instanceRunningCostVcpu: numberField,
  instanceRunningCostMemory: numberField,
  instanceStoppageCostVcpu: numberField,
  instanceStoppageCostMemory: numberField,
});
export const reservedOfferingRecord = record({
  uuid: recordId,
  name: stringField,
  categoryUuid: stringField,
  core: integerField,
  memory: numberField,
  clockSpeed: integerField,
  offeringPlans: objectArrayField,
});
export const bundleOfferingRecord = record({
  uuid: recordId,
  name: stringField,
  categoryUuid: stringField,
  core: integerField,
  memory: numberField,
  clockSpeed: integerField,
  bandwidth: integerField,
  diskSpace: integerField,
  ipAddress: integerField,
  bundlePlan: objectArrayField,
});
export const computePlansRecord = record({
  payAsYouGoOfferingCost: z.array(payAsYouGoOfferingRecord).optional(),
  reservedOfferingCost: z.array(reservedOfferingRecord).optional(),
  bundleOfferingCost: z.array(bundleOfferingRecord).optional(),
  count: integerField,
});
export type ComputePlans = z.output<typeof computePlansRecord>;
export type PayAsYouGoOffering = z.output<typeof payAsYouGoOfferingRecord>;

export const storageCategoryRecord = record({
  uuid: recordId,
  name: stringField,
  description: stringField,
  listStorageCost: objectArrayField,
});
export type StorageCategory = z.output<typeof storageCategoryRecord>;

export const storagePlanRecord = record({
  uuid: recordId,
  name: stringField,
  categoryUuid: stringField,
  diskSize: integerField,
  isCustom: booleanField,
  costForGb: numberField,
  customCostPerGb: numberField,
});
export type StoragePlan = z.output<typeof storagePlanRecord>;

export const networkOfferingCostRecord = record({
  uuid: recordId,
  name: stringField,
  displayText: stringField,
  type: stringField,
  cost: numberField,
  haCost: numberField,
  totalCost: numberField,
});
export type NetworkOfferingCost = z.output<typeof networkOfferingCostRecord>;

export const vpcOfferingCostRecord = record({
  uuid: recordId,
  name: stringField,
  cost: numberField,
  haCost: numberField,
  totalCost: numberField,
});
export type VpcOfferingCost = z.output<typeof vpcOfferingCostRecord>;

export const templateKindRecord = record({ key: stringField, displayName: stringField });
export type TemplateKind = z.output<typeof templateKindRecord>;

export const templateCategoryRecord = record({
  uuid: recordId,
  name: stringField,
  categoryType: stringField,
  imageName: stringField,
  templates: objectArrayField,
});
export type TemplateCategory = z.output<typeof templateCategoryRecord>;

export const templateCostRecord = record({
  uuid: recordId,
  name: stringField,
  categoryUuid: stringField,
  imageName: stringField,
  cost: numberField,
  size: integerField,
  minimumCore: integerField,
  minimumMemory: integerField,
  minimumRootdisk: integerField,
  enablePerCoreLicense: booleanField,
  licensePerCoreCost: numberField,
});
export type TemplateCost = z.output<typeof templateCostRecord>;

export const kubernetesVersionRecord = record({
  uuid: recordId,
  name: stringField,
  description: stringField,
  minCpuNumber: integerField,
  minMemory: integerField,
  isActive: booleanField,
});
export type KubernetesVersion = z.output<typeof kubernetesVersionRecord>;

/** Secret values, despite the name "public key". */
export const publicKeyRecord = record({ apiKey: stringField, secretKey: stringField });

const byZone = input({ zoneUuid: ref });
const platform = z.enum(["LINUX", "WINDOWS"]);
const distribution = z.enum(["OS_ONLY", "MARKETPLACE"]);
const unknownAnswer = object(z.unknown());

/** Every catalog call is a read by GET under /restapi/costestimate. */
const read = <Input extends z.ZodType, R extends ResponseShape>(name: string, inputSchema: Input, response: R) =>
  op({ name, method: "GET", path: `/restapi/costestimate/${name}`, input: inputSchema, response, mutating: false });

/** A price in one named field, e.g. `{ipCost: 1.5}`. */
const price = <Field extends string>(field: Field) =>
  object(record({ [field]: numberField } as Record<Field, typeof numberField>));

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
