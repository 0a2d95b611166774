/** Shared set-up of the client's integration tests: an emulator on port 0, a client for it, the catalog ids. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/index";
import {
  RestCloudClient,
  type AREAS,
  type ClientOptions,
  type InputOf,
  type RequestEvent,
} from "../../../provider/client";

export const DEMO_KEYS = { apiKey: "demo-api-key", secretKey: "demo-secret-key" };
export const ADMIN_KEYS = { apiKey: "admin-api-key", secretKey: "admin-secret-key" };

/** A VPN customer gateway's input: the office's address and network, standard IKE and ESP policies. */
export const customerGatewayInput = (
  name: string,
  gateway: string,
  cidrlist: string,
  ipsecpsk = "a-pre-shared-key",
): InputOf<typeof AREAS.vpnCustomerGateway.create> => ({
  name,
  gateway,
  cidrlist,
  ipsecpsk,
  ikepolicy: "Group 5(modp1536)",
  ikeEncryption: "aes256",
  ikeHash: "sha256",
  ikelifetime: "86400",
  esppolicy: "None",
  espEncryption: "aes256",
  espHash: "sha256",
  esplifetime: "3600",
});

/** Fast retries, so that fault tests take milliseconds. */
export const FAST_RETRY = { maxAttempts: 6, baseDelayMs: 5, maxDelayMs: 40, maxRetryAfterMs: 2000 };

export function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, asyncDelayMs: 30, ...options });
}

export interface Recorded {
  client: RestCloudClient;
  events: RequestEvent[];
  lines: string[];
}

/** A client of the demo account that records its debug events and log lines. */
export function clientFor(emulator: RunningEmulator, options: ClientOptions = {}): Recorded {
  const events: RequestEvent[] = [];
  const lines: string[] = [];
  const client = new RestCloudClient({
    apiUrl: emulator.url,
    ...DEMO_KEYS,
    retry: FAST_RETRY,
    timeoutMs: 5000,
    onRequest: (event) => events.push(event),
    log: (line) => lines.push(line),
    env: {},
    ...options,
  });
  return { client, events, lines };
}

export interface Stats {
  total: number;
  mutating: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
}

export async function stats(emulator: RunningEmulator): Promise<Stats> {
  return (await (await fetch(`${emulator.url}/_emulator/stats`)).json()) as Stats;
}

export async function resetStats(emulator: RunningEmulator): Promise<void> {
  await fetch(`${emulator.url}/_emulator/stats`, { method: "DELETE" });
}

export async function setFaults(emulator: RunningEmulator, faults: Record<string, number>): Promise<void> {
  await fetch(`${emulator.url}/_emulator/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(faults),
  });
}

/** Sets the emulator's fault rules (`_emulator/faults`, the rules form); `[]` clears them. */
export async function setFaultRules(emulator: RunningEmulator, rules: object[]): Promise<void> {
  const response = await fetch(`${emulator.url}/_emulator/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  if (!response.ok) throw new Error(`faults: HTTP ${response.status}`);
}

/** The ids a test needs, found through the client's own catalog calls. */
export interface CatalogIds {
  zoneUuid: string;
  vpcOfferingUuid: string;
  tierOfferingUuid: string;
  networkOfferingUuid: string;
  computeOfferingUuid: string;
  resizeOfferingUuid: string;
  /** Big enough for Kubernetes nodes (2 vCPUs, 2 GiB). */
  nodeOfferingUuid: string;
  storageOfferingUuid: string;
  /** The disk size of that (fixed-size) offering, GB. */
  diskSize: number;
  templateUuid: string;
  kubernetesVersionUuid: string;
}

export async function discoverCatalog(client: RestCloudClient): Promise<CatalogIds> {
  const [zone] = await client.costEstimate.zones();
  const zoneUuid = zone!.uuid;
  const [vpcOffering] = await client.costEstimate.vpcOfferings({ zoneUuid });
  const networkOfferings = await client.costEstimate.networkOfferings({ zoneUuid });
  const byType = (type: string) => networkOfferings.find((o) => o.type?.toLowerCase() === type.toLowerCase())!.uuid;
  const plans = await client.costEstimate.computePlans({ zoneUuid, computeOfferingType: "PAY_AS_YOU_GO" });
  const fixed = (plans.payAsYouGoOfferingCost ?? []).filter((p) => !p.isCustom);
  const storage = (await client.costEstimate.storagePlans({ zoneUuid })).find((p) => !p.isCustom)!;
  const [template] = await client.costEstimate.templates({ zoneUuid, platform: "LINUX", distribution: "OS_ONLY" });
  const [version] = await client.costEstimate.kubernetesVersions({ zoneUuid });
  return {
    zoneUuid,
    vpcOfferingUuid: vpcOffering!.uuid,
    tierOfferingUuid: byType("VPC"),
    networkOfferingUuid: byType("Isolated"),
    computeOfferingUuid: fixed[0]!.uuid,
    resizeOfferingUuid: fixed[1]!.uuid,
    nodeOfferingUuid: fixed.find((p) => (p.core ?? 0) >= 2 && (p.memory ?? 0) >= 2048)!.uuid,
    storageOfferingUuid: storage.uuid,
    diskSize: storage.diskSize!,
    templateUuid: template!.uuid,
    kubernetesVersionUuid: version!.uuid,
  };
}
