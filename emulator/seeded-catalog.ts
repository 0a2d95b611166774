// The seeded, read-only catalog the cost-estimate endpoints answer: pure data with fixed uuids (`CATALOG_IDS`) so docs
// and tests can name them, shaped as the spec's records; per zone, an offering is offered or not, at the zone's prices.

// ---------------------------------------------------------------------------------------------
// Record types (spec field names)
// ---------------------------------------------------------------------------------------------

export interface ZoneRecord {
  imageFlag: string;
  name: string;
  countryName: string;
  isActive: boolean;
  uuid: string;
  status: string;
}

export interface CurrencyRecord {
  isDefaultCurrency: string;
  cost: number;
  currencySymbol: string;
  currency: string;
  uuid: string;
}

export interface LanguageRecord {
  uuid: string;
  name: string;
  code: string;
}

export interface ServiceCategoryRecord {
  name: string;
  uuid: string;
  resourceList: Array<{ name: string; key: string }>;
}

export type ComputeOfferingType = "PAY_AS_YOU_GO" | "BUNDLE_OFFER" | "RESERVED_INSTANCE" | "CUSTOM_PLAN";
export const COMPUTE_OFFERING_TYPES: readonly ComputeOfferingType[] = [
  "PAY_AS_YOU_GO",
  "BUNDLE_OFFER",
  "RESERVED_INSTANCE",
  "CUSTOM_PLAN",
];

export interface PayAsYouGoOfferingCost {
  instanceRunningCostVcpu: number;
  memory: number;
  instanceRunningCostMemory: number;
  cpuMax: number;
  uuid: string;
  core: number;
  categoryUuid: string;
  setupCost: number;
  clockSpeed: number;
  name: string;
  isCustom: boolean;
  instanceStoppageCostMemory: number;
  instanceStoppageCostVcpu: number;
}

/** An element of `offeringPlans` (fields not shown by the spec; ours). */
export interface ReservedTerm {
  uuid: string;
  name: string;
  termMonths: number;
  upfrontCost: number;
  monthlyCost: number;
}

export interface ReservedOfferingCost {
  core: number;
  categoryUuid: string;
  memory: number;
  clockSpeed: number;
  name: string;
  offeringPlans: ReservedTerm[];
  uuid: string;
}

/** An element of `bundlePlan` (fields not shown by the spec; ours). */
export interface BundleTerm {
  uuid: string;
  name: string;
  termMonths: number;
  cost: number;
}

export interface BundleOfferingCost {
  core: number;
  categoryUuid: string;
  memory: number;
  clockSpeed: number;
  bandwidth: number;
  diskSpace: number;
  name: string;
  ipAddress: number;
  uuid: string;
  bundlePlan: BundleTerm[];
}

export type ComputeOfferingRecord = PayAsYouGoOfferingCost | ReservedOfferingCost | BundleOfferingCost;

export interface PlanTypeRef {
  displayName: string;
  key: ComputeOfferingType;
}

export interface ComputePlanTypeRecord extends PlanTypeRef {
  payAsYouGoOfferingCost: PayAsYouGoOfferingCost[];
  customOfferingCost: PayAsYouGoOfferingCost[];
  reservedOfferingCost: ReservedOfferingCost[];
  bundleOfferingCost: BundleOfferingCost[];
}

export interface ComputeOfferingCategoryRecord {
  name: string;
  description: string;
  planTypes: PlanTypeRef[];
  uuid: string;
}

export interface StorageCostRecord {
  costForGb: number;
  categoryUuid: string;
  diskSize: number;
  name: string;
  isCustom: boolean;
  customCostPerGb: number;
  uuid: string;
}

export interface StorageCategoryRecord {
  name: string;
  description: string;
  listStorageCost: StorageCostRecord[];
  uuid: string;
}

/** `type` tells what a network offering is for: "Isolated", "Shared" or "VPC" (a VPC tier). */
export type NetworkOfferingType = "Isolated" | "Shared" | "VPC";

export interface NetworkOfferingCostRecord {
  displayText: string;
  cost: number;
  name: string;
  haCost: number;
  type: NetworkOfferingType;
  uuid: string;
  totalCost: number;
}

export interface VpcOfferingCostRecord {
  cost: number;
  name: string;
  haCost: number;
  uuid: string;
  totalCost: number;
}

export type TemplatePlatform = "LINUX" | "WINDOWS";
export type TemplateDistribution = "OS_ONLY" | "MARKETPLACE";
export const TEMPLATE_PLATFORMS: readonly TemplatePlatform[] = ["LINUX", "WINDOWS"];
export const TEMPLATE_DISTRIBUTIONS: readonly TemplateDistribution[] = ["OS_ONLY", "MARKETPLACE"];

export interface KeyedName {
  displayName: string;
  key: string;
}

export interface TemplateCostRecord {
  categoryUuid: string;
  imageName: string;
  cost: number;
  size: number;
  name: string;
  enablePerCoreLicense: boolean;
  minimumMemory: number;
  minimumRootdisk: number;
  uuid: string;
  minimumCore: number;
  licensePerCoreCost: number;
}

export interface TemplateCategoryRecord {
  /** The category's distribution: OS_ONLY or MARKETPLACE. */
  categoryType: TemplateDistribution;
  imageName: string;
  templates: TemplateCostRecord[];
  name: string;
  uuid: string;
}

export interface KubernetesVersionRecord {
  minMemory: number;
  name: string;
  description: string;
  isActive: boolean;
  uuid: string;
  minCpuNumber: number;
  status: string;
}

export interface SfsStorageOfferingRecord {
  uuid: string;
  name: string;
  description: string;
  costForGb: number;
  minSize: number;
  maxSize: number;
}

export interface SupportCategoryRecord {
  uuid: string;
  name: string;
  description: string;
}

export interface SupportPlanRecord {
  uuid: string;
  categoryUuid: string;
  name: string;
  description: string;
  responseTimeHours: number;
  cost: number;
}

/** The per-zone unit costs, under the response keys of their cost-estimate rows. */
export interface UnitCosts {
  ipCost: number;
  portForwardCost: number;
  loadBalancerCost: number;
  snapshotCost: number;
  vmSnapshotCost: number;
  vmSchedulerCost: number;
  k8sCost: number;
  bandwidthCost: number;
  objectStorageCost: number;
  additionalTemplateResizeCost: number;
}

