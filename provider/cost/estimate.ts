// A plan priced: per resource its monthly cost before and after, totals and difference, in the catalog's currency or
// another. Values not known at preview are listed and left out of the totals, never counted as 0.
import { ApiError, RestCloudError } from "../client/errors";
import type { ResourceDeclaration } from "../engine/declaration";
import {
  HOURS_PER_MONTH,
  PricingError,
  type CostComponent,
  type Currency,
  type Price,
  type PriceBook,
  type Referenced,
} from "../pricing";
import { UNKNOWN } from "../wire";
import { PlanFormatError, type Plan, type PlannedOp, type PlannedResource, type ResourceState } from "./plan";

/**
 * What the estimate needs of a kind: its type name and its price facet (absent: free). The CLI hands
 * it the registry's declarations; a test may hand it a kind of its own.
 */
export type PricedKind = Pick<ResourceDeclaration, "type" | "price">;

export interface ResourceCost {
  readonly urn: string;
  readonly name: string;
  readonly type: string;
  readonly op: PlannedOp;
  /** The kind has no price in the catalog (a rule, a tag...). */
  readonly free: boolean;
  /** After the plan (0 when deleted); the known part when some component is unknown. */
  readonly monthlyCost: number;
  /** Before the plan (0 when created). */
  readonly pastMonthlyCost: number;
  /** After minus before; null when a component after the plan is not known (the change is not known). */
  readonly diffMonthlyCost: number | null;
  /** Components whose cost is not known at preview, after the plan. */
  readonly unknownComponents: number;
  readonly components: readonly CostComponent[];
  readonly pastComponents: readonly CostComponent[];
}

export interface CostEstimate {
  readonly currency: string;
  readonly currencySymbol?: string;
  readonly hoursPerMonth: number;
  /** `preview` (a plan of changes) or `state` (the stack as it is). */
  readonly source: Plan["source"];
  readonly totalMonthlyCost: number;
  readonly pastTotalMonthlyCost: number;
  /** The sum of the resources' known differences (those with an unknown component are left out). */
  readonly diffTotalMonthlyCost: number;
  /** Components, over all resources after the plan, whose cost is not known: not in the totals. */
  readonly unknownComponents: number;
  readonly resources: readonly ResourceCost[];
  /** Resources of other providers, not priced. */
  readonly otherResources: number;
  /** Notes for the reader: what the totals leave out. */
  readonly notes: readonly string[];
}

/** The estimate failed: each problem names its resource and property. */
export class EstimateError extends Error {
  override readonly name = "EstimateError";
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
  }
}

/** Why an estimate failed, in a line per problem: each named (an EstimateError), or the API's silence. */
export function estimateFailure(error: unknown): string[] {
  if (error instanceof EstimateError) return [...error.problems];
  if (error instanceof ApiError && (error.status === undefined || error.status >= 500))
    return [`the API did not answer (${error.serverMessage}); the estimate needs its cost catalog`];
  if (error instanceof RestCloudError || error instanceof PlanFormatError) return [error.message];
  return [error instanceof Error ? error.message : String(error)];
}

/** The components after the plan whose cost is not known, each with its resource. */
export function unknownCosts(estimate: CostEstimate): { resource: ResourceCost; component: CostComponent }[] {
  return estimate.resources.flatMap((resource) =>
    resource.components.filter((c) => c.monthlyCost === null).map((component) => ({ resource, component })),
  );
}

export interface EstimateOptions {
  /** The currency code to show prices in (`USD`); default: the catalog's default currency. */
  readonly currency?: string;
  /** The zone of resources whose own is not set (`restcloud:zoneUuid`). */
  readonly defaultZoneUuid?: string;
}

const sum = (components: readonly CostComponent[]): number =>
  components.reduce((total, c) => total + (c.monthlyCost ?? 0), 0);

