// `restcloud cost`: what a stack will cost a month, before `pulumi up`, priced from the configured API's live
// cost catalog (a preview, a stack export or a file; budgets can fail the run: see COST_USAGE).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { PriceBook } from "../pricing";
import { DECLARATIONS } from "../resources/registry";
import { pulumiProjectFile } from "../pulumi-project";
import { commandClient, resolveProviderConfig } from "../settings";
import {
  BudgetValueError,
  checkBudget,
  OVER_BUDGET_EXIT_CODE,
  parseMaxIncrease,
  parseMaxMonthly,
  type Budget,
} from "./budget";
import { EstimateError, estimateCost, estimateFailure, type CostEstimate } from "./estimate";
import { infracostJson } from "./infracost";
import { estimateMarkdown } from "./markdown";
import { PlanFormatError, readPlan, type Plan } from "./plan";
import { estimateJson, estimateTable } from "./report";

export const COST_USAGE = `Usage: restcloud cost [FILE] [options]

Prices a Pulumi plan from the configured API's cost catalog: a month of each resource (730 hours),
its components, the totals before and after, and the difference.

FILE is the JSON of \`pulumi preview --json --show-sames\` or of \`pulumi stack export\`; without
FILE (or with -), standard input.

Options:
  --preview            run \`pulumi preview --json --show-sames\` here and price it
                       (arguments after -- go to pulumi preview)
  --from-stack         price the stack as it is (\`pulumi stack export\`)
  --stack NAME         the stack (for --preview, --from-stack and its config); default: the selected one
  --cwd DIR            the Pulumi project's directory; default: the current one
  --format FORMAT      table (default); json; markdown, a pull-request comment; infracost,
                       Infracost's JSON for its renderers (infracost output --path FILE
                       --format html|slack-message|github-comment, infracost comment github)
  --currency CODE      one of the catalog's currencies (USD...); default: the catalog's default
  --max-monthly AMOUNT a budget: exit 3 when the monthly total after the plan is over AMOUNT
  --max-increase LIMIT a budget: exit 3 when the plan raises the monthly total by more than
                       LIMIT, an amount (50) or a percentage of the total before (10%)
  -h, --help           this text

Budgets are in the report's currency, to the cent; costs not known until apply are not in them.
The report is printed in full first; then each budget exceeded is one line on standard error.

Settings: restcloud:apiUrl, apiKey, secretKey and zoneUuid from the stack's config, else
RESTCLOUD_API_URL, RESTCLOUD_API_KEY, RESTCLOUD_SECRET_KEY, RESTCLOUD_ZONE_UUID.
Exit codes: 0 priced (and within the budgets); 1 the estimate failed; 2 bad usage (or a bad
budget value); 3 over a budget.
`;

const FORMATS = ["table", "json", "markdown", "infracost"] as const;
type Format = (typeof FORMATS)[number];

/** What the command writes and reads: the process's own streams, or a test's. */
export interface CostIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

class UsageError extends Error {}