export interface TaxRecord {
  taxName: string;
  taxPercentage: number;
  zoneUuid: string;
}

export interface HostRecord {
  cpuAllocated: string;
  memoryUsedPercentage: string;
  cpuUsed: string;
  memoryAllocatedPercentage: string;
  isActive: boolean;
  uuid: string;
  cpuCores: string;
  memoryTotal: string;
  hypervisor: string;
  name: string;
  podName: string;
  vmCount: string;
  status: string;
}

export type InvoiceStatus = "DRAFT" | "DUE" | "PAID" | "OVER_DUE" | "CANCEL" | "TAX_PENDING";
export const INVOICE_STATUSES: readonly InvoiceStatus[] = ["DRAFT", "DUE", "PAID", "OVER_DUE", "CANCEL", "TAX_PENDING"];

export interface InvoiceRecord {
  domainUuid: string;
  adjustmentCost: number;
  clientEmail: string;
  usageCost: number;
  referenceNumber: number;
  invoiceNumber: string;
  generatedDate: number;
  totalAdjustmentCost: number;
  currency: string;
  bandwidthFreeUsage: number;
  totalCost: number;
  billPeriod: string;
  status: InvoiceStatus;
  isActive: boolean;
}

/** Everything offered in one zone, at that zone's prices. */
export interface ZoneCatalog {
  readonly zone: ZoneRecord;
  readonly computeCategories: readonly ComputeOfferingCategoryRecord[];
  readonly payAsYouGoOfferings: readonly PayAsYouGoOfferingCost[];
  readonly reservedOfferings: readonly ReservedOfferingCost[];
  readonly bundleOfferings: readonly BundleOfferingCost[];
  readonly storageCategories: readonly StorageCategoryRecord[];
  readonly storageOfferings: readonly StorageCostRecord[];
  readonly networkOfferings: readonly NetworkOfferingCostRecord[];
  readonly vpcOfferings: readonly VpcOfferingCostRecord[];
  readonly templateCategories: readonly TemplateCategoryRecord[];
  readonly templates: readonly TemplateCostRecord[];
  readonly kubernetesVersions: readonly KubernetesVersionRecord[];
  readonly sfsStorageOfferings: readonly SfsStorageOfferingRecord[];
  readonly unitCosts: UnitCosts;
  readonly tax: TaxRecord;
  readonly hosts: readonly HostRecord[];
}

export interface Catalog {
  readonly organizationName: string;
  readonly zones: readonly ZoneRecord[];
  readonly currencies: readonly CurrencyRecord[];
  readonly languages: readonly LanguageRecord[];
  readonly computePlanTypes: readonly ComputePlanTypeRecord[];
  readonly templatePlatforms: readonly KeyedName[];
  readonly templateDistributions: readonly KeyedName[];
  readonly supportCategories: readonly SupportCategoryRecord[];
  readonly supportPlans: readonly SupportPlanRecord[];
  readonly vpnUserCost: number;
  /** Every offering at base (factor 1) prices, whatever zone offers it. */
  readonly computeOfferings: readonly ComputeOfferingRecord[];
  readonly storageOfferings: readonly StorageCostRecord[];
  readonly networkOfferings: readonly NetworkOfferingCostRecord[];
  readonly vpcOfferings: readonly VpcOfferingCostRecord[];
  readonly templates: readonly TemplateCostRecord[];
  readonly kubernetesVersions: readonly KubernetesVersionRecord[];
  /** All hypervisor hosts of all zones (the admin-only hostList). */
  readonly hosts: readonly HostRecord[];
  /** The seeded invoices of every seeded account (today: the demo account). */
  readonly invoices: readonly InvoiceRecord[];

  zone(uuid: string): ZoneRecord | undefined;
  /** What a zone offers at its prices; undefined for an unknown zone. */
  zoneCatalog(zoneUuid: string): ZoneCatalog | undefined;
  /**
   * The service categories in a language. Languages are outside the spec (no endpoint lists them), so
   * any languageUuid is accepted: German for `CATALOG_IDS.languages.de`, English for any other.
   */
  serviceCategories(languageUuid: string): ServiceCategoryRecord[];
  // Look-ups: with a zoneUuid, only what that zone offers, at its prices.
  vpcOffering(uuid: string, zoneUuid?: string): VpcOfferingCostRecord | undefined;
  networkOffering(uuid: string, zoneUuid?: string): NetworkOfferingCostRecord | undefined;
  /** Any plan kind: pay-as-you-go (fixed or custom), reserved or bundle. */
  computeOffering(uuid: string, zoneUuid?: string): ComputeOfferingRecord | undefined;
  /** PAY_AS_YOU_GO, CUSTOM_PLAN, RESERVED_INSTANCE or BUNDLE_OFFER; undefined for an unknown uuid. */
  computeOfferingType(uuid: string): ComputeOfferingType | undefined;
  storageOffering(uuid: string, zoneUuid?: string): StorageCostRecord | undefined;
  template(uuid: string, zoneUuid?: string): TemplateCostRecord | undefined;
  /** The platform and distribution of a template category (or of a template's category). */
  templatePlacement(
    categoryOrTemplateUuid: string,
  ): { platform: TemplatePlatform; distribution: TemplateDistribution } | undefined;
  kubernetesVersion(uuid: string, zoneUuid?: string): KubernetesVersionRecord | undefined;
  computeCategory(uuid: string): ComputeOfferingCategoryRecord | undefined;
  storageCategory(uuid: string): StorageCategoryRecord | undefined;
  templateCategory(uuid: string): TemplateCategoryRecord | undefined;
  host(uuid: string): HostRecord | undefined;
  /** The seeded invoices of the account with this e-mail (copies, ready to store). */
  invoicesFor(clientEmail: string): InvoiceRecord[];
}

// ---------------------------------------------------------------------------------------------
// Fixed identifiers
// ---------------------------------------------------------------------------------------------

