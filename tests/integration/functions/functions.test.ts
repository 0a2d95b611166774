/**
 * The look-up functions against the emulator: each answer checked against the emulator's seeded
 * catalog (read directly from `emulator.context.catalog`, not through the client), plus the
 * configuration rules (options, RESTCLOUD_* fallback, default zone, clear errors).
 */
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import type { Catalog, ZoneCatalog } from "../../../emulator/seeded-catalog";
import { RestCloudClient, ConfigError } from "../../../provider/client";
import { waitFor } from "../../../provider/client/waiters";
import * as restcloud from "../../../provider/functions";
import { FUNCTIONS, type InvokeOptions } from "../../../provider/functions";

const DEMO = { apiKey: "demo-api-key", secretKey: "demo-secret-key" };
const ADMIN = { apiKey: "admin-api-key", secretKey: "admin-secret-key" };
const DEMO_EMAIL = "demo@restcloud.example";

let emulator: RunningEmulator;
let catalog: Catalog;
let frankfurt: ZoneCatalog;
let mumbai: ZoneCatalog;
/** Options for the demo account in Frankfurt (the default zone), given explicitly: no stack, no env. */
let demo: InvokeOptions;

const uuids = (records: readonly { uuid: string }[]) => records.map((r) => r.uuid).sort();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  catalog = emulator.context.catalog;
  const zoneOf = (name: string) => catalog.zoneCatalog(catalog.zones.find((z) => z.name.startsWith(name))!.uuid)!;
  frankfurt = zoneOf("Frankfurt");
  mumbai = zoneOf("Mumbai");
  demo = { apiUrl: emulator.url, ...DEMO, zoneUuid: frankfurt.zone.uuid };
});
afterAll(() => emulator.stop());

describe("declarations", () => {
  /** Every field of an object schema, nested objects and array items included, with its path. */
  function fields(schema: z.ZodType, path: string): { path: string; schema: z.ZodType }[] {
    let inner: z.ZodType = schema;
    // Look through optional, default and array wrappers to the object inside, if any.
    for (;;) {
      if (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
      else if (inner instanceof z.ZodArray) inner = inner.element as z.ZodType;
      else break;
    }
    if (!(inner instanceof z.ZodObject)) return [];
    return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) => [
      { path: `${path}.${key}`, schema: field },
      ...fields(field, `${path}.${key}`),
    ]);
  }

  test("every function is named get..., unique, and describes every input and output field", () => {
    const names = FUNCTIONS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => !/^get[A-Z]/.test(n))).toEqual([]);
    const undescribed = FUNCTIONS.flatMap((f) => [
      ...fields(f.inputs, `${f.name}(inputs)`),
      ...fields(f.outputs, `${f.name}(outputs)`),
    ]).filter((field) => !field.schema.description);
    expect(undescribed.map((f) => f.path)).toEqual([]);
    expect(FUNCTIONS.filter((f) => !(f.outputs instanceof z.ZodObject)).map((f) => f.name)).toEqual([]);
    expect(FUNCTIONS.filter((f) => f.description.length < 20).map((f) => f.name)).toEqual([]);
  });

  test("the arguments may be left out exactly when none is required", async () => {
    expect((await restcloud.getCurrencies(undefined, demo)).currencies.length).toBeGreaterThan(0);
    // @ts-expect-error clusterUuid is required
    await expect(restcloud.getClusterNodes(undefined, demo)).rejects.toThrow(
      "restcloud.getClusterNodes: invalid arguments: clusterUuid",
    );
  });

  test("each exported function carries its declaration", () => {
    expect(restcloud.getZones.declaration.name).toBe("getZones");
    expect(FUNCTIONS).toContain(restcloud.getTemplates.declaration);
    expect(restcloud.getTemplates.name).toBe("getTemplates");
  });
});

