/**
 * pulumi-restcloud: Pulumi resources for the RestCloud infrastructure API.
 *
 * Configure the provider with `restcloud:apiUrl`, `restcloud:apiKey` (secret), `restcloud:secretKey`
 * (secret) and optionally `restcloud:zoneUuid`, or the RESTCLOUD_* environment variables.
 */
export * from "./resources";
export * from "./functions";
export { RestCloudClient } from "./client";
