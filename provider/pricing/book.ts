// The live cost catalog of the configured API: each list fetched once per zone (`costEstimate` area) and kept for the
// run. Nothing here knows a price: every figure is the API's.
import type { RestCloudClient } from "../client";
import type {
  NetworkOfferingCost,
  PayAsYouGoOffering,
  StoragePlan,
  TemplateCost,
  VpcOfferingCost,
} from "../client/operations/cost-estimate";

/** A reserved plan's term (fields outside the spec; the emulator's README gives them). */
export interface ReservedTerm {
  name?: string;
  termMonths?: number;
  upfrontCost?: number;
  monthlyCost?: number;
}
/** A bundle's term (fields outside the spec). */
export interface BundleTerm {
  name?: string;
  termMonths?: number;
  cost?: number;
}

export type ComputePlan =
  | { readonly kind: "payAsYouGo"; readonly record: PayAsYouGoOffering }
  | {
      readonly kind: "reserved";
      readonly record: { uuid?: string; name?: string; core?: number; memory?: number; offeringPlans?: unknown[] };
    }
  | {
      readonly kind: "bundle";
      readonly record: { uuid?: string; name?: string; core?: number; memory?: number; bundlePlan?: unknown[] };
    };

export interface Currency {
  readonly code: string;
  readonly symbol?: string;
  /** Units of this currency per unit of the default one. */
  readonly rate: number;
  readonly isDefault: boolean;
}

/** The cost-estimate calls that answer one zone's price of something (`ipCost`, `snapshotCost`...). */
export type CostEstimateCall = {
  [K in keyof RestCloudClient["costEstimate"]]: RestCloudClient["costEstimate"][K] extends (input: {
    zoneUuid: string;
  }) => Promise<unknown>
    ? K
    : never;
}[keyof RestCloudClient["costEstimate"]];

/**
 * A per-zone unit price: the cost-estimate call that answers it and the answer's field holding the
 * number. The declaration that pays it names both, so the book knows no kind.
 */
export interface UnitPrice {
  readonly call: CostEstimateCall;
  readonly field: string;
}

const PLATFORMS = ["LINUX", "WINDOWS"] as const;
const DISTRIBUTIONS = ["OS_ONLY", "MARKETPLACE"] as const;

export class PriceBook {
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(private readonly client: RestCloudClient) {}

  /** One fetch per key for the whole run. */
  private once<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    let answer = this.cache.get(key);
    if (!answer) {
      answer = fetch();
      this.cache.set(key, answer);
    }
    return answer as Promise<T>;
  }

  currencies(): Promise<Currency[]> {
    return this.once("currencies", async () =>
      ((await this.client.costEstimate.currencies()).listMultiCurrency ?? [])
        .filter((c) => typeof c.currency === "string" && typeof c.cost === "number")
        .map((c) => ({
          code: c.currency!,
          ...(c.currencySymbol ? { symbol: c.currencySymbol } : {}),
          rate: c.cost!,
          isDefault: String(c.isDefaultCurrency).toLowerCase() === "true",
        })),
    );
  }

  /** The zone's name, or its uuid when the zone list does not have it. */
  async zoneName(zoneUuid: string): Promise<string> {
    const zones = await this.once("zones", () => this.client.costEstimate.zones());
    return zones.find((z) => z.uuid === zoneUuid)?.name ?? zoneUuid;
  }

  async isZone(zoneUuid: string): Promise<boolean> {
    const zones = await this.once("zones", () => this.client.costEstimate.zones());
    return zones.some((z) => z.uuid === zoneUuid);
  }

  /** A compute plan of the zone by uuid, whichever plan type lists it. */
  async computePlan(zoneUuid: string, uuid: string): Promise<ComputePlan | undefined> {
    const plans = await this.once(`compute:${zoneUuid}`, async () => {
      const types = ["PAY_AS_YOU_GO", "CUSTOM_PLAN", "RESERVED_INSTANCE", "BUNDLE_OFFER"] as const;
      const answers = await Promise.all(
        types.map((computeOfferingType) => this.client.costEstimate.computePlans({ zoneUuid, computeOfferingType })),
      );
      return answers.flatMap((a): ComputePlan[] => [
        ...(a.payAsYouGoOfferingCost ?? []).map((record) => ({ kind: "payAsYouGo" as const, record })),
        ...(a.reservedOfferingCost ?? []).map((record) => ({ kind: "reserved" as const, record })),
        ...(a.bundleOfferingCost ?? []).map((record) => ({ kind: "bundle" as const, record })),
      ]);
    });
    return plans.find((p) => p.record.uuid === uuid);
  }

  async storagePlan(zoneUuid: string, uuid: string): Promise<StoragePlan | undefined> {
    const plans = await this.once(`storage:${zoneUuid}`, () => this.client.costEstimate.storagePlans({ zoneUuid }));
    return plans.find((p) => p.uuid === uuid);
  }

  async networkOffering(zoneUuid: string, uuid: string): Promise<NetworkOfferingCost | undefined> {
    const offerings = await this.once(`network:${zoneUuid}`, () =>
      this.client.costEstimate.networkOfferings({ zoneUuid }),
    );
    return offerings.find((o) => o.uuid === uuid);
  }

  async vpcOffering(zoneUuid: string, uuid: string): Promise<VpcOfferingCost | undefined> {
    const offerings = await this.once(`vpc:${zoneUuid}`, () => this.client.costEstimate.vpcOfferings({ zoneUuid }));
    return offerings.find((o) => o.uuid === uuid);
  }

  /** A template of the zone, whichever platform and distribution list it. */
  async template(zoneUuid: string, uuid: string): Promise<TemplateCost | undefined> {
    const templates = await this.once(`template:${zoneUuid}`, async () =>
      (
        await Promise.all(
          PLATFORMS.flatMap((platform) =>
            DISTRIBUTIONS.map((distribution) =>
              this.client.costEstimate.templates({ zoneUuid, platform, distribution }),
            ),
          ),
        )
      ).flat(),
    );
    return templates.find((t) => t.uuid === uuid);
  }

  /** A unit price of the zone; undefined when the answer has no such number. */
  async unitPrice(zoneUuid: string, price: UnitPrice): Promise<number | undefined> {
    // A unit price's call takes the zone alone (where the spec shows no parameters: the zone, as the rest).
    const area = this.client.costEstimate as unknown as Record<
      CostEstimateCall,
      (input: { zoneUuid: string }) => Promise<unknown>
    >;
    const answer = await this.once(`unit:${price.call}:${zoneUuid}`, () => area[price.call]({ zoneUuid }));
    const value = (answer as Record<string, unknown> | undefined)?.[price.field];
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
  }
}