/** A UUID-formatted constant: a kind prefix (8 hex digits) and a serial number. */
const id = (kind: string, n: number): string => `${kind}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

export const DEMO_EMAIL = "demo@restcloud.example";

export const CATALOG_IDS = {
  zones: { frankfurt: id("a1b2c3d4", 1), singapore: id("a1b2c3d4", 2), mumbai: id("a1b2c3d4", 3) },
  currencies: { EUR: id("cc00cc00", 1), USD: id("cc00cc00", 2), INR: id("cc00cc00", 3) },
  languages: { en: id("1a000000", 1), de: id("1a000000", 2) },
  computeCategories: {
    generalPurpose: id("cca70000", 1),
    computeOptimized: id("cca70000", 2),
    memoryOptimized: id("cca70000", 3),
  },
  computeOfferings: {
    gp1c1g: id("c0000000", 0x101),
    gp1c2g: id("c0000000", 0x102),
    gp2c4g: id("c0000000", 0x103),
    gp4c8g: id("c0000000", 0x104),
    gp8c16g: id("c0000000", 0x105),
    co2c2g: id("c0000000", 0x111),
    co4c4g: id("c0000000", 0x112),
    co8c8g: id("c0000000", 0x113),
    mo2c8g: id("c0000000", 0x121),
    mo4c16g: id("c0000000", 0x122),
    mo8c32g: id("c0000000", 0x123),
    gpCustom: id("c0000000", 0x1ff),
    reservedGp2c4g: id("c0000000", 0x201),
    reservedGp4c8g: id("c0000000", 0x202),
    reservedCo4c4g: id("c0000000", 0x211),
    bundleStarter: id("c0000000", 0x301),
    bundleStandard: id("c0000000", 0x302),
    bundlePro: id("c0000000", 0x303),
  },
  storageCategories: { ssd: id("5c000000", 1), hdd: id("5c000000", 2) },
  storageOfferings: {
    ssd20: id("50000000", 0x101),
    ssd50: id("50000000", 0x102),
    ssd100: id("50000000", 0x103),
    ssd500: id("50000000", 0x104),
    ssdCustom: id("50000000", 0x1ff),
    hdd500: id("50000000", 0x201),
    hddCustom: id("50000000", 0x2ff),
  },
  networkOfferings: {
    isolated: id("4e000000", 1),
    shared: id("4e000000", 2),
    vpcTier: id("4e000000", 3),
    vpcTierInternalLb: id("4e000000", 4),
  },
  vpcOfferings: { standard: id("4f000000", 1), redundant: id("4f000000", 2) },
  templateCategories: {
    ubuntu: id("7c000000", 1),
    debian: id("7c000000", 2),
    rocky: id("7c000000", 3),
    windowsServer: id("7c000000", 4),
    wordpress: id("7c000000", 5),
  },
  templates: {
    ubuntu2404: id("70000000", 1),
    ubuntu2204: id("70000000", 2),
    debian12: id("70000000", 3),
    rocky9: id("70000000", 4),
    windows2022: id("70000000", 5),
    wordpress: id("70000000", 6),
  },
  kubernetesVersions: { v1_30: id("8e000000", 0x130), v1_31: id("8e000000", 0x131), v1_32: id("8e000000", 0x132) },
  demoDomain: id("d0000000", 1),
} as const;

const IDS = CATALOG_IDS;

// ---------------------------------------------------------------------------------------------
// Seed
// ---------------------------------------------------------------------------------------------

interface ZoneSeed {
  record: ZoneRecord;
  /** Multiplies every price of the zone. */
  priceFactor: number;
  /** Offerings, templates and versions this zone does not offer. */
  notOffered: ReadonlySet<string>;
  tax: { taxName: string; taxPercentage: number };
  hostPrefix: string;
}

const zoneRecord = (uuid: string, name: string, countryName: string, flag: string): ZoneRecord => ({
  imageFlag: `https://flags.restcloud.example/${flag}.svg`,
  name,
  countryName,
  isActive: true,
  uuid,
  status: "Active",
});

const O = IDS.computeOfferings;
const ZONE_SEEDS: readonly ZoneSeed[] = [
  {
    record: zoneRecord(IDS.zones.frankfurt, "Frankfurt 1", "Germany", "de"),
    priceFactor: 1,
    notOffered: new Set(),
    tax: { taxName: "VAT", taxPercentage: 19 },
    hostPrefix: "fra1",
  },
  {
    record: zoneRecord(IDS.zones.singapore, "Singapore 1", "Singapore", "sg"),
    priceFactor: 1.1,
    notOffered: new Set([IDS.networkOfferings.shared, O.bundlePro]),
    tax: { taxName: "GST", taxPercentage: 9 },
    hostPrefix: "sin1",
  },
  {
    record: zoneRecord(IDS.zones.mumbai, "Mumbai 1", "India", "in"),
    priceFactor: 0.9,
    notOffered: new Set([
      O.mo2c8g,
      O.mo4c16g,
      O.mo8c32g,
      O.reservedCo4c4g,
      IDS.templates.windows2022,
      IDS.kubernetesVersions.v1_32,
      IDS.vpcOfferings.redundant,
    ]),
    tax: { taxName: "GST", taxPercentage: 18 },
    hostPrefix: "bom1",
  },
];

const CURRENCIES: readonly CurrencyRecord[] = [
  { isDefaultCurrency: "true", cost: 1, currencySymbol: "€", currency: "EUR", uuid: IDS.currencies.EUR },
  { isDefaultCurrency: "false", cost: 1.08, currencySymbol: "$", currency: "USD", uuid: IDS.currencies.USD },
  { isDefaultCurrency: "false", cost: 90.5, currencySymbol: "₹", currency: "INR", uuid: IDS.currencies.INR },
];

const LANGUAGES: readonly LanguageRecord[] = [
  { uuid: IDS.languages.en, name: "English", code: "en" },
  { uuid: IDS.languages.de, name: "Deutsch", code: "de" },
];

