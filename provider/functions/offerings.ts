// The look-up functions over the offerings a program picks from: zones, currencies, compute, storage, network and VPC
// plans, templates, Kubernetes versions and unit costs (in the organization's default currency, as the catalog gives them).
import { z } from "zod";
import { withDefaultText } from "../engine/defaults";
import type { RestCloudClient } from "../client";
import type {
  ComputePlans,
  NetworkOfferingCost,
  StoragePlan,
  TemplateCost,
  VpcOfferingCost,
  Zone,
} from "../client/operations/cost-estimate";
import { defineFunction } from "./define";
import { describeCriteria, distinct, exactlyOne, identified, inputs, nameMatches, out, truthy } from "./fields";

// ---- zones ---------------------------------------------------------------------------------------

const zoneOutput = z.object({
  uuid: out.uuid("zone"),
  name: out.name("zone"),
  countryName: out.text("The country the zone is in."),
  imageFlagUrl: out.text("The URL of the country's flag image."),
  isActive: out.flag("Whether the zone is active."),
});
export type ZoneInfo = z.output<typeof zoneOutput>;

const zoneFilters = z.object({
  nameRegex: inputs.nameRegex("zones", "frankfurt"),
  countryName: withDefaultText(
    z.string().optional().describe("Keep only the zones of this country (exact name, case-insensitive)."),
    "every country",
  ),
});

async function zonesMatching(client: RestCloudClient, args: z.output<typeof zoneFilters>): Promise<ZoneInfo[]> {
  const country = args.countryName?.toLowerCase();
  return distinct(identified(await client.costEstimate.zones()))
    .filter(nameMatches(args.nameRegex))
    .filter((zone) => country === undefined || zone.countryName?.toLowerCase() === country)
    .map(toZone);
}

const toZone = (zone: Zone & { uuid: string; name: string }): ZoneInfo => ({
  uuid: zone.uuid,
  name: zone.name,
  countryName: zone.countryName,
  imageFlagUrl: zone.imageFlag,
  isActive: zone.isActive,
});

export const getZones = defineFunction({
  name: "getZones",
  description: "The zones of the cloud, optionally filtered by name or country.",
  inputs: zoneFilters,
  outputs: z.object({ zones: out.list(zoneOutput, "The matching zones, in the API's order.") }),
  invoke: async (client, args) => ({ zones: await zonesMatching(client, args) }),
});

export const getZone = defineFunction({
  name: "getZone",
  description:
    'The first zone, in the API\'s order, that matches the filters (e.g. `{ nameRegex: "frankfurt" }`; ' +
    '`{ nameRegex: "." }` for any zone); an error if none matches.',
  inputs: zoneFilters,
  outputs: zoneOutput,
  invoke: async (client, args) => {
    const [first] = await zonesMatching(client, args);
    if (!first) throw new Error(`restcloud.getZone: no zone matches ${describeCriteria(args)}`);
    return first;
  },
});

// ---- currencies ----------------------------------------------------------------------------------

export const getCurrencies = defineFunction({
  name: "getCurrencies",
  description: "The currencies prices can be shown in, with their rate to the default currency.",
  inputs: z.object({}),
  outputs: z.object({
    organizationName: out.text("The name of the organization that runs the cloud."),
    currencies: out.list(
      z.object({
        uuid: out.uuid("currency"),
        code: z.string().describe('The currency code (e.g. "EUR").'),
        symbol: out.text('The currency symbol (e.g. "€").'),
        rate: out.number("The value of one unit of the default currency in this currency."),
        isDefault: z.boolean().describe("Whether this is the default currency, the one catalog prices are in."),
      }),
      "The currencies, in the API's order.",
    ),
  }),
  invoke: async (client) => {
    const answer = await client.costEstimate.currencies();
    return {
      organizationName: answer.organizationName,
      currencies: (answer.listMultiCurrency ?? [])
        .filter((c) => c.uuid !== undefined && c.currency !== undefined)
        .map((c) => ({
          uuid: c.uuid!,
          code: c.currency!,
          symbol: c.currencySymbol,
          rate: c.cost,
          isDefault: truthy(c.isDefaultCurrency) ?? false,
        })),
    };
  },
});

