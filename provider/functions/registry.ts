// Every look-up function declaration: what schema.json and the docs are generated from.
import type { AnyFunctionDeclaration } from "./define";
import * as offerings from "./offerings";
import * as account from "./account";
import * as extras from "./pricing-extras";

export const FUNCTIONS: readonly AnyFunctionDeclaration[] = [
  offerings.getZones,
  offerings.getZone,
  offerings.getCurrencies,
  offerings.getComputePlanTypes,
  offerings.getComputeCategories,
  offerings.getComputePlans,
  offerings.getComputePlan,
  offerings.getStorageCategories,
  offerings.getStoragePlans,
  offerings.getNetworkOfferings,
  offerings.getVpcOfferings,
  offerings.getTemplatePlatforms,
  offerings.getTemplateDistributions,
  offerings.getTemplateCategories,
  offerings.getTemplates,
  offerings.getTemplate,
  offerings.getKubernetesVersions,
  offerings.getUnitCosts,
  extras.getPublicKey,
  extras.getServiceCategories,
  extras.getVmSchedulerCost,
  extras.getBandwidthCost,
  extras.getObjectStorageCost,
  extras.getSfsStorageOfferings,
  extras.getSupportCategories,
  extras.getSupportPlans,
  extras.getTax,
  account.getHosts,
  account.getClusterNodes,
  account.getInstanceNetworks,
  account.getInstanceStatus,
  account.getInstancePasswords,
  account.getInvoices,
  account.getTaxPendingInvoices,
  account.getInvoicePaymentStatus,
].map((fn) => fn.declaration as AnyFunctionDeclaration);