/** Service categories: [key, English, German, resources [key, English, German]]. */
const SERVICE_CATEGORIES: ReadonlyArray<[string, string, string, ReadonlyArray<[string, string, string]>]> = [
  [
    "COMPUTE",
    "Compute",
    "Rechenleistung",
    [
      ["INSTANCE", "Instances", "Instanzen"],
      ["VM_SNAPSHOT", "VM snapshots", "VM-Snapshots"],
    ],
  ],
  [
    "STORAGE",
    "Storage",
    "Speicher",
    [
      ["VOLUME", "Volumes", "Volumes"],
      ["SNAPSHOT", "Snapshots", "Snapshots"],
      ["OBJECT_STORAGE", "Object storage", "Objektspeicher"],
    ],
  ],
  [
    "NETWORK",
    "Network",
    "Netzwerk",
    [
      ["NETWORK", "Networks", "Netzwerke"],
      ["VPC", "VPCs", "VPCs"],
      ["IP_ADDRESS", "Public IP addresses", "Öffentliche IP-Adressen"],
      ["LOAD_BALANCER", "Load balancers", "Lastverteiler"],
      ["VPN", "VPN", "VPN"],
    ],
  ],
  ["KUBERNETES", "Kubernetes", "Kubernetes", [["CLUSTER", "Clusters", "Cluster"]]],
  ["SUPPORT", "Support", "Support", [["SUPPORT_PLAN", "Support plans", "Supportpläne"]]],
];

const PLAN_TYPES: readonly PlanTypeRef[] = [
  { displayName: "Pay as you go", key: "PAY_AS_YOU_GO" },
  { displayName: "Bundle offer", key: "BUNDLE_OFFER" },
  { displayName: "Reserved instance", key: "RESERVED_INSTANCE" },
  { displayName: "Custom plan", key: "CUSTOM_PLAN" },
];
const planTypes = (...keys: ComputeOfferingType[]): PlanTypeRef[] => PLAN_TYPES.filter((p) => keys.includes(p.key));

const COMPUTE_CATEGORIES: readonly ComputeOfferingCategoryRecord[] = [
  {
    name: "General purpose",
    description: "Balanced vCPU and memory for most workloads",
    planTypes: planTypes("PAY_AS_YOU_GO", "BUNDLE_OFFER", "RESERVED_INSTANCE", "CUSTOM_PLAN"),
    uuid: IDS.computeCategories.generalPurpose,
  },
  {
    name: "Compute optimized",
    description: "High-frequency vCPUs, 1 GiB per vCPU",
    planTypes: planTypes("PAY_AS_YOU_GO", "RESERVED_INSTANCE"),
    uuid: IDS.computeCategories.computeOptimized,
  },
  {
    name: "Memory optimized",
    description: "4 GiB per vCPU for databases and caches",
    planTypes: planTypes("PAY_AS_YOU_GO"),
    uuid: IDS.computeCategories.memoryOptimized,
  },
];

/** Hourly prices per vCPU and per GiB, and clock speed (MHz), by compute category. */
const CATEGORY_RATES: Record<string, { vcpu: number; gib: number; clockSpeed: number; prefix: string }> = {
  [IDS.computeCategories.generalPurpose]: { vcpu: 0.011, gib: 0.004, clockSpeed: 2400, prefix: "gp" },
  [IDS.computeCategories.computeOptimized]: { vcpu: 0.015, gib: 0.003, clockSpeed: 3200, prefix: "co" },
  [IDS.computeCategories.memoryOptimized]: { vcpu: 0.009, gib: 0.0055, clockSpeed: 2400, prefix: "mo" },
};

const HOURS_PER_MONTH = 730;
/** The most vCPUs of the custom plan; its memory may go up to 8 GiB per vCPU. */
export const CUSTOM_PLAN_CPU_MAX = 16;
export const CUSTOM_PLAN_MAX_MEMORY_PER_CORE_MIB = 8192;

const round = (n: number, digits = 4): number => Number(n.toFixed(digits));

function payAsYouGo(uuid: string, categoryUuid: string, core: number, gib: number): PayAsYouGoOfferingCost {
  const rate = CATEGORY_RATES[categoryUuid];
  return {
    instanceRunningCostVcpu: rate.vcpu,
    memory: gib * 1024,
    instanceRunningCostMemory: rate.gib,
    cpuMax: core,
    uuid,
    core,
    categoryUuid,
    setupCost: 0,
    clockSpeed: rate.clockSpeed,
    name: `${rate.prefix}.${core}c${gib}g`,
    isCustom: false,
    // A stopped instance pays for its reserved memory only.
    instanceStoppageCostMemory: round(rate.gib / 4, 5),
    instanceStoppageCostVcpu: 0,
  };
}

const hourlyCost = (categoryUuid: string, core: number, gib: number): number =>
  CATEGORY_RATES[categoryUuid].vcpu * core + CATEGORY_RATES[categoryUuid].gib * gib;

const GP = IDS.computeCategories.generalPurpose;
const CO = IDS.computeCategories.computeOptimized;
const MO = IDS.computeCategories.memoryOptimized;

const PAY_AS_YOU_GO: readonly PayAsYouGoOfferingCost[] = [
  payAsYouGo(O.gp1c1g, GP, 1, 1),
  payAsYouGo(O.gp1c2g, GP, 1, 2),
  payAsYouGo(O.gp2c4g, GP, 2, 4),
  payAsYouGo(O.gp4c8g, GP, 4, 8),
  payAsYouGo(O.gp8c16g, GP, 8, 16),
  payAsYouGo(O.co2c2g, CO, 2, 2),
  payAsYouGo(O.co4c4g, CO, 4, 4),
  payAsYouGo(O.co8c8g, CO, 8, 8),
  payAsYouGo(O.mo2c8g, MO, 2, 8),
  payAsYouGo(O.mo4c16g, MO, 4, 16),
  payAsYouGo(O.mo8c32g, MO, 8, 32),
  // The custom plan: core and memory are the minimums, cpuMax the most vCPUs a caller may ask for.
  { ...payAsYouGo(O.gpCustom, GP, 1, 1), name: "gp.custom", isCustom: true, cpuMax: CUSTOM_PLAN_CPU_MAX, setupCost: 2 },
];

function reserved(uuid: string, categoryUuid: string, core: number, gib: number): ReservedOfferingCost {
  const monthly = hourlyCost(categoryUuid, core, gib) * HOURS_PER_MONTH;
  const term = (n: number, months: number, discount: number): ReservedTerm => ({
    uuid: id("c0000000", parseInt(uuid.slice(-3), 16) * 16 + n),
    name: `${months / 12}-year`,
    termMonths: months,
    upfrontCost: round(monthly * months * (1 - discount) * 0.5, 2),
    monthlyCost: round(monthly * (1 - discount) * 0.5, 2),
  });
  return {
    core,
    categoryUuid,
    memory: gib * 1024,
    clockSpeed: CATEGORY_RATES[categoryUuid].clockSpeed,
    name: `${CATEGORY_RATES[categoryUuid].prefix}.${core}c${gib}g.reserved`,
    offeringPlans: [term(1, 12, 0.3), term(2, 36, 0.5)],
    uuid,
  };
}