// ---- compute -------------------------------------------------------------------------------------

const computePlanType = z.enum(["PAY_AS_YOU_GO", "BUNDLE_OFFER", "RESERVED_INSTANCE", "CUSTOM_PLAN"]);

const keyedName = (what: string) =>
  z.object({
    key: z.string().describe(`The ${what}'s key, as the API's inputs take it (e.g. "LINUX").`),
    displayName: out.text(`The ${what}'s display name.`),
  });

/** Key and display name of each record that has a key (plan types, platforms, distributions). */
const keyedNames = (records: readonly { key?: string; displayName?: string }[]) =>
  records.flatMap((r) => (r.key === undefined ? [] : [{ key: r.key, displayName: r.displayName }]));

export const getComputePlanTypes = defineFunction({
  name: "getComputePlanTypes",
  description: "The kinds of compute plans: pay as you go, bundle offer, reserved instance, custom plan.",
  inputs: z.object({}),
  outputs: z.object({ planTypes: out.list(keyedName("plan type"), "The plan types, in the API's order.") }),
  invoke: async (client) => ({
    planTypes: keyedNames(await client.costEstimate.computePlanTypes()),
  }),
});

export const getComputeCategories = defineFunction({
  name: "getComputeCategories",
  description: "The compute plan categories of a zone (e.g. general purpose, compute optimized).",
  inputs: z.object({ zoneUuid: inputs.zoneUuid("compute categories") }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    categories: out.list(
      z.object({
        uuid: out.uuid("category"),
        name: out.name("category"),
        description: out.text("What the category is for."),
        planTypes: z
          .array(z.string())
          .describe('The plan types offered in this category (e.g. ["PAY_AS_YOU_GO", "RESERVED_INSTANCE"]).'),
      }),
      "The categories, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    categories: distinct(identified(await client.costEstimate.computeCategories({ zoneUuid: args.zoneUuid }))).map(
      (c) => ({
        uuid: c.uuid,
        name: c.name,
        description: c.description,
        planTypes: (c.planTypes ?? []).map((p) => p.key).filter((k): k is string => typeof k === "string"),
      }),
    ),
  }),
});

const computePlanOutput = z.object({
  uuid: out.uuid("compute plan"),
  name: out.name("compute plan"),
  type: computePlanType.describe("The plan type the plan was listed under."),
  categoryUuid: out.text("The plan's compute category."),
  cores: out.number("vCPUs of the plan (the minimum, for a custom plan)."),
  maxCores: out.number("The most vCPUs a custom plan may be given (pay-as-you-go plans only)."),
  memoryMib: out.number("Memory of the plan in MiB (the minimum, for a custom plan)."),
  memoryGib: out.number("Memory of the plan in GiB (memoryMib / 1024)."),
  clockSpeedMhz: out.number("The vCPU clock speed in MHz."),
  isCustom: z.boolean().describe("Whether vCPUs and memory are chosen per instance (a custom plan)."),
  setupCost: out.number("One-time cost when an instance is created (pay-as-you-go plans)."),
  hourlyCostPerVcpu: out.number("Running cost per vCPU and hour (pay-as-you-go plans)."),
  hourlyCostPerGib: out.number("Running cost per GiB of memory and hour (pay-as-you-go plans)."),
  stoppedHourlyCostPerVcpu: out.number("Cost per vCPU and hour while stopped (pay-as-you-go plans)."),
  stoppedHourlyCostPerGib: out.number("Cost per GiB of memory and hour while stopped (pay-as-you-go plans)."),
  hourlyCost: out.number(
    "Running cost per hour of the plan as listed: cores x hourlyCostPerVcpu + memoryGib x hourlyCostPerGib (pay-as-you-go plans).",
  ),
  bandwidth: out.number("Included bandwidth (bundle offers)."),
  diskSpace: out.number("Included disk space (bundle offers)."),
  ipAddresses: out.number("Included public IP addresses (bundle offers)."),
  terms: z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .describe("The terms of a reserved instance or bundle offer (term length and price), as the API gives them."),
});
export type ComputePlanInfo = z.output<typeof computePlanOutput>;

