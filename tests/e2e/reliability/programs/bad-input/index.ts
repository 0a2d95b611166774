/**
 * One resource named "bad", of the type and with the arguments of the `case` config
 * (`{"type": "Vpc", "args": {...}}`): the arguments are invalid, and `pulumi preview` must say so.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const { type, args } = new pulumi.Config().requireObject<{ type: string; args: Record<string, unknown> }>("case");
const Resource = (restcloud as unknown as Record<string, new (name: string, args: unknown) => pulumi.CustomResource>)[
  type
];
if (!Resource) throw new Error(`pulumi-restcloud has no resource ${type}`);
new Resource("bad", args);
