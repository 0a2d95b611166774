/**
 * pulumi-restcloud: Pulumi resources for the RestCloud infrastructure API.
 *
 * Configure the provider with `restcloud:apiUrl`, `restcloud:apiKey` (secret), `restcloud:secretKey`
 * (secret) and optionally `restcloud:zoneUuid`, or the RESTCLOUD_* environment variables. The
 * resources are served by dynamic providers unless `restcloud:mode` is `native` (the plugin).
 */
export * from "./resources";
export * from "./functions";
export { RestCloudClient } from "./client";
export { Provider, type ProviderArgs } from "./sdk/provider";
