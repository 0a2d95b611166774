// An estimate as Infracost's JSON (format 0.2, `restcloud cost --format infracost`), so Infracost's renderers show a
// Pulumi plan (Infracost does not read Pulumi programs). Three breakdowns: after, before, and the diff per component.
// Figures are decimal strings, unknowns null (never 0); docs/cost-in-ci.md, "Infracost's JSON", has the details.
import type { CostEstimate, ResourceCost } from "./estimate";
import { HOURS_PER_MONTH, type CostComponent } from "../pricing";

/** The version of Infracost's JSON this writes (Infracost reads 0.2). */
export const INFRACOST_FORMAT_VERSION = "0.2";

/** A decimal as a string ("12.5"); null when not known. */
export type Decimal = string | null;

export interface InfracostCostComponent {
  name: string;
  unit: string;
  hourlyQuantity: Decimal;
  monthlyQuantity: Decimal;
  price: Decimal;
  hourlyCost: Decimal;
  monthlyCost: Decimal;
  priceNotFound: boolean;
}

export interface InfracostResource {
  name: string;
  resourceType: string;
  metadata: { urn: string; op: ResourceCost["op"] };
  hourlyCost: Decimal;
  monthlyCost: Decimal;
  costComponents: InfracostCostComponent[];
}

export interface InfracostBreakdown {
  resources: InfracostResource[];
  totalHourlyCost: Decimal;
  totalMonthlyCost: Decimal;
  totalMonthlyUsageCost: Decimal;
}

export interface InfracostSummary {
  totalDetectedResources: number;
  totalSupportedResources: number;
  totalUnsupportedResources: number;
  totalUsageBasedResources: number;
  totalNoPriceResources: number;
  noPriceResourceCounts: Record<string, number>;
}

export interface InfracostProject {
  name: string;
  displayName: string;
  metadata: { path: string; type: string };
  pastBreakdown: InfracostBreakdown;
  breakdown: InfracostBreakdown;
  diff: InfracostBreakdown;
  summary: InfracostSummary;
}

export interface InfracostMetadata {
  infracostCommand: string;
  vcsBranch: string;
  vcsCommitSha: string;
  vcsCommitAuthorName: string;
  vcsCommitAuthorEmail: string;
  vcsCommitTimestamp: string;
  vcsCommitMessage: string;
  vcsRepositoryUrl?: string;
  vcsProvider?: string;
  vcsBaseBranch?: string;
  vcsPullRequestId?: string;
  vcsPipelineRunId?: string;
}

export interface InfracostRoot {
  version: string;
  metadata: InfracostMetadata;
  currency: string;
  projects: InfracostProject[];
  totalHourlyCost: Decimal;
  totalMonthlyCost: Decimal;
  totalMonthlyUsageCost: Decimal;
  pastTotalHourlyCost: Decimal;
  pastTotalMonthlyCost: Decimal;
  pastTotalMonthlyUsageCost: Decimal;
  diffTotalHourlyCost: Decimal;
  diffTotalMonthlyCost: Decimal;
  diffTotalMonthlyUsageCost: Decimal;
  timeGenerated: string;
  summary: InfracostSummary;
}

export interface InfracostOptions {
  /** The plan's file (or `-`), or the project's directory when the command ran the preview itself. */
  readonly path: string;
  /** For the commit and pull request of the run (GitHub Actions' GITHUB_* variables). */
  readonly env?: NodeJS.ProcessEnv;
  /** When the estimate was made; default: now. */
  readonly now?: Date;
}

/** The time Infracost writes when it knows none (Go's zero time). */
const NO_TIME = "0001-01-01T00:00:00Z";
/** Below this, a difference is float noise, not a change. */
const EPSILON = 1e-9;

/** A number as Infracost's decimal strings: up to 10 decimals, no trailing zeros, no exponent. */
export function decimal(n: number | null): Decimal {
  if (n === null) return null;
  const text = n.toFixed(10).replace(/0+$/, "").replace(/\.$/, "");
  return text === "-0" ? "0" : text;
}

const hourly = (monthly: number | null): Decimal => decimal(monthly === null ? null : monthly / HOURS_PER_MONTH);

/** Infracost's names read "What (detail, detail)": the plan or offering, and why a cost is not known. */
function componentName(name: string, details: readonly (string | undefined)[]): string {
  const shown = details.filter((d): d is string => d !== undefined && d !== "");
  return shown.length > 0 ? `${name} (${shown.join(", ")})` : name;
}

const whyUnknown = (c: CostComponent | undefined): string | undefined =>
  c && c.monthlyCost === null ? (c.unknown ?? "not known at preview") : undefined;

