// Pulumi provider for the RestCloud infrastructure REST API (dynamic providers by default, or the native plugin pulumi-resource-restcloud), with an offline, stateful emulator of that API.
package restcloud