const computePlanFilters = z.object({
  zoneUuid: inputs.zoneUuid("compute plans"),
  type: computePlanType
    .default("PAY_AS_YOU_GO")
    .describe(
      "The plan type: PAY_AS_YOU_GO (fixed sizes, billed hourly), CUSTOM_PLAN (vCPUs and memory chosen per " +
        "instance), RESERVED_INSTANCE or BUNDLE_OFFER.",
    ),
  categoryUuid: withDefaultText(
    z.string().optional().describe("Keep only the plans of this compute category."),
    "every category",
  ),
  nameRegex: inputs.nameRegex("plans", "^gp"),
  minCores: z.number().int().min(1).optional().describe("Keep only the plans with at least this many vCPUs."),
  minMemoryGib: z
    .number()
    .positive()
    .optional()
    .describe("Keep only the plans with at least this much memory, in GiB."),
});

const gib = (mib: number | undefined) => (mib === undefined ? undefined : mib / 1024);

/** The three record kinds of a compute-plan answer, as one plain shape. */
function computePlansOf(answer: ComputePlans, type: z.output<typeof computePlanType>): ComputePlanInfo[] {
  const payAsYouGo = identified(answer.payAsYouGoOfferingCost ?? []).map((p) => {
    const memoryGib = gib(p.memory);
    const hourlyCost =
      p.core !== undefined && memoryGib !== undefined && p.instanceRunningCostVcpu !== undefined
        ? Number((p.core * p.instanceRunningCostVcpu + memoryGib * (p.instanceRunningCostMemory ?? 0)).toFixed(6))
        : undefined;
    return {
      uuid: p.uuid,
      name: p.name,
      type,
      categoryUuid: p.categoryUuid,
      cores: p.core,
      maxCores: p.cpuMax,
      memoryMib: p.memory,
      memoryGib,
      clockSpeedMhz: p.clockSpeed,
      isCustom: p.isCustom ?? type === "CUSTOM_PLAN",
      setupCost: p.setupCost,
      hourlyCostPerVcpu: p.instanceRunningCostVcpu,
      hourlyCostPerGib: p.instanceRunningCostMemory,
      stoppedHourlyCostPerVcpu: p.instanceStoppageCostVcpu,
      stoppedHourlyCostPerGib: p.instanceStoppageCostMemory,
      hourlyCost,
    };
  });
  const common = (p: {
    uuid: string;
    name: string;
    categoryUuid?: string;
    core?: number;
    memory?: number;
    clockSpeed?: number;
  }) => ({
    uuid: p.uuid,
    name: p.name,
    type,
    categoryUuid: p.categoryUuid,
    cores: p.core,
    memoryMib: p.memory,
    memoryGib: gib(p.memory),
    clockSpeedMhz: p.clockSpeed,
    isCustom: false,
  });
  const reserved = identified(answer.reservedOfferingCost ?? []).map((p) => ({ ...common(p), terms: p.offeringPlans }));
  const bundles = identified(answer.bundleOfferingCost ?? []).map((p) => ({
    ...common(p),
    bandwidth: p.bandwidth,
    diskSpace: p.diskSpace,
    ipAddresses: p.ipAddress,
    terms: p.bundlePlan,
  }));
  return distinct([...payAsYouGo, ...reserved, ...bundles]);
}

async function computePlansMatching(
  client: RestCloudClient,
  args: z.output<typeof computePlanFilters> & { zoneUuid: string },
): Promise<ComputePlanInfo[]> {
  const answer = await client.costEstimate.computePlans({
    zoneUuid: args.zoneUuid,
    computeOfferingType: args.type,
    categoryUuid: args.categoryUuid,
  });
  return computePlansOf(answer, args.type)
    .filter(nameMatches(args.nameRegex))
    .filter(
      (p) => args.minCores === undefined || ((p.isCustom ? p.maxCores : p.cores) ?? p.cores ?? 0) >= args.minCores,
    )
    .filter((p) => args.minMemoryGib === undefined || p.isCustom || (p.memoryGib ?? 0) >= args.minMemoryGib);
}

