// The type tokens a resource kind (`Vpc`) has in state, one per front end: what the SDK registers, and what the cost
// estimate (cost/plan.ts) reads back from previews and stack exports.

/** The dynamic adapter's token: `pulumi-nodejs:dynamic/restcloud:Vpc` (previews read `restcloud:Vpc`). */
export const dynamicTypeToken = (type: string): string => `${DYNAMIC_TOKEN_PREFIX}${type}`;

/** The native plugin's token: `restcloud:index:Vpc` (a function's too: `restcloud:index:getZones`). */
export const nativeTypeToken = (type: string): string => `${NATIVE_TOKEN_PREFIX}${type}`;

const DYNAMIC_TOKEN_PREFIX = "pulumi-nodejs:dynamic/restcloud:";
export const NATIVE_TOKEN_PREFIX = "restcloud:index:";

/** The kind (`Vpc`) of either front end's token; undefined for any other provider's. */
export function kindOfTypeToken(token: string): string | undefined {
  for (const prefix of [DYNAMIC_TOKEN_PREFIX, NATIVE_TOKEN_PREFIX])
    if (token.startsWith(prefix) && token.length > prefix.length) return token.slice(prefix.length);
  return undefined;
}
