// The planned resources as the policies read them: this provider's, by kind, whichever front end registered them,
// with their properties as plain data. @pulumi/policy hands a policy proxies that throw on a value not known at
// preview; the policies read past them, so that an unknown value is named (or waits for `pulumi up`), never a crash.
import type { PolicyResource } from "@pulumi/policy";
import type { Plan, PlannedResource, Properties } from "../cost/plan";
import { argumentDefault } from "../engine/defaults";
import { stringOf } from "../pricing/rule";
import { BY_TYPE } from "../resources/registry";
import { kindOfTypeToken } from "../type-tokens";
import { UNKNOWN } from "../wire";

/** One resource of the stack, as planned. */
export interface StackResource {
  readonly urn: string;
  /** The logical name. */
  readonly name: string;
  /** The type token (`restcloud:index:FirewallRule`, `pulumi-nodejs:dynamic/restcloud:FirewallRule`...). */
  readonly type: string;
  /** The kind (`FirewallRule`) of either front end's token; undefined for other providers' resources. */
  readonly kind?: string;
  /** Inputs and outputs in one (what the engine hands a stack analysis); UNKNOWN where not known yet. */
  readonly props: Properties;
  readonly dependencies: readonly string[];
  /** Per property, the URNs of the resources its value came from. */
  readonly propertyDependencies: Readonly<Record<string, readonly string[]>>;
}

/** A policy's finding: its message, and the resource it is about (none: the stack). */
export interface Violation {
  readonly message: string;
  readonly urn?: string;
}

/** @pulumi/policy's key that answers the object behind its unknown-checking proxy (proxy.ts, getSpecialProxyTarget). */
const PROXY_TARGET = "__getSpecialProxyTarget";

/** The properties behind @pulumi/policy's proxy (a plain object, e.g. a test's, is its own). */
export function plainProps(props: Record<string, unknown>): Properties {
  return ((props as Record<string, unknown>)[PROXY_TARGET] as Properties | undefined) ?? props;
}

/** The stack's resources, as a stack policy receives them. */
export function stackResources(resources: readonly PolicyResource[]): StackResource[] {
  return resources.map((r) => ({
    urn: r.urn,
    name: r.name,
    type: r.type,
    kind: kindOfTypeToken(r.type),
    props: plainProps(r.props),
    dependencies: r.dependencies.map((d) => d.urn),
    propertyDependencies: Object.fromEntries(
      Object.entries(r.propertyDependencies).map(([key, deps]) => [key, deps.map((d) => d.urn)]),
    ),
  }));
}

/**
 * An argument of a kind as text, else its declared default value (the API's, which the provider
 * sends when the program gives none: a dynamic resource's props hold only what the program gave).
 */
export function argumentText(kind: string, props: Properties, property: string): string | typeof UNKNOWN | undefined {
  const given = stringOf(props, property);
  if (given !== undefined) return given;
  const field = BY_TYPE.get(kind)?.inputs.shape[property];
  const fact = field && argumentDefault(field);
  return fact && "value" in fact ? String(fact.value) : undefined;
}

/**
 * The stack as a plan for the cost estimate (cost/estimate.ts): each of this provider's resources as
 * it will stand.
 */
export function stackPlan(resources: readonly StackResource[]): Plan {
  const planned: PlannedResource[] = [];
  for (const r of resources) {
    if (r.kind === undefined) continue;
    const uuid = r.props.uuid;
    const state = {
      properties: r.props,
      outputs: r.props,
      ...(typeof uuid === "string" && uuid !== UNKNOWN ? { id: uuid } : {}),
      propertyDependencies: r.propertyDependencies,
      dependencies: r.dependencies,
    };
    // Priced as it will stand: the analyzer sees no state before the change.
    planned.push({ urn: r.urn, name: r.name, kind: r.kind, op: "same", after: state });
  }
  // Other providers' resources are left out, and not counted: no policy message names them.
  return { source: "state", resources: planned, otherResources: 0, listsUnchanged: true, config: {} };
}
