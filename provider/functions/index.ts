// Look-up functions: `await restcloud.getZones()`, `await restcloud.getTemplate({ nameRegex: "ubuntu 24" })`. Each
// returns plain typed data; `fn.declaration` holds its inputs and outputs (for schema.json).
export * from "./offerings";
export * from "./account";
export * from "./pricing-extras";
import { getInstancePasswords } from "./account";
import { getPublicKey } from "./pricing-extras";
/** The Output forms of the functions whose answer is secret: a secret Output, Input arguments. */
export const getInstancePasswordsOutput = getInstancePasswords.output;
export const getPublicKeyOutput = getPublicKey.output;
export { defineFunction, functionClient } from "./define";
export type {
  AnyFunctionDeclaration,
  FunctionContext,
  FunctionDeclaration,
  FunctionInputs,
  InvokeArgs,
  OutputForm,
  InvokeOptions,
  RestCloudFunction,
} from "./define";
export { FUNCTIONS } from "./registry";