/** Smallest first: fewest vCPUs, then least memory, then name. */
const bySize = (a: ComputePlanInfo, b: ComputePlanInfo) =>
  (a.cores ?? 0) - (b.cores ?? 0) || (a.memoryMib ?? 0) - (b.memoryMib ?? 0) || a.name.localeCompare(b.name);

export const getComputePlans = defineFunction({
  name: "getComputePlans",
  description:
    "The compute plans (instance sizes and prices) of a zone, of one plan type, filtered by category, name, " +
    "vCPUs and memory, smallest first. A custom plan passes the vCPU filter when its maximum reaches it, and " +
    "always passes the memory filter.",
  inputs: computePlanFilters,
  zoneDefault: "zoneUuid",
  outputs: z.object({ plans: out.list(computePlanOutput, "The matching plans, smallest first (vCPUs, then memory).") }),
  invoke: async (client, args) => ({ plans: (await computePlansMatching(client, args)).sort(bySize) }),
});

export const getComputePlan = defineFunction({
  name: "getComputePlan",
  description:
    "The smallest compute plan that matches the filters (fewest vCPUs, then least memory), e.g. " +
    "`{ minCores: 2, minMemoryGib: 4 }`; an error if none matches.",
  inputs: computePlanFilters,
  zoneDefault: "zoneUuid",
  outputs: computePlanOutput,
  invoke: async (client, args) => {
    const [smallest] = (await computePlansMatching(client, args)).sort(bySize);
    if (!smallest) throw new Error(`restcloud.getComputePlan: no compute plan matches ${describeCriteria(args)}`);
    return smallest;
  },
});

// ---- storage -------------------------------------------------------------------------------------

export const getStorageCategories = defineFunction({
  name: "getStorageCategories",
  description: "The block storage categories of a zone (e.g. SSD, HDD).",
  inputs: z.object({ zoneUuid: inputs.zoneUuid("storage categories") }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    categories: out.list(
      z.object({
        uuid: out.uuid("category"),
        name: out.name("category"),
        description: out.text("What the category is for."),
      }),
      "The categories, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    categories: distinct(identified(await client.costEstimate.storageCategories({ zoneUuid: args.zoneUuid }))).map(
      (c) => ({ uuid: c.uuid, name: c.name, description: c.description }),
    ),
  }),
});

const storagePlanOutput = z.object({
  uuid: out.uuid("storage plan"),
  name: out.name("storage plan"),
  categoryUuid: out.text("The plan's storage category."),
  diskSizeGb: out.number("The disk size of a fixed-size plan, in GB (0 or absent for a custom-size plan)."),
  isCustom: z.boolean().describe("Whether the size is chosen per volume (a Volume's `size` then sets it, in GB)."),
  costPerGb: out.number("Price per GB of a fixed-size plan."),
  customCostPerGb: out.number("Price per GB of a custom-size plan."),
});

const toStoragePlan = (p: StoragePlan & { uuid: string; name: string }) => ({
  uuid: p.uuid,
  name: p.name,
  categoryUuid: p.categoryUuid,
  diskSizeGb: p.diskSize,
  isCustom: p.isCustom ?? false,
  costPerGb: p.costForGb,
  customCostPerGb: p.customCostPerGb,
});

