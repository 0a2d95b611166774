/**
 * What the reliability tests share: their programs (the fleet, every kind, the realistic stack) and
 * their configuration, the emulator as a separate process (to kill and restart), its control
 * endpoints (stats, random faults, fault rules per operation and their log), a counting proxy that
 * measures the requests in flight, a stack's state, the audit of an account against it (duplicates,
 * orphans, records lost, records held by two resources; the restcloud resources of either mode, by
 * the dynamic adapter's type tokens or the native plugin's), and deletions out of band.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as path from "node:path";
import type { FaultLogEntry, FaultRule } from "../../../emulator";
import { type CatalogIds, DEMO_KEYS, providerConfig } from "../catalog-ids";
import { OWNER_TAG_KEY } from "../../../provider/engine/ownership";
import { REPO_ROOT, startLocalServer, type TestStack } from "../harness";

export const PROGRAMS = path.join(__dirname, "programs");
export const FLEET_PROGRAM = path.join(PROGRAMS, "fleet");

type StackConfig = Record<string, string | { value: string; secret: boolean }>;

/** Every resource kind, several nameless records of one kind under one parent (43 resources). */
export const EVERY_KIND_PROGRAM = path.join(PROGRAMS, "every-kind");
export const EVERY_KIND_SIZE = 43;
/** The reliability issue's realistic stack: 17 resources of 14 kinds, two public IPs of one VPC. */
export const REALISTIC_PROGRAM = path.join(PROGRAMS, "realistic");
export const REALISTIC_SIZE = 17;
/** A VPC and a network described by config `label`. */
export const GONE_PROGRAM = path.join(PROGRAMS, "gone");

/** The configuration of a program that takes the catalog's ids, against the emulator at `apiUrl`. */
export function catalogConfig(apiUrl: string, catalog: CatalogIds): StackConfig {
  const { zoneUuid, ...ids } = catalog;
  return { ...providerConfig(apiUrl, zoneUuid), ...ids };
}

/** Per resource kind, the API operation its create sends (the spec's operation name). */
export const CREATE_OPERATIONS: Record<string, string> = {
  Vpc: "createVpc",
  VpcTier: "createVpcNetwork",
  Network: "createNetwork",
  Instance: "createInstance",
  Volume: "createVolume",
  UploadedVolume: "uploadVolume",
  FirewallRule: "createFirewallRule",
  EgressRule: "createEgressRule",
  KubernetesCluster: "createKubernetes",
  PublicIpAddress: "acquireIpAddress",
  SecurityGroup: "createSecurityGroup",
  SecurityGroupFirewallRule: "createSecurityGroupFirewallRule",
  SecurityGroupEgressRule: "createSecurityGroupEgressRule",
  SecurityGroupPortForwardingRule: "createSecurityGroupPortForwardingRule",
  StaticNat: "enableStaticNat",
  RemoteAccessVpn: "enableremotevpnaccess",
  PortForwardingRule: "createPortForwardingRule",
  LoadBalancerRule: "createLoadBalancerRule",
  InternalLoadBalancer: "createInternalLb",
  VpnCustomerGateway: "addVpnCustomerGateway",
  VpnConnection: "addVpnConnection",
  VmSnapshot: "createVmSnapshot",
  VolumeSnapshot: "createSnapshot",
  SnapshotPolicy: "createSnapshotPolicy",
  ResourceTag: "createTags",
};

/** The configuration of a fleet of `count` resources against the emulator at `apiUrl`. */
export function fleetConfig(apiUrl: string, catalog: CatalogIds, count: number, layout = "groups"): StackConfig {
  const { zoneUuid, ...ids } = catalog;
  return { ...providerConfig(apiUrl, zoneUuid), ...ids, count: String(count), layout };
}

// ---- the emulator's control endpoints ------------------------------------------------------------

export interface EmulatorStats {
  total: number;
  mutating: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
}

export async function emulatorStats(apiUrl: string): Promise<EmulatorStats> {
  return (await (await fetch(`${apiUrl}/_emulator/stats`)).json()) as EmulatorStats;
}

export async function resetStats(apiUrl: string): Promise<void> {
  await fetch(`${apiUrl}/_emulator/stats`, { method: "DELETE" });
}

