// A resource registered with the dynamic front end (`pulumi-nodejs:dynamic/restcloud:<Type>`), as
// `pulumi.dynamic.Resource` would, with the shim (../dynamic/shim.ts) in place of closures.
import * as pulumi from "@pulumi/pulumi";
import { secretProperties, type ResourceDeclaration } from "../engine/declaration";
import { resourceProperties, type Registration } from "./properties";
import { META_KEY, PROVIDER_KEY, type ResourceMeta } from "../dynamic/meta";
import { dynamicShim } from "../dynamic/shim";
import { dynamicTypeToken } from "../type-tokens";

/** Said once per program: the stack's `pulumi:autonaming` never reaches a dynamic provider (docs/autonaming.md). */
let autonamingIgnoredSaid = false;

/**
 * Whether the stack's `pulumi:autonaming` (its JSON) asks anything of this package's dynamic resources:
 * its top level, or the entry of `restcloud` or `pulumi-nodejs` (one for `aws` alone does not).
 */
export function autonamingConcernsRestcloud(setting: string | undefined): boolean {
  if (setting === undefined) return false;
  let parsed: { mode?: string; pattern?: string; providers?: Record<string, unknown> };
  try {
    parsed = JSON.parse(setting);
  } catch {
    return false; // the CLI refuses it before the program runs
  }
  const { mode, pattern, providers = {} } = parsed;
  return (
    (mode ?? "default") !== "default" ||
    pattern !== undefined ||
    "restcloud" in providers ||
    "pulumi-nodejs" in providers
  );
}

/**
 * Pulumi sends the stack's autonaming only to a provider that opts in, which its dynamic provider does
 * not: the CLI warns only of an enforced pattern or a `pulumi-nodejs` entry (suggesting an upgrade), else of nothing.
 */
function sayAutonamingIgnored(): void {
  if (autonamingIgnoredSaid || !autonamingConcernsRestcloud(pulumi.runtime.getConfig("pulumi:autonaming"))) return;
  autonamingIgnoredSaid = true;
  pulumi.log.warn(
    "restcloud: the stack sets pulumi:autonaming, which the dynamic mode cannot follow (Pulumi's dynamic " +
      "providers take no part in autonaming): a resource the program does not name is named " +
      "<logical name>-<7 hex digits>. To follow it, use the native mode (pulumi config set restcloud:mode native), " +
      "or name each resource in the program (docs/autonaming.md).",
  );
}

export function dynamicRegistration(
  declaration: ResourceDeclaration,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions,
): Registration {
  // A dynamic provider's Read on import gets no state, so no `__provider` to run: the import could only fail
  // later, with an error that says nothing. Say it here, before anything is registered.
  if (opts.import !== undefined)
    throw new Error(
      `${declaration.type} ${name}: the \`import\` option needs the native mode (pulumi config set restcloud:mode native): the dynamic mode cannot import a record`,
    );
  const type = dynamicTypeToken(declaration.type);
  const props = resourceProperties(declaration, args);
  const meta: ResourceMeta = {};
  if (declaration.autoName && (args as Record<string, unknown>)?.[declaration.autoName] === undefined) {
    meta.autoName = name;
    sayAutonamingIgnored();
  }
  if (opts.customTimeouts) meta.timeouts = { ...opts.customTimeouts };
  // Who the resource is, for what the user is told while it waits (engine/operation.ts): the
  // provider's create is not given the URN, whose last part is the logical name. The engine's diff
  // ignores the meta: no change shows.
  meta.urn = pulumi.createUrn(name, type, opts.parent) as never;
  props[META_KEY] = meta;
  props[PROVIDER_KEY] = dynamicShim(declaration.type);
  return [
    type,
    name,
    props,
    {
      ...opts,
      additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...secretProperties(declaration)],
      deleteBeforeReplace: opts.deleteBeforeReplace ?? declaration.deleteBeforeReplace,
    },
  ];
}
