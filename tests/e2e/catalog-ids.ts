// The catalog ids the e2e programs need, found through the cost-estimate endpoints by name as a client of the real
// service would (no id is hard-coded), and the stack config that points the provider at an emulator.
import { DEMO_CREDENTIALS } from "../../emulator";
import { RestCloudClient } from "../../provider/client";

/** The emulator's built-in demo account. */
export const DEMO_KEYS = DEMO_CREDENTIALS;

export interface CatalogIds {
  zoneUuid: string;
  vpcOfferingUuid: string;
  tierOfferingUuid: string;
  isolatedOfferingUuid: string;
  smallPlanUuid: string;
  largePlanUuid: string;
  ubuntuTemplateUuid: string;
  debianTemplateUuid: string;
  customStoragePlanUuid: string;
  kubernetesVersionUuid: string;
  newerKubernetesVersionUuid: string;
}

function pick<T extends { name?: string; uuid?: string }>(
  records: readonly T[],
  what: string,
  test: (r: T) => boolean,
): string {
  const found = records.find(test);
  if (!found?.uuid) throw new Error(`the catalog has no ${what}`);
  return found.uuid;
}

export async function discoverCatalog(apiUrl: string): Promise<CatalogIds> {
  const client = new RestCloudClient({ apiUrl, ...DEMO_KEYS });
  const zones = await client.costEstimate.zones();
  const zoneUuid = pick(zones, "zone", () => true);
  const [vpcOfferings, networkOfferings, plans, templates, storage, versions] = await Promise.all([
    client.costEstimate.vpcOfferings({ zoneUuid }),
    client.costEstimate.networkOfferings({ zoneUuid }),
    client.costEstimate.computePlans({ zoneUuid, computeOfferingType: "PAY_AS_YOU_GO" }),
    client.costEstimate.templates({ zoneUuid, platform: "LINUX", distribution: "OS_ONLY" }),
    client.costEstimate.storagePlans({ zoneUuid }),
    client.costEstimate.kubernetesVersions({ zoneUuid }),
  ]);
  const payg = (plans.payAsYouGoOfferingCost ?? []) as {
    uuid?: string;
    name?: string;
    core?: number;
    memory?: number;
    isCustom?: boolean;
  }[];
  const fixed = payg
    .filter((p) => !p.isCustom)
    .sort((a, b) => (a.core ?? 0) - (b.core ?? 0) || (a.memory ?? 0) - (b.memory ?? 0));
  const sortedVersions = [...versions].sort((a, b) => String(a.name).localeCompare(String(b.name)));
  return {
    zoneUuid,
    vpcOfferingUuid: pick(vpcOfferings, "VPC offering", () => true),
    tierOfferingUuid: pick(networkOfferings, "VPC tier offering", (o) => o.type === "VPC"),
    isolatedOfferingUuid: pick(networkOfferings, "isolated offering", (o) => o.type === "Isolated"),
    smallPlanUuid: pick(fixed, "2-vCPU plan", (p) => (p.core ?? 0) >= 2),
    largePlanUuid: pick(fixed, "4-vCPU plan", (p) => (p.core ?? 0) >= 4),
    ubuntuTemplateUuid: pick(templates, "Ubuntu template", (t) => /ubuntu/i.test(t.name ?? "")),
    debianTemplateUuid: pick(templates, "Debian template", (t) => /debian/i.test(t.name ?? "")),
    customStoragePlanUuid: pick(storage, "custom-size storage plan", (s) => s.isCustom === true),
    kubernetesVersionUuid: pick(sortedVersions, "Kubernetes version", () => true),
    newerKubernetesVersionUuid: sortedVersions[sortedVersions.length - 1]!.uuid!,
  };
}

/** The stack configuration that points the provider at an emulator, credentials as secrets. */
export function providerConfig(
  apiUrl: string,
  zoneUuid?: string,
): Record<string, string | { value: string; secret: boolean }> {
  return {
    "restcloud:apiUrl": apiUrl,
    "restcloud:apiKey": { value: DEMO_KEYS.apiKey, secret: true },
    "restcloud:secretKey": { value: DEMO_KEYS.secretKey, secret: true },
    ...(zoneUuid ? { "restcloud:zoneUuid": zoneUuid } : {}),
  };
}