describe("catalog look-ups", () => {
  test("getZones and getZone: every zone, filters by name and country", async () => {
    const { zones } = await restcloud.getZones({}, demo);
    expect(zones).toEqual(
      catalog.zones.map((z) => ({
        uuid: z.uuid,
        name: z.name,
        countryName: z.countryName,
        imageFlagUrl: z.imageFlag,
        isActive: z.isActive,
      })),
    );
    expect((await restcloud.getZones({ nameRegex: "^mumbai" }, demo)).zones.map((z) => z.uuid)).toEqual([
      mumbai.zone.uuid,
    ]);
    expect((await restcloud.getZones({ countryName: "germany" }, demo)).zones.map((z) => z.uuid)).toEqual([
      frankfurt.zone.uuid,
    ]);
    expect((await restcloud.getZone({ nameRegex: "frank" }, demo)).uuid).toBe(frankfurt.zone.uuid);
    expect((await restcloud.getZone({ nameRegex: "." }, demo)).uuid).toBe(catalog.zones[0]!.uuid);
    await expect(restcloud.getZone({ nameRegex: "atlantis" }, demo)).rejects.toThrow(
      'restcloud.getZone: no zone matches {"nameRegex":"atlantis"}',
    );
  });

  test("getCurrencies", async () => {
    const answer = await restcloud.getCurrencies({}, demo);
    expect(answer.organizationName).toBe(catalog.organizationName);
    expect(answer.currencies).toEqual(
      catalog.currencies.map((c) => ({
        uuid: c.uuid,
        code: c.currency,
        symbol: c.currencySymbol,
        rate: c.cost,
        isDefault: c.isDefaultCurrency === "true",
      })),
    );
    expect(answer.currencies.filter((c) => c.isDefault)).toHaveLength(1);
  });

  test("getComputePlanTypes and getComputeCategories", async () => {
    expect((await restcloud.getComputePlanTypes({}, demo)).planTypes).toEqual(
      catalog.computePlanTypes.map((t) => ({ key: t.key, displayName: t.displayName })),
    );
    const { categories } = await restcloud.getComputeCategories({}, demo);
    expect(categories).toEqual(
      frankfurt.computeCategories.map((c) => ({
        uuid: c.uuid,
        name: c.name,
        description: c.description,
        planTypes: c.planTypes.map((p) => p.key),
      })),
    );
  });

  test("getComputePlans: each plan type, per zone, smallest first, with the figures of the catalog", async () => {
    const payg = (await restcloud.getComputePlans({}, demo)).plans;
    const fixed = frankfurt.payAsYouGoOfferings.filter((o) => !o.isCustom);
    expect(uuids(payg)).toEqual(uuids(fixed));
    const sizes = payg.map((p) => [p.cores!, p.memoryMib!]);
    expect(sizes).toEqual([...sizes].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
    for (const plan of payg) {
      const seeded = fixed.find((o) => o.uuid === plan.uuid)!;
      expect(plan).toMatchObject({
        name: seeded.name,
        type: "PAY_AS_YOU_GO",
        categoryUuid: seeded.categoryUuid,
        cores: seeded.core,
        memoryMib: seeded.memory,
        memoryGib: seeded.memory / 1024,
        clockSpeedMhz: seeded.clockSpeed,
        isCustom: false,
        hourlyCostPerVcpu: seeded.instanceRunningCostVcpu,
        hourlyCostPerGib: seeded.instanceRunningCostMemory,
      });
      expect(plan.hourlyCost).toBeCloseTo(
        seeded.core * seeded.instanceRunningCostVcpu + (seeded.memory / 1024) * seeded.instanceRunningCostMemory,
        6,
      );
    }

    const custom = (await restcloud.getComputePlans({ type: "CUSTOM_PLAN" }, demo)).plans;
    expect(uuids(custom)).toEqual(uuids(frankfurt.payAsYouGoOfferings.filter((o) => o.isCustom)));
    expect(custom.every((p) => p.isCustom && p.maxCores! >= p.cores!)).toBe(true);

    const reserved = (await restcloud.getComputePlans({ type: "RESERVED_INSTANCE" }, demo)).plans;
    expect(uuids(reserved)).toEqual(uuids(frankfurt.reservedOfferings));
    expect(reserved.every((p) => (p.terms ?? []).length > 0)).toBe(true);

    const bundles = (await restcloud.getComputePlans({ type: "BUNDLE_OFFER" }, demo)).plans;
    expect(uuids(bundles)).toEqual(uuids(frankfurt.bundleOfferings));
    const seededBundle = frankfurt.bundleOfferings[0]!;
    expect(bundles.find((b) => b.uuid === seededBundle.uuid)).toMatchObject({
      bandwidth: seededBundle.bandwidth,
      diskSpace: seededBundle.diskSpace,
      ipAddresses: seededBundle.ipAddress,
    });

    // Mumbai offers fewer plans, at its own prices.
    const inMumbai = (await restcloud.getComputePlans({ zoneUuid: mumbai.zone.uuid }, demo)).plans;
    expect(uuids(inMumbai)).toEqual(uuids(mumbai.payAsYouGoOfferings.filter((o) => !o.isCustom)));
    expect(inMumbai.length).toBeLessThan(payg.length);
  });

  test("getComputePlans filters by category, name, vCPUs and memory; getComputePlan picks the smallest fit", async () => {
    const category = frankfurt.computeCategories[1]!;
    const inCategory = (await restcloud.getComputePlans({ categoryUuid: category.uuid }, demo)).plans;
    expect(uuids(inCategory)).toEqual(
      uuids(frankfurt.payAsYouGoOfferings.filter((o) => !o.isCustom && o.categoryUuid === category.uuid)),
    );

    const big = (await restcloud.getComputePlans({ minCores: 4, minMemoryGib: 8 }, demo)).plans;
    const expected = frankfurt.payAsYouGoOfferings.filter((o) => !o.isCustom && o.core >= 4 && o.memory >= 8 * 1024);
    expect(uuids(big)).toEqual(uuids(expected));

    const named = (await restcloud.getComputePlans({ nameRegex: "^GP\\." }, demo)).plans;
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((p) => p.name.startsWith("gp."))).toBe(true);

    const smallest = await restcloud.getComputePlan({ minCores: 2, minMemoryGib: 4 }, demo);
    const fits = frankfurt.payAsYouGoOfferings
      .filter((o) => !o.isCustom && o.core >= 2 && o.memory >= 4096)
      .sort((a, b) => a.core - b.core || a.memory - b.memory);
    expect(smallest.uuid).toBe(fits[0]!.uuid);

    await expect(restcloud.getComputePlan({ minCores: 512 }, demo)).rejects.toThrow(
      "restcloud.getComputePlan: no compute plan matches",
    );
  });

  test("getStorageCategories and getStoragePlans", async () => {
    const { categories } = await restcloud.getStorageCategories({}, demo);
    expect(categories).toEqual(
      frankfurt.storageCategories.map((c) => ({ uuid: c.uuid, name: c.name, description: c.description })),
    );
    const all = (await restcloud.getStoragePlans({}, demo)).plans;
    expect(uuids(all)).toEqual(uuids(frankfurt.storageOfferings));
    const seeded = frankfurt.storageOfferings.find((o) => !o.isCustom)!;
    expect(all.find((p) => p.uuid === seeded.uuid)).toEqual({
      uuid: seeded.uuid,
      name: seeded.name,
      categoryUuid: seeded.categoryUuid,
      diskSizeGb: seeded.diskSize,
      isCustom: false,
      costPerGb: seeded.costForGb,
      customCostPerGb: seeded.customCostPerGb,
    });
    const custom = (await restcloud.getStoragePlans({ isCustom: true }, demo)).plans;
    expect(uuids(custom)).toEqual(uuids(frankfurt.storageOfferings.filter((o) => o.isCustom)));
    const ssd = categories.find((c) => c.name === "SSD")!;
    const inSsd = (await restcloud.getStoragePlans({ categoryUuid: ssd.uuid, nameRegex: "custom" }, demo)).plans;
    expect(uuids(inSsd)).toEqual(
      uuids(frankfurt.storageOfferings.filter((o) => o.categoryUuid === ssd.uuid && /custom/i.test(o.name))),
    );
  });

  test("getNetworkOfferings and getVpcOfferings", async () => {
    const all = (await restcloud.getNetworkOfferings({}, demo)).offerings;
    expect(all).toEqual(
      frankfurt.networkOfferings.map((o) => ({
        uuid: o.uuid,
        name: o.name,
        displayText: o.displayText,
        type: o.type,
        cost: o.cost,
        haCost: o.haCost,
        totalCost: o.totalCost,
      })),
    );
    const tiers = (await restcloud.getNetworkOfferings({ type: "vpc" }, demo)).offerings;
    expect(uuids(tiers)).toEqual(uuids(frankfurt.networkOfferings.filter((o) => o.type === "VPC")));

    expect((await restcloud.getVpcOfferings({}, demo)).offerings).toEqual(
      frankfurt.vpcOfferings.map((o) => ({
        uuid: o.uuid,
        name: o.name,
        cost: o.cost,
        haCost: o.haCost,
        totalCost: o.totalCost,
      })),
    );
    const inMumbai = (await restcloud.getVpcOfferings({ zoneUuid: mumbai.zone.uuid }, demo)).offerings;
    expect(uuids(inMumbai)).toEqual(uuids(mumbai.vpcOfferings));
  });

  test("template platforms, distributions, categories and templates", async () => {
    expect((await restcloud.getTemplatePlatforms({}, demo)).platforms).toEqual(catalog.templatePlatforms);
    expect((await restcloud.getTemplateDistributions({}, demo)).distributions).toEqual(catalog.templateDistributions);

    const linux = frankfurt.templateCategories.filter(
      (c) => catalog.templatePlacement(c.uuid)?.platform === "LINUX" && c.categoryType === "OS_ONLY",
    );
    expect((await restcloud.getTemplateCategories({}, demo)).categories).toEqual(
      linux.map((c) => ({ uuid: c.uuid, name: c.name, distribution: c.categoryType, imageName: c.imageName })),
    );

    const placed = (platform: string, distribution: string) =>
      frankfurt.templates.filter((t) => {
        const p = catalog.templatePlacement(t.uuid);
        return p?.platform === platform && p.distribution === distribution;
      });
    expect(uuids((await restcloud.getTemplates({}, demo)).templates)).toEqual(uuids(placed("LINUX", "OS_ONLY")));
    const windows = (await restcloud.getTemplates({ platform: "WINDOWS" }, demo)).templates;
    expect(uuids(windows)).toEqual(uuids(placed("WINDOWS", "OS_ONLY")));
    const seededWindows = placed("WINDOWS", "OS_ONLY")[0]!;
    expect(windows[0]).toEqual({
      uuid: seededWindows.uuid,
      name: seededWindows.name,
      categoryUuid: seededWindows.categoryUuid,
      imageName: seededWindows.imageName,
      cost: seededWindows.cost,
      sizeGb: seededWindows.size,
      minimumCores: seededWindows.minimumCore,
      minimumMemoryMib: seededWindows.minimumMemory,
      minimumRootDiskGb: seededWindows.minimumRootdisk,
      hasPerCoreLicense: true,
      licenseCostPerCore: seededWindows.licensePerCoreCost,
    });
    const marketplace = (await restcloud.getTemplates({ distribution: "MARKETPLACE" }, demo)).templates;
    expect(uuids(marketplace)).toEqual(uuids(placed("LINUX", "MARKETPLACE")));

    const ubuntu24 = placed("LINUX", "OS_ONLY").filter((t) => /ubuntu 24/i.test(t.name));
    expect(ubuntu24).toHaveLength(1);
    expect((await restcloud.getTemplate({ nameRegex: "ubuntu 24" }, demo)).uuid).toBe(ubuntu24[0]!.uuid);
    const ubuntuCategory = linux.find((c) => c.name === "Ubuntu")!;
    const inCategory = (await restcloud.getTemplates({ categoryUuid: ubuntuCategory.uuid }, demo)).templates;
    expect(uuids(inCategory)).toEqual(uuids(frankfurt.templates.filter((t) => t.categoryUuid === ubuntuCategory.uuid)));
    // Several Ubuntu images: getTemplate refuses to guess, and names them.
    await expect(restcloud.getTemplate({ nameRegex: "ubuntu" }, demo)).rejects.toThrow(
      /restcloud\.getTemplate: 2 templates match .*"Ubuntu 24\.04 LTS".*narrow the filter/,
    );
    await expect(restcloud.getTemplate({ nameRegex: "plan 9" }, demo)).rejects.toThrow("no template matches");
  });

  test("getKubernetesVersions", async () => {
    const { versions } = await restcloud.getKubernetesVersions({}, demo);
    expect(versions).toEqual(
      frankfurt.kubernetesVersions.map((v) => ({
        uuid: v.uuid,
        name: v.name,
        description: v.description,
        minCores: v.minCpuNumber,
        minMemoryMib: v.minMemory,
        isActive: v.isActive,
      })),
    );
    const inMumbai = (await restcloud.getKubernetesVersions({ zoneUuid: mumbai.zone.uuid }, demo)).versions;
    expect(uuids(inMumbai)).toEqual(uuids(mumbai.kubernetesVersions));
    const one = versions[0]!;
    expect((await restcloud.getKubernetesVersions({ nameRegex: `^${one.name}$` }, demo)).versions).toEqual([one]);
  });

  test("getUnitCosts: the zone's prices, VPN users priced globally", async () => {
    for (const zone of [frankfurt, mumbai]) {
      expect(await restcloud.getUnitCosts({ zoneUuid: zone.zone.uuid }, demo)).toEqual({
        zoneUuid: zone.zone.uuid,
        ipAddressCost: zone.unitCosts.ipCost,
        portForwardingCost: zone.unitCosts.portForwardCost,
        loadBalancerCost: zone.unitCosts.loadBalancerCost,
        vpnUserCost: catalog.vpnUserCost,
        snapshotCost: zone.unitCosts.snapshotCost,
        vmSnapshotCost: zone.unitCosts.vmSnapshotCost,
      });
    }
  });
});

