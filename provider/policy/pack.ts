// The restcloud policy pack (`@pulumi/policy`), started by `policy/restcloud-policy`: guardrails that `pulumi preview
// --policy-pack` checks on every planned resource, whichever language and front end registered it (docs/policy.md).
import { PolicyPack } from "@pulumi/policy";
import { packageRoot } from "../package-files";
import { POLICIES, POLICY_PACK_NAME } from "./policies";
import { captureStackConfig } from "./stack-config";

// Before the pack serves: its ConfigureStack handler is wrapped as it is registered.
captureStackConfig();

// @pulumi/policy reads the pack's version from package.json in the working directory: the package's own.
process.chdir(packageRoot);
new PolicyPack(POLICY_PACK_NAME, { policies: POLICIES });
