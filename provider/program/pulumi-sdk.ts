/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, on purpose */
// The SDK, loaded on a function's first call: the native plugin loads the functions too, and the SDK's 760 modules
// would cost it about 0.6 s of every start-up (bench/profile.ts).
import type * as Pulumi from "@pulumi/pulumi";

export const pulumiSdk = (): typeof Pulumi => require("@pulumi/pulumi") as typeof Pulumi;