describe("account look-ups", () => {
  test("getHosts: administrators see every host; a regular account gets a clear 550", async () => {
    const { hosts } = await restcloud.getHosts({}, { apiUrl: emulator.url, ...ADMIN });
    expect(uuids(hosts)).toEqual(uuids(catalog.hosts));
    const seeded = catalog.hosts[0]!;
    expect(hosts.find((h) => h.uuid === seeded.uuid)).toEqual({
      uuid: seeded.uuid,
      name: seeded.name,
      hypervisor: seeded.hypervisor,
      podName: seeded.podName,
      cpuCores: Number(seeded.cpuCores),
      cpuAllocatedPercent: parseFloat(seeded.cpuAllocated),
      cpuUsedPercent: parseFloat(seeded.cpuUsed),
      memoryTotalMib: Number(seeded.memoryTotal),
      memoryAllocatedPercent: parseFloat(seeded.memoryAllocatedPercentage),
      memoryUsedPercent: parseFloat(seeded.memoryUsedPercentage),
      vmCount: Number(seeded.vmCount),
      status: seeded.status,
    });
    const one = await restcloud.getHosts({ uuid: seeded.uuid }, { apiUrl: emulator.url, ...ADMIN });
    expect(uuids(one.hosts)).toEqual([seeded.uuid]);
    await expect(restcloud.getHosts({}, demo)).rejects.toThrow(
      /restcloud\.getHosts: permission denied \(HTTP 550\): listing hypervisor hosts needs an administrator/,
    );
  });

  test("getInvoices and getTaxPendingInvoices", async () => {
    const seeded = catalog.invoicesFor(DEMO_EMAIL);
    const { invoices } = await restcloud.getInvoices({}, demo);
    expect(invoices.map((i) => i.invoiceNumber).sort()).toEqual(seeded.map((i) => i.invoiceNumber).sort());
    const first = seeded[0]!;
    expect(invoices.find((i) => i.invoiceNumber === first.invoiceNumber)).toEqual({
      invoiceNumber: first.invoiceNumber,
      referenceNumber: first.referenceNumber,
      clientEmail: first.clientEmail,
      domainUuid: first.domainUuid,
      billPeriod: first.billPeriod,
      generatedAt: first.generatedDate,
      currency: first.currency,
      usageCost: first.usageCost,
      adjustmentCost: first.adjustmentCost,
      totalAdjustmentCost: first.totalAdjustmentCost,
      bandwidthFreeUsage: first.bandwidthFreeUsage,
      totalCost: first.totalCost,
      status: first.status,
    });
    const paid = (await restcloud.getInvoices({ status: "PAID", clientEmail: DEMO_EMAIL }, demo)).invoices;
    expect(paid.map((i) => i.invoiceNumber).sort()).toEqual(
      seeded
        .filter((i) => i.status === "PAID")
        .map((i) => i.invoiceNumber)
        .sort(),
    );
    const period = (await restcloud.getInvoices({ billPeriod: first.billPeriod }, demo)).invoices;
    expect(period.map((i) => i.invoiceNumber).sort()).toEqual(
      seeded
        .filter((i) => i.billPeriod === first.billPeriod)
        .map((i) => i.invoiceNumber)
        .sort(),
    );
    expect(period.length).toBeLessThan(invoices.length);

    const pendingSeeded = seeded.filter((i) => i.status === "TAX_PENDING");
    expect(pendingSeeded.length).toBeGreaterThan(0);
    const pending = (await restcloud.getTaxPendingInvoices({}, demo)).invoices;
    expect(pending.map((i) => i.billPeriod).sort()).toEqual(pendingSeeded.map((i) => i.billPeriod).sort());
    expect(pending.every((i) => i.status === "TAX_PENDING" && i.id.length > 0 && i.amount !== undefined)).toBe(true);
    await expect(restcloud.getInvoices({ clientEmail: "not an e-mail" }, demo)).rejects.toThrow(
      "restcloud.getInvoices: invalid arguments: clientEmail",
    );
  });

  test("getInstanceNetworks, getInstanceStatus and getClusterNodes on live records", async () => {
    const client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO });
    const zoneUuid = frankfurt.zone.uuid;
    const isolated = frankfurt.networkOfferings.find((o) => o.type === "Isolated")!;
    const plan = frankfurt.payAsYouGoOfferings.find((o) => !o.isCustom && o.core >= 2)!;
    const template = frankfurt.templates.find((t) => /ubuntu 24/i.test(t.name))!;
    const network = await client.network.create({ name: "fn-net", zoneUuid, networkOfferingUuid: isolated.uuid });
    const instance = await client.instance.create({
      name: "fn-vm",
      zoneUuid,
      templateUuid: template.uuid,
      computeOfferingUuid: plan.uuid,
      networkUuid: network.uuid,
    });

    const { networks } = await restcloud.getInstanceNetworks({ instanceUuid: instance.uuid }, demo);
    expect(networks.map((n) => n.uuid)).toEqual([network.uuid]);
    expect(networks[0]).toMatchObject({ name: "fn-net", isDefault: true });
    expect(networks[0]!.privateIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);

    // Compared once the instance has settled: while it starts, the two reads may straddle Starting -> Running.
    const live = await waitFor({
      awaited: "the instance to run",
      poll: () => client.instance.status({ uuid: instance.uuid }),
      until: (vm) => vm.status === "Running",
    });
    expect(await restcloud.getInstanceStatus({ instanceUuid: instance.uuid }, demo)).toEqual({
      uuid: instance.uuid,
      status: live.status,
    });

    const version = frankfurt.kubernetesVersions[0]!;
    const cluster = await client.kubernetes.create({
      name: "fn-k8s",
      zoneUuid,
      kubernetesSupportedVersionUuid: version.uuid,
      computeOfferingUuid: plan.uuid,
      transNetworkUuid: network.uuid,
      size: 2,
    });
    const expected = await client.kubernetes.nodes({ clusterUuid: cluster.uuid });
    expect(expected.length).toBeGreaterThan(0);
    const { nodes } = await restcloud.getClusterNodes({ clusterUuid: cluster.uuid }, demo);
    expect(uuids(nodes)).toEqual(uuids(expected));
    const node = expected[0]!;
    expect(nodes.find((n) => n.uuid === node.uuid)).toMatchObject({
      name: node.name,
      state: node.state,
      computePlanUuid: node.computeOfferingUuid,
      zoneUuid,
    });
  });
});

