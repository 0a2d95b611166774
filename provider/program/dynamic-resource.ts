// A resource registered with the dynamic front end (`pulumi-nodejs:dynamic/restcloud:<Type>`), as
// `pulumi.dynamic.Resource` would, with the shim (../dynamic/shim.ts) in place of closures.
import * as pulumi from "@pulumi/pulumi";
import { secretProperties, type ResourceDeclaration } from "../engine/declaration";
import { resourceProperties, type Registration } from "./properties";
import { META_KEY, PROVIDER_KEY, type ResourceMeta } from "../dynamic/meta";
import { dynamicShim } from "../dynamic/shim";
import { dynamicTypeToken } from "../type-tokens";

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
  if (declaration.autoName && (args as Record<string, unknown>)?.[declaration.autoName] === undefined)
    meta.autoName = name;
  if (opts.customTimeouts) meta.timeouts = { ...opts.customTimeouts };
  // Who the resource is, for what the user is told while it waits (engine/operation.ts): the
  // provider's create is not given the URN. The engine's diff ignores the meta: no change shows.
  meta.name = name;
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
