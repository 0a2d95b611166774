/**
 * The part of a dynamic resource that Pulumi keeps in state (`__provider`): the text of a CommonJS
 * module whose `handler()` answers the resource's provider, which the SDK's dynamic-provider process
 * compiles (require-from-string) and caches by its text. Ours names the resource's type and
 * `require()`s the installed package's runtime (runtime.ts) when it runs: refresh and destroy run
 * the installed code, not code frozen in state, and the text stays identical across versions. No
 * credential is ever in it: they are read in `configure()` from the stack's config, or from the
 * environment, inside the provider process.
 *
 * Written out rather than serialized from closures as `pulumi.dynamic.Resource` does: about 100
 * bytes instead of 2.7 KB, kept twice in every resource's state (inputs and outputs) and sent in
 * every call, and no closure serialization in the program. Stacks made before carry that
 * serialized form, whose functions call the runtime's per-operation exports with the type first
 * (`require(RUNTIME_MODULE).create(type, inputs)`): the runtime keeps them, for their refresh and
 * destroy (tests/e2e/dynamic-shim.test.ts).
 */

/** Resolved in the provider process, from the program's directory, as a user's program resolves the package. */
export const RUNTIME_MODULE = "pulumi-restcloud/dist/provider/dynamic/runtime";

/** The `__provider` of a resource of this type (`Vpc`). */
export function dynamicShim(type: string): string {
  return `exports.handler = () => require(${JSON.stringify(RUNTIME_MODULE)}).provider(${JSON.stringify(type)});\n`;
}
