// The restcloud policy pack's policies, each configurable with `pulumi preview --policy-pack-config` (docs/policy.md).
// pack.ts serves them; tests call them directly.
import type { Policies } from "@pulumi/policy";
import { budgetPolicy, capPolicy } from "./cost";
import { sensitivePortPolicy, unguardedForwardingPolicy } from "./security";
import { weakVpnPolicy } from "./vpn";

export const POLICY_PACK_NAME = "restcloud-guardrails";

export const POLICIES: Policies = [
  budgetPolicy,
  capPolicy,
  sensitivePortPolicy,
  unguardedForwardingPolicy,
  weakVpnPolicy,
];