/** Runs `pulumi` in the project; its standard output, or an error with what it printed. */
function pulumi(args: string[], cwd: string, env: NodeJS.ProcessEnv, allowFailure = false): string {
  const run = spawnSync("pulumi", [...args, "--non-interactive"], {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  if (run.error) throw new PlanFormatError(`could not run pulumi: ${run.error.message}`);
  // A failed preview still prints its JSON (diagnostics included) when the program ran.
  if (run.status !== 0 && !(allowFailure && run.stdout.trim() !== ""))
    throw new PlanFormatError(
      `\`pulumi ${args.join(" ")}\` failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().slice(-2000)}`,
    );
  return run.stdout;
}

/** The stack's `restcloud:*` config with secrets in clear, when `cwd` is a Pulumi project. */
function stackConfig(cwd: string, stack: string | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  if (pulumiProjectFile(cwd) === undefined) return {};
  const run = spawnSync(
    "pulumi",
    ["config", "--json", "--show-secrets", "--non-interactive", ...(stack ? ["--stack", stack] : [])],
    { cwd, env, encoding: "utf8" },
  );
  if (run.error || run.status !== 0) return {};
  try {
    const config = JSON.parse(run.stdout) as Record<string, { value?: unknown }>;
    return Object.fromEntries(
      Object.entries(config)
        .filter(([key, v]) => key.startsWith("restcloud:") && typeof v?.value === "string")
        .map(([key, v]) => [key, v.value as string]),
    );
  } catch {
    return {};
  }
}

/** `restcloud cost ARGS`; resolves to the exit code. */
export async function runCost(argv: readonly string[], io: CostIo): Promise<number> {
  try {
    return await cost(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`restcloud cost: ${error.message}\n\n${COST_USAGE}`);
      return 2;
    }
    io.stderr(
      `restcloud cost: ${estimateFailure(error).join("\nrestcloud cost: ")}\nrestcloud cost: the estimate failed\n`,
    );
    return 1;
  }
}

async function cost(argv: readonly string[], io: CostIo): Promise<number> {
  const opts = parseOptions(argv);
  if (opts === "help") {
    io.stdout(COST_USAGE);
    return 0;
  }
  const cwd = path.resolve(io.cwd, opts.cwd ?? ".");
  const plan: Plan = readPlan(await readInput(opts, cwd, io));

  const fromStack = stackConfig(cwd, opts.stack, io.env);
  const fromPreview = Object.fromEntries(Object.entries(plan.config).filter(([, v]) => v !== "[secret]"));
  const config = resolveProviderConfig({ get: (key) => fromStack[key] ?? fromPreview[key] }, io.env);
  const missing = config.missing();
  if (missing.length > 0) throw new EstimateError(missing.map((m) => `settings: ${m}`));

  const client = commandClient(config);
  const estimate = await estimateCost(plan, new PriceBook(client), DECLARATIONS, {
    ...(opts.currency ? { currency: opts.currency } : {}),
    ...(config.zoneUuid ? { defaultZoneUuid: config.zoneUuid } : {}),
  });
  const input = opts.preview || opts.fromStack ? cwd : (opts.file ?? "-");
  io.stdout(report(estimate, opts.format, { apiUrl: config.apiUrl, path: input, env: io.env }));

  const check = checkBudget(estimate, opts.budget);
  for (const line of [...check.overruns, ...check.warnings]) io.stderr(`restcloud cost: ${line}\n`);
  return check.overruns.length > 0 ? OVER_BUDGET_EXIT_CODE : 0;
}

interface Options {
  /** The FILE argument, when given. */
  file?: string;
  preview: boolean;
  fromStack: boolean;
  stack?: string;
  cwd?: string;
  format: Format;
  currency?: string;
  budget: Budget;
  /** The arguments after `--`, for `pulumi preview`. */
  passThrough: string[];
}

// Every usage problem (a bad budget value too) is found before the API or the CLI is asked anything.
function parseOptions(argv: readonly string[]): Options | "help" {
  const dashDash = argv.indexOf("--");
  const own = dashDash < 0 ? [...argv] : argv.slice(0, dashDash);
  const passThrough = dashDash < 0 ? [] : argv.slice(dashDash + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: own,
      allowPositionals: true,
      options: {
        preview: { type: "boolean" },
        "from-stack": { type: "boolean" },
        stack: { type: "string" },
        cwd: { type: "string" },
        format: { type: "string", default: "table" },
        currency: { type: "string" },
        "max-monthly": { type: "string" },
        "max-increase": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (!FORMATS.includes(values.format as Format))
    throw new UsageError(`--format must be table, json, markdown or infracost, not ${values.format}`);
  const budget = parseBudget(values["max-monthly"], values["max-increase"]);
  if (positionals.length > 1) throw new UsageError(`one input at most, not ${positionals.length}`);
  if ((values.preview || values["from-stack"]) && positionals.length > 0)
    throw new UsageError("give a FILE, or --preview, or --from-stack: one input");
  if (values.preview && values["from-stack"]) throw new UsageError("--preview and --from-stack exclude each other");
  return {
    file: positionals[0],
    preview: values.preview === true,
    fromStack: values["from-stack"] === true,
    stack: values.stack,
    cwd: values.cwd,
    format: values.format as Format,
    currency: values.currency,
    budget,
    passThrough,
  };
}

function parseBudget(maxMonthly: string | undefined, maxIncrease: string | undefined): Budget {
  try {
    return {
      ...(maxMonthly !== undefined ? { maxMonthly: parseMaxMonthly(maxMonthly) } : {}),
      ...(maxIncrease !== undefined ? { maxIncrease: parseMaxIncrease(maxIncrease) } : {}),
    };
  } catch (error) {
    if (error instanceof BudgetValueError) throw new UsageError(error.message);
    throw error;
  }
}

/** The plan's JSON: a preview run here, the stack's export, a file, or standard input. */
async function readInput(opts: Options, cwd: string, io: CostIo): Promise<string> {
  const stackArgs = opts.stack ? ["--stack", opts.stack] : [];
  if (opts.preview)
    return pulumi(["preview", "--json", "--show-sames", ...stackArgs, ...opts.passThrough], cwd, io.env, true);
  if (opts.fromStack) return pulumi(["stack", "export", ...stackArgs], cwd, io.env);
  if (opts.file !== undefined && opts.file !== "-") {
    try {
      return fs.readFileSync(path.resolve(io.cwd, opts.file), "utf8");
    } catch (error) {
      throw new PlanFormatError(`cannot read ${opts.file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
    }
  }
  return io.readStdin();
}

function report(
  estimate: CostEstimate,
  format: Format,
  context: { apiUrl: string; path: string; env: NodeJS.ProcessEnv },
): string {
  switch (format) {
    case "json":
      return `${estimateJson(estimate)}\n`;
    case "markdown":
      return estimateMarkdown(estimate);
    case "infracost":
      return `${infracostJson(estimate, { path: context.path, env: context.env })}\n`;
    case "table":
      return estimateTable(estimate, context.apiUrl);
  }
}
