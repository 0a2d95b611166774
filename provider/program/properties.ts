// The typed arguments and outputs of a declaration's class, and the properties it registers.
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";

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
  ): pulumi.CustomResource & ResourceOutputs<IS, OS>;
  /** The declaration behind the class (for docs, schema.json and tests). */
  readonly declaration: ResourceDeclaration<IS, OS>;
};

/** What `pulumi.CustomResource`'s constructor is given, per front end: type token, name, properties, options. */
export type Registration = [string, string, Record<string, unknown>, pulumi.CustomResourceOptions];

/** The properties to register: a slot per output and argument, the given arguments, secret ones wrapped. */
export function resourceProperties(
  declaration: ResourceDeclaration,
  args: object | undefined,
): Record<string, unknown> {
  const keys = [...Object.keys(declaration.outputs.shape), ...Object.keys(declaration.inputs.shape)];
  const props: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, undefined]));
  const secretInputs = (declaration.secretInputs ?? []) as readonly string[];
  for (const [key, value] of Object.entries(args ?? {})) {
    props[key] = secretInputs.includes(key) && value !== undefined ? pulumi.secret(value) : value;
  }
  return props;
}