export const getStoragePlans = defineFunction({
  name: "getStoragePlans",
  description: "The block storage plans (sizes and prices) of a zone, filtered by category, name and size.",
  inputs: z.object({
    zoneUuid: inputs.zoneUuid("storage plans"),
    categoryUuid: withDefaultText(
      z.string().optional().describe("Keep only the plans of this storage category."),
      "every category",
    ),
    nameRegex: inputs.nameRegex("plans", "ssd"),
    isCustom: withDefaultText(
      z.boolean().optional().describe("true: only custom-size plans; false: only fixed-size plans."),
      "both",
    ),
  }),
  zoneDefault: "zoneUuid",
  outputs: z.object({ plans: out.list(storagePlanOutput, "The matching plans, in the API's order.") }),
  invoke: async (client, args) => ({
    plans: distinct(
      identified(await client.costEstimate.storagePlans({ zoneUuid: args.zoneUuid, categoryUuid: args.categoryUuid })),
    )
      .filter(nameMatches(args.nameRegex))
      .map(toStoragePlan)
      .filter((p) => args.isCustom === undefined || p.isCustom === args.isCustom),
  }),
});

// ---- network and VPC offerings -------------------------------------------------------------------

const offeringCosts = {
  cost: out.number("The offering's price."),
  haCost: out.number("The extra price of high availability (redundant routers)."),
  totalCost: out.number("The price with high availability."),
};

export const getNetworkOfferings = defineFunction({
  name: "getNetworkOfferings",
  description:
    'The network offerings of a zone: "Isolated" and "Shared" for a Network, "VPC" for a VpcTier; filtered by type and name.',
  inputs: z.object({
    zoneUuid: inputs.zoneUuid("network offerings"),
    type: withDefaultText(
      z
        .string()
        .optional()
        .describe('Keep only the offerings of this type (e.g. "Isolated", "Shared", "VPC"; case-insensitive).'),
      "every type",
    ),
    nameRegex: inputs.nameRegex("offerings", "isolated"),
  }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    offerings: out.list(
      z.object({
        uuid: out.uuid("network offering"),
        name: out.name("network offering"),
        displayText: out.text("The offering's description."),
        type: out.text('What the offering is for: "Isolated", "Shared" or "VPC" (a VPC tier).'),
        ...offeringCosts,
      }),
      "The matching offerings, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    offerings: distinct(identified(await client.costEstimate.networkOfferings({ zoneUuid: args.zoneUuid })))
      .filter(nameMatches(args.nameRegex))
      .filter((o) => args.type === undefined || o.type?.toLowerCase() === args.type.toLowerCase())
      .map((o: NetworkOfferingCost & { uuid: string; name: string }) => ({
        uuid: o.uuid,
        name: o.name,
        displayText: o.displayText,
        type: o.type,
        cost: o.cost,
        haCost: o.haCost,
        totalCost: o.totalCost,
      })),
  }),
});

export const getVpcOfferings = defineFunction({
  name: "getVpcOfferings",
  description: "The VPC offerings of a zone, filtered by name.",
  inputs: z.object({
    zoneUuid: inputs.zoneUuid("VPC offerings"),
    nameRegex: inputs.nameRegex("offerings", "redundant"),
  }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    offerings: out.list(
      z.object({ uuid: out.uuid("VPC offering"), name: out.name("VPC offering"), ...offeringCosts }),
      "The matching offerings, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    offerings: distinct(identified(await client.costEstimate.vpcOfferings({ zoneUuid: args.zoneUuid })))
      .filter(nameMatches(args.nameRegex))
      .map((o: VpcOfferingCost & { uuid: string; name: string }) => ({
        uuid: o.uuid,
        name: o.name,
        cost: o.cost,
        haCost: o.haCost,
        totalCost: o.totalCost,
      })),
  }),
});

// ---- templates -----------------------------------------------------------------------------------

export const getTemplatePlatforms = defineFunction({
  name: "getTemplatePlatforms",
  description: 'The template platforms (e.g. "LINUX", "WINDOWS"): the `platform` argument of getTemplates.',
  inputs: z.object({}),
  outputs: z.object({ platforms: out.list(keyedName("platform"), "The platforms, in the API's order.") }),
  invoke: async (client) => ({
    platforms: keyedNames(await client.costEstimate.templatePlatforms()),
  }),
});

