// The typed REST client of the RestCloud API, the only part of the provider that speaks HTTP.
//   const client = new RestCloudClient({ apiUrl, apiKey, secretKey });
//   const vpc = await client.vpc.create({ name, zoneUuid, vpcOfferingUuid, getcIDR: "10.1.0.0/16" });
export { RestCloudClient, type AreaClient, type AreaClients, type OperationMethod } from "./client";
export { resolveConfig, DEFAULT_RETRY, DEFAULT_TIMEOUT_MS } from "./config";
export type { ClientOptions, RequestEvent, ResolvedConfig, RetryOptions } from "./config";
export type { CallOptions } from "./caller";
export {
  ApiError,
  ApiInputError,
  ConfigError,
  JobFailedError,
  OperationTimeoutError,
  RestCloudError,
  WaitTimeoutError,
  isNotFound,
  parseErrorBody,
} from "./errors";
export { REDACTED, Redactor } from "./redact";
export { ApiHealth, describeOutage, isNoAnswer, type HealthSnapshot, type Outage } from "./health";
export { currentScope, runInScope, withActivity, type Activity, type CallScope } from "./scope";
export {
  DEFAULT_WAIT,
  describeState,
  pollUntil,
  waitFor,
  waitForGone,
  waitForJob,
  waitForVisible,
  type WaitOptions,
  type WaitProgress,
} from "./waiters";
export { AREAS, OPERATIONS, type AreaName } from "./operations";
export type { AnyOperation, InputOf, Operation, OutputOf, ResponseShape } from "./operations/define";

export type { Host, Instance, InstanceNetwork, VmSnapshot, VmStatus, Deletion } from "./operations/compute";
export type { Network, Vpc } from "./operations/network";
export type { EgressRule, FirewallRule, SecurityGroup } from "./operations/security";
export type { Snapshot, SnapshotPolicy, Volume } from "./operations/storage";
export type { InternalLb, IpAddress, LoadBalancerRule, PortForwardingRule, StaticNat } from "./operations/publicip";
export type { VpnConnection, VpnCustomerGateway } from "./operations/vpn";
export type { Cluster } from "./operations/kubernetes";
export type { Tag } from "./operations/tags";
export type { Invoice, InvoiceActionResult, InvoiceTax, TaxPendingInvoice } from "./operations/billing";
export type {
  ComputeCategory,
  ComputePlanType,
  ComputePlans,
  KubernetesVersion,
  MultiCurrency,
  NetworkOfferingCost,
  PayAsYouGoOffering,
  ServiceCategory,
  StorageCategory,
  StoragePlan,
  TemplateCategory,
  TemplateCost,
  TemplateKind,
  VpcOfferingCost,
  Zone,
} from "./operations/cost-estimate";
export type { AsyncJob } from "./operations/jobs";
