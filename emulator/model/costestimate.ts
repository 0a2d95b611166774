// The cost-estimate catalog queries (read-only, the same for every account). Each function answers from the catalog
// for one zone, with 404 for an unknown zone or category.
import type {
  Catalog,
  ComputeOfferingType,
  TemplateDistribution,
  TemplatePlatform,
  UnitCosts,
  ZoneCatalog,
} from "../seeded-catalog";
import { notFound } from "../core";

/**
 * What getpublickey answers: a fixed demo pair, described by the spec as the public pair used to sign
 * cost-estimate requests. It is not any account's credentials (they do not authenticate).
 */
export const PUBLIC_KEY_PAIR = {
  apiKey: "restcloud-costestimate-public-api-key",
  secretKey: "restcloud-costestimate-public-secret-key",
} as const;

export function zoneCatalogOf(catalog: Catalog, zoneUuid: string): ZoneCatalog {
  const zone = catalog.zoneCatalog(zoneUuid);
  if (!zone) throw notFound("zone", zoneUuid);
  return zone;
}

export const multiCurrency = (catalog: Catalog) => ({
  organizationName: catalog.organizationName,
  count: catalog.currencies.length,
  listMultiCurrency: catalog.currencies,
});

/** Any languageUuid is accepted (languages are outside the spec); see `Catalog.serviceCategories`. */
export const serviceList = (catalog: Catalog, languageUuid: string) => catalog.serviceCategories(languageUuid);

function knownCategory<T>(lookUp: (uuid: string) => T | undefined, kind: string, uuid: string | undefined): void {
  if (uuid !== undefined && lookUp(uuid) === undefined) throw notFound(kind, uuid);
}

/**
 * The zone's plans of one type: PAY_AS_YOU_GO the fixed pay-as-you-go plans, CUSTOM_PLAN the custom
 * ones (also pay-as-you-go records, isCustom true), RESERVED_INSTANCE and BUNDLE_OFFER theirs.
 */
export function computePlanList(
  catalog: Catalog,
  input: { computeOfferingType: ComputeOfferingType; categoryUuid?: string; zoneUuid: string },
) {
  const zone = zoneCatalogOf(catalog, input.zoneUuid);
  knownCategory(catalog.computeCategory, "compute offering category", input.categoryUuid);
  const inCategory = <R extends { categoryUuid: string }>(records: readonly R[]): R[] =>
    records.filter((r) => input.categoryUuid === undefined || r.categoryUuid === input.categoryUuid);
  const type = input.computeOfferingType;
  const payAsYouGoOfferingCost =
    type === "PAY_AS_YOU_GO" || type === "CUSTOM_PLAN"
      ? inCategory(zone.payAsYouGoOfferings).filter((o) => o.isCustom === (type === "CUSTOM_PLAN"))
      : [];
  const reservedOfferingCost = type === "RESERVED_INSTANCE" ? inCategory(zone.reservedOfferings) : [];
  const bundleOfferingCost = type === "BUNDLE_OFFER" ? inCategory(zone.bundleOfferings) : [];
  return {
    payAsYouGoOfferingCost,
    reservedOfferingCost,
    bundleOfferingCost,
    count: payAsYouGoOfferingCost.length + reservedOfferingCost.length + bundleOfferingCost.length,
  };
}

export function storagePlanList(catalog: Catalog, input: { zoneUuid: string; categoryUuid?: string }) {
  const zone = zoneCatalogOf(catalog, input.zoneUuid);
  knownCategory(catalog.storageCategory, "storage category", input.categoryUuid);
  return zone.storageOfferings.filter((s) => input.categoryUuid === undefined || s.categoryUuid === input.categoryUuid);
}

interface TemplateQuery {
  platform: TemplatePlatform;
  distribution: TemplateDistribution;
  zoneUuid: string;
  categoryUuid?: string;
}

const placedIn = (catalog: Catalog, uuid: string, q: TemplateQuery): boolean => {
  const placement = catalog.templatePlacement(uuid);
  return placement?.platform === q.platform && placement.distribution === q.distribution;
};

export function templateCategoryList(catalog: Catalog, q: TemplateQuery) {
  return zoneCatalogOf(catalog, q.zoneUuid).templateCategories.filter((c) => placedIn(catalog, c.uuid, q));
}

export function templateList(catalog: Catalog, q: TemplateQuery) {
  const zone = zoneCatalogOf(catalog, q.zoneUuid);
  knownCategory(catalog.templateCategory, "template category", q.categoryUuid);
  return zone.templates.filter(
    (t) => placedIn(catalog, t.uuid, q) && (q.categoryUuid === undefined || t.categoryUuid === q.categoryUuid),
  );
}

/** `{<key>: cost}` of one unit cost of the zone, e.g. `{ipCost: 3}`. */
export function unitCost(catalog: Catalog, zoneUuid: string, key: keyof UnitCosts): Partial<UnitCosts> {
  return { [key]: zoneCatalogOf(catalog, zoneUuid).unitCosts[key] };
}

export function supportPlans(catalog: Catalog, categoryUuid: string | undefined) {
  knownCategory((uuid) => catalog.supportCategories.find((c) => c.uuid === uuid), "support category", categoryUuid);
  return catalog.supportPlans.filter((p) => categoryUuid === undefined || p.categoryUuid === categoryUuid);
}
