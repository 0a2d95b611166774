// The classes users construct (`new restcloud.Vpc(...)`), made from declarations by classes.ts, each registering with
// its mode's type token (mode.ts). Provider processes never load this module: they are handed the registry.
import * as pulumi from "@pulumi/pulumi";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import { dynamicRegistration } from "./dynamic-resource";
import { nativeRegistration } from "./native-resource";
import { Provider } from "./provider";
import { configuredMode } from "./mode";
import type { Registration, ResourceArgs, RestCloudResourceClass } from "./properties";

export type { ResourceArgs, ResourceOutputs, RestCloudResourceClass } from "./properties";

function registration(
  declaration: ResourceDeclaration,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions,
): Registration {
  // An explicit restcloud provider is the native plugin's, whatever the mode says.
  const native = Provider.isRestCloudProvider(opts?.provider) || configuredMode() === "native";
  return (native ? nativeRegistration : dynamicRegistration)(declaration, name, args, opts);
}

/**
 * The class of a declaration. It calls `pulumi.CustomResource`'s constructor itself, so the SDK
 * takes the program's line, not ours, as the resource's source position.
 */
export function resourceClass<IS extends AnyObjectSchema, OS extends AnyObjectSchema>(
  declaration: ResourceDeclaration<IS, OS>,
): RestCloudResourceClass<IS, OS> {
  class RestCloudResource extends pulumi.CustomResource {
    static readonly declaration = declaration;
    constructor(name: string, args: ResourceArgs<IS>, opts: pulumi.CustomResourceOptions = {}) {
      // Short stack traces while registering: the SDK records one per output slot's promise, about
      // 5 ms a resource in a TypeScript program. An error thrown meanwhile gets its stack again.
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        super(...registration(declaration, name, args, opts));
      } catch (error) {
        Error.stackTraceLimit = limit;
        if (error instanceof Error) Error.captureStackTrace(error, RestCloudResource);
        throw error;
      } finally {
        Error.stackTraceLimit = limit;
      }
    }
  }
  // `restcloud.Vpc.name` is "Vpc", as the class's name.
  Object.defineProperty(RestCloudResource, "name", { value: declaration.type });
  return RestCloudResource as unknown as RestCloudResourceClass<IS, OS>;
}