describe("configuration", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (key.startsWith("RESTCLOUD_")) delete process.env[key];
    Object.assign(process.env, saved);
  });
  const clearEnv = () => {
    for (const key of Object.keys(process.env)) if (key.startsWith("RESTCLOUD_")) delete process.env[key];
  };

  test("a missing setting is named, with how to set it; nothing is sent", async () => {
    clearEnv();
    const error = await restcloud.getZones({}, { apiUrl: emulator.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toContain(
      "restcloud.getZones: missing apiKey (pulumi config set --secret restcloud:apiKey <value>, or RESTCLOUD_API_KEY), " +
        "secretKey (pulumi config set --secret restcloud:secretKey <value>, or RESTCLOUD_SECRET_KEY)",
    );
  });

  test("RESTCLOUD_* variables are the fallback, RESTCLOUD_ZONE_UUID the default zone", async () => {
    clearEnv();
    process.env.RESTCLOUD_API_URL = emulator.url;
    process.env.RESTCLOUD_API_KEY = DEMO.apiKey;
    process.env.RESTCLOUD_SECRET_KEY = DEMO.secretKey;
    await expect(restcloud.getVpcOfferings()).rejects.toThrow(
      "restcloud.getVpcOfferings: zoneUuid is not given and no default zone is set " +
        "(pulumi config set restcloud:zoneUuid <uuid>, or RESTCLOUD_ZONE_UUID)",
    );
    process.env.RESTCLOUD_ZONE_UUID = mumbai.zone.uuid;
    expect(uuids((await restcloud.getVpcOfferings()).offerings)).toEqual(uuids(mumbai.vpcOfferings));
    // An explicit zone beats the default.
    const inFrankfurt = await restcloud.getVpcOfferings({ zoneUuid: frankfurt.zone.uuid });
    expect(uuids(inFrankfurt.offerings)).toEqual(uuids(frankfurt.vpcOfferings));
  });

  test("a ready client is used as is; invalid arguments fail before any request", async () => {
    clearEnv();
    const requests: string[] = [];
    const client = new RestCloudClient({
      apiUrl: emulator.url,
      ...DEMO,
      onRequest: (event) => requests.push(event.operation),
    });
    const { zones } = await restcloud.getZones({}, { client });
    expect(zones.length).toBe(catalog.zones.length);
    expect(requests).toEqual(["zone-list"]);
    await expect(restcloud.getZones({ nameRegex: "([" }, { client })).rejects.toThrow(
      "restcloud.getZones: invalid arguments: nameRegex: must be a valid regular expression",
    );
    await expect(
      restcloud.getComputePlans({ type: "FREE" as never }, { client, zoneUuid: frankfurt.zone.uuid }),
    ).rejects.toThrow("restcloud.getComputePlans: invalid arguments: type");
    expect(requests).toEqual(["zone-list"]);
  });
});
