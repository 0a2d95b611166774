// What Pulumi keeps as a dynamic resource's `__provider`: a few bytes that `require()` the installed runtime, so
// refresh and destroy run installed code and no credential is stored. The engine writes it twice (inputs and
// outputs) into every resource's state, and rewrites the whole state after every step: it is kept short. Older
// stacks hold the longer form naming RUNTIME_MODULE, or closures calling runtime.ts' exports; both still run.

/** Resolved in the provider process, from the program's directory, as a user's program resolves the package. */
export const RUNTIME_MODULE = "pulumi-restcloud/dist/provider/dynamic/runtime";
/** The same module by its short name: dynamic.js at the package's root re-exports it. */
export const SHORT_RUNTIME_MODULE = "pulumi-restcloud/dynamic";

/** The `__provider` of a resource of this type (`Vpc`). */
export function dynamicShim(type: string): string {
  return `exports.handler=()=>require(${JSON.stringify(SHORT_RUNTIME_MODULE)}).provider(${JSON.stringify(type)})`;
}

/** The `__provider` the versions from issue 26 to issue 36 wrote: still in the state of the stacks they made. */
export function previousDynamicShim(type: string): string {
  return `exports.handler = () => require(${JSON.stringify(RUNTIME_MODULE)}).provider(${JSON.stringify(type)});\n`;
}
