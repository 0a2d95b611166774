/**
 * pulumi-restcloud: Pulumi resources for the RestCloud infrastructure API. Configure it with
 * `restcloud:apiUrl`, `restcloud:apiKey` and `restcloud:secretKey` (secrets), or RESTCLOUD_*; the
 * resources are served by dynamic providers unless `restcloud:mode` is `native` (the plugin).
 */
export * from "./program/classes";
export * from "./resources/registry";
export * from "./functions";
export { RestCloudClient } from "./client";
export { Provider, type ProviderArgs } from "./program/provider";
