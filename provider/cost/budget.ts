// Budgets of `restcloud cost`: `--max-monthly AMOUNT` and `--max-increase AMOUNT|PERCENT%`, in the report's currency,
// to the cent. Unknown costs are not in the totals, so a pass with unknowns warns; a stack that cost nothing before is
// over any percentage limit.
import type { CostEstimate } from "./estimate";

/** The exit code of a report over one of its budgets. */
export const OVER_BUDGET_EXIT_CODE = 3;

export type IncreaseLimit = { readonly amount: number } | { readonly percent: number };

export interface Budget {
  readonly maxMonthly?: number;
  readonly maxIncrease?: IncreaseLimit;
}

/** A budget flag's value that is no amount (or percentage): bad usage. */
export class BudgetValueError extends Error {
  override readonly name = "BudgetValueError";
}

const AMOUNT = /^\d+(\.\d+)?$/;
const PERCENT = /^(\d+(\.\d+)?)%$/;

/** `--max-monthly`'s value: an amount, 0 or more ("400", "412.50"). */
export function parseMaxMonthly(text: string): number {
  const value = text.trim();
  if (!AMOUNT.test(value))
    throw new BudgetValueError(
      `--max-monthly must be an amount (0 or more) of the report's currency, such as 400 or 412.50, not ${JSON.stringify(text)}`,
    );
  return Number(value);
}

/** `--max-increase`'s value: an amount ("50", "12.50") or a percentage ("10%", "2.5%"), 0 or more. */
export function parseMaxIncrease(text: string): IncreaseLimit {
  const value = text.trim();
  if (AMOUNT.test(value)) return { amount: Number(value) };
  const percent = PERCENT.exec(value);
  if (percent) return { percent: Number(percent[1]) };
  throw new BudgetValueError(
    `--max-increase must be an amount (0 or more) of the report's currency, such as 50 or 12.50, or a percentage such as 10%, not ${JSON.stringify(text)}`,
  );
}

/** An amount to the cent, as budgets compare it. */
export const cents = (n: number): number => Math.round(n * 100) / 100;
/** An amount as the messages show it: 1,234.50. */
export const money = (n: number): string =>
  n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signedMoney = (n: number): string => `${n < 0 ? "-" : "+"}${money(Math.abs(n))}`;
const percentText = (n: number): string => `${Number(n.toFixed(2))}%`;

export interface BudgetCheck {
  /** One line per limit exceeded (without the `restcloud cost: ` prefix). */
  readonly overruns: readonly string[];
  /** What the check could not see (costs not known until apply), when within every limit. */
  readonly warnings: readonly string[];
}

/** How the messages name each limit: `restcloud cost`'s flags, or a policy's settings. */
export interface BudgetNames {
  readonly maxMonthly: string;
  readonly maxIncrease: string;
}
const FLAGS: BudgetNames = { maxMonthly: "--max-monthly", maxIncrease: "--max-increase" };

/** The estimate against the budget. */
export function checkBudget(estimate: CostEstimate, budget: Budget, given: Partial<BudgetNames> = {}): BudgetCheck {
  const names = { ...FLAGS, ...given };
  const unit = estimate.currency;
  const overruns: string[] = [];
  const total = cents(estimate.totalMonthlyCost);
  if (budget.maxMonthly !== undefined && total > budget.maxMonthly)
    overruns.push(
      `the monthly total ${money(total)} ${unit} is over the budget of ${money(budget.maxMonthly)} ${unit} (${names.maxMonthly})`,
    );
  const limit = budget.maxIncrease;
  const diff = cents(estimate.diffTotalMonthlyCost);
  if (limit && "amount" in limit && diff > limit.amount)
    overruns.push(
      `the monthly increase ${signedMoney(diff)} ${unit} is over the limit of ${money(limit.amount)} ${unit} (${names.maxIncrease})`,
    );
  if (limit && "percent" in limit && diff > 0) {
    const past = cents(estimate.pastTotalMonthlyCost);
    if (past <= 0)
      overruns.push(
        `the monthly increase ${signedMoney(diff)} ${unit} from 0.00 ${unit} is over the limit of ${percentText(limit.percent)} (${names.maxIncrease})`,
      );
    else {
      const percent = Number(((diff / past) * 100).toFixed(2));
      if (percent > limit.percent)
        overruns.push(
          `the monthly increase ${signedMoney(diff)} ${unit} (+${percentText(percent)} of ${money(past)} ${unit}) ` +
            `is over the limit of ${percentText(limit.percent)} (${names.maxIncrease})`,
        );
    }
  }
  const checked = budget.maxMonthly !== undefined || limit !== undefined;
  const warnings =
    checked && overruns.length === 0 && estimate.unknownComponents > 0
      ? [
          `${estimate.unknownComponents} cost component${estimate.unknownComponents === 1 ? " is" : "s are"} not known until apply: ` +
            "the budget check saw only the known costs",
        ]
      : [];
  return { overruns, warnings };
}
