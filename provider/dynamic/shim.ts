// What Pulumi keeps as a dynamic resource's `__provider`: a few bytes that `require()` the installed runtime, so
// refresh and destroy run installed code and no credential is stored. Older stacks hold closures calling runtime.ts'
// exports.

/** Resolved in the provider process, from the program's directory, as a user's program resolves the package. */
export const RUNTIME_MODULE = "pulumi-restcloud/dist/provider/dynamic/runtime";

/** The `__provider` of a resource of this type (`Vpc`). */
export function dynamicShim(type: string): string {
  return `exports.handler = () => require(${JSON.stringify(RUNTIME_MODULE)}).provider(${JSON.stringify(type)});\n`;
}