function costComponent(c: CostComponent): InfracostCostComponent {
  return {
    name: componentName(c.name, [c.detail, whyUnknown(c)]),
    unit: c.unit,
    hourlyQuantity: decimal(c.quantity === null ? null : c.quantity / HOURS_PER_MONTH),
    monthlyQuantity: decimal(c.quantity),
    price: decimal(c.unitPrice),
    hourlyCost: hourly(c.monthlyCost),
    monthlyCost: decimal(c.monthlyCost),
    priceNotFound: c.unitPrice === null,
  };
}

/** A resource's cost from its components: the known part; null when none is known. */
function knownCost(components: readonly CostComponent[]): number | null {
  const known = components.filter((c) => c.monthlyCost !== null);
  if (components.length > 0 && known.length === 0) return null;
  return known.reduce((total, c) => total + c.monthlyCost!, 0);
}

function resource(r: ResourceCost, label: string, components: readonly CostComponent[]): InfracostResource {
  const monthly = knownCost(components);
  return {
    name: label,
    resourceType: `restcloud:index:${r.type}`,
    metadata: { urn: r.urn, op: r.op },
    hourlyCost: hourly(monthly),
    monthlyCost: decimal(monthly),
    costComponents: components.map(costComponent),
  };
}

/** after − before, a side without the component counting 0; null when either is not known. */
function minus(after: number | null | undefined, before: number | null | undefined): number | null {
  if (after === null || before === null) return null;
  return (after ?? 0) - (before ?? 0);
}

/** The difference of one component, or undefined when nothing about it changes. */
function componentDiff(
  before: CostComponent | undefined,
  after: CostComponent | undefined,
): InfracostCostComponent | undefined {
  const base = (after ?? before)!;
  const quantity = minus(after?.quantity, before?.quantity);
  const price = minus(after?.unitPrice, before?.unitPrice);
  const cost = minus(after?.monthlyCost, before?.monthlyCost);
  if ([quantity, price, cost].every((v) => v !== null && Math.abs(v) < EPSILON)) return undefined;
  const detail =
    before?.detail && after?.detail && before.detail !== after.detail
      ? `${before.detail} → ${after.detail}`
      : (after?.detail ?? before?.detail);
  return {
    name: componentName(base.name, [detail, whyUnknown(after) ?? whyUnknown(before)]),
    unit: base.unit,
    hourlyQuantity: decimal(quantity === null ? null : quantity / HOURS_PER_MONTH),
    monthlyQuantity: decimal(quantity),
    price: decimal(price),
    hourlyCost: hourly(cost),
    monthlyCost: decimal(cost),
    priceNotFound: (after ?? before)!.unitPrice === null,
  };
}

/** The differences of a resource's components, matched by name: those after the plan, then those it removes. */
function componentDiffs(r: ResourceCost): InfracostCostComponent[] {
  const before = new Map(r.pastComponents.map((c) => [c.name, c]));
  const after = new Set(r.components.map((c) => c.name));
  return [
    ...r.components.map((c) => componentDiff(before.get(c.name), c)),
    ...r.pastComponents.filter((c) => !after.has(c.name)).map((c) => componentDiff(c, undefined)),
  ].filter((d): d is InfracostCostComponent => d !== undefined);
}

