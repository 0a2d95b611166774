/**
 * One resource named "one", of the type and with the arguments of the `case` config
 * (`{"type": "Vpc", "args": {...}}`), or one function call (`{"function": "getZone", "args": {...}}`).
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

interface Case {
  type?: string;
  function?: string;
  args: Record<string, unknown>;
}

export = async () => {
  const c = new pulumi.Config().requireObject<Case>("case");
  const exports = restcloud as unknown as Record<string, unknown>;
  if (c.function) {
    const fn = exports[c.function] as (args: Record<string, unknown>) => Promise<unknown>;
    return { answer: await fn(c.args) };
  }
  const Resource = exports[c.type!] as new (name: string, args: unknown) => pulumi.CustomResource;
  if (!Resource) throw new Error(`pulumi-restcloud has no resource ${c.type}`);
  new Resource("one", c.args);
  return {};
};