const RESERVED: readonly ReservedOfferingCost[] = [
  reserved(O.reservedGp2c4g, GP, 2, 4),
  reserved(O.reservedGp4c8g, GP, 4, 8),
  reserved(O.reservedCo4c4g, CO, 4, 4),
];

function bundle(
  uuid: string,
  name: string,
  size: { core: number; gib: number; diskSpace: number; bandwidth: number },
  monthlyCost: number,
): BundleOfferingCost {
  const serial = parseInt(uuid.slice(-3), 16) * 16;
  return {
    core: size.core,
    categoryUuid: GP,
    memory: size.gib * 1024,
    clockSpeed: CATEGORY_RATES[GP].clockSpeed,
    bandwidth: size.bandwidth,
    diskSpace: size.diskSpace,
    name,
    ipAddress: 1,
    uuid,
    bundlePlan: [
      { uuid: id("c0000000", serial + 1), name: "Monthly", termMonths: 1, cost: monthlyCost },
      { uuid: id("c0000000", serial + 2), name: "Yearly", termMonths: 12, cost: round(monthlyCost * 10, 2) },
    ],
  };
}

const BUNDLES: readonly BundleOfferingCost[] = [
  bundle(O.bundleStarter, "bundle.starter", { core: 1, gib: 1, diskSpace: 25, bandwidth: 1000 }, 5),
  bundle(O.bundleStandard, "bundle.standard", { core: 2, gib: 4, diskSpace: 80, bandwidth: 3000 }, 18),
  bundle(O.bundlePro, "bundle.pro", { core: 4, gib: 8, diskSpace: 160, bandwidth: 5000 }, 34),
];

const S = IDS.storageOfferings;
const storagePlan = (uuid: string, categoryUuid: string, diskSize: number, perGb: number): StorageCostRecord => ({
  costForGb: perGb,
  categoryUuid,
  diskSize,
  name: `${categoryUuid === IDS.storageCategories.ssd ? "ssd" : "hdd"}.${diskSize}gb`,
  isCustom: false,
  customCostPerGb: 0,
  uuid,
});
const customStoragePlan = (uuid: string, categoryUuid: string, perGb: number): StorageCostRecord => ({
  costForGb: perGb,
  categoryUuid,
  diskSize: 0,
  name: `${categoryUuid === IDS.storageCategories.ssd ? "ssd" : "hdd"}.custom`,
  isCustom: true,
  customCostPerGb: perGb,
  uuid,
});

const STORAGE_PLANS: readonly StorageCostRecord[] = [
  storagePlan(S.ssd20, IDS.storageCategories.ssd, 20, 0.1),
  storagePlan(S.ssd50, IDS.storageCategories.ssd, 50, 0.1),
  storagePlan(S.ssd100, IDS.storageCategories.ssd, 100, 0.095),
  storagePlan(S.ssd500, IDS.storageCategories.ssd, 500, 0.09),
  customStoragePlan(S.ssdCustom, IDS.storageCategories.ssd, 0.11),
  storagePlan(S.hdd500, IDS.storageCategories.hdd, 500, 0.04),
  customStoragePlan(S.hddCustom, IDS.storageCategories.hdd, 0.045),
];

const STORAGE_CATEGORIES: ReadonlyArray<Omit<StorageCategoryRecord, "listStorageCost">> = [
  { name: "SSD", description: "Replicated SSD block storage", uuid: IDS.storageCategories.ssd },
  { name: "HDD", description: "Replicated HDD block storage for bulk data", uuid: IDS.storageCategories.hdd },
];

const N = IDS.networkOfferings;
const networkOffering = (
  uuid: string,
  name: string,
  displayText: string,
  type: NetworkOfferingType,
  cost: number,
  haCost: number,
): NetworkOfferingCostRecord => ({ displayText, cost, name, haCost, type, uuid, totalCost: round(cost + haCost) });

const NETWORK_OFFERINGS: readonly NetworkOfferingCostRecord[] = [
  networkOffering(
    N.isolated,
    "DefaultIsolatedNetworkOfferingWithSourceNatService",
    "Isolated network with source NAT, firewall, port forwarding and load balancing",
    "Isolated",
    5,
    0,
  ),
  networkOffering(
    N.shared,
    "DefaultSharedNetworkOfferingWithSGService",
    "Shared network with security groups",
    "Shared",
    0,
    0,
  ),
  networkOffering(
    N.vpcTier,
    "DefaultIsolatedNetworkOfferingForVpcNetworks",
    "VPC tier with public load balancing and port forwarding",
    "VPC",
    2,
    0,
  ),
  networkOffering(
    N.vpcTierInternalLb,
    "DefaultIsolatedNetworkOfferingForVpcNetworksWithInternalLB",
    "VPC tier with internal load balancing",
    "VPC",
    3,
    0,
  ),
];

const VPC_OFFERINGS: readonly VpcOfferingCostRecord[] = [
  { cost: 10, name: "Default VPC offering", haCost: 0, uuid: IDS.vpcOfferings.standard, totalCost: 10 },
  { cost: 10, name: "Redundant VPC offering", haCost: 8, uuid: IDS.vpcOfferings.redundant, totalCost: 18 },
];

const TEMPLATE_PLATFORM_NAMES: readonly KeyedName[] = [
  { displayName: "Linux", key: "LINUX" },
  { displayName: "Windows", key: "WINDOWS" },
];
const TEMPLATE_DISTRIBUTION_NAMES: readonly KeyedName[] = [
  { displayName: "OS only", key: "OS_ONLY" },
  { displayName: "Marketplace", key: "MARKETPLACE" },
];

