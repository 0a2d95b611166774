// The rule library: builders for flat unit prices, snapshot storage and offering prices, and the rules of instances,
// volumes and clusters, from their properties and the live catalog (the units it is read in: above "The rules"). A
// stopped instance or cluster pays the plan's stoppage rates and its disks, no template cost or licence.
import { UNKNOWN } from "../wire";
import type { BundleTerm, ComputePlan, ReservedTerm, UnitPrice } from "./book";
import {
  component,
  HOURS_PER_MONTH,
  notKnown,
  numberOf,
  stringOf,
  unknownComponent,
  zoneLabel,
  type CostComponent,
  type Price,
  type PricingContext,
  type Properties,
  type Referenced,
} from "./rule";

// ---------------------------------------------------------------------------------------------
// Compute
// ---------------------------------------------------------------------------------------------

interface Size {
  cores: number;
  memoryGib: number;
}

/** What a plan costs per month for `count` machines of `size`, running or stopped. */
function computeComponents(plan: ComputePlan, size: Size, running: boolean, count = 1, who = ""): CostComponent[] {
  const name = plan.record.name ?? plan.record.uuid ?? "plan";
  const state = running ? "running" : "stopped";
  const label = (what: string) => (who ? `${who}: ${what}` : what);
  if (plan.kind === "payAsYouGo") {
    const r = plan.record;
    const vcpuRate = running ? r.instanceRunningCostVcpu : r.instanceStoppageCostVcpu;
    const memoryRate = running ? r.instanceRunningCostMemory : r.instanceStoppageCostMemory;
    return [
      component(label("vCPU"), "vCPU-hours", count * size.cores * HOURS_PER_MONTH, vcpuRate ?? null, {
        detail: `${name}, ${state}`,
        unknown: "the plan has no vCPU rate",
      }),
      component(label("Memory"), "GiB-hours", count * size.memoryGib * HOURS_PER_MONTH, memoryRate ?? null, {
        detail: `${name}, ${state}`,
        unknown: "the plan has no memory rate",
      }),
    ];
  }
  if (plan.kind === "reserved") {
    // The shortest term, its upfront payment spread over its months.
    const term = shortest((plan.record.offeringPlans ?? []) as ReservedTerm[]);
    const monthly =
      term && term.termMonths ? (term.monthlyCost ?? 0) + (term.upfrontCost ?? 0) / term.termMonths : null;
    return [
      component(label("Reserved instance"), "months", count, monthly, {
        detail: `${name}, ${term?.name ?? "no term"}`,
        unknown: "the plan lists no term",
      }),
    ];
  }
  const term = shortest((plan.record.bundlePlan ?? []) as BundleTerm[]);
  const monthly = term && term.termMonths && term.cost !== undefined ? term.cost / term.termMonths : null;
  return [
    component(label("Bundle"), "months", count, monthly, {
      detail: `${name}, ${term?.name ?? "no term"}`,
      unknown: "the bundle lists no term",
    }),
  ];
}

function shortest<T extends { termMonths?: number }>(terms: readonly T[]): T | undefined {
  return [...terms]
    .filter((t) => typeof t.termMonths === "number" && t.termMonths > 0)
    .sort((a, b) => a.termMonths! - b.termMonths!)[0];
}

/** The compute plan named by a property, or the estimate fails naming it. */
async function computePlanOf(ctx: PricingContext, property: string, uuid: string): Promise<ComputePlan> {
  const plan = await ctx.book.computePlan(ctx.zoneUuid!, uuid);
  if (!plan) return ctx.invalid(property, `no compute plan ${uuid} in the catalog of zone ${await zoneLabel(ctx)}`);
  return plan;
}

/** The size a plan gives a machine: the plan's own, or the custom plan's cores and memory. */
function sizeOf(plan: ComputePlan, props: Properties): Size | "unknown" {
  const custom = plan.kind === "payAsYouGo" && plan.record.isCustom === true;
  if (custom) {
    const cores = numberOf(props, "cpuCore");
    const memory = numberOf(props, "memory");
    if (cores === UNKNOWN || memory === UNKNOWN) return "unknown";
    return { cores: cores ?? plan.record.core ?? 1, memoryGib: (memory ?? plan.record.memory ?? 0) / 1024 };
  }
  return { cores: plan.record.core ?? 0, memoryGib: (plan.record.memory ?? 0) / 1024 };
}

// ---------------------------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------------------------

/** A disk on a storage plan: a fixed plan bills its own size, a custom plan the size asked for. */
async function diskComponents(
  ctx: PricingContext,
  name: string,
  planProperty: string,
  sizeProperty: string,
): Promise<CostComponent[]> {
  const uuid = stringOf(ctx.properties, planProperty);
  const size = numberOf(ctx.properties, sizeProperty);
  if (uuid === undefined) return [];
  if (uuid === UNKNOWN) return [unknownComponent(name, "GB-months", notKnown(planProperty))];
  const plan = await ctx.book.storagePlan(ctx.zoneUuid!, uuid);
  if (!plan) return ctx.invalid(planProperty, `no storage plan ${uuid} in the catalog of zone ${await zoneLabel(ctx)}`);
  const detail = plan.name ?? uuid;
  if (plan.isCustom) {
    const perGb = plan.customCostPerGb || plan.costForGb || 0;
    if (size === UNKNOWN) return [unknownComponent(name, "GB-months", notKnown(sizeProperty))];
    return [component(name, "GB-months", size ?? null, perGb, { detail, unknown: `no ${sizeProperty}` })];
  }
  return [component(name, "GB-months", plan.diskSize ?? null, plan.costForGb ?? null, { detail })];
}

