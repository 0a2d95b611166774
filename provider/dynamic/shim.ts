/* eslint-disable @typescript-eslint/no-require-imports -- the point of the shim: load the implementation at run time */
/**
 * The part of a dynamic resource that Pulumi serializes into state (`__provider`). It captures only
 * the resource's type name and the runtime's module name, and `require()`s the implementation when
 * it runs: refresh and destroy then run the installed package's code, not code frozen in state, and
 * the serialized text stays identical across versions. No credential is ever captured: they are
 * read in `configure()` from the stack's config, or from the environment, inside the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";

/** Resolved in the provider process, from the program's directory, as a user's program resolves the package. */
const RUNTIME_MODULE = "pulumi-restcloud/dist/provider/dynamic/runtime";

// One provider object per type: Pulumi caches the serialization per object, and serializing costs
// tens of milliseconds per resource otherwise.
const providers = new Map<string, pulumi.dynamic.ResourceProvider>();

export function dynamicProviderFor(type: string): pulumi.dynamic.ResourceProvider {
  let provider = providers.get(type);
  if (!provider) {
    provider = shimFor(type);
    providers.set(type, provider);
  }
  return provider;
}

function shimFor(type: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: async (req) => require(RUNTIME_MODULE).configure(req.config),
    check: async (olds, news) => require(RUNTIME_MODULE).check(type, olds, news),
    diff: async (id, olds, news) => require(RUNTIME_MODULE).diff(type, id, olds, news),
    create: async (inputs) => require(RUNTIME_MODULE).create(type, inputs),
    read: async (id, props) => require(RUNTIME_MODULE).read(type, id, props),
    update: async (id, olds, news) => require(RUNTIME_MODULE).update(type, id, olds, news),
    delete: async (id, props) => require(RUNTIME_MODULE).delete(type, id, props),
  };
}
