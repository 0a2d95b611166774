// A resource registered with the native plugin (`restcloud:index:<Type>`), aliased to its dynamic token so that a
// stack moves to the native mode without touching the cloud.
import type * as pulumi from "@pulumi/pulumi";
import { secretProperties, type ResourceDeclaration } from "../engine/declaration";
import { pluginOptions } from "../plugin-release";
import { dynamicTypeToken, nativeTypeToken } from "../type-tokens";
import { resourceProperties, type Registration } from "./properties";

export function nativeRegistration(
  declaration: ResourceDeclaration,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions,
): Registration {
  return [
    nativeTypeToken(declaration.type),
    name,
    resourceProperties(declaration, args),
    {
      ...pluginOptions(),
      ...opts,
      additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...secretProperties(declaration)],
      deleteBeforeReplace: opts.deleteBeforeReplace ?? declaration.deleteBeforeReplace,
      // The same resource, as the dynamic mode registered it: moving a stack to the native mode is no change.
      aliases: [...(opts.aliases ?? []), { type: dynamicTypeToken(declaration.type) }],
    },
  ];
}
