// An estimate as a pull-request comment (`restcloud cost --format markdown`): the change, a table of the resources
// whose cost changes with totals, what is unknown until apply, and a footer. The first line, `<!-- restcloud-cost -->`,
// lets a workflow find and update the comment it posted before.
import { unknownCosts, type CostEstimate, type ResourceCost } from "./estimate";

export const MARKDOWN_MARKER = "<!-- restcloud-cost -->";

/** At most this many resource rows (a comment has a size limit); the rest are counted. */
const MAX_ROWS = 50;
/** Below this, a figure rounds to 0.00. */
const HALF_CENT = 0.005;

const money = (n: number): string => n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (n: number): string => (Math.abs(n) < HALF_CENT ? "0.00" : `${n > 0 ? "+" : "-"}${money(Math.abs(n))}`);

/** The change as a share of the total before: "+7.1%"; undefined when there was nothing before. */
export function percentChange(diff: number, past: number): string | undefined {
  if (Math.abs(past) < HALF_CENT) return undefined;
  const percent = (diff / past) * 100;
  const text = Math.abs(percent).toFixed(1);
  return text === "0.0" ? "0.0%" : `${percent > 0 ? "+" : "-"}${text}%`;
}

const OP: Record<ResourceCost["op"], string> = {
  create: "added",
  delete: "removed",
  update: "changed",
  replace: "replaced",
  same: "unchanged",
};

/** A resource in a table cell: `Kind name` as code, with what would break the table or the code span made harmless. */
const cell = (r: ResourceCost): string => `\`${`${r.type} ${r.name}`.replaceAll("`", "'").replaceAll("|", "\\|")}\``;

/** The resources whose cost the plan changes (or leaves not known), the largest change first, then by name. */
function changedResources(estimate: CostEstimate): ResourceCost[] {
  const changed = estimate.resources.filter(
    (r) =>
      !r.free &&
      r.op !== "same" &&
      (r.diffMonthlyCost === null || r.unknownComponents > 0 || Math.abs(r.diffMonthlyCost) >= HALF_CENT),
  );
  const size = (r: ResourceCost) => (r.diffMonthlyCost === null ? -1 : Math.abs(r.diffMonthlyCost));
  const label = (r: ResourceCost) => `${r.type} ${r.name}`;
  return changed.sort((a, b) => size(b) - size(a) || (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0));
}

function heading(estimate: CostEstimate, unknown: string): string {
  const unit = estimate.currency;
  if (estimate.source === "state")
    return `### Monthly cost: ${money(estimate.totalMonthlyCost)} ${unit}${unknown ? " and what is not known yet" : ""}`;
  const diff = estimate.diffTotalMonthlyCost;
  if (Math.abs(diff) < HALF_CENT)
    return unknown
      ? "### Monthly cost: no known change, and some of it is not known yet"
      : "### Monthly cost: no change";
  const percent = percentChange(diff, estimate.pastTotalMonthlyCost);
  return (
    `### Monthly cost ${diff > 0 ? "rises" : "falls"} by ${money(Math.abs(diff))} ${unit}` +
    (percent ? ` (${percent})` : "") +
    (unknown ? ", with some of it not known yet" : "")
  );
}

/** The comment's Markdown. */
export function estimateMarkdown(estimate: CostEstimate): string {
  const unit = estimate.currency;
  const unknownAfter = estimate.unknownComponents > 0 ? " + ?" : "";
  const unknownDiff = estimate.resources.some((r) => r.op !== "same" && r.diffMonthlyCost === null) ? " + ?" : "";
  const lines: string[] = [MARKDOWN_MARKER, heading(estimate, unknownAfter), ""];

  const changed = changedResources(estimate);
  const rows = changed.slice(0, MAX_ROWS).map((r) => {
    const unknown = r.unknownComponents > 0 ? " + ?" : "";
    const before = r.op === "create" ? "–" : money(r.pastMonthlyCost);
    const after = r.op === "delete" ? "–" : `${money(r.monthlyCost)}${unknown}`;
    const diff = r.diffMonthlyCost === null ? "?" : signed(r.diffMonthlyCost);
    return `| ${cell(r)} | ${OP[r.op]} | ${before} | ${after} | ${diff} |`;
  });
  if (changed.length > MAX_ROWS) rows.push(`| … and ${changed.length - MAX_ROWS} more | | | | |`);
  const percent = percentChange(estimate.diffTotalMonthlyCost, estimate.pastTotalMonthlyCost);
  const totalDiff = `${signed(estimate.diffTotalMonthlyCost)}${unknownDiff}${percent ? ` (${percent})` : ""}`;
  lines.push(
    `| Resource | Change | Before (${unit}/month) | After (${unit}/month) | Difference |`,
    "| --- | --- | ---: | ---: | ---: |",
    ...rows,
    `| **Total** | | **${money(estimate.pastTotalMonthlyCost)}** | **${money(estimate.totalMonthlyCost)}${unknownAfter}** | **${totalDiff}** |`,
    "",
  );

  const unknown = unknownCosts(estimate).map(
    ({ resource, component: c }) => `- ${cell(resource)}: ${c.name}${c.unknown ? `: ${c.unknown}` : ""}`,
  );
  if (unknown.length > 0) lines.push("**Not known until apply** (left out of the totals):", "", ...unknown, "");

  const others = estimate.resources.filter((r) => !changed.includes(r));
  const unchanged = others.filter((r) => !r.free && r.op !== "delete").length;
  const byType = new Map<string, number>();
  for (const r of others.filter((r) => r.free && r.op !== "delete")) byType.set(r.type, (byType.get(r.type) ?? 0) + 1);
  const footer = [
    `Prices in ${unit} from the API's cost catalog, ${estimate.hoursPerMonth} hours a month.`,
    ...(unchanged > 0 ? [`${unchanged} more resource${unchanged === 1 ? "" : "s"} with no change in cost.`] : []),
    ...(byType.size > 0
      ? [
          `Free: ${[...byType]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([type, n]) => `${n} × ${type}`)
            .join(", ")}.`,
        ]
      : []),
    ...estimate.notes.map((note) => `Note: ${note}.`),
  ];
  lines.push(`<sub>${footer.join(" ")}</sub>`);
  return lines.join("\n") + "\n";
}