const TC = IDS.templateCategories;
const TEMPLATE_CATEGORIES: ReadonlyArray<{
  platform: TemplatePlatform;
  record: Omit<TemplateCategoryRecord, "templates">;
}> = [
  {
    platform: "LINUX",
    record: { categoryType: "OS_ONLY", imageName: "ubuntu.svg", name: "Ubuntu", uuid: TC.ubuntu },
  },
  {
    platform: "LINUX",
    record: { categoryType: "OS_ONLY", imageName: "debian.svg", name: "Debian", uuid: TC.debian },
  },
  {
    platform: "LINUX",
    record: { categoryType: "OS_ONLY", imageName: "rocky.svg", name: "Rocky Linux", uuid: TC.rocky },
  },
  {
    platform: "WINDOWS",
    record: { categoryType: "OS_ONLY", imageName: "windows.svg", name: "Windows Server", uuid: TC.windowsServer },
  },
  {
    platform: "LINUX",
    record: { categoryType: "MARKETPLACE", imageName: "wordpress.svg", name: "WordPress", uuid: TC.wordpress },
  },
];

const template = (
  uuid: string,
  categoryUuid: string,
  name: string,
  imageName: string,
  spec: { size: number; cost: number; minimumCore: number; minimumMemory: number; licensePerCoreCost?: number },
): TemplateCostRecord => ({
  categoryUuid,
  imageName,
  cost: spec.cost,
  size: spec.size,
  name,
  enablePerCoreLicense: spec.licensePerCoreCost !== undefined,
  minimumMemory: spec.minimumMemory,
  minimumRootdisk: spec.size,
  uuid,
  minimumCore: spec.minimumCore,
  licensePerCoreCost: spec.licensePerCoreCost ?? 0,
});

const T = IDS.templates;
const TEMPLATES: readonly TemplateCostRecord[] = [
  template(T.ubuntu2404, TC.ubuntu, "Ubuntu 24.04 LTS", "ubuntu.svg", {
    size: 10,
    cost: 0,
    minimumCore: 1,
    minimumMemory: 1024,
  }),
  template(T.ubuntu2204, TC.ubuntu, "Ubuntu 22.04 LTS", "ubuntu.svg", {
    size: 10,
    cost: 0,
    minimumCore: 1,
    minimumMemory: 1024,
  }),
  template(T.debian12, TC.debian, "Debian 12", "debian.svg", { size: 8, cost: 0, minimumCore: 1, minimumMemory: 1024 }),
  template(T.rocky9, TC.rocky, "Rocky Linux 9", "rocky.svg", {
    size: 10,
    cost: 0,
    minimumCore: 1,
    minimumMemory: 1024,
  }),
  template(T.windows2022, TC.windowsServer, "Windows Server 2022", "windows.svg", {
    size: 40,
    cost: 0,
    minimumCore: 2,
    minimumMemory: 4096,
    licensePerCoreCost: 0.0125,
  }),
  template(T.wordpress, TC.wordpress, "WordPress 6 on Ubuntu 24.04", "wordpress.svg", {
    size: 20,
    cost: 0.002,
    minimumCore: 1,
    minimumMemory: 2048,
  }),
];

const kubernetesVersion = (uuid: string, minor: string, patch: number): KubernetesVersionRecord => ({
  minMemory: 2048,
  name: minor,
  description: `Kubernetes v${minor}.${patch} with Calico CNI`,
  isActive: true,
  uuid,
  minCpuNumber: 2,
  status: "Active",
});

const KUBERNETES_VERSIONS: readonly KubernetesVersionRecord[] = [
  kubernetesVersion(IDS.kubernetesVersions.v1_30, "1.30", 10),
  kubernetesVersion(IDS.kubernetesVersions.v1_31, "1.31", 6),
  kubernetesVersion(IDS.kubernetesVersions.v1_32, "1.32", 2),
];

const BASE_UNIT_COSTS: UnitCosts = {
  ipCost: 3, // per IP and month
  portForwardCost: 0.5, // per rule and month
  loadBalancerCost: 6, // per rule and month
  snapshotCost: 0.05, // per GB and month
  vmSnapshotCost: 0.08, // per GB and month
  vmSchedulerCost: 1, // per schedule and month
  k8sCost: 0.03, // per cluster (control plane) and hour
  bandwidthCost: 0.01, // per GB beyond the free allowance
  objectStorageCost: 0.02, // per GB and month
  additionalTemplateResizeCost: 0.1, // per GB of root disk beyond the template size, per month
};

const SFS_STORAGE_OFFERINGS: ReadonlyArray<Omit<SfsStorageOfferingRecord, "costForGb"> & { perGb: number }> = [
  {
    uuid: id("5f500000", 1),
    name: "sfs.standard",
    description: "NFS shared file storage",
    perGb: 0.12,
    minSize: 100,
    maxSize: 10240,
  },
  {
    uuid: id("5f500000", 2),
    name: "sfs.performance",
    description: "NFS shared file storage on NVMe",
    perGb: 0.25,
    minSize: 100,
    maxSize: 10240,
  },
];

const SUPPORT_CATEGORIES: readonly SupportCategoryRecord[] = [
  { uuid: id("50e00000", 1), name: "Technical", description: "Help with running workloads on the platform" },
  { uuid: id("50e00000", 2), name: "Billing", description: "Questions about invoices and payments" },
];

const SUPPORT_PLANS: readonly SupportPlanRecord[] = [
  {
    uuid: id("50f00000", 1),
    categoryUuid: SUPPORT_CATEGORIES[0].uuid,
    name: "Basic",
    description: "E-mail, business hours",
    responseTimeHours: 24,
    cost: 0,
  },
  {
    uuid: id("50f00000", 2),
    categoryUuid: SUPPORT_CATEGORIES[0].uuid,
    name: "Business",
    description: "E-mail and phone, around the clock",
    responseTimeHours: 4,
    cost: 99,
  },
  {
    uuid: id("50f00000", 3),
    categoryUuid: SUPPORT_CATEGORIES[0].uuid,
    name: "Enterprise",
    description: "Named engineer, around the clock",
    responseTimeHours: 1,
    cost: 499,
  },
  {
    uuid: id("50f00000", 4),
    categoryUuid: SUPPORT_CATEGORIES[1].uuid,
    name: "Billing desk",
    description: "E-mail, business hours",
    responseTimeHours: 48,
    cost: 0,
  },
];

const VPN_USER_COST = 2; // per VPN user and month

