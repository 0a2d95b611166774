/* eslint-disable @typescript-eslint/no-require-imports -- modules resolved from the SDK's own location */
// The gRPC library, protobuf runtime and stubs `@pulumi/pulumi` ships, resolved from the SDK's location (a different
// grpc-js would not match its stubs): the plugin's server and its Engine client (the provider's own messages are
// protobuf.ts's), the benchmark's no-op plugin. SDK_MODULES is the one list: the release's bundle
// (tools/release/bundle.ts) replaces this module with static requires of these names, which a bundler can see.
import * as path from "node:path";

export const SDK_MODULES = [
  "@grpc/grpc-js",
  "google-protobuf/google/protobuf/empty_pb",
  "google-protobuf/google/protobuf/struct_pb",
  "@pulumi/pulumi/proto/engine_grpc_pb",
  "@pulumi/pulumi/proto/engine_pb",
  "@pulumi/pulumi/proto/plugin_pb",
  "@pulumi/pulumi/proto/provider_grpc_pb",
  "@pulumi/pulumi/proto/provider_pb",
] as const;

export type SdkModuleName = (typeof SDK_MODULES)[number];

const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));

export function sdkModule<T>(name: SdkModuleName): T {
  if (name.startsWith("@pulumi/pulumi/")) return require(name) as T;
  return require(require.resolve(name, { paths: [sdkRoot] })) as T;
}