/** As Infracost orders a breakdown's resources: the dearest first, those of unknown cost last, then by name. */
function byCost(a: InfracostResource, b: InfracostResource): number {
  const cost = (r: InfracostResource) => (r.monthlyCost === null ? -Infinity : Number(r.monthlyCost));
  return cost(b) - cost(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function breakdown(resources: InfracostResource[], monthly: number): InfracostBreakdown {
  return {
    resources: [...resources].sort(byCost),
    totalHourlyCost: hourly(monthly),
    totalMonthlyCost: decimal(monthly),
    totalMonthlyUsageCost: "0",
  };
}

/**
 * Each resource's name in the JSON: `Kind.name` (`Instance.web-1`), as Infracost's `type.name`
 * addresses; the URN for those whose kind and name another resource shares (in another component).
 */
function labels(resources: readonly ResourceCost[]): Map<string, string> {
  const short = (r: ResourceCost) => `${r.type}.${r.name}`;
  const count = new Map<string, number>();
  for (const r of resources) count.set(short(r), (count.get(short(r)) ?? 0) + 1);
  return new Map(resources.map((r) => [r.urn, count.get(short(r))! > 1 ? r.urn : short(r)]));
}

/** `PROJECT/STACK` from a URN (`urn:pulumi:STACK::PROJECT::TYPE::NAME`). */
function projectName(estimate: CostEstimate): string {
  const urn = estimate.resources[0]?.urn;
  const parts = urn?.split("::");
  const stack = parts?.[0]?.replace(/^urn:pulumi:/, "");
  return parts && parts.length >= 2 && stack ? `${parts[1]}/${stack}` : "pulumi";
}

function summary(estimate: CostEstimate): InfracostSummary {
  const present = estimate.resources.filter((r) => r.op !== "delete");
  const free = present.filter((r) => r.free);
  const noPriceResourceCounts: Record<string, number> = {};
  for (const r of free) {
    const type = `restcloud:index:${r.type}`;
    noPriceResourceCounts[type] = (noPriceResourceCounts[type] ?? 0) + 1;
  }
  return {
    totalDetectedResources: present.length + estimate.otherResources,
    totalSupportedResources: present.length - free.length,
    totalUnsupportedResources: estimate.otherResources,
    totalUsageBasedResources: 0,
    totalNoPriceResources: free.length,
    noPriceResourceCounts,
  };
}

/** The commit and pull request of the run, from GitHub Actions' variables where set. */
function vcsMetadata(env: NodeJS.ProcessEnv): InfracostMetadata {
  const pullRequest = /^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF ?? "")?.[1];
  return {
    infracostCommand: "restcloud cost",
    vcsBranch: env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || "",
    vcsCommitSha: env.GITHUB_SHA ?? "",
    vcsCommitAuthorName: "",
    vcsCommitAuthorEmail: "",
    vcsCommitTimestamp: NO_TIME,
    vcsCommitMessage: "",
    ...(env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY
      ? { vcsRepositoryUrl: `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}` }
      : {}),
    ...(env.GITHUB_ACTIONS === "true" ? { vcsProvider: "github" } : {}),
    ...(env.GITHUB_BASE_REF ? { vcsBaseBranch: env.GITHUB_BASE_REF } : {}),
    ...(pullRequest ? { vcsPullRequestId: pullRequest } : {}),
    ...(env.GITHUB_RUN_ID ? { vcsPipelineRunId: env.GITHUB_RUN_ID } : {}),
  };
}

/** The estimate as Infracost's JSON document. */
export function infracostReport(estimate: CostEstimate, options: InfracostOptions): InfracostRoot {
  const label = labels(estimate.resources);
  const priced = estimate.resources.filter((r) => !r.free);
  const after = priced.filter((r) => r.op !== "delete").map((r) => resource(r, label.get(r.urn)!, r.components));
  const before = priced.filter((r) => r.op !== "create").map((r) => resource(r, label.get(r.urn)!, r.pastComponents));
  const diff = priced
    .filter((r) => r.op !== "same")
    .flatMap((r): InfracostResource[] => {
      const costComponents = componentDiffs(r);
      if (costComponents.length === 0) return [];
      return [
        {
          name: label.get(r.urn)!,
          resourceType: `restcloud:index:${r.type}`,
          metadata: { urn: r.urn, op: r.op },
          hourlyCost: hourly(r.diffMonthlyCost),
          monthlyCost: decimal(r.diffMonthlyCost),
          costComponents,
        },
      ];
    });
  const name = projectName(estimate);
  const counts = summary(estimate);
  return {
    version: INFRACOST_FORMAT_VERSION,
    metadata: vcsMetadata(options.env ?? {}),
    currency: estimate.currency,
    projects: [
      {
        name,
        displayName: name,
        metadata: {
          path: options.path,
          type: estimate.source === "state" ? "pulumi_stack_export" : "pulumi_preview_json",
        },
        pastBreakdown: breakdown(before, estimate.pastTotalMonthlyCost),
        breakdown: breakdown(after, estimate.totalMonthlyCost),
        diff: breakdown(diff, estimate.diffTotalMonthlyCost),
        summary: counts,
      },
    ],
    totalHourlyCost: hourly(estimate.totalMonthlyCost),
    totalMonthlyCost: decimal(estimate.totalMonthlyCost),
    totalMonthlyUsageCost: "0",
    pastTotalHourlyCost: hourly(estimate.pastTotalMonthlyCost),
    pastTotalMonthlyCost: decimal(estimate.pastTotalMonthlyCost),
    pastTotalMonthlyUsageCost: "0",
    diffTotalHourlyCost: hourly(estimate.diffTotalMonthlyCost),
    diffTotalMonthlyCost: decimal(estimate.diffTotalMonthlyCost),
    diffTotalMonthlyUsageCost: "0",
    timeGenerated: (options.now ?? new Date()).toISOString(),
    summary: counts,
  };
}

/** The JSON text of `restcloud cost --format infracost`. */
export function infracostJson(estimate: CostEstimate, options: InfracostOptions): string {
  return JSON.stringify(infracostReport(estimate, options), null, 2);
}
