/**
 * Look-up functions: `await restcloud.getZones()`, `await restcloud.getTemplate({ nameRegex: "ubuntu 24" })`.
 * Each returns plain typed data; `fn.declaration` holds its inputs and outputs (for schema.json).
 */
export * from "./catalog";
export * from "./account";
export { defineFunction, functionClient } from "./define";
export type {
  AnyFunctionDeclaration,
  FunctionContext,
  FunctionDeclaration,
  InvokeArgs,
  InvokeOptions,
  RestCloudFunction,
} from "./define";
export { FUNCTIONS } from "./registry";
