/* eslint-disable @typescript-eslint/no-require-imports -- modules resolved from the SDK's own location */
/**
 * The gRPC library, protobuf runtime and protocol stubs the plugin serves with: those `@pulumi/pulumi`
 * ships and its stubs were built against, resolved from the SDK's own location (they are its
 * dependencies, not ours, and a different copy of grpc-js would not match its stubs).
 */
import * as path from "node:path";

const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));

export function sdkModule<T>(name: string): T {
  if (name.startsWith("@pulumi/pulumi/")) return require(name) as T;
  return require(require.resolve(name, { paths: [sdkRoot] })) as T;
}
