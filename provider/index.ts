// pulumi-restcloud: Pulumi resources for the RestCloud infrastructure API. Configure `restcloud:apiUrl`, `apiKey` and
// `secretKey` (secrets), or RESTCLOUD_*; dynamic providers serve the resources unless `restcloud:mode` is `native`.
export * from "./program/classes";
export * from "./resources/registry";
export * from "./functions";
export { RestCloudClient } from "./client";
export { Provider, type ProviderArgs } from "./program/provider";