export async function setFaults(apiUrl: string, faults: Record<string, number>): Promise<void> {
  const response = await fetch(`${apiUrl}/_emulator/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(faults),
  });
  if (!response.ok) throw new Error(`PUT /_emulator/faults: HTTP ${response.status}`);
}

type Collections = Record<string, Record<string, Record<string, unknown>>>;

/** Every collection of an account of the emulator ("demo", or another it was started with), as it holds them. */
export async function accountResources(apiUrl: string, account = "demo"): Promise<Collections> {
  const response = await fetch(`${apiUrl}/_emulator/resources?account=${account}`);
  if (!response.ok) throw new Error(`GET /_emulator/resources?account=${account}: HTTP ${response.status}`);
  return (await response.json()) as Collections;
}

// ---- faults on demand, per operation ---------------------------------------------------------------

// The rule and log-entry types are the emulator's own (emulator/faults.ts): one definition.
export type { FaultLogEntry, FaultRule } from "../../../emulator";

/** Replaces the emulator's fault rules. */
export async function setFaultRules(apiUrl: string, rules: FaultRule[]): Promise<void> {
  const response = await fetch(`${apiUrl}/_emulator/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  if (!response.ok) throw new Error(`PUT /_emulator/faults: HTTP ${response.status}: ${await response.text()}`);
}

/** The faults injected so far (rules and random draws), oldest first. */
export async function faultLog(apiUrl: string): Promise<FaultLogEntry[]> {
  const response = await fetch(`${apiUrl}/_emulator/faults/log`);
  if (!response.ok) throw new Error(`GET /_emulator/faults/log: HTTP ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { entries: FaultLogEntry[] }).entries;
}

export async function clearFaultLog(apiUrl: string): Promise<void> {
  const response = await fetch(`${apiUrl}/_emulator/faults/log`, { method: "DELETE" });
  if (!response.ok) throw new Error(`DELETE /_emulator/faults/log: HTTP ${response.status}: ${await response.text()}`);
}

// ---- duplicates, orphans, lost records, shared ids ----------------------------------------------------

/**
 * Per resource kind, the emulator collection of its records. The id in state is the record's key in
 * that collection, except where noted; records the emulator keeps inside others get a collection of
 * their own here ("securitygroup.firewall": the rules in a group's record).
 */
export const RESOURCE_COLLECTIONS: Record<string, string> = {
  Vpc: "vpc",
  VpcTier: "network",
  Network: "network",
  Instance: "instance",
  Volume: "volume",
  UploadedVolume: "volume",
  FirewallRule: "firewallrule",
  EgressRule: "egressrule",
  KubernetesCluster: "cluster",
  PublicIpAddress: "ipaddress",
  SecurityGroup: "securitygroup",
  SecurityGroupFirewallRule: "securitygroup.firewall",
  SecurityGroupEgressRule: "securitygroup.egress",
  SecurityGroupPortForwardingRule: "securitygroup.portforwarding",
  StaticNat: "staticnat", // keyed by the address's uuid, as the resource's id is
  RemoteAccessVpn: "remotevpnaccess", // keyed by the address's uuid, as the resource's id is
  PortForwardingRule: "portforwardingrule",
  LoadBalancerRule: "loadbalancerrule",
  InternalLoadBalancer: "internallb", // the record has no uuid: its id is its name
  VpnCustomerGateway: "vpncustomergateway",
  VpnConnection: "vpnconnection",
  VmSnapshot: "vmsnapshot",
  VolumeSnapshot: "snapshot",
  SnapshotPolicy: "snapshotpolicy",
  ResourceTag: "tag",
};

/** The rule arrays of a security group's record, by the collection this audit gives them. */
const GROUP_RULES: Record<string, string> = {
  "securitygroup.firewall": "securityGroupFirewallRule",
  "securitygroup.egress": "securityGroupEgressRule",
  "securitygroup.portforwarding": "securityGroupPortForwarding",
};

/** The emulator's collections of records a program creates (records of other kinds are left out). */
const MANAGED_COLLECTIONS = [...new Set(Object.values(RESOURCE_COLLECTIONS))];

/**
 * Records made along with another (no resource of their own): an instance's ROOT volume, cluster
 * nodes, the owner tags the provider puts on what it creates.
 */
function isDerived(collection: string, record: Record<string, unknown>): boolean {
  if (collection === "instance") return record._clusterUuid !== undefined;
  // The owner tag the provider puts on a record it creates is part of that record (engine/ownership.ts).
  if (collection === "tag") return record.key === OWNER_TAG_KEY;
  if (collection === "volume") return record.volumeType === "ROOT";
  return false;
}

/** The records of one managed collection, keyed by the id a resource holds them by. */
function collectionRecords(collections: Collections, collection: string): Record<string, Record<string, unknown>> {
  const array = GROUP_RULES[collection];
  if (array !== undefined) {
    const rules = Object.values(collections.securitygroup ?? {}).flatMap(
      (group) => (group[array] as Record<string, unknown>[] | undefined) ?? [],
    );
    return Object.fromEntries(rules.map((rule) => [String(rule.uuid), rule]));
  }
  const records = Object.entries(collections[collection] ?? {}).filter(([, r]) => !isDerived(collection, r));
  if (collection === "internallb") return Object.fromEntries(records.map(([, r]) => [String(r.name), r]));
  return Object.fromEntries(records);
}

/**
 * Per managed collection, the account's records that a program made (derived records left out),
 * keyed by the id a resource holds them by.
 */
export async function managedRecords(
  apiUrl: string,
  account = "demo",
): Promise<Map<string, Record<string, Record<string, unknown>>>> {
  const collections = await accountResources(apiUrl, account);
  return new Map(MANAGED_COLLECTIONS.map((kind) => [kind, collectionRecords(collections, kind)]));
}

/** The type tokens of restcloud resources: the dynamic adapter's, and the native plugin's. */
export const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/restcloud:";
export const NATIVE_PREFIX = "restcloud:index:";

/** The resource kind a type token names (`Vpc` for either front end's token), undefined for other types. */
function kindOf(type: string): string | undefined {
  const prefix = [DYNAMIC_PREFIX, NATIVE_PREFIX].find((p) => type.startsWith(p));
  return prefix === undefined ? undefined : type.slice(prefix.length);
}

/** A resource of a stack's state: restcloud's, in either mode, and the others (the stack, providers). */
export interface StateResource {
  urn: string;
  /** The logical name. */
  name: string;
  type: string;
  /** The resource kind, e.g. "PublicIpAddress" (restcloud resources only, in either mode). */
  kind?: string;
  id?: string;
  /** The provider reference: `<provider URN>::<provider id>`. */
  provider?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** The errors of an operation left unfinished (e.g. a create whose wait was cancelled). */
  initErrors?: string[];
}

/** A restcloud resource of a stack's state that holds a record: its kind and id known. */
export type HeldResource = StateResource & { kind: string; id: string };

/** A resource as a deployment (exported, or the file backend's checkpoint) holds it. */
export interface DeploymentResource {
  urn: string;
  type: string;
  id?: string;
  provider?: string;
  inputs?: object;
  outputs?: object;
  initErrors?: string[];
}

export interface Deployment {
  resources?: DeploymentResource[];
  pending_operations?: { resource: DeploymentResource }[];
}

/** A deployment's resource as the tests read it: its logical name and kind drawn out, the rest as it is. */
export function stateResourceOf(r: DeploymentResource): StateResource {
  return {
    urn: r.urn,
    name: r.urn.split("::").pop()!,
    type: r.type,
    kind: kindOf(r.type),
    id: r.id,
    provider: r.provider,
    inputs: { ...(r.inputs ?? {}) } as Record<string, unknown>,
    outputs: { ...(r.outputs ?? {}) } as Record<string, unknown>,
    initErrors: r.initErrors,
  };
}

/**
 * Every resource of the stack's state (the Automation API exports it with secrets decrypted), and
 * the resources of its pending operations.
 */
export async function stateOf(stack: TestStack): Promise<{ resources: StateResource[]; pending: StateResource[] }> {
  const { deployment } = (await stack.stack.exportStack()) as { deployment: Deployment };
  return {
    resources: (deployment.resources ?? []).map(stateResourceOf),
    pending: (deployment.pending_operations ?? []).map((p) => stateResourceOf(p.resource)),
  };
}

const isHeld = (r: StateResource): r is HeldResource => r.kind !== undefined && typeof r.id === "string" && r.id !== "";

/** The stack's restcloud resources with an id, from its exported state (pending operations left out). */
export async function stateResources(stack: TestStack): Promise<HeldResource[]> {
  return (await stateOf(stack)).resources.filter(isHeld);
}

/** The ids of the stack's restcloud resources, from its exported state (pending operations included). */
export async function stateIds(stack: TestStack): Promise<Set<string>> {
  const { resources, pending } = await stateOf(stack);
  return new Set([...resources, ...pending].filter(isHeld).map((r) => r.id));
}

export interface AccountAudit {
  /** Records of the managed kinds in the account (derived records left out). */
  records: number;
  /** `collection/name` of every name held by more than one record of a collection. */
  duplicates: string[];
  /** `collection/id` of records the stack's state does not hold. */
  orphans: string[];
  /** `collection/id` of records the stack's state holds and the account does not. */
  lost: string[];
  /** `collection/id (names)` of every record that more than one resource of the state holds. */
  sharedIds: string[];
}

/** The audit of an account that holds none of a stack's records, and nothing orphaned. */
export const EMPTY_ACCOUNT: Readonly<AccountAudit> = {
  records: 0,
  duplicates: [],
  orphans: [],
  lost: [],
  sharedIds: [],
};

/**
 * Compares an account's records with the stack's state (its restcloud resources in either mode).
 * The `pulumi-owner` tags the provider puts on the records it creates are not counted (isDerived).
 * `resources` narrows the state to the resources that live in `account` (a program with two).
 */
export async function auditAccount(
  apiUrl: string,
  stack: TestStack,
  options: { account?: string; resources?: (r: HeldResource) => boolean } = {},
): Promise<AccountAudit> {
  const [kinds, state] = await Promise.all([managedRecords(apiUrl, options.account), stateOf(stack)]);
  const ours = (r: StateResource): r is HeldResource => isHeld(r) && (options.resources?.(r) ?? true);
  const [held, pending] = [state.resources.filter(ours), state.pending.filter(ours)];
  const keyOf = (r: HeldResource): string => {
    const collection = RESOURCE_COLLECTIONS[r.kind];
    if (collection === undefined) throw new Error(`the audit knows no collection for ${r.kind} (resource ${r.name})`);
    return `${collection}/${r.id}`;
  };
  const holders = new Map<string, string[]>();
  for (const r of held) holders.set(keyOf(r), [...(holders.get(keyOf(r)) ?? []), r.name]);
  const inState = new Set([...holders.keys(), ...pending.map(keyOf)]);

  const audit: AccountAudit = { ...EMPTY_ACCOUNT, duplicates: [], orphans: [], lost: [], sharedIds: [] };
  const inAccount = new Set<string>();
  for (const [kind, records] of kinds) {
    const names = new Map<string, number>();
    for (const [key, record] of Object.entries(records)) {
      audit.records++;
      inAccount.add(`${kind}/${key}`);
      if (!inState.has(`${kind}/${key}`)) audit.orphans.push(`${kind}/${key}`);
      if (typeof record.name === "string") names.set(record.name, (names.get(record.name) ?? 0) + 1);
    }
    for (const [name, n] of names) if (n > 1) audit.duplicates.push(`${kind}/${name} (${n} records)`);
  }
  audit.lost = [...inState].filter((key) => !inAccount.has(key));
  audit.sharedIds = [...holders]
    .filter(([, names]) => names.length > 1)
    .map(([key, names]) => `${key} (${names.join(", ")})`);
  return audit;
}

// ---- deletions out of band ------------------------------------------------------------------------------

interface OutOfBandDelete {
  /** `collection/id`, as the audit names records. */
  record: string;
  method: "GET" | "DELETE";
  /** Path and query. */
  path: string;
}

const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/**
 * The REST calls that delete each managed record, as a user would send them outside Pulumi, in
 * waves: a wave is sent once the waves before it are gone (what refers to a record goes first).
 */
function outOfBandDeletes(collections: Collections): OutOfBandDelete[][] {
  const each = (collection: string, call: (key: string) => Omit<OutOfBandDelete, "record">): OutOfBandDelete[] =>
    Object.keys(collectionRecords(collections, collection)).map((key) => ({
      record: `${collection}/${key}`,
      ...call(key),
    }));
  const del = (path: string): Omit<OutOfBandDelete, "record"> => ({ method: "DELETE", path });
  const byKey = (base: string) => (key: string) => del(`${base}/${key}`);
  const groupRules = Object.entries(collections.securitygroup ?? {}).flatMap(([groupUuid, group]) =>
    (
      [
        ["securitygroup.firewall", "securityGroupFirewallRule", "FIREWALLRULE"],
        ["securitygroup.egress", "securityGroupEgressRule", "EGRESSRULE"],
        ["securitygroup.portforwarding", "securityGroupPortForwarding", "PORTFORWATDING"],
      ] as const
    ).flatMap(([collection, array, ruleType]) =>
      ((group[array] as Record<string, unknown>[] | undefined) ?? []).map((rule) => ({
        record: `${collection}/${String(rule.uuid)}`,
        ...del(
          `/restapi/securitygroup/deleteSecurityGroupRule?${q({ securityGroupUuid: groupUuid, ruleType, ruleUuid: String(rule.uuid) })}`,
        ),
      })),
    ),
  );
  return [
    each("tag", byKey("/restapi/resourcetags/deleteResourceTag")),
    [
      ...each("snapshotpolicy", byKey("/restapi/snapshotPolicy/deleteSnapshotPolicy")),
      ...each("snapshot", byKey("/restapi/snapshot/deleteSnapshot")),
      ...each("vmsnapshot", byKey("/restapi/vmsnapshot/deleteVmSnapshot")),
      ...each("staticnat", (key) => del(`/restapi/ipaddress/disableStaticNat?${q({ ipAddressUuid: key })}`)),
      ...each("remotevpnaccess", (key) =>
        del(`/restapi/ipaddress/disableremotevpnaccess?${q({ ipAddressUuid: key })}`),
      ),
      ...each("portforwardingrule", byKey("/restapi/portforwardingrule/deletePortForwardingRule")),
      ...each("loadbalancerrule", byKey("/restapi/loadbalancerrule/deleteLoadBalancerRule")),
      ...each("firewallrule", byKey("/restapi/firewallrule/deleteFirewallRule")),
      ...each("egressrule", byKey("/restapi/egressrule/deleteEgressRule")),
      ...each("internallb", (name) => del(`/restapi/internallb/deleteInternalLb/${encodeURIComponent(name)}`)),
      ...each("vpnconnection", byKey("/restapi/vpnconnection/deleteVpnConnection")),
      ...groupRules,
    ],
    [
      ...each("securitygroup", byKey("/restapi/securitygroup/deleteSecurityGroup")),
      ...each("vpncustomergateway", byKey("/restapi/vpncustomergateway/deleteVpnCustomerGateway")),
      ...each("cluster", (key) => del(`/restapi/kubernetes/destroyKubernetes?${q({ uuid: key })}`)),
      ...each("instance", (key) => ({
        method: "GET" as const,
        path: `/restapi/instance/destroyInstance?${q({ uuid: key, expunge: "true" })}`,
      })),
    ],
    [
      ...each("volume", byKey("/restapi/volume/deleteVolume")),
      ...each("ipaddress", (key) => del(`/restapi/ipaddress/releaseIpAddress?${q({ uuid: key })}`)),
    ],
    each("network", byKey("/restapi/network/deleteNetwork")),
    each("vpc", byKey("/restapi/vpc/deleteVpc")),
  ];
}

/** One call of the REST API with an account's keys (the demo account's unless told); its status and body. */
export async function callApi(
  apiUrl: string,
  method: string,
  pathAndQuery: string,
  keys: { apiKey: string; secretKey: string } = DEMO_KEYS,
): Promise<{ status: number; body: string }> {
  const response = await fetch(`${apiUrl}${pathAndQuery}`, {
    method,
    headers: { apikey: keys.apiKey, secretkey: keys.secretKey },
  });
  return { status: response.status, body: await response.text() };
}

/**
 * Deletes every managed record of the demo account through the REST API, as a user would outside
 * Pulumi: the records that refer to others first, each wave once the one before is gone (deletes
 * and expunges take the service's asynchronous delay). A 409 (still in use, or already going) is
 * sent again on the next round; any other failure throws. Answers the `collection/id` of every
 * record deleted.
 */
export async function deleteEverythingOutOfBand(
  apiUrl: string,
  options: { pauseMs?: number; maxRounds?: number } = {},
): Promise<string[]> {
  const { pauseMs = 100, maxRounds = 300 } = options;
  const deleted = new Set<string>();
  for (let round = 0; round < maxRounds; round++) {
    const wave = outOfBandDeletes(await accountResources(apiUrl)).find((w) => w.length > 0);
    if (wave === undefined) return [...deleted];
    await Promise.all(
      wave.map(async (call) => {
        const { status, body } = await callApi(apiUrl, call.method, call.path);
        if (status < 300 || status === 404) deleted.add(call.record);
        else if (status !== 409) throw new Error(`${call.method} ${call.path}: HTTP ${status}: ${body}`);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  const left = outOfBandDeletes(await accountResources(apiUrl)).flat();
  throw new Error(`records left after ${maxRounds} rounds of deletes: ${left.map((c) => c.record).join(", ")}`);
}

// ---- the processes of a stack's runs --------------------------------------------------------------------

/** A process of a stack's run, as /proc shows it. */
export interface RunProcess {
  pid: number;
  command: string;
}

/** The processes whose environment names this PULUMI_HOME: every process of the stack's runs. */
export function processesOf(pulumiHome: string): RunProcess[] {
  const marker = `PULUMI_HOME=${pulumiHome}\0`;
  const found: RunProcess[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, "utf8");
      if (!`${environ}\0`.includes(marker)) continue;
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** A provider process of either mode: the native plugin, or the SDK's dynamic-provider process. */
export const isProvider = (p: RunProcess): boolean => /native-plugin\.js|dynamic-provider/.test(p.command);

// ---- the emulator as a separate process -------------------------------------------------------------

/** A free TCP port on 127.0.0.1 (bound, then released). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `node dist/emulator/cli.js` on a fixed port, so that it can be killed and restarted at the same URL. */
export class EmulatorProcess {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly args: string[],
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it and resolves once it prints `listening on`. */
  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      [path.join(REPO_ROOT, "dist", "emulator", "cli.js"), "--port", String(this.port), ...this.args],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    this.child = child;
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      let stdout = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes("listening on")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before listening: ${stderr}`)));
    });
  }

  /** Kills it with `signal` and waits until it is gone. */
  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  }
}

