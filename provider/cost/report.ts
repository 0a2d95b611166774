// An estimate as people read it (a table, as Infracost prints one) or as tools do (JSON).
import type { CostEstimate, ResourceCost } from "./estimate";
import type { CostComponent } from "../pricing";

/** The JSON of `restcloud cost --format json`. */
export function estimateJson(estimate: CostEstimate): string {
  return JSON.stringify(estimate, null, 2);
}

const money = (n: number): string => n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (n: number): string => (Math.abs(n) < 0.005 ? "0.00" : `${n > 0 ? "+" : "-"}${money(Math.abs(n))}`);
const quantity = (n: number): string => n.toLocaleString("en-US", { maximumFractionDigits: 3 });

const OP_LABEL: Record<ResourceCost["op"], string> = {
  create: "create",
  update: "update",
  replace: "replace",
  delete: "delete",
  same: "no change",
};

function componentRow(c: CostComponent, last: boolean, past?: CostComponent): string[] {
  const name = `${last ? "└─" : "├─"} ${c.name}${c.detail ? ` (${c.detail})` : ""}`;
  if (c.monthlyCost === null) return [name, "", "", "not known", c.unknown ?? ""];
  const changed = past && past.monthlyCost !== null && Math.abs(past.monthlyCost - c.monthlyCost) >= 0.005;
  return [
    name,
    changed && past.quantity !== null ? `${quantity(past.quantity)} → ${quantity(c.quantity!)}` : quantity(c.quantity!),
    c.unit,
    changed ? `${money(past.monthlyCost!)} → ${money(c.monthlyCost)}` : money(c.monthlyCost),
    changed ? signed(c.monthlyCost - past.monthlyCost!) : "",
  ];
}

/** Lays out rows of cells: text columns left, figures right. */
function layout(rows: readonly (readonly string[])[], rightAligned: readonly number[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? "")].length)));
  return rows.map((r) =>
    r
      .map((cell, i) => {
        const pad = " ".repeat(widths[i]! - [...cell].length);
        return rightAligned.includes(i) ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd(),
  );
}

/** The table of `restcloud cost`: priced resources with their components, the free ones, the totals. */
export function estimateTable(estimate: CostEstimate, source?: string): string {
  const unit = estimate.currency;
  const lines: string[] = [
    `Monthly cost estimate (${estimate.hoursPerMonth} hours a month), in ${unit}${source ? `, prices from ${source}` : ""}`,
    "",
  ];
  const rows: string[][] = [["Resource", "Monthly qty", "Unit", `Monthly cost (${unit})`, "Change"]];
  const priced = estimate.resources.filter((r) => !r.free);
  for (const r of priced) {
    const changed = r.op !== "same" && r.diffMonthlyCost !== null && Math.abs(r.diffMonthlyCost) >= 0.005;
    const cost =
      r.op === "create" || r.op === "same"
        ? money(r.monthlyCost)
        : r.op === "delete"
          ? `${money(r.pastMonthlyCost)} → 0.00`
          : `${money(r.pastMonthlyCost)} → ${money(r.monthlyCost)}`;
    rows.push([
      `${r.type} ${r.name} (${OP_LABEL[r.op]})`,
      "",
      "",
      r.unknownComponents > 0 ? `${cost} + ?` : cost,
      r.diffMonthlyCost === null ? "?" : changed ? signed(r.diffMonthlyCost) : "",
    ]);
    const shown = r.op === "delete" ? r.pastComponents : r.components;
    const pastByName = new Map(r.pastComponents.map((c) => [c.name, c]));
    shown.forEach((c, i) =>
      rows.push(componentRow(c, i === shown.length - 1, r.op === "delete" ? undefined : pastByName.get(c.name))),
    );
    rows.push(["", "", "", "", ""]);
  }
  lines.push(...layout(rows, [1, 3, 4]));
  const free = estimate.resources.filter((r) => r.free);
  if (free.length > 0) {
    const byType = new Map<string, number>();
    for (const r of free) byType.set(r.type, (byType.get(r.type) ?? 0) + 1);
    lines.push(`Free (no price in the catalog): ${[...byType].map(([type, n]) => `${n} × ${type}`).join(", ")}`, "");
  }
  const unknown = estimate.unknownComponents > 0 ? " + what is not known yet" : "";
  lines.push(
    ...layout(
      [
        ["Total monthly cost", `${money(estimate.totalMonthlyCost)} ${unit}${unknown}`],
        ["Before the change", `${money(estimate.pastTotalMonthlyCost)} ${unit}`],
        ["Difference", `${signed(estimate.diffTotalMonthlyCost)} ${unit}${unknown}`],
      ],
      [1],
    ),
  );
  for (const note of estimate.notes) lines.push(`Note: ${note}.`);
  return lines.join("\n") + "\n";
}