/** The currency to convert to, and the factor from the catalog's default currency. */
async function currencyOf(book: PriceBook, code: string | undefined): Promise<{ currency: Currency; factor: number }> {
  const currencies = await book.currencies();
  const base = currencies.find((c) => c.isDefault) ?? { code: "EUR", rate: 1, isDefault: true };
  if (code === undefined) return { currency: base, factor: 1 };
  const target = currencies.find((c) => c.code.toUpperCase() === code.toUpperCase());
  if (!target)
    throw new EstimateError([
      `--currency ${code}: the catalog has no such currency (it has ${currencies.map((c) => c.code).join(", ") || "none"})`,
    ]);
  return { currency: target, factor: target.rate / base.rate };
}

const convert = (c: CostComponent, factor: number): CostComponent => ({
  ...c,
  unitPrice: c.unitPrice === null ? null : c.unitPrice * factor,
  monthlyCost: c.monthlyCost === null ? null : c.monthlyCost * factor,
});

/** How the plan's resources refer to one another: by the URNs a property came from, or by ids. */
interface PlanGraph {
  /** The resource a property of `state` refers to: by the URN it came from, else by its id. */
  referenced(state: ResourceState, property: string): PlannedResource | undefined;
  /** The zone of a state: its own, else that of a resource it depends on, else the default. */
  zoneOf(state: ResourceState): string | undefined;
}

function planGraph(plan: Plan, defaultZoneUuid: string | undefined): PlanGraph {
  const byUrn = new Map(plan.resources.map((r) => [r.urn, r]));
  const byId = new Map<string, PlannedResource>();
  for (const r of plan.resources) for (const s of [r.before, r.after]) if (s?.id) byId.set(s.id, r);

  const zoneOf = (state: ResourceState, seen = new Set<ResourceState>()): string | undefined => {
    seen.add(state);
    const own = ["zoneUuid", "ruleZoneUuid"]
      .map((key) => state.properties[key] ?? state.outputs[key])
      .filter((zone): zone is string => typeof zone === "string" && zone !== "");
    const known = own.find((zone) => zone !== UNKNOWN);
    if (known !== undefined) return known;
    // A zone known only after apply (a rule's ruleZoneUuid, an output) is that of what the resource hangs on.
    const deps = [...Object.values(state.propertyDependencies).flat(), ...state.dependencies];
    for (const urn of deps) {
      const dep = byUrn.get(urn);
      const depState = dep?.after ?? dep?.before;
      if (depState && !seen.has(depState)) {
        const zone = zoneOf(depState, seen);
        if (zone !== undefined && zone !== UNKNOWN) return zone;
      }
    }
    return own.length > 0 ? UNKNOWN : defaultZoneUuid;
  };

  return {
    referenced: (state, property) => {
      for (const urn of state.propertyDependencies[property] ?? []) if (byUrn.has(urn)) return byUrn.get(urn);
      const value = state.properties[property];
      return typeof value === "string" ? byId.get(value) : undefined;
    },
    zoneOf: (state) => zoneOf(state),
  };
}

/** The one component of a resource whose zone is not known: its whole cost is unknown. */
function unknownZoneComponent(zoneUuid: typeof UNKNOWN | undefined): CostComponent {
  return {
    name: "Everything",
    unit: "months",
    quantity: null,
    unitPrice: null,
    monthlyCost: null,
    unknown: zoneUuid === undefined ? "no zoneUuid, and no restcloud:zoneUuid" : "zoneUuid is known only after apply",
  };
}

/**
 * The cost components of one state of a resource (before or after the plan), in the catalog's
 * default currency; none for a kind without a price. Problems (an unknown zone, an invalid
 * property) are added to `problems`, so that one run reports them all.
 */
