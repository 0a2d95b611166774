/** Every look-up function declaration: what schema.json and the docs are generated from. */
import type { AnyFunctionDeclaration } from "./define";
import * as catalog from "./catalog";
import * as account from "./account";
import * as rows from "./catalog-rows";

export const FUNCTIONS: readonly AnyFunctionDeclaration[] = [
  catalog.getZones,
  catalog.getZone,
  catalog.getCurrencies,
  catalog.getComputePlanTypes,
  catalog.getComputeCategories,
  catalog.getComputePlans,
  catalog.getComputePlan,
  catalog.getStorageCategories,
  catalog.getStoragePlans,
  catalog.getNetworkOfferings,
  catalog.getVpcOfferings,
  catalog.getTemplatePlatforms,
  catalog.getTemplateDistributions,
  catalog.getTemplateCategories,
  catalog.getTemplates,
  catalog.getTemplate,
  catalog.getKubernetesVersions,
  catalog.getUnitCosts,
  rows.getPublicKey,
  rows.getServiceCategories,
  rows.getVmSchedulerCost,
  rows.getBandwidthCost,
  rows.getObjectStorageCost,
  rows.getSfsStorageOfferings,
  rows.getSupportCategories,
  rows.getSupportPlans,
  rows.getTax,
  account.getHosts,
  account.getClusterNodes,
  account.getInstanceNetworks,
  account.getInstanceStatus,
  account.getInstancePasswords,
  account.getInvoices,
  account.getTaxPendingInvoices,
  account.getInvoicePaymentStatus,
].map((fn) => fn.declaration as AnyFunctionDeclaration);
