// What a cost estimate prices: the plan's restcloud resources with their properties before and after, from `pulumi
// preview --json` (`--show-sames` adds unchanged ones) or `pulumi stack export`. Both modes' type tokens are read;
// other providers' resources are counted, not priced.
import type { ResourceState } from "../pricing";
import { kindOfTypeToken } from "../type-tokens";

// A state is what a price rule reads (provider/pricing); the plan is made of them.
export type { Properties, ResourceState } from "../pricing";

/** What happens to a resource in the plan. */
export type PlannedOp = "create" | "update" | "replace" | "delete" | "same";

export interface PlannedResource {
  readonly urn: string;
  /** The logical name. */
  readonly name: string;
  /** The resource kind, e.g. `Instance`. */
  readonly kind: string;
  readonly op: PlannedOp;
  /** The resource as it is, when it exists. */
  readonly before?: ResourceState;
  /** The resource as the plan leaves it, unless deleted. */
  readonly after?: ResourceState;
}

export interface Plan {
  /** `preview`: a plan of changes; `state`: the stack as it is. */
  readonly source: "preview" | "state";
  readonly resources: readonly PlannedResource[];
  /** Custom resources of other providers (not priced). */
  readonly otherResources: number;
  /**
   * Whether a preview of an existing stack lists the resources it leaves unchanged
   * (`--show-sames`). Without them, totals cover only the resources it lists.
   */
  readonly listsUnchanged: boolean;
  /** The stack's config as the preview shows it (secret values read "[secret]"). */
  readonly config: Readonly<Record<string, string>>;
}

/** Input that is neither a preview's JSON nor a stack export. */
export class PlanFormatError extends Error {
  override readonly name = "PlanFormatError";
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function stateOf(raw: unknown): ResourceState | undefined {
  if (!isObject(raw)) return undefined;
  const deps = isObject(raw.propertyDependencies) ? raw.propertyDependencies : {};
  return {
    properties: isObject(raw.inputs) ? raw.inputs : {},
    outputs: isObject(raw.outputs) ? raw.outputs : {},
    ...(typeof raw.id === "string" && raw.id !== "" ? { id: raw.id } : {}),
    propertyDependencies: Object.fromEntries(
      Object.entries(deps).map(([k, v]) => [k, Array.isArray(v) ? v.filter((u) => typeof u === "string") : []]),
    ),
    dependencies: Array.isArray(raw.dependencies) ? raw.dependencies.filter((u) => typeof u === "string") : [],
  };
}

const nameOfUrn = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);
const typeOfUrn = (urn: string): string => {
  const parts = urn.split("::");
  const types = parts[2] ?? "";
  return types.slice(types.lastIndexOf("$") + 1);
};

/** A preview step's op, as far as cost goes. */
function costOp(op: string): PlannedOp | "ignore" {
  switch (op) {
    case "create":
    case "same":
    case "update":
    case "delete":
      return op;
    case "replace":
    case "create-replacement":
      return "replace";
    case "delete-replaced":
    case "discard-replaced":
    case "discard":
      return "delete";
    case "refresh":
      return "same";
    default:
      // read and import bring existing records under watch; remove-pending-replace and the like
      // change nothing that is billed.
      return op === "import" ? "same" : "ignore";
  }
}

function fromPreview(doc: Json): Plan {
  const failed = (Array.isArray(doc.diagnostics) ? doc.diagnostics : []).filter(
    (d): d is Json => isObject(d) && d.severity === "error",
  );
  if (failed.length > 0)
    throw new PlanFormatError(
      `the preview failed, there is no plan to price: ${failed.map((d) => String(d.message ?? "").trim()).join("; ")}`,
    );
  const steps = doc.steps as unknown[];
  const byUrn = new Map<string, { kind: string; op: PlannedOp; before?: ResourceState; after?: ResourceState }>();
  let otherResources = 0;
  let unchangedListed = false;
  let existing = false;
  const others = new Set<string>();
  for (const step of steps) {
    if (!isObject(step) || typeof step.urn !== "string" || typeof step.op !== "string")
      throw new PlanFormatError(
        "a step of the preview has no urn or op: is this the output of `pulumi preview --json`?",
      );
    const urn = step.urn;
    const oldState = isObject(step.oldState) ? step.oldState : undefined;
    const newState = isObject(step.newState) ? step.newState : undefined;
    const type = String(newState?.type ?? oldState?.type ?? typeOfUrn(urn));
    const custom = (newState?.custom ?? oldState?.custom) !== false;
    if (oldState) existing = true;
    const kind = kindOfTypeToken(type);
    if (!kind) {
      if (custom && !type.startsWith("pulumi:")) others.add(urn);
      continue;
    }
    const op = costOp(step.op);
    if (op === "ignore") continue;
    if (step.op === "same") unchangedListed = true;
    const entry = byUrn.get(urn) ?? { kind, op };
    // A replacement shows as several steps (create-replacement, replace, delete-replaced): keep the
    // state before from whichever has it, the state after from the creating one.
    if (op === "delete" && entry.op !== "delete") {
      entry.before ??= stateOf(oldState);
    } else {
      entry.op = entry.op === "replace" || op === "replace" ? "replace" : op;
      entry.before ??= stateOf(oldState);
      if (op !== "delete") entry.after = stateOf(newState) ?? entry.after;
    }
    byUrn.set(urn, entry);
  }
  otherResources = others.size;
  const resources = [...byUrn].map(([urn, e]) => ({
    urn,
    name: nameOfUrn(urn),
    kind: e.kind,
    op: e.op,
    ...(e.before ? { before: e.before } : {}),
    ...(e.op !== "delete" && e.after ? { after: e.after } : {}),
  }));
  const config = isObject(doc.config)
    ? Object.fromEntries(Object.entries(doc.config).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};
  return { source: "preview", resources, otherResources, listsUnchanged: unchangedListed || !existing, config };
}

function fromExport(doc: Json): Plan {
  const deployment = doc.deployment;
  if (!isObject(deployment)) throw new PlanFormatError("the stack export has no deployment");
  const raw = Array.isArray(deployment.resources) ? deployment.resources : [];
  const resources: PlannedResource[] = [];
  let otherResources = 0;
  for (const r of raw) {
    if (!isObject(r) || typeof r.urn !== "string" || typeof r.type !== "string") continue;
    if (r.delete === true) continue; // a replaced resource still to delete: already replaced in the bill
    const kind = kindOfTypeToken(r.type);
    if (!kind) {
      if (r.custom === true && !r.type.startsWith("pulumi:")) otherResources++;
      continue;
    }
    const state = stateOf(r)!;
    resources.push({ urn: r.urn, name: nameOfUrn(r.urn), kind, op: "same", before: state, after: state });
  }
  return { source: "state", resources, otherResources, listsUnchanged: true, config: {} };
}

/** The plan in a preview's or a stack export's JSON text; a PlanFormatError when it is neither. */
export function readPlan(text: string): Plan {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const what = text.trim() === "" ? "the input is empty" : `the input is not JSON (${(error as Error).message})`;
    throw new PlanFormatError(`${what}: give the output of \`pulumi preview --json\` or \`pulumi stack export\``);
  }
  if (isObject(doc) && Array.isArray(doc.steps)) return fromPreview(doc);
  if (isObject(doc) && isObject(doc.deployment)) return fromExport(doc);
  throw new PlanFormatError(
    "the input is JSON but neither a preview (no `steps`) nor a stack export (no `deployment`): " +
      "give the output of `pulumi preview --json` or `pulumi stack export`",
  );
}
