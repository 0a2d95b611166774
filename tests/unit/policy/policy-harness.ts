// Runs a policy of the pack as @pulumi/policy's analyzer would, on resources a test describes: their props behind
// the library's own unknown-checking proxy, their dependencies as resource objects, the policy's config from
// getConfig. What the policy reports comes back as a list; `notApplicable` ends the run as the library's does.
import {
  unknownCheckingProxy,
  type PolicyResource,
  type ResourceValidationArgs,
  type ResourceValidationPolicy,
  type StackValidationPolicy,
} from "@pulumi/policy";
import { dynamicTypeToken, nativeTypeToken } from "../../../provider/type-tokens";
import { UNKNOWN } from "../../../provider/wire";

export { UNKNOWN };

/** A resource as a test describes it: its kind, name, props, and per property the names it came from. */
export interface Described {
  kind: string;
  name: string;
  props: Record<string, unknown>;
  /** Property → the logical names of the resources its value came from. */
  from?: Record<string, string[]>;
  /** The dynamic mode's token instead of the native one. */
  dynamic?: boolean;
}

export interface Reported {
  message: string;
  /** The resource's logical name, when the violation names one. */
  resource?: string;
}

export type Outcome = Reported[] | { notApplicable: string };

const typeOf = (d: Described) => (d.dynamic ? dynamicTypeToken(d.kind) : nativeTypeToken(d.kind));
const urnOf = (d: Described) => `urn:pulumi:test::policy::${typeOf(d)}::${d.name}`;

class NotApplicable extends Error {}

function policyResources(described: readonly Described[]): PolicyResource[] {
  const byName = new Map<string, PolicyResource>();
  const resources = described.map((d) => {
    const r = {
      type: typeOf(d),
      name: d.name,
      urn: urnOf(d),
      props: unknownCheckingProxy(d.props),
      opts: { protect: false, ignoreChanges: [], aliases: [], additionalSecretOutputs: [], customTimeouts: {} },
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    } as unknown as PolicyResource;
    byName.set(d.name, r);
    return r;
  });
  described.forEach((d, i) => {
    const deps = Object.fromEntries(
      Object.entries(d.from ?? {}).map(([property, names]) => [property, names.map((n) => byName.get(n)!)]),
    );
    Object.assign(resources[i]!, {
      propertyDependencies: deps,
      dependencies: [...new Set(Object.values(deps).flat())],
    });
  });
  return resources;
}

/** Runs a stack policy on the resources with the config; what it reported, or why it did not apply. */
export async function runStackPolicy(
  policy: StackValidationPolicy,
  described: readonly Described[],
  config: object = {},
): Promise<Outcome> {
  const reported: Reported[] = [];
  const nameOf = new Map(described.map((d) => [urnOf(d), d.name]));
  try {
    await policy.validateStack(
      {
        resources: policyResources(described),
        stackTags: new Map(),
        getConfig: <T>() => config as T,
        notApplicable: (reason?: string): never => {
          throw new NotApplicable(reason);
        },
      },
      (message, urn) => reported.push({ message, ...(urn ? { resource: nameOf.get(urn) ?? urn } : {}) }),
    );
  } catch (error) {
    if (error instanceof NotApplicable) return { notApplicable: error.message };
    throw error;
  }
  return reported;
}

/** Runs a resource policy on one resource with the config: the messages it reported. */
export async function runResourcePolicy(
  policy: ResourceValidationPolicy,
  described: Described,
  config: object = {},
): Promise<string[]> {
  const [resource] = policyResources([described]);
  const messages: string[] = [];
  const validations = [policy.validateResource ?? []].flat();
  for (const validate of validations)
    await validate(
      {
        ...resource!,
        stackTags: new Map(),
        getConfig: <T>() => config as T,
        notApplicable: (): never => {
          throw new Error("not applicable");
        },
      } as unknown as ResourceValidationArgs,
      (message) => messages.push(message),
    );
  return messages;
}