export const getTemplateDistributions = defineFunction({
  name: "getTemplateDistributions",
  description:
    'The template distributions (e.g. "OS_ONLY", "MARKETPLACE"): the `distribution` argument of getTemplates.',
  inputs: z.object({}),
  outputs: z.object({ distributions: out.list(keyedName("distribution"), "The distributions, in the API's order.") }),
  invoke: async (client) => ({
    distributions: keyedNames(await client.costEstimate.templateDistributions()),
  }),
});

const templatePlacement = {
  platform: z.enum(["LINUX", "WINDOWS"]).default("LINUX").describe("The operating system family: LINUX or WINDOWS."),
  distribution: z
    .enum(["OS_ONLY", "MARKETPLACE"])
    .default("OS_ONLY")
    .describe("OS_ONLY (a bare operating system) or MARKETPLACE (an application image)."),
};

export const getTemplateCategories = defineFunction({
  name: "getTemplateCategories",
  description:
    "The template categories (operating systems or applications) of a zone, for one platform and distribution.",
  inputs: z.object({ zoneUuid: inputs.zoneUuid("template categories"), ...templatePlacement }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    categories: out.list(
      z.object({
        uuid: out.uuid("category"),
        name: out.name("category"),
        distribution: out.text("The category's distribution: OS_ONLY or MARKETPLACE."),
        imageName: out.text("The category's logo image."),
      }),
      "The categories, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    categories: distinct(
      identified(
        await client.costEstimate.templateCategories({
          zoneUuid: args.zoneUuid,
          platform: args.platform,
          distribution: args.distribution,
        }),
      ),
    ).map((c) => ({ uuid: c.uuid, name: c.name, distribution: c.categoryType, imageName: c.imageName })),
  }),
});

const templateOutput = z.object({
  uuid: out.uuid("template"),
  name: out.name("template"),
  categoryUuid: out.text("The template's category (e.g. Ubuntu)."),
  imageName: out.text("The template's logo image."),
  cost: out.number("The template's own price, on top of the compute plan (0 for free images)."),
  sizeGb: out.number("The image size in GB."),
  minimumCores: out.number("The fewest vCPUs an instance of this template needs."),
  minimumMemoryMib: out.number("The least memory an instance of this template needs, in MiB."),
  minimumRootDiskGb: out.number("The smallest root disk an instance of this template needs, in GB."),
  hasPerCoreLicense: out.flag("Whether a license is charged per vCPU (e.g. Windows)."),
  licenseCostPerCore: out.number("The license price per vCPU, when hasPerCoreLicense."),
});

const templateFilters = z.object({
  zoneUuid: inputs.zoneUuid("templates"),
  ...templatePlacement,
  categoryUuid: withDefaultText(
    z.string().optional().describe("Keep only the templates of this category."),
    "every category",
  ),
  nameRegex: inputs.nameRegex("templates", "ubuntu 24"),
});

async function templatesMatching(
  client: RestCloudClient,
  args: z.output<typeof templateFilters> & { zoneUuid: string },
): Promise<z.output<typeof templateOutput>[]> {
  const templates = await client.costEstimate.templates({
    zoneUuid: args.zoneUuid,
    platform: args.platform,
    distribution: args.distribution,
    categoryUuid: args.categoryUuid,
  });
  return distinct(identified(templates))
    .filter(nameMatches(args.nameRegex))
    .map((t: TemplateCost & { uuid: string; name: string }) => ({
      uuid: t.uuid,
      name: t.name,
      categoryUuid: t.categoryUuid,
      imageName: t.imageName,
      cost: t.cost,
      sizeGb: t.size,
      minimumCores: t.minimumCore,
      minimumMemoryMib: t.minimumMemory,
      minimumRootDiskGb: t.minimumRootdisk,
      hasPerCoreLicense: t.enablePerCoreLicense,
      licenseCostPerCore: t.licensePerCoreCost,
    }));
}

