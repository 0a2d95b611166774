/**
 * The native front end's resource class for a declaration: a `pulumi.CustomResource` with the type
 * token `restcloud:index:<Type>`, served by the `pulumi-resource-restcloud` plugin. Its alias to the
 * dynamic adapter's token lets a stack move from the dynamic mode without touching the cloud.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import { dynamicTypeToken, nativeTypeToken } from "../type-tokens";
import { resourceProperties, secretProperties, type ResourceArgs, type RestCloudResourceClass } from "./properties";

export { nativeTypeToken };

export function nativeResourceClass<IS extends AnyObjectSchema, OS extends AnyObjectSchema>(
  declaration: ResourceDeclaration<IS, OS>,
): RestCloudResourceClass<IS, OS> {
  class RestCloudResource extends pulumi.CustomResource {
    static readonly declaration = declaration;
    constructor(name: string, args: ResourceArgs<IS>, opts: pulumi.CustomResourceOptions = {}) {
      super(nativeTypeToken(declaration.type), name, resourceProperties(declaration, args), {
        ...opts,
        additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...secretProperties(declaration)],
        deleteBeforeReplace: opts.deleteBeforeReplace ?? declaration.deleteBeforeReplace,
        // The same resource, as the dynamic mode registered it: moving a stack to the native mode is no change.
        aliases: [...(opts.aliases ?? []), { type: dynamicTypeToken(declaration.type) }],
      });
    }
  }
  return RestCloudResource as unknown as RestCloudResourceClass<IS, OS>;
}