// ---------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------

// Units (the spec names the catalog's fields, not their units; the emulator reads them the same): compute, template
// costs, licences and the Kubernetes control plane per hour; storage and snapshots per GB-month; offerings, public IPs
// and load-balancer and port-forwarding rules per month.
const running = (props: Properties): boolean => props.state !== "Stopped";

/** The price per GB and month of a root disk beyond its template's size (the spec shows no parameter: the zone). */
const TEMPLATE_RESIZE: UnitPrice = { call: "additionalTemplateResizeCost", field: "additionalTemplateResizeCost" };
/** The Kubernetes control plane's price per hour (the spec shows no parameter: the zone). */
const CONTROL_PLANE: UnitPrice = { call: "k8sCost", field: "k8sCost" };

async function instanceComponents(ctx: PricingContext): Promise<CostComponent[]> {
  const p = ctx.properties;
  const parts: CostComponent[] = [];
  const planUuid = stringOf(p, "computeOfferingUuid");
  const isRunning = running(p);
  let cores: number | undefined;
  if (planUuid === UNKNOWN || planUuid === undefined) {
    parts.push(unknownComponent("Compute", "hours", notKnown("computeOfferingUuid")));
  } else {
    const plan = await computePlanOf(ctx, "computeOfferingUuid", planUuid);
    const size = sizeOf(plan, p);
    if (size === "unknown") parts.push(unknownComponent("Compute", "hours", notKnown("cpuCore and memory")));
    else {
      cores = size.cores;
      parts.push(...computeComponents(plan, size, isRunning));
    }
  }

  const templateUuid = stringOf(p, "templateUuid");
  if (templateUuid === UNKNOWN) parts.push(unknownComponent("Template", "hours", notKnown("templateUuid")));
  else if (templateUuid !== undefined) {
    const template = await ctx.book.template(ctx.zoneUuid!, templateUuid);
    if (!template)
      return ctx.invalid("templateUuid", `no template ${templateUuid} in the catalog of zone ${await zoneLabel(ctx)}`);
    const detail = template.name ?? templateUuid;
    if (isRunning && template.cost)
      parts.push(component("Template", "hours", HOURS_PER_MONTH, template.cost, { detail }));
    if (isRunning && template.enablePerCoreLicense && template.licensePerCoreCost)
      parts.push(
        component(
          "Licence",
          "core-hours",
          cores === undefined ? null : cores * HOURS_PER_MONTH,
          template.licensePerCoreCost,
          { detail, unknown: "the number of cores is not known" },
        ),
      );
    const rootDisk = numberOf(p, "rootDiskSize");
    if (rootDisk === UNKNOWN)
      parts.push(unknownComponent("Root disk beyond the template", "GB-months", notKnown("rootDiskSize")));
    else if (rootDisk !== undefined && template.size !== undefined && rootDisk > template.size) {
      const price = await ctx.book.unitPrice(ctx.zoneUuid!, TEMPLATE_RESIZE);
      parts.push(
        component("Root disk beyond the template", "GB-months", rootDisk - template.size, price ?? null, {
          detail: `${rootDisk} GB, the template's ${template.size} GB included`,
          unknown: `the API answers no ${TEMPLATE_RESIZE.field}`,
        }),
      );
    }
  }
  parts.push(...(await diskComponents(ctx, "Data disk", "storageOfferingUuid", "diskSize")));
  return parts;
}

/** An instance: its plan's compute, its template's cost and licence, a root disk beyond the template, its data disk. */
export const priceInstance: Price = { unitPrices: [TEMPLATE_RESIZE], components: instanceComponents };

/** A volume: its storage plan (a fixed plan bills its own size, a custom plan the size asked for). */
export const priceVolume: Price = {
  unitPrices: [],
  components: (ctx) => diskComponents(ctx, "Storage", "storageOfferingUuid", "size"),
};

/**
 * An uploaded volume takes no storage plan (uploadVolume has none to take): its size is the image's,
 * known once uploaded, and its price per GB is the deployment's, which no catalog call shows.
 */
export const priceUploadedVolume: Price = {
  unitPrices: [],
  components: async (ctx) => {
    const size = numberOf(ctx.properties, "size");
    return [
      component("Storage", "GB-months", size === UNKNOWN ? null : (size ?? null), null, {
        detail: "uploaded image",
        unknown: "an uploaded volume has no storage plan, so its price per GB is not in the catalog",
      }),
    ];
  },
};

