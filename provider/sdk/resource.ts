/* eslint-disable @typescript-eslint/no-require-imports -- the SDK and the front ends load on first construction */
/**
 * The classes users construct (`new restcloud.Vpc(...)`): one factory over both front ends. A
 * resource file holds its declaration and `export const Vpc = restcloudResource(vpcDeclaration)`;
 * each construction registers the resource with the dynamic adapter's or the native plugin's type
 * token and properties (mode.ts). No front end imports the resources: they are handed the registry.
 *
 * The class the user constructs is the one that calls `pulumi.CustomResource`'s constructor. The SDK
 * keeps every frame of the constructing stack in the resource's state (`stackTrace`), skipping its
 * own two constructors and the resource class's, and takes the first frame kept as the resource's
 * source position: with no constructor of ours in between, that is the program's line, and no frame
 * of this package is stored.
 *
 * Its base becomes `pulumi.CustomResource` on the first construction (`super()` calls whatever the
 * class's prototype is then): the native plugin and the dynamic runtime load the same resource
 * files, and must not load the SDK (760 modules) for a class they never construct.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import type * as DynamicResource from "./dynamic-resource";
import type * as NativeResource from "./native-resource";
import type * as ExplicitProvider from "./provider";
import { configuredMode, type FrontEnd } from "./mode";
import type { Registration, ResourceArgs, RestCloudResourceClass } from "./properties";
import { pulumiSdk } from "./pulumi-sdk";

export type { ResourceArgs, ResourceOutputs, RestCloudResourceClass } from "./properties";

/** The front end of a resource with these options: an explicit restcloud provider is the native plugin's. */
function frontEndFor(opts: pulumi.CustomResourceOptions | undefined): FrontEnd {
  const { Provider } = require("./provider") as typeof ExplicitProvider;
  if (Provider.isRestCloudProvider(opts?.provider)) return "native";
  return configuredMode();
}

function registration(
  declaration: ResourceDeclaration,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions,
): Registration {
  if (frontEndFor(opts) === "native")
    return (require("./native-resource") as typeof NativeResource).nativeRegistration(declaration, name, args, opts);
  return (require("./dynamic-resource") as typeof DynamicResource).dynamicRegistration(declaration, name, args, opts);
}

/** Stands for `pulumi.CustomResource` until a class is first constructed (bindToSdk). */
const Unbound = class {} as unknown as typeof pulumi.CustomResource;

/** Makes `pulumi.CustomResource` the class's base, once. */
function bindToSdk(resourceClass: { prototype: object }): void {
  if (Object.getPrototypeOf(resourceClass) !== Unbound) return;
  const { CustomResource } = pulumiSdk();
  Object.setPrototypeOf(resourceClass, CustomResource);
  Object.setPrototypeOf(resourceClass.prototype, CustomResource.prototype);
}

export function restcloudResource<IS extends AnyObjectSchema, OS extends AnyObjectSchema>(
  declaration: ResourceDeclaration<IS, OS>,
): RestCloudResourceClass<IS, OS> {
  class RestCloudResource extends Unbound {
    static readonly declaration = declaration;
    constructor(name: string, args: ResourceArgs<IS>, opts: pulumi.CustomResourceOptions = {}) {
      bindToSdk(RestCloudResource);
      // Registered with short stack traces: the SDK records a stack for each promise of every
      // property slot (for its report of leaked promises), and in a TypeScript program
      // source-map-support maps each one; with a slot per output, that cost about 5 ms per resource.
      // The resource's source position is unaffected (the SDK takes it with an unlimited stack of
      // its own); an error thrown meanwhile gets its stack taken again, at the program's line. The
      // helpers return before the SDK's constructors run: none of their frames is recorded.
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