// ---- requests in flight ------------------------------------------------------------------------------

export interface CountingProxy {
  url: string;
  /** The most API requests in flight at once since the last reset. */
  maxInFlight(): number;
  /** API requests forwarded since the last reset. */
  requests(): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A reverse proxy in front of the emulator that counts the API requests in flight: what the
 * service sees of the provider's concurrency (the emulator's stats count requests, not overlap).
 * `beforeForwarding` runs before each request goes on (e.g. to kill the service at a chosen
 * moment); a request the service cannot take is cut off, as by a service that died.
 */
export async function countingProxy(
  target: string,
  beforeForwarding?: (method: string, url: string) => Promise<void>,
): Promise<CountingProxy> {
  const agent = new http.Agent({ keepAlive: true });
  let inFlight = 0;
  let max = 0;
  let total = 0;
  const server = await startLocalServer((req, res) => {
    const counted = (req.url ?? "").startsWith("/restapi/");
    if (counted) {
      inFlight++;
      total++;
      max = Math.max(max, inFlight);
      res.once("close", () => inFlight--);
    }
    const forward = () => {
      const upstream = http.request(
        `${target}${req.url ?? "/"}`,
        { method: req.method, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.once("error", () => res.destroy());
      req.pipe(upstream);
    };
    if (beforeForwarding) void beforeForwarding(req.method ?? "GET", req.url ?? "/").then(forward, () => res.destroy());
    else forward();
  });
  return {
    url: server.url,
    maxInFlight: () => max,
    requests: () => total,
    reset: () => {
      max = inFlight;
      total = 0;
    },
    close: async () => {
      agent.destroy();
      await server.close();
    },
  };
}
