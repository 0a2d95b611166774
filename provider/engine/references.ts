// References the catalog can confirm at check time (arguments declared with `catalogReference(kind)`), so `pulumi
// preview` fails on a uuid the catalog lacks, before any change is sent. Only new or changed values are looked up, each
// list once per client; a look-up that fails or is slow blocks nothing.
import type { RestCloudClient } from "../client";
import type { AnyObjectSchema } from "./declaration";
import { catalogKindOf, type CatalogKind } from "./validators";

export interface ReferenceFailure {
  property: string;
  reason: string;
}

/** How long the look-ups of one check may take before they are given up. */
const LOOKUP_BUDGET_MS = 15_000;

const KINDS: Record<CatalogKind, { what: string; listedBy: string }> = {
  zone: { what: "zone", listedBy: "getZones" },
  vpcOffering: { what: "VPC offering", listedBy: "getVpcOfferings" },
  networkOffering: { what: "network offering", listedBy: "getNetworkOfferings" },
  computeOffering: { what: "compute plan", listedBy: "getComputePlans" },
  storageOffering: { what: "storage plan", listedBy: "getStoragePlans" },
  template: { what: "template", listedBy: "getTemplates" },
  kubernetesVersion: { what: "Kubernetes version", listedBy: "getKubernetesVersions" },
};

type Listing = Promise<ReadonlyMap<string, string>>;

/** The catalog lists read so far, per client: uuid to name. */
const listings = new WeakMap<RestCloudClient, Map<string, Listing>>();

function named(records: readonly { uuid?: string; name?: string }[]): ReadonlyMap<string, string> {
  return new Map(records.filter((r) => r.uuid).map((r) => [r.uuid!, r.name ?? r.uuid!]));
}

function listing(client: RestCloudClient, key: string, read: () => Promise<ReadonlyMap<string, string>>): Listing {
  let cache = listings.get(client);
  if (!cache) listings.set(client, (cache = new Map()));
  let list = cache.get(key);
  if (!list) {
    list = read();
    // A failed read is not kept: the next check tries again.
    list.catch(() => cache.delete(key));
    cache.set(key, list);
  }
  return list;
}

/** The pages of a zone's catalog in which a record of `kind` may be listed. */
function pages(client: RestCloudClient, kind: Exclude<CatalogKind, "zone">, zoneUuid: string): (() => Listing)[] {
  const c = client.costEstimate;
  const page = (key: string, read: () => Promise<ReadonlyMap<string, string>>) => () =>
    listing(client, `${kind}/${zoneUuid}/${key}`, read);
  switch (kind) {
    case "vpcOffering":
      return [page("", async () => named(await c.vpcOfferings({ zoneUuid })))];
    case "networkOffering":
      return [page("", async () => named(await c.networkOfferings({ zoneUuid })))];
    case "storageOffering":
      return [page("", async () => named(await c.storagePlans({ zoneUuid })))];
    case "kubernetesVersion":
      return [page("", async () => named(await c.kubernetesVersions({ zoneUuid })))];
    case "computeOffering":
      return (["PAY_AS_YOU_GO", "CUSTOM_PLAN", "RESERVED_INSTANCE", "BUNDLE_OFFER"] as const).map((type) =>
        page(type, async () => {
          const plans = await c.computePlans({ zoneUuid, computeOfferingType: type });
          return named([
            ...(plans.payAsYouGoOfferingCost ?? []),
            ...(plans.reservedOfferingCost ?? []),
            ...(plans.bundleOfferingCost ?? []),
          ]);
        }),
      );
    case "template":
      return (["LINUX", "WINDOWS"] as const).flatMap((platform) =>
        (["OS_ONLY", "MARKETPLACE"] as const).map((distribution) =>
          page(`${platform}/${distribution}`, async () =>
            named(await c.templates({ zoneUuid, platform, distribution })),
          ),
        ),
      );
  }
}

/** Whether any page lists the uuid (pages are read one after the other, until it is found). */
async function listedIn(pagesOf: readonly (() => Listing)[], uuid: string): Promise<boolean> {
  for (const page of pagesOf) if ((await page()).has(uuid)) return true;
  return false;
}

interface Reference {
  property: string;
  kind: CatalogKind;
  value: string;
}

async function failuresOf(
  client: RestCloudClient,
  references: readonly Reference[],
  zoneUuid: string | undefined,
): Promise<ReferenceFailure[]> {
  const failures: ReferenceFailure[] = [];
  // Offerings, templates and versions are the zone's: with no zone known yet, nothing to look up.
  if (zoneUuid === undefined && references.every((r) => r.kind !== "zone")) return failures;
  const zones = await listing(client, "zone", async () => named(await client.costEstimate.zones()));
  for (const r of references.filter((r) => r.kind === "zone")) {
    if (!zones.has(r.value)) {
      failures.push({
        property: r.property,
        reason: `must be the uuid of a zone (getZones lists them: ${[...zones.values()].join(", ")}); none has this uuid`,
      });
    }
  }
  // ... and looked up only in a zone that exists.
  if (zoneUuid === undefined || !zones.has(zoneUuid)) return failures;
  const zoneName = zones.get(zoneUuid);
  const scoped = references.filter((r): r is Reference & { kind: Exclude<CatalogKind, "zone"> } => r.kind !== "zone");
  const found = await Promise.all(scoped.map((r) => listedIn(pages(client, r.kind, zoneUuid), r.value)));
  scoped.forEach((r, i) => {
    if (found[i]) return;
    const { what, listedBy } = KINDS[r.kind];
    failures.push({
      property: r.property,
      reason: `must be the uuid of a ${what} of zone ${zoneName} (${listedBy} lists them); none has this uuid`,
    });
  });
  return failures;
}

/**
 * A failure per catalog reference among `inputs` that the catalog does not hold. References whose
 * value is unknown (`isUnknown`, at preview) or unchanged from `olds` (in the same zone) are not
 * looked up.
 */
export async function catalogReferenceFailures(
  client: RestCloudClient,
  schema: AnyObjectSchema,
  olds: Record<string, unknown>,
  inputs: Record<string, unknown>,
  isUnknown: (value: unknown) => boolean,
): Promise<ReferenceFailure[]> {
  const declared = Object.entries(schema.shape as Record<string, Parameters<typeof catalogKindOf>[0]>)
    .map(([property, field]) => ({ property, kind: catalogKindOf(field), value: inputs[property] }))
    .filter((r): r is Reference => r.kind !== undefined && typeof r.value === "string" && r.value !== "");
  const zone = declared.find((r) => r.kind === "zone");
  const zoneUuid = zone && !isUnknown(zone.value) ? zone.value : undefined;
  const sameZone = zone === undefined || olds[zone.property] === zone.value;
  const references = declared.filter((r) => !isUnknown(r.value) && !(sameZone && olds[r.property] === r.value));
  if (references.length === 0) return [];
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<ReferenceFailure[]>((resolve) => {
    timer = setTimeout(() => resolve([]), LOOKUP_BUDGET_MS);
    timer.unref();
  });
  try {
    return await Promise.race([failuresOf(client, references, zoneUuid).catch(() => []), budget]);
  } finally {
    clearTimeout(timer);
  }
}