/** A flat price per month from one of the zone's unit prices. */
export const perMonth = (name: string, price: UnitPrice): Price => ({
  unitPrices: [price],
  components: async (ctx) => {
    const unitPrice = await ctx.book.unitPrice(ctx.zoneUuid!, price);
    return [component(name, "months", 1, unitPrice ?? null, { unknown: `the API answers no ${price.field}` })];
  },
});

/** Snapshot storage per GB and month, the GB those of the snapshotted disks. */
export const perSnapshotGb = (
  name: string,
  price: UnitPrice,
  property: string,
  gbOf: (r: Referenced, ctx: PricingContext) => Promise<number | null>,
): Price => ({
  unitPrices: [price],
  components: async (ctx) => {
    const unitPrice = (await ctx.book.unitPrice(ctx.zoneUuid!, price)) ?? null;
    const target = ctx.referenced(property);
    const gb = target ? await gbOf(target, ctx) : null;
    return [
      component(name, "GB-months", gb, unitPrice, {
        unknown: target
          ? `the size of the snapshotted disks is not known`
          : `the ${property} resource is not in the plan`,
      }),
    ];
  },
});

/** The GB a volume's snapshot holds: a fixed plan's size, else the volume's own. */
export const volumeGb = async (volume: Referenced, ctx: PricingContext): Promise<number | null> => {
  const props = volume.state.properties;
  const size = numberOf(props, "size") ?? numberOf(volume.state.outputs, "size");
  if (size === UNKNOWN || size === undefined) return null;
  const uuid = stringOf(props, "storageOfferingUuid");
  if (uuid === undefined || uuid === UNKNOWN) return size;
  const plan = await ctx.book.storagePlan(ctx.zoneUuid!, uuid);
  return plan && !plan.isCustom && plan.diskSize ? plan.diskSize : size;
};

/** The GB an instance's snapshot holds: its root disk (the template's size unless resized) and data disk. */
export const instanceDisksGb = async (instance: Referenced, ctx: PricingContext): Promise<number | null> => {
  const props = instance.state.properties;
  const root = numberOf(props, "rootDiskSize");
  const data = numberOf(props, "diskSize");
  if (root === UNKNOWN || data === UNKNOWN) return null;
  let rootGb = root;
  if (rootGb === undefined) {
    const uuid = stringOf(props, "templateUuid");
    if (uuid === undefined || uuid === UNKNOWN) return null;
    rootGb = (await ctx.book.template(ctx.zoneUuid!, uuid))?.size;
    if (rootGb === undefined) return null;
  }
  return rootGb + (data ?? 0);
};

/** A flat price per month: the offering a property names (`vpcOffering`, `networkOffering`), its total with HA. */
export const perOffering = (
  name: string,
  property: string,
  what: string,
  lookUp: "vpcOffering" | "networkOffering",
): Price => ({
  unitPrices: [],
  components: async (ctx) => {
    const uuid = stringOf(ctx.properties, property);
    if (uuid === undefined || uuid === UNKNOWN) return [unknownComponent(name, "months", notKnown(property))];
    const offering = await ctx.book[lookUp](ctx.zoneUuid!, uuid);
    if (!offering) return ctx.invalid(property, `no ${what} ${uuid} in the catalog of zone ${await zoneLabel(ctx)}`);
    return [component(name, "months", 1, offering.totalCost ?? offering.cost ?? null, { detail: offering.name })];
  },
});

async function clusterComponents(ctx: PricingContext): Promise<CostComponent[]> {
  const p = ctx.properties;
  const planUuid = stringOf(p, "computeOfferingUuid");
  const workers = numberOf(p, "size");
  const controlNodes = numberOf(p, "controlNodes") ?? 1;
  const isRunning = running(p);
  const parts: CostComponent[] = [];
  if (planUuid === undefined || planUuid === UNKNOWN) {
    parts.push(unknownComponent("Nodes", "hours", notKnown("computeOfferingUuid")));
  } else {
    const plan = await computePlanOf(ctx, "computeOfferingUuid", planUuid);
    const size = sizeOf(plan, {});
    if (size !== "unknown") {
      if (workers === UNKNOWN || workers === undefined)
        parts.push(unknownComponent("Worker nodes", "hours", notKnown("size")));
      else
        parts.push(
          ...computeComponents(plan, size, isRunning, workers, `${workers} worker node${workers === 1 ? "" : "s"}`),
        );
      if (controlNodes === UNKNOWN) parts.push(unknownComponent("Control nodes", "hours", notKnown("controlNodes")));
      else
        parts.push(
          ...computeComponents(
            plan,
            size,
            isRunning,
            controlNodes,
            `${controlNodes} control node${controlNodes === 1 ? "" : "s"}`,
          ),
        );
    }
  }
  if (isRunning) {
    const rate = await ctx.book.unitPrice(ctx.zoneUuid!, CONTROL_PLANE);
    parts.push(
      component("Control plane", "hours", HOURS_PER_MONTH, rate ?? null, {
        unknown: `the API answers no ${CONTROL_PLANE.field}`,
      }),
    );
  }
  return parts;
}

/** A Kubernetes cluster: its worker and control nodes on its plan, and the control plane while running. */
export const priceCluster: Price = { unitPrices: [CONTROL_PLANE], components: clusterComponents };
