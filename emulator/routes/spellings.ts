// The spec's spellings where the model's differ (`cidr` is `getcIDR`, or `cIDR` under the quirk; a cluster's
// `networkUuid` is `transNetworkUuid`). Only the envelope builders and the control view use them.
import type { AccountResources, EmulatorContext } from "../core";
import { spelled } from "../http";
import { CLUSTERS, NETWORKS, VPCS } from "../model/collections";

/** The CIDR field of VPC and network records, and the input naming it in errors. */
export const CIDR_NAMES = { cidr: "getcIDR" } as const;

/** A cluster's fields, on its records and in errors naming its inputs. */
export const CLUSTER_NAMES = { networkUuid: "transNetworkUuid" } as const;

/** The CIDR field as this emulator answers it: `getcIDR`, or `cIDR` with the cidr-as-cIDR quirk. */
export const answeredCidrNames = (ctx: EmulatorContext): Readonly<Record<string, string>> =>
  ctx.quirks.has("cidr-as-cIDR") ? { cidr: "cIDR" } : CIDR_NAMES;

/** Collection to the spec's names of its records' fields (without quirks). */
const SPEC_NAMES_BY_COLLECTION: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [VPCS]: CIDR_NAMES,
  [NETWORKS]: CIDR_NAMES,
  [CLUSTERS]: CLUSTER_NAMES,
};

/**
 * An account's records (`GET /_emulator/resources`) under the spec's field names, as clients read
 * them; fields outside the records (the `_` internal ones) pass as they are.
 */
export function spelledResources(resources: AccountResources): AccountResources {
  return Object.fromEntries(
    Object.entries(resources).map(([name, records]) => {
      const names = SPEC_NAMES_BY_COLLECTION[name];
      if (!names) return [name, records];
      return [name, Object.fromEntries(Object.entries(records).map(([key, r]) => [key, spelled(r, names)]))];
    }),
  );
}
