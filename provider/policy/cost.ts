// The cost policies: the stack's monthly total within a budget, and each resource's within a cap, priced by
// `restcloud cost`'s estimate from the live catalog of the API the stack's config names. An analyzer sees the stack
// as planned, not as it was: the increase a change makes stays `restcloud cost`'s to check. A cost that cannot be
// known (a value known only after apply, an API that does not answer) is named in a violation, never counted as 0.
import type { PolicyConfigSchema, StackValidationPolicy } from "@pulumi/policy";
import { cents, checkBudget, money } from "../cost/budget";
import { estimateCost, estimateFailure, unknownCosts, type CostEstimate, type ResourceCost } from "../cost/estimate";
import type { CostComponent } from "../pricing";
import { PriceBook } from "../pricing";
import { DECLARATIONS } from "../resources/registry";
import { commandClient, type ProviderConfig } from "../settings";
import { stackProviderConfig } from "./stack-config";
import { stackPlan, stackResources, type StackResource, type Violation } from "./stack-resources";

/** A cost policy's settings: the limit, in the catalog's default currency or `currency`. */
export interface CostLimit {
  readonly maxMonthly?: number;
  readonly currency?: string;
}

const limitSchema = (what: string): PolicyConfigSchema => ({
  properties: {
    maxMonthly: {
      type: "number",
      minimum: 0,
      description: `${what}, a month (730 hours), in the catalog's default currency or \`currency\`. Not set: not checked.`,
    },
    currency: {
      type: "string",
      description: "One of the catalog's currencies (USD...); default: the catalog's default.",
    },
  },
});

/** The stack priced, or why it could not be: each problem a line. */
export type PricedStack = { readonly estimate: CostEstimate } | { readonly apiUrl: string; readonly failure: string[] };

/** One price book per API and account for the pack's process (one preview or update): each list fetched once. */
const books = new Map<string, PriceBook>();
function bookFor(config: ProviderConfig): PriceBook {
  const key = JSON.stringify([config.apiUrl, config.apiKey, config.secretKey]);
  let book = books.get(key);
  if (!book) books.set(key, (book = new PriceBook(commandClient(config))));
  return book;
}

/** The stack's resources priced as `restcloud cost` prices a plan, with the stack's settings (else RESTCLOUD_*). */
export async function priceStack(
  resources: readonly StackResource[],
  currency: string | undefined,
  config: ProviderConfig = stackProviderConfig(),
): Promise<PricedStack> {
  const missing = config.missing();
  if (missing.length > 0) return { apiUrl: config.apiUrl, failure: missing.map((m) => `settings: ${m}`) };
  try {
    const estimate = await estimateCost(stackPlan(resources), bookFor(config), DECLARATIONS, {
      ...(currency ? { currency } : {}),
      ...(config.zoneUuid ? { defaultZoneUuid: config.zoneUuid } : {}),
    });
    return { estimate };
  } catch (error) {
    return { apiUrl: config.apiUrl, failure: estimateFailure(error) };
  }
}

const bullets = (lines: readonly string[]): string => lines.map((line) => `\n  - ${line}`).join("");
const notPriced = (priced: { apiUrl: string; failure: string[] }): string =>
  `the stack could not be priced from the cost catalog of ${priced.apiUrl || "the API"}:${bullets(priced.failure)}`;
const unknownText = (c: CostComponent): string => `${c.name}: ${c.unknown ?? "not known"}`;
const costOf = (r: ResourceCost, unit: string): string =>
  `${r.type} ${r.name}: ${money(r.monthlyCost)} ${unit}${r.unknownComponents > 0 ? " and what is not known yet" : ""}`;

