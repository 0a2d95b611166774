/**
 * Turns a declaration into a typed resource class over `pulumi.dynamic.Resource`, with the type
 * token `pulumi-nodejs:dynamic/restcloud:<Type>` (previews read `restcloud:Vpc`).
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import { META_KEY, type ResourceMeta } from "../engine/engine";
import { dynamicProviderFor } from "./shim";

/** The arguments of a resource: each declared input, as a Pulumi input. */
export type ResourceArgs<IS extends AnyObjectSchema> = {
  [K in keyof z.input<IS>]: pulumi.Input<z.input<IS>[K]> | Extract<z.input<IS>[K], undefined>;
};

/** The outputs of a resource: every argument (as resolved) and every declared output. */
export type ResourceOutputs<IS extends AnyObjectSchema, OS extends AnyObjectSchema> = {
  readonly [K in keyof (z.output<IS> & z.output<OS>)]-?: pulumi.Output<(z.output<IS> & z.output<OS>)[K]>;
};

export type RestCloudResourceClass<IS extends AnyObjectSchema, OS extends AnyObjectSchema> = {
  new (
    name: string,
    args: ResourceArgs<IS>,
    opts?: pulumi.CustomResourceOptions,
  ): pulumi.dynamic.Resource & ResourceOutputs<IS, OS>;
  /** The declaration behind the class (for docs, schema.json and tests). */
  readonly declaration: ResourceDeclaration<IS, OS>;
};

export function restcloudResource<IS extends AnyObjectSchema, OS extends AnyObjectSchema>(
  declaration: ResourceDeclaration<IS, OS>,
): RestCloudResourceClass<IS, OS> {
  const outputKeys = [...Object.keys(declaration.outputs.shape), ...Object.keys(declaration.inputs.shape)];
  class RestCloudResource extends pulumi.dynamic.Resource {
    static readonly declaration = declaration;
    constructor(name: string, args: ResourceArgs<IS>, opts: pulumi.CustomResourceOptions = {}) {
      const props: Record<string, unknown> = Object.fromEntries(outputKeys.map((k) => [k, undefined]));
      for (const [key, value] of Object.entries(args ?? {})) {
        props[key] =
          (declaration.secretInputs as readonly string[] | undefined)?.includes(key) && value !== undefined
            ? pulumi.secret(value)
            : value;
      }
      const meta: ResourceMeta = {};
      if (declaration.autoName && (args as Record<string, unknown>)?.[declaration.autoName] === undefined)
        meta.autoName = name;
      if (opts.customTimeouts) meta.timeouts = { ...opts.customTimeouts };
      // Who the resource is, for what the user is told while it waits (engine/operation.ts): the
      // provider's create is not given the URN. The engine's diff ignores the meta: no change shows.
      meta.name = name;
      meta.urn = pulumi.createUrn(name, `pulumi-nodejs:dynamic/restcloud:${declaration.type}`, opts.parent) as never;
      props[META_KEY] = meta;
      const secrets = [...(declaration.secretInputs ?? []), ...(declaration.secretOutputs ?? [])];
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