export const getTemplates = defineFunction({
  name: "getTemplates",
  description:
    "The templates (machine images) of a zone for one platform and distribution, filtered by category and name, " +
    'e.g. `{ platform: "LINUX", distribution: "OS_ONLY", nameRegex: "ubuntu 24" }`.',
  inputs: templateFilters,
  zoneDefault: "zoneUuid",
  outputs: z.object({ templates: out.list(templateOutput, "The matching templates, in the API's order.") }),
  invoke: async (client, args) => ({ templates: await templatesMatching(client, args) }),
});

export const getTemplate = defineFunction({
  name: "getTemplate",
  description:
    'The one template that matches the filters (e.g. `{ nameRegex: "ubuntu 24\\\\.04" }`); an error if none or several match.',
  inputs: templateFilters,
  zoneDefault: "zoneUuid",
  outputs: templateOutput,
  example: { nameRegex: "ubuntu 24\\.04" },
  invoke: async (client, args) =>
    exactlyOne("getTemplate", "template", await templatesMatching(client, args), describeCriteria(args)),
});

// ---- Kubernetes versions -------------------------------------------------------------------------

export const getKubernetesVersions = defineFunction({
  name: "getKubernetesVersions",
  description: "The Kubernetes versions a zone offers for a KubernetesCluster, filtered by name.",
  inputs: z.object({
    zoneUuid: inputs.zoneUuid("Kubernetes versions"),
    nameRegex: inputs.nameRegex("versions", "1.31"),
  }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    versions: out.list(
      z.object({
        uuid: out.uuid("Kubernetes version"),
        name: out.name('Kubernetes version (e.g. "1.31")'),
        description: out.text("What the version brings (patch level, network plugin)."),
        minCores: out.number("The fewest vCPUs a node of this version needs."),
        minMemoryMib: out.number("The least memory a node of this version needs, in MiB."),
        isActive: out.flag("Whether the version can be used for new clusters."),
      }),
      "The matching versions, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    versions: distinct(identified(await client.costEstimate.kubernetesVersions({ zoneUuid: args.zoneUuid })))
      .filter(nameMatches(args.nameRegex))
      .map((v) => ({
        uuid: v.uuid,
        name: v.name,
        description: v.description,
        minCores: v.minCpuNumber,
        minMemoryMib: v.minMemory,
        isActive: v.isActive,
      })),
  }),
});

// ---- unit costs ----------------------------------------------------------------------------------

export const getUnitCosts = defineFunction({
  name: "getUnitCosts",
  description:
    "The unit prices of a zone beside compute and storage: public IP addresses, port forwarding rules, load " +
    "balancers, VPN users (the same in every zone), volume snapshots and VM snapshots.",
  inputs: z.object({ zoneUuid: inputs.zoneUuid("unit costs") }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    zoneUuid: z.string().describe("The zone the prices are for."),
    ipAddressCost: out.number("Price of one public IP address."),
    portForwardingCost: out.number("Price of one port forwarding rule."),
    loadBalancerCost: out.number("Price of one load balancer rule."),
    vpnUserCost: out.number("Price of one VPN user (not zone-specific)."),
    snapshotCost: out.number("Price of volume snapshot storage."),
    vmSnapshotCost: out.number("Price of VM snapshot storage."),
  }),
  invoke: async (client, { zoneUuid }) => {
    const c = client.costEstimate;
    const [ip, portForwarding, loadBalancer, vpnUser, snapshot, vmSnapshot] = await Promise.all([
      c.ipCost({ zoneUuid }),
      c.portForwardingCost({ zoneUuid }),
      c.loadBalancerCost({ zoneUuid }),
      c.vpnUserCost(),
      c.snapshotCost({ zoneUuid }),
      c.vmSnapshotCost({ zoneUuid }),
    ]);
    return {
      zoneUuid,
      ipAddressCost: ip.ipCost,
      portForwardingCost: portForwarding.portForwardCost,
      loadBalancerCost: loadBalancer.loadBalancerCost,
      vpnUserCost: vpnUser.vpnUserCost,
      snapshotCost: snapshot.snapshotCost,
      vmSnapshotCost: vmSnapshot.vmSnapshotCost,
    };
  },
});
