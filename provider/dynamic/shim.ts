/**
 * What Pulumi keeps in a dynamic resource's state (`__provider`): a few bytes that `require()` the
 * installed package's runtime, so refresh and destroy run installed code and no credential is stored.
 * Older stacks hold serialized closures that call the runtime's per-operation exports (runtime.ts).
 */

/** Resolved in the provider process, from the program's directory, as a user's program resolves the package. */
export const RUNTIME_MODULE = "pulumi-restcloud/dist/provider/dynamic/runtime";

/** The `__provider` of a resource of this type (`Vpc`). */
export function dynamicShim(type: string): string {
  return `exports.handler = () => require(${JSON.stringify(RUNTIME_MODULE)}).provider(${JSON.stringify(type)});\n`;
}
