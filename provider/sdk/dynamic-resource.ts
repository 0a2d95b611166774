/**
 * The dynamic front end's resource class for a declaration: a `pulumi.dynamic.Resource` with the
 * type token `pulumi-nodejs:dynamic/restcloud:<Type>` (previews read `restcloud:Vpc`). Users get it
 * through the SDK's factory (resource.ts), which picks the front end. It runs in the program, as
 * native-resource.ts does; the provider process's side is ../dynamic.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import {
  resourceProperties,
  secretProperties,
  type ResourceArgs,
  type RestCloudResourceClass,
} from "./properties";
import { META_KEY, type ResourceMeta } from "../dynamic/meta";
import { dynamicProviderFor } from "../dynamic/shim";
import { dynamicTypeToken } from "../type-tokens";

export function dynamicResourceClass<IS extends AnyObjectSchema, OS extends AnyObjectSchema>(
  declaration: ResourceDeclaration<IS, OS>,
): RestCloudResourceClass<IS, OS> {
  class RestCloudResource extends pulumi.dynamic.Resource {
    static readonly declaration = declaration;
    constructor(name: string, args: ResourceArgs<IS>, opts: pulumi.CustomResourceOptions = {}) {
      const props = resourceProperties(declaration, args);
      const meta: ResourceMeta = {};
      if (declaration.autoName && (args as Record<string, unknown>)?.[declaration.autoName] === undefined)
        meta.autoName = name;
      if (opts.customTimeouts) meta.timeouts = { ...opts.customTimeouts };
      // Who the resource is, for what the user is told while it waits (engine/operation.ts): the
      // provider's create is not given the URN. The engine's diff ignores the meta: no change shows.
      meta.name = name;
      meta.urn = pulumi.createUrn(name, dynamicTypeToken(declaration.type), opts.parent) as never;
      props[META_KEY] = meta;
      const secrets = secretProperties(declaration);
      super(
        dynamicProviderFor(declaration.type),
        name,
        props,
        {
          ...opts,
          additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...secrets],
          deleteBeforeReplace: opts.deleteBeforeReplace ?? declaration.deleteBeforeReplace,
        },
        "restcloud",
        declaration.type,
      );
    }
  }
  return RestCloudResource as unknown as RestCloudResourceClass<IS, OS>;
}
