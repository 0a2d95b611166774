/**
 * The native front end's registration of a resource: type token `restcloud:index:<Type>`, served
 * by the `pulumi-resource-restcloud` plugin, of this package's version, which the engine downloads
 * when it lacks it (plugin-release.ts). Its alias to the dynamic adapter's token lets a stack move
 * from the dynamic mode without touching the cloud.
 */
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