/** The budget policy's message, when the stack is over the budget or cannot be checked against it. */
export function budgetViolation(priced: PricedStack, maxMonthly: number): string | undefined {
  if (!("estimate" in priced)) return `the budget of ${money(maxMonthly)} cannot be checked: ${notPriced(priced)}`;
  const estimate = priced.estimate;
  const unit = estimate.currency;
  const unknown = unknownCosts(estimate).map(
    ({ resource, component }) => `${resource.type} ${resource.name}: ${unknownText(component)}`,
  );
  const [overrun] = checkBudget(estimate, { maxMonthly }, { maxMonthly: "maxMonthly" }).overruns;
  if (overrun) {
    const priciest = estimate.resources.filter((r) => r.monthlyCost > 0).sort((a, b) => b.monthlyCost - a.monthlyCost);
    const notCounted = unknown.length > 0 ? `\nand, not known until apply (not counted):${bullets(unknown)}` : "";
    return `${overrun}:${bullets(priciest.map((r) => costOf(r, unit)))}${notCounted}`;
  }
  if (unknown.length > 0)
    return (
      `the budget of ${money(maxMonthly)} ${unit} cannot be checked: the known monthly total is ` +
      `${money(estimate.totalMonthlyCost)} ${unit}, and these costs are not known until apply (never counted as 0):${bullets(unknown)}`
    );
  return undefined;
}

/** The cap policy's violations: each resource over the cap, or whose cost cannot be checked against it. */
export function capViolations(priced: PricedStack, maxMonthly: number): Violation[] {
  if (!("estimate" in priced))
    return [
      {
        message: `no resource's monthly cost can be checked against the cap of ${money(maxMonthly)}: ${notPriced(priced)}`,
      },
    ];
  const unit = priced.estimate.currency;
  const cap = `the cap of ${money(maxMonthly)} ${unit} a resource (maxMonthly)`;
  return priced.estimate.resources.flatMap((r): Violation[] => {
    const unknown = r.components.filter((c) => c.monthlyCost === null).map(unknownText);
    const known = r.components.filter((c) => c.monthlyCost !== null);
    const parts = known.map((c) => `${c.name} ${money(c.monthlyCost!)}`).join(", ");
    if (cents(r.monthlyCost) > maxMonthly)
      return [
        {
          message:
            `${r.type} ${r.name} costs ${money(r.monthlyCost)} ${unit} a month, over ${cap}: ${parts}` +
            (unknown.length > 0 ? `; and not known until apply: ${unknown.join("; ")}` : ""),
          urn: r.urn,
        },
      ];
    if (unknown.length > 0)
      return [
        {
          message:
            `${r.type} ${r.name}'s monthly cost cannot be checked against ${cap}: ${unknown.join("; ")} ` +
            `(known: ${money(r.monthlyCost)} ${unit}, never counting the rest as 0)`,
          urn: r.urn,
        },
      ];
    return [];
  });
}

/** A cost policy: with maxMonthly set, the stack priced and checked; without, not applicable (the API not asked). */
function costPolicy(
  name: string,
  description: string,
  limitIs: string,
  check: (priced: PricedStack, maxMonthly: number) => Violation[],
): StackValidationPolicy {
  return {
    name,
    description,
    enforcementLevel: "mandatory",
    configSchema: limitSchema(limitIs),
    validateStack: async (args, report) => {
      const limit = args.getConfig<CostLimit>();
      if (limit.maxMonthly === undefined) return args.notApplicable("no maxMonthly is set");
      const priced = await priceStack(stackResources(args.resources), limit.currency);
      for (const v of check(priced, limit.maxMonthly)) report(v.message, v.urn);
    },
  };
}

export const budgetPolicy = costPolicy(
  "monthly-budget",
  "The stack's monthly cost, priced as `restcloud cost` prices it from the API's cost catalog, is within maxMonthly.",
  "The most the whole stack may cost",
  (priced, maxMonthly) => {
    const message = budgetViolation(priced, maxMonthly);
    return message === undefined ? [] : [{ message }];
  },
);

export const capPolicy = costPolicy(
  "resource-monthly-cap",
  "No resource's monthly cost, priced as `restcloud cost` prices it from the API's cost catalog, is over maxMonthly.",
  "The most one resource may cost",
  capViolations,
);
