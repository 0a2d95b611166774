// A price rule, a declaration's `price` facet: one state of a resource and the live catalog in, cost components out.
// The estimate (provider/cost) runs the rules and holds none. A month is 730 hours.
import { UNKNOWN } from "../wire";
import type { PriceBook, UnitPrice } from "./book";

export const HOURS_PER_MONTH = 730;

export type Properties = Readonly<Record<string, unknown>>;

/** One state of a resource: its properties (checked inputs), outputs, id and dependencies. */
export interface ResourceState {
  readonly properties: Properties;
  readonly outputs: Properties;
  readonly id?: string;
  /** Per property, the URNs of the resources its value came from. */
  readonly propertyDependencies: Readonly<Record<string, readonly string[]>>;
  readonly dependencies: readonly string[];
}

/** One priced part of a resource: quantity and price per month, in the catalog's default currency. */
export interface CostComponent {
  /** What is priced: "vCPU", "Memory", "Storage"... */
  readonly name: string;
  /** Which plan or offering, and in what state: "gp.2c4g, running". */
  readonly detail?: string;
  /** The unit of the quantity: "vCPU-hours", "GiB-hours", "GB-months", "months"... */
  readonly unit: string;
  /** Per month; null when not known at preview. */
  readonly quantity: number | null;
  /** Per unit; null when not known. */
  readonly unitPrice: number | null;
  /** quantity × unitPrice; null when either is not known: never counted as 0. */
  readonly monthlyCost: number | null;
  /** Why the cost is not known (e.g. "size is known only after apply"). */
  readonly unknown?: string;
}

/** A resource the rule may need besides the priced one (the volume of a snapshot...). */
export interface Referenced {
  readonly kind: string;
  readonly state: ResourceState;
}

export interface PricingContext {
  readonly book: PriceBook;
  /** The resource's zone; undefined when not known at preview. */
  readonly zoneUuid: string | undefined;
  readonly properties: Properties;
  /** The resource a property refers to, when the plan holds it. */
  referenced(property: string): Referenced | undefined;
  /** A property's value is wrong for the catalog (an unknown offering): the estimate fails, naming it. */
  invalid(property: string, message: string): never;
}

/** How a kind is priced: a declaration's `price`. A kind without one is free. */
export interface Price {
  /**
   * The per-zone unit prices the rule reads. The book calls them by name, so docs/operations.md
   * learns from here which cost-estimate calls `restcloud cost` makes.
   */
  readonly unitPrices: readonly UnitPrice[];
  /** The cost components of one state of a resource of the kind. */
  components(ctx: PricingContext): Promise<CostComponent[]>;
}

/** Raised through `invalid`: a value of the plan that the catalog does not know. */
export class PricingError extends Error {
  override readonly name = "PricingError";
  constructor(
    readonly property: string,
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------
// Values that may not be known at preview
// ---------------------------------------------------------------------------------------------

/** A value Pulumi does not know at preview (or hides as a secret). */
const isUnknown = (v: unknown): boolean =>
  v === UNKNOWN || v === "[secret]" || (typeof v === "object" && v !== null && !Array.isArray(v));

export const notKnown = (property: string): string => `${property} is known only after apply`;

export function component(
  name: string,
  unit: string,
  quantity: number | null,
  unitPrice: number | null,
  extra: { detail?: string; unknown?: string } = {},
): CostComponent {
  const known = quantity !== null && unitPrice !== null;
  return {
    name,
    ...(extra.detail ? { detail: extra.detail } : {}),
    unit,
    quantity,
    unitPrice,
    monthlyCost: known ? quantity * unitPrice : null,
    ...(!known ? { unknown: extra.unknown ?? "not known at preview" } : {}),
  };
}

/** A component whose whole cost waits for a value not known at preview. */
export const unknownComponent = (name: string, unit: string, why: string): CostComponent =>
  component(name, unit, null, null, { unknown: why });

export function numberOf(props: Properties, key: string): number | undefined | typeof UNKNOWN {
  const v = props[key];
  if (v === undefined || v === null) return undefined;
  if (isUnknown(v)) return UNKNOWN;
  return typeof v === "number" ? v : Number(v);
}

export function stringOf(props: Properties, key: string): string | undefined | typeof UNKNOWN {
  const v = props[key];
  if (v === undefined || v === null || v === "") return undefined;
  if (isUnknown(v)) return UNKNOWN;
  return String(v);
}

/** The zone for a message: its name and uuid, or the uuid when the catalog has no name for it. */
export const zoneLabel = async (ctx: PricingContext): Promise<string> => {
  const name = await ctx.book.zoneName(ctx.zoneUuid!);
  return name === ctx.zoneUuid ? ctx.zoneUuid : `${name} (${ctx.zoneUuid})`;
};
