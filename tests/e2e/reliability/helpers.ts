/**
 * What the reliability tests share: the fleet program and its configuration, the emulator as a
 * separate process (to kill and restart), its control endpoints, a counting proxy that measures the
 * requests in flight, and the audit of an account against a stack's state (duplicates, orphans,
 * records lost).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as http from "node:http";
import * as net from "node:net";
import * as path from "node:path";
import { type CatalogIds, providerConfig } from "../catalog";
import { REPO_ROOT, startLocalServer, type TestStack } from "../harness";

export const PROGRAMS = path.join(__dirname, "programs");
export const FLEET_PROGRAM = path.join(PROGRAMS, "fleet");

type StackConfig = Record<string, string | { value: string; secret: boolean }>;

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

/** Every collection of the demo account, as the emulator holds it. */
export async function accountResources(apiUrl: string): Promise<Collections> {
  return (await (await fetch(`${apiUrl}/_emulator/resources?account=demo`)).json()) as Collections;
}

// ---- duplicates, orphans, lost records ------------------------------------------------------------

/** The emulator's collections of records a program creates (records of other kinds are left out). */
const MANAGED_COLLECTIONS = [
  "vpc",
  "network",
  "instance",
  "volume",
  "ipaddress",
  "firewallrule",
  "egressrule",
  "cluster",
  "securitygroup",
  "vpncustomergateway",
  "vpnconnection",
  "portforwardingrule",
  "loadbalancerrule",
  "snapshot",
  "vmsnapshot",
  "snapshotpolicy",
] as const;

/** Records the cloud makes along with another (no resource of their own): an instance's ROOT volume, cluster nodes. */
function isDerived(collection: string, record: Record<string, unknown>): boolean {
  if (collection === "instance") return record._clusterUuid !== undefined;
  if (collection === "volume") return record.volumeType === "ROOT";
  return false;
}

/** Per managed kind, the account's records that a program made (derived records left out), by uuid. */
export async function managedRecords(apiUrl: string): Promise<Map<string, Record<string, Record<string, unknown>>>> {
  const collections = await accountResources(apiUrl);
  return new Map(
    MANAGED_COLLECTIONS.map((kind) => [
      kind,
      Object.fromEntries(Object.entries(collections[kind] ?? {}).filter(([, record]) => !isDerived(kind, record))),
    ]),
  );
}

/** The ids of the stack's restcloud resources, from its exported state (pending operations included). */
export async function stateIds(stack: TestStack): Promise<Set<string>> {
  const { deployment } = (await stack.stack.exportStack()) as {
    deployment: {
      resources?: { type: string; id?: string; custom?: boolean }[];
      pending_operations?: { resource: { type: string; id?: string } }[];
    };
  };
  const ours = (type: string) => type.startsWith("pulumi-nodejs:dynamic/restcloud:");
  const ids = [
    ...(deployment.resources ?? []).filter((r) => ours(r.type)).map((r) => r.id),
    ...(deployment.pending_operations ?? []).filter((p) => ours(p.resource.type)).map((p) => p.resource.id),
  ];
  return new Set(ids.filter((id): id is string => typeof id === "string" && id !== ""));
}

export interface AccountAudit {
  /** Records of the managed kinds in the account (derived records left out). */
  records: number;
  /** `kind/name` of every name held by more than one record of a kind. */
  duplicates: string[];
  /** `kind/uuid` of records the stack's state does not hold. */
  orphans: string[];
  /** Ids in the stack's state that the account does not hold. */
  lost: string[];
}

/** Compares the account's records with the stack's state. */
export async function auditAccount(apiUrl: string, stack: TestStack): Promise<AccountAudit> {
  const [kinds, ids] = await Promise.all([managedRecords(apiUrl), stateIds(stack)]);
  const audit: AccountAudit = { records: 0, duplicates: [], orphans: [], lost: [] };
  const held = new Set<string>();
  for (const [kind, records] of kinds) {
    const names = new Map<string, number>();
    for (const [uuid, record] of Object.entries(records)) {
      audit.records++;
      held.add(uuid);
      if (!ids.has(uuid)) audit.orphans.push(`${kind}/${uuid}`);
      if (typeof record.name === "string") names.set(record.name, (names.get(record.name) ?? 0) + 1);
    }
    for (const [name, n] of names) if (n > 1) audit.duplicates.push(`${kind}/${name} (${n} records)`);
  }
  audit.lost = [...ids].filter((id) => !held.has(id));
  return audit;
}

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
