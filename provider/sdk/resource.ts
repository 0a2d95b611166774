/* eslint-disable @typescript-eslint/no-require-imports -- the front ends load on first construction */
/**
 * The classes users construct (`new restcloud.Vpc(...)`): one factory over both front ends. A
 * resource file holds its declaration and `class Vpc extends restcloudResource(vpcDeclaration) {}`;
 * each construction picks the dynamic adapter or the native plugin (mode.ts). No front end imports
 * the resources: they are handed the registry.
 *
 * The front ends' classes (which extend the Pulumi SDK's) are made on the first construction: the
 * native plugin and the dynamic runtime load the same resource files, and need neither class.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import type * as DynamicResource from "./dynamic-resource";
import type * as NativeResource from "./native-resource";
import type * as ExplicitProvider from "./provider";
import { configuredMode, type FrontEnd } from "./mode";
import type { ResourceArgs, RestCloudResourceClass } from "./properties";

export type { ResourceArgs, ResourceOutputs, RestCloudResourceClass } from "./properties";

/** The front end of a resource with these options: an explicit restcloud provider is the native plugin's. */
function frontEndFor(opts: pulumi.CustomResourceOptions | undefined): FrontEnd {
  const { Provider } = require("./provider") as typeof ExplicitProvider;
  if (Provider.isRestCloudProvider(opts?.provider)) return "native";
  return configuredMode();
}

export function restcloudResource<IS extends AnyObjectSchema, OS extends AnyObjectSchema>(
  declaration: ResourceDeclaration<IS, OS>,
): RestCloudResourceClass<IS, OS> {
  let classes: Record<FrontEnd, RestCloudResourceClass<IS, OS>> | undefined;
  class RestCloudResource {
    static readonly declaration = declaration;
    constructor(name: string, args: ResourceArgs<IS>, opts: pulumi.CustomResourceOptions = {}) {
      classes ??= {
        dynamic: (require("./dynamic-resource") as typeof DynamicResource).dynamicResourceClass(declaration),
        native: (require("./native-resource") as typeof NativeResource).nativeResourceClass(declaration),
      };
      const FrontEndClass = classes[frontEndFor(opts)];
      // Registered with short stack traces: the SDK records a stack for each promise of every
      // property slot (for its report of leaked promises), and in a TypeScript program
      // source-map-support maps each one; with a slot per output, that cost about 5 ms per resource.
      // The resource's source position is unaffected (the SDK takes it with an unlimited stack of
      // its own); an error thrown meanwhile gets its stack taken again, at the program's line. No
      // helper function: every frame here is kept in the resource's state (its stackTrace).
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        // A constructor may answer another object: the front end's resource is what `new` gives.
        return new FrontEndClass(name, args, opts);
      } catch (error) {
        Error.stackTraceLimit = limit;
        if (error instanceof Error) Error.captureStackTrace(error, RestCloudResource);
        throw error;
      } finally {
        Error.stackTraceLimit = limit;
      }
    }
  }
  return RestCloudResource as unknown as RestCloudResourceClass<IS, OS>;
}