async function priceState(
  price: Price | undefined,
  book: PriceBook,
  graph: PlanGraph,
  problems: string[],
  resource: PlannedResource,
  state: ResourceState | undefined,
  when: "before" | "after",
): Promise<CostComponent[]> {
  if (!state || !price) return [];
  const zoneUuid = graph.zoneOf(state);
  if (zoneUuid === UNKNOWN || zoneUuid === undefined) return [unknownZoneComponent(zoneUuid)];
  if (!(await book.isZone(zoneUuid))) {
    problems.push(`${resource.kind} ${resource.name}: zoneUuid ${zoneUuid}: no such zone in the catalog`);
    return [];
  }
  try {
    return await price.components({
      book,
      zoneUuid,
      properties: state.properties,
      referenced: (property): Referenced | undefined => {
        const target = graph.referenced(state, property);
        // A reference is priced as it stands at the same moment: before the plan, or after it.
        const targetState =
          target && (when === "before" ? (target.before ?? target.after) : (target.after ?? target.before));
        return target && targetState ? { kind: target.kind, state: targetState } : undefined;
      },
      invalid: (property, message) => {
        throw new PricingError(property, message);
      },
    });
  } catch (error) {
    if (!(error instanceof PricingError)) throw error;
    problems.push(`${resource.kind} ${resource.name}: ${error.property}: ${error.message}`);
    return [];
  }
}

/** A resource's costs after and before the plan, converted by `factor`, and their difference. */
function resourceCost(
  r: PlannedResource,
  free: boolean,
  after: readonly CostComponent[],
  before: readonly CostComponent[],
  factor: number,
): ResourceCost {
  const components = after.map((c) => convert(c, factor));
  const pastComponents = before.map((c) => convert(c, factor));
  const monthlyCost = sum(components);
  const pastMonthlyCost = sum(pastComponents);
  const unknownComponents = components.filter((c) => c.monthlyCost === null).length;
  return {
    urn: r.urn,
    name: r.name,
    type: r.kind,
    op: r.op,
    free,
    monthlyCost,
    pastMonthlyCost,
    diffMonthlyCost: unknownComponents > 0 ? null : monthlyCost - pastMonthlyCost,
    unknownComponents,
    components,
    pastComponents,
  };
}

/** What the totals leave out, for the reader. */
function estimateNotes(plan: Plan, unknownComponents: number): string[] {
  const notes: string[] = [];
  if (unknownComponents > 0)
    notes.push(
      `${unknownComponents} cost component${unknownComponents === 1 ? " is" : "s are"} not known at preview: ` +
        "not in the totals, and the difference leaves out the resources that have one",
    );
  if (!plan.listsUnchanged)
    notes.push(
      "the preview lists only the resources it changes: the totals leave out the unchanged ones " +
        "(run `pulumi preview --json --show-sames`, or `restcloud cost --preview`)",
    );
  if (plan.otherResources > 0)
    notes.push(`${plan.otherResources} resource${plan.otherResources === 1 ? "" : "s"} of other providers not priced`);
  return notes;
}

export async function estimateCost(
  plan: Plan,
  book: PriceBook,
  kinds: Iterable<PricedKind>,
  options: EstimateOptions = {},
): Promise<CostEstimate> {
  const prices = new Map<string, Price | undefined>([...kinds].map((k) => [k.type, k.price]));
  const { currency, factor } = await currencyOf(book, options.currency);
  const graph = planGraph(plan, options.defaultZoneUuid);
  const problems: string[] = [];
  const resources: ResourceCost[] = [];
  for (const r of plan.resources) {
    const price = prices.get(r.kind);
    const [after, before] = await Promise.all([
      priceState(price, book, graph, problems, r, r.after, "after"),
      priceState(price, book, graph, problems, r, r.before, "before"),
    ]);
    resources.push(resourceCost(r, price === undefined, after, before, factor));
  }
  // A resource priced the same before and after (a stack export) would name its problem twice.
  if (problems.length > 0) throw new EstimateError([...new Set(problems)]);

  const unknownComponents = resources.reduce((n, r) => n + r.unknownComponents, 0);
  return {
    currency: currency.code,
    ...(currency.symbol ? { currencySymbol: currency.symbol } : {}),
    hoursPerMonth: HOURS_PER_MONTH,
    source: plan.source,
    totalMonthlyCost: resources.reduce((t, r) => t + r.monthlyCost, 0),
    pastTotalMonthlyCost: resources.reduce((t, r) => t + r.pastMonthlyCost, 0),
    diffTotalMonthlyCost: resources.reduce((t, r) => t + (r.diffMonthlyCost ?? 0), 0),
    unknownComponents,
    resources,
    otherResources: plan.otherResources,
    notes: estimateNotes(plan, unknownComponents),
  };
}
