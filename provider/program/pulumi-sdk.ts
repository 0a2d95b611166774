/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, on purpose */
/**
 * The Pulumi SDK, loaded when a program first needs it. The declarations and functions also serve
 * the native plugin, which speaks gRPC over the protocol stubs alone: loading the whole SDK there
 * (760 modules) cost about 0.6 s of every operation's start-up (bench/profile.ts).
 */
import type * as Pulumi from "@pulumi/pulumi";

export const pulumiSdk = (): typeof Pulumi => require("@pulumi/pulumi") as typeof Pulumi;