function hostsOf(seed: ZoneSeed, zoneIndex: number): HostRecord[] {
  return [0, 1].map((i) => ({
    cpuAllocated: `${38 + 11 * i + zoneIndex}%`,
    memoryUsedPercentage: `${(52.5 + 7 * i + zoneIndex).toFixed(1)}`,
    cpuUsed: `${(21.3 + 5 * i + zoneIndex).toFixed(1)}%`,
    memoryAllocatedPercentage: `${(64.2 + 6 * i + zoneIndex).toFixed(1)}`,
    isActive: true,
    uuid: id("b0000000", 0x100 * (zoneIndex + 1) + i + 1),
    cpuCores: "64",
    memoryTotal: "540672", // MiB (528 GiB)
    hypervisor: "KVM",
    name: `${seed.hostPrefix}-kvm-0${i + 1}`,
    podName: `${seed.hostPrefix}-pod-a`,
    vmCount: String(14 + 3 * i + zoneIndex),
    status: "Active",
  }));
}

/** One invoice per month; the money fields follow from usage and adjustment. */
function invoice(
  invoiceNumber: number,
  billPeriod: string,
  status: InvoiceStatus,
  usageCost: number,
  adjustmentCost = 0,
): InvoiceRecord {
  const [year, month] = billPeriod.split("-").map(Number);
  return {
    domainUuid: IDS.demoDomain,
    adjustmentCost,
    clientEmail: DEMO_EMAIL,
    usageCost,
    referenceNumber: year * 1_000_000 + month * 10_000 + (invoiceNumber % 10_000),
    invoiceNumber: String(invoiceNumber),
    // Invoices are generated on the first day of the following month, 06:00 UTC.
    generatedDate: Date.UTC(year, month, 1, 6),
    totalAdjustmentCost: adjustmentCost,
    currency: "EUR",
    bandwidthFreeUsage: 1000,
    totalCost: round(usageCost + adjustmentCost, 2),
    billPeriod,
    status,
    isActive: true,
  };
}

/** Newest first, as a billing portal lists them. */
const DEMO_INVOICES: readonly InvoiceRecord[] = [
  invoice(100107, "2026-09", "DRAFT", 64.9),
  invoice(100108, "2026-09", "TAX_PENDING", 18.0),
  invoice(100106, "2026-08", "TAX_PENDING", 110.45),
  invoice(100105, "2026-07", "DUE", 102.1),
  invoice(100104, "2026-06", "OVER_DUE", 97.3),
  invoice(100103, "2026-05", "PAID", 91.75, -5),
  invoice(100102, "2026-04", "PAID", 84.2),
  invoice(100101, "2026-03", "CANCEL", 12.4),
];

// ---------------------------------------------------------------------------------------------
// Assembly
// ---------------------------------------------------------------------------------------------

