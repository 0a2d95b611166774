// Pricing: what a declaration's `price` is made of (rule.ts, rules.ts) and the live catalog (book.ts). It imports no
// resource and no tool, so the cost estimate can read the facet from the declarations it is handed.
export { PriceBook, type CostEstimateCall, type Currency, type UnitPrice } from "./book";
export {
  HOURS_PER_MONTH,
  PricingError,
  type CostComponent,
  type Price,
  type PricingContext,
  type Properties,
  type Referenced,
  type ResourceState,
} from "./rule";
export {
  instanceDisksGb,
  perMonth,
  perOffering,
  perSnapshotGb,
  priceCluster,
  priceInstance,
  priceUploadedVolume,
  priceVolume,
  volumeGb,
} from "./rules";
