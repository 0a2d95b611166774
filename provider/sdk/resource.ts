/**
 * The classes users construct (`new restcloud.Vpc(...)`): one factory over both front ends. A
 * resource file holds its declaration and `class Vpc extends restcloudResource(vpcDeclaration) {}`;
 * each construction picks the dynamic adapter or the native plugin (mode.ts). No front end imports
 * the resources: they are handed the registry.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import { dynamicResourceClass } from "../dynamic/resource";
import { nativeResourceClass } from "./native-resource";
import { frontEndFor } from "./mode";
import type { ResourceArgs, RestCloudResourceClass } from "./properties";

export type { ResourceArgs, ResourceOutputs, RestCloudResourceClass } from "./properties";

export function restcloudResource<IS extends AnyObjectSchema, OS extends AnyObjectSchema>(
  declaration: ResourceDeclaration<IS, OS>,
): RestCloudResourceClass<IS, OS> {
  const classes = { dynamic: dynamicResourceClass(declaration), native: nativeResourceClass(declaration) };
  class RestCloudResource {
    static readonly declaration = declaration;
    constructor(name: string, args: ResourceArgs<IS>, opts: pulumi.CustomResourceOptions = {}) {
      // A constructor may answer another object: the front end's resource is what `new` gives.
      return new classes[frontEndFor(opts)](name, args, opts);
    }
  }
  return RestCloudResource as unknown as RestCloudResourceClass<IS, OS>;
}