/** Scales the listed price fields of a record. */
function priced<R extends object>(record: R, fields: ReadonlyArray<keyof R>, factor: number): R {
  if (factor === 1) return structuredClone(record);
  const copy = structuredClone(record);
  for (const field of fields) copy[field] = round((copy[field] as number) * factor) as R[keyof R];
  return copy;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const PAYG_PRICES = [
  "instanceRunningCostVcpu",
  "instanceRunningCostMemory",
  "setupCost",
  "instanceStoppageCostMemory",
  "instanceStoppageCostVcpu",
] as const;

function buildZone(seed: ZoneSeed, zoneIndex: number): ZoneCatalog {
  const f = seed.priceFactor;
  const offered = <R extends { uuid: string }>(records: readonly R[]): R[] =>
    records.filter((r) => !seed.notOffered.has(r.uuid));

  const payAsYouGoOfferings = offered(PAY_AS_YOU_GO).map((r) => priced(r, PAYG_PRICES, f));
  const reservedOfferings = offered(RESERVED).map((r) => ({
    ...structuredClone(r),
    offeringPlans: r.offeringPlans.map((p) => priced(p, ["upfrontCost", "monthlyCost"], f)),
  }));
  const bundleOfferings = offered(BUNDLES).map((r) => ({
    ...structuredClone(r),
    bundlePlan: r.bundlePlan.map((p) => priced(p, ["cost"], f)),
  }));
  const storageOfferings = offered(STORAGE_PLANS).map((r) => priced(r, ["costForGb", "customCostPerGb"], f));
  const templates = offered(TEMPLATES).map((r) => priced(r, ["cost", "licensePerCoreCost"], f));
  const allCompute = [...payAsYouGoOfferings, ...reservedOfferings, ...bundleOfferings];
  return {
    zone: seed.record,
    computeCategories: COMPUTE_CATEGORIES.filter((c) => allCompute.some((o) => o.categoryUuid === c.uuid)),
    payAsYouGoOfferings,
    reservedOfferings,
    bundleOfferings,
    storageCategories: STORAGE_CATEGORIES.map((c) => ({
      ...c,
      listStorageCost: storageOfferings.filter((s) => s.categoryUuid === c.uuid),
    })),
    storageOfferings,
    networkOfferings: offered(NETWORK_OFFERINGS).map((r) => priced(r, ["cost", "haCost", "totalCost"], f)),
    vpcOfferings: offered(VPC_OFFERINGS).map((r) => priced(r, ["cost", "haCost", "totalCost"], f)),
    templateCategories: TEMPLATE_CATEGORIES.map(({ record }) => ({
      ...record,
      templates: templates.filter((t) => t.categoryUuid === record.uuid),
    })).filter((c) => c.templates.length > 0),
    templates,
    kubernetesVersions: offered(KUBERNETES_VERSIONS).map((r) => structuredClone(r)),
    sfsStorageOfferings: SFS_STORAGE_OFFERINGS.map(({ perGb, ...rest }) => ({ ...rest, costForGb: round(perGb * f) })),
    unitCosts: priced(BASE_UNIT_COSTS, Object.keys(BASE_UNIT_COSTS) as Array<keyof UnitCosts>, f),
    tax: { ...seed.tax, zoneUuid: seed.record.uuid },
    hosts: hostsOf(seed, zoneIndex),
  };
}

/** Builds the catalog. Deterministic: every call answers the same data. */
export function createCatalog(): Catalog {
  const zoneCatalogs = new Map(ZONE_SEEDS.map((seed, i) => [seed.record.uuid, deepFreeze(buildZone(seed, i))]));
  const hosts = [...zoneCatalogs.values()].flatMap((z) => z.hosts);
  return deepFreeze({ ...seededLists(hosts), ...lookUps(zoneCatalogs, hosts) });
}

/** The catalog's lists, at base prices: what the list endpoints answer without a zone. */
function seededLists(hosts: HostRecord[]) {
  const computeOfferings: ComputeOfferingRecord[] = [...PAY_AS_YOU_GO, ...RESERVED, ...BUNDLES];
  return {
    organizationName: "RestCloud Demo Organization",
    zones: ZONE_SEEDS.map((z) => z.record),
    currencies: CURRENCIES,
    languages: LANGUAGES,
    computePlanTypes: planTypeRecords(),
    templatePlatforms: TEMPLATE_PLATFORM_NAMES,
    templateDistributions: TEMPLATE_DISTRIBUTION_NAMES,
    supportCategories: SUPPORT_CATEGORIES,
    supportPlans: SUPPORT_PLANS,
    vpnUserCost: VPN_USER_COST,
    computeOfferings,
    storageOfferings: STORAGE_PLANS,
    networkOfferings: NETWORK_OFFERINGS,
    vpcOfferings: VPC_OFFERINGS,
    templates: TEMPLATES,
    kubernetesVersions: KUBERNETES_VERSIONS,
    hosts,
    invoices: DEMO_INVOICES,
  };
}

function planTypeRecords(): ComputePlanTypeRecord[] {
  return PLAN_TYPES.map((p) => ({
    ...p,
    payAsYouGoOfferingCost: p.key === "PAY_AS_YOU_GO" ? PAY_AS_YOU_GO.filter((o) => !o.isCustom) : [],
    customOfferingCost: p.key === "CUSTOM_PLAN" ? PAY_AS_YOU_GO.filter((o) => o.isCustom) : [],
    reservedOfferingCost: p.key === "RESERVED_INSTANCE" ? [...RESERVED] : [],
    bundleOfferingCost: p.key === "BUNDLE_OFFER" ? [...BUNDLES] : [],
  }));
}

const byUuid = <R extends { uuid: string }>(records: readonly R[]) => new Map(records.map((r) => [r.uuid, r]));

/** A look-up by uuid; with a zone: the zone's priced copy, or undefined when the zone does not offer it. */
const zonedLookUp =
  <R extends { uuid: string }>(
    zoneCatalogs: ReadonlyMap<string, ZoneCatalog>,
    base: Map<string, R>,
    inZone: (z: ZoneCatalog) => readonly R[],
  ) =>
  (uuid: string, zoneUuid?: string): R | undefined => {
    if (zoneUuid === undefined) return base.get(uuid);
    const zone = zoneCatalogs.get(zoneUuid);
    return zone ? inZone(zone).find((r) => r.uuid === uuid) : undefined;
  };

/** The catalog's look-ups, over maps built once (the lists are fixed). */
function lookUps(zoneCatalogs: ReadonlyMap<string, ZoneCatalog>, hosts: readonly HostRecord[]) {
  const baseCompute = byUuid<ComputeOfferingRecord>([...PAY_AS_YOU_GO, ...RESERVED, ...BUNDLES]);
  const baseTemplates = byUuid(TEMPLATES);
  const hostByUuid = byUuid(hosts);
  const templateCategoryByUuid = new Map(
    TEMPLATE_CATEGORIES.map(({ platform, record }) => [
      record.uuid,
      { platform, record: { ...record, templates: TEMPLATES.filter((t) => t.categoryUuid === record.uuid) } },
    ]),
  );
  const storageCategoryByUuid = new Map(
    STORAGE_CATEGORIES.map((c) => [
      c.uuid,
      { ...c, listStorageCost: STORAGE_PLANS.filter((s) => s.categoryUuid === c.uuid) },
    ]),
  );
  const lookUp = <R extends { uuid: string }>(base: Map<string, R>, inZone: (z: ZoneCatalog) => readonly R[]) =>
    zonedLookUp(zoneCatalogs, base, inZone);

  return {
    zone: (uuid: string) => zoneCatalogs.get(uuid)?.zone,
    zoneCatalog: (zoneUuid: string) => zoneCatalogs.get(zoneUuid),
    serviceCategories(languageUuid: string) {
      const german = languageUuid === IDS.languages.de;
      return SERVICE_CATEGORIES.map(([, en, de, resources], i) => ({
        name: german ? de : en,
        uuid: id("5e000000", i + 1),
        resourceList: resources.map(([key, ren, rde]) => ({ name: german ? rde : ren, key })),
      }));
    },
    vpcOffering: lookUp(byUuid(VPC_OFFERINGS), (z) => z.vpcOfferings),
    networkOffering: lookUp(byUuid(NETWORK_OFFERINGS), (z) => z.networkOfferings),
    computeOffering: lookUp(baseCompute, (z) => [
      ...z.payAsYouGoOfferings,
      ...z.reservedOfferings,
      ...z.bundleOfferings,
    ]),
    computeOfferingType(uuid: string): ComputeOfferingType | undefined {
      const offering = baseCompute.get(uuid);
      if (!offering) return undefined;
      if ("isCustom" in offering) return offering.isCustom ? "CUSTOM_PLAN" : "PAY_AS_YOU_GO";
      return "offeringPlans" in offering ? "RESERVED_INSTANCE" : "BUNDLE_OFFER";
    },
    storageOffering: lookUp(byUuid(STORAGE_PLANS), (z) => z.storageOfferings),
    template: lookUp(baseTemplates, (z) => z.templates),
    templatePlacement(uuid: string) {
      const categoryUuid = baseTemplates.get(uuid)?.categoryUuid ?? uuid;
      const category = templateCategoryByUuid.get(categoryUuid);
      return category ? { platform: category.platform, distribution: category.record.categoryType } : undefined;
    },
    kubernetesVersion: lookUp(byUuid(KUBERNETES_VERSIONS), (z) => z.kubernetesVersions),
    computeCategory: (uuid: string) => COMPUTE_CATEGORIES.find((c) => c.uuid === uuid),
    storageCategory: (uuid: string) => storageCategoryByUuid.get(uuid),
    templateCategory: (uuid: string) => templateCategoryByUuid.get(uuid)?.record,
    host: (uuid: string) => hostByUuid.get(uuid),
    invoicesFor: (clientEmail: string) =>
      DEMO_INVOICES.filter((i) => i.clientEmail === clientEmail).map((i) => structuredClone(i)),
  };
}
