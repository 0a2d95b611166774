/**
 * What the emulator's area tests share: one request helper, one polling helper, the emulator a test
 * file runs against, and builders of the prerequisite resources (network, VPC and tier, instance,
 * public IP, volume, VPN customer gateway) from the seeded catalog's fixed ids.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as path from "node:path";
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/index";

/** A JSON record as the tests read it: any field, of any type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
/** The authentication headers of an account (`{}`: none). */
export type AccountHeaders = Record<string, string>;

/** The emulator's built-in accounts. */
export const DEMO: AccountHeaders = { apikey: "demo-api-key", secretkey: "demo-secret-key" };
export const ADMIN: AccountHeaders = { apikey: "admin-api-key", secretkey: "admin-secret-key" };

export const ZONE = CATALOG_IDS.zones.frankfurt;
export const UNKNOWN = "00000000-0000-4000-8000-000000000000";
/** The asynchronous delay of the test emulators: work completes within a few polls. */
export const ASYNC_MS = 30;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits `count` asynchronous delays: deferred work of the test emulators is done by then. */
export const asyncDelays = (count: number) => sleep(ASYNC_MS * count);

// ---------------------------------------------------------------------------------------------
// Requests

/** What a request is sent to: a running emulator, or the emulator of a test file. */
export interface Target {
  readonly url: string;
}

/** A body sent as it is, under its own content type (malformed JSON, XML, an empty body). */
export class RawBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

export interface Reply {
  status: number;
  /** The parsed JSON body; undefined when the answer has none. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** Not enumerable, so that a test may compare a whole reply with `{ status, body }`. */
  readonly headers: Headers;
}

/**
 * One request to the emulator, as an account (`headers`, the demo account's by default; `{}` sends
 * none). GET and DELETE carry `input` in the query, after any query the path holds; POST and PUT
 * carry it as a JSON body (or as it is, for a RawBody).
 */
export async function request(
  on: Target,
  method: string,
  path: string,
  input?: Json | RawBody,
  headers: AccountHeaders = DEMO,
): Promise<Reply> {
  let url = `${on.url}${path}`;
  let body: string | undefined;
  const sent = { ...headers };
  if (input instanceof RawBody) {
    body = input.text;
    sent["content-type"] = input.contentType;
  } else if (input !== undefined && (method === "GET" || method === "DELETE")) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(input)) if (value !== undefined) query.set(name, String(value));
    if (query.size > 0) url += `${path.includes("?") ? "&" : "?"}${query}`;
  } else if (input !== undefined) {
    body = JSON.stringify(input);
    sent["content-type"] = "application/json";
  }
  const response = await fetch(url, { method, headers: sent, body });
  const text = await response.text();
  const reply = { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  return Object.defineProperty(reply, "headers", { value: response.headers, enumerable: false }) as Reply;
}

/** The one record of a successful (200) envelope answer. */
export async function one(
  on: Target,
  method: string,
  path: string,
  input?: Json,
  headers: AccountHeaders = DEMO,
): Promise<Json> {
  const reply = await request(on, method, path, input, headers);
  expect([reply.status, reply.body]).toEqual([200, expect.anything()]);
  return (Object.values(reply.body as Json).find(Array.isArray) as Json[])[0];
}

/** The error envelope's code and message (both undefined when the answer is no error). */
export const errorOf = (reply: { body: Json }) =>
  (reply.body?.listErrorResponse ?? {}) as { errorCode?: string; errorMsg?: string };

/** The fields of `input` with a value: a refusal case leaves a field out as undefined or "". */
export const withoutBlanks = (input: Json): Json =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value));

/** Polls `read` until `done` holds; fails the test after 3 s, naming the last value read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached; last value ${JSON.stringify(value)}`);
    await sleep(ASYNC_MS / 2);
  }
}

// ---------------------------------------------------------------------------------------------
// Emulators

/** The emulator of a test file, running from its beforeAll to its afterAll. */
export class TestEmulator implements Target {
  private current?: RunningEmulator;

  async start(options: EmulatorOptions): Promise<void> {
    this.current = await startEmulator(options);
  }

  async stop(): Promise<void> {
    await this.current?.stop();
  }

  get running(): RunningEmulator {
    if (!this.current) throw new Error("the emulator runs only from beforeAll to afterAll");
    return this.current;
  }

  get url(): string {
    return this.running.url;
  }

  get context(): RunningEmulator["context"] {
    return this.running.context;
  }

  scope(account: string): ReturnType<RunningEmulator["scope"]> {
    return this.running.scope(account);
  }

  /** A request to this emulator (see `request`). */
  readonly call = (method: string, path: string, input?: Json | RawBody, headers?: AccountHeaders) =>
    request(this, method, path, input, headers);

  /** The one record of a successful envelope answer of this emulator (see `one`). */
  readonly one = (method: string, path: string, input?: Json, headers?: AccountHeaders) =>
    one(this, method, path, input, headers);

  /** Every record of an account, by collection and uuid. */
  readonly resources = async (account = "demo"): Promise<Json> =>
    (await request(this, "GET", `/_emulator/resources?account=${account}`)).body as Json;

  /**
   * Sends a request this emulator must refuse: it answers `status` with an error message that is
   * `message` (a string) or matches it (a pattern), and the demo account's resources stay as they were.
   */
  readonly expectRefused = async (send: () => Promise<Reply>, status: number, message: string | RegExp) => {
    const before = await this.resources();
    const reply = await send();
    expect(reply.status).toBe(status);
    expect(errorOf(reply).errorMsg).toEqual(message instanceof RegExp ? expect.stringMatching(message) : message);
    expect(await this.resources()).toEqual(before);
  };

  /** Drops every account's resources (and puts the seeded invoices back). */
  readonly reset = async (): Promise<void> => {
    await request(this, "POST", "/_emulator/reset");
  };
}

/** Starts an emulator (port 0, ASYNC_MS unless `options` say otherwise) before the file's tests, stops it after. */
export function useEmulator(options: EmulatorOptions = {}): TestEmulator {
  const emulator = new TestEmulator();
  beforeAll(() => emulator.start({ port: 0, asyncDelayMs: ASYNC_MS, ...options }));
  afterAll(() => emulator.stop());
  return emulator;
}

/** An emulator whose asynchronous work never completes during a test: refusals while work is in progress. */
export const useSlowEmulator = (): TestEmulator => useEmulator({ asyncDelayMs: 60_000 });

/**
 * For files that start emulators inside their tests (each with its own options): `start` them, and
 * whatever is still running is stopped after the file's tests.
 */
export function emulatorsOnDemand(defaults: EmulatorOptions = {}) {
  const running = new Set<RunningEmulator>();
  const stop = async (emulator: RunningEmulator): Promise<void> => {
    running.delete(emulator);
    await emulator.stop();
  };
  const stopAll = async (): Promise<void> => {
    await Promise.all([...running].map(stop));
  };
  afterAll(stopAll);
  return {
    async start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
      const emulator = await startEmulator({ port: 0, asyncDelayMs: ASYNC_MS, ...defaults, ...options });
      running.add(emulator);
      return emulator;
    },
    stop,
    stopAll,
  };
}

/** Records of areas a file does not test, put straight into the demo account. */
export function seed(emulator: TestEmulator | RunningEmulator, collection: string, record: Json): void {
  emulator.scope("demo").collection(collection)[String(record.uuid)] = { status: "Active", isActive: true, ...record };
}

// ---------------------------------------------------------------------------------------------
// Prerequisites, in Frankfurt unless told otherwise

export const networkInput = (overrides: Json = {}): Json => ({
  name: "backend",
  zoneUuid: ZONE,
  networkOfferingUuid: CATALOG_IDS.networkOfferings.isolated,
  ...overrides,
});

/** An isolated network (10.1.N.0/24). */
export const createNetwork = (on: Target, overrides: Json = {}, headers: AccountHeaders = DEMO) =>
  one(on, "POST", "/restapi/network/createNetwork", networkInput(overrides), headers);

export const vpcInput = (overrides: Json = {}): Json => ({
  name: "v",
  zoneUuid: ZONE,
  vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard,
  getcIDR: "10.0.0.0/16",
  ...overrides,
});

export const createVpc = (on: Target, overrides: Json = {}, headers: AccountHeaders = DEMO) =>
  one(on, "POST", "/restapi/vpc/createVpc", vpcInput(overrides), headers);

export const tierInput = (vpcUuid: unknown, overrides: Json = {}): Json => ({
  name: "t",
  vpcUuid,
  networkOfferingUuid: CATALOG_IDS.networkOfferings.vpcTier,
  gateway: "10.20.1.1",
  netmask: "255.255.255.0",
  ...overrides,
});

/** A VPC of 10.20.0.0/16 with one tier, 10.20.1.0/24. */
export async function createVpcWithTier(
  on: Target,
  overrides: { vpc?: Json; tier?: Json } = {},
): Promise<{ vpc: Json; tier: Json }> {
  const vpc = await createVpc(on, { getcIDR: "10.20.0.0/16", ...overrides.vpc });
  const tier = await one(on, "POST", "/restapi/vpc/createVpcNetwork", tierInput(vpc.uuid, overrides.tier));
  return { vpc, tier };
}

/** An Ubuntu instance of 1 vCPU and 1 GiB; `overrides` name its network. */
export const instanceInput = (overrides: Json): Json => ({
  name: "web-1",
  zoneUuid: ZONE,
  templateUuid: CATALOG_IDS.templates.ubuntu2404,
  computeOfferingUuid: CATALOG_IDS.computeOfferings.gp1c1g,
  ...overrides,
});

/** The instance as instanceList shows it, or undefined once it is gone. */
export const readInstance = async (on: Target, uuid: string, zoneUuid = ZONE): Promise<Json | undefined> =>
  (await request(on, "GET", "/restapi/instance/instanceList", { zoneUuid, vmUuid: uuid })).body.listInstanceResponse[0];

/** An instance once it is Running (no asynchronous change pending), as instanceList shows it. */
export async function runningInstance(on: Target, overrides: Json): Promise<Json> {
  const input = instanceInput(overrides);
  const { uuid } = await one(on, "POST", "/restapi/instance/createInstance", input);
  return (await until(
    () => readInstance(on, uuid, input.zoneUuid),
    (instance) => instance?.state === "Running",
  )) as Json;
}

/** A public IP address of a network (or, with networkType VPC, of a VPC). */
export const acquireIp = (on: Target, networkUuid: unknown, networkType = "NETWORK", headers = DEMO) =>
  one(on, "GET", "/restapi/ipaddress/acquireIpAddress", { networkUuid, networkType }, headers);

/** A 20 GB SSD data volume. */
export const volumeInput = (overrides: Json = {}): Json => ({
  name: "data",
  zoneUuid: ZONE,
  storageOfferingUuid: CATALOG_IDS.storageOfferings.ssd20,
  diskSize: 20,
  ...overrides,
});

/** A volume as createVolume answers it (Creating). */
export const createVolume = (on: Target, overrides: Json = {}) =>
  one(on, "POST", "/restapi/volume/createVolume", volumeInput(overrides));

/** A volume once its creation job made it Allocated, as volumeList shows it. */
export async function allocatedVolume(on: Target, overrides: Json = {}): Promise<Json> {
  const { uuid, zoneUuid } = await createVolume(on, overrides);
  return until(
    async () => (await request(on, "GET", "/restapi/volume/volumeList", { zoneUuid, uuid })).body.listVolumeResponse[0],
    (volume: Json) => volume.status === "Allocated",
  );
}

let gateways = 0;
/** A complete addVpnCustomerGateway body: every field the spec requires, valid, under a fresh name. */
export const gatewayInput = (overrides: Json = {}): Json => ({
  name: `branch-${++gateways}`,
  gateway: "198.51.100.7",
  cidrlist: "192.168.10.0/24",
  ipsecpsk: "s3cret-pre-shared-key",
  ikepolicy: "Group 14(modp2048)",
  esppolicy: "None",
  ikeEncryption: "aes256",
  ikeHash: "sha256",
  espEncryption: "aes128",
  espHash: "sha1",
  ikelifetime: "86400",
  esplifetime: "3600",
  ...overrides,
});

export const addGateway = (on: Target, overrides: Json = {}) =>
  one(on, "POST", "/restapi/vpncustomergateway/addVpnCustomerGateway", gatewayInput(overrides));

/** The emulator's command line (emulator/cli.ts, through ts-node) with these arguments, its output piped. */
export function spawnEmulatorCli(args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(__dirname, "../../../emulator/cli.ts"), ...args],
    { stdio: "pipe" },
  );
}

/** Collection to the fields version 3 stores under the domain's names: domain name to the spec's (version 2). */
const SPEC_NAMES_OF_VERSION_2: Record<string, Record<string, string>> = {
  vpc: { cidr: "getcIDR" },
  network: { cidr: "getcIDR" },
  cluster: { networkUuid: "transNetworkUuid" },
};

/**
 * A state (version 3) as version 2 kept it: records, and pending changes to them, under the spec's
 * field names (`getcIDR`, `transNetworkUuid`). For the tests of the migration of old state files and snapshots.
 */
export function asVersion2State(state: Json): Json {
  const old = structuredClone(state);
  old.version = 2;
  const respell = (fields: Json, names: Record<string, string> | undefined) => {
    for (const [domain, spec] of Object.entries(names ?? {})) {
      if (!(domain in fields)) continue;
      fields[spec] = fields[domain];
      delete fields[domain];
    }
  };
  for (const collections of Object.values(old.accounts as Json)) {
    for (const [name, records] of Object.entries(collections as Json)) {
      for (const record of Object.values(records as Json)) respell(record as Json, SPEC_NAMES_OF_VERSION_2[name]);
    }
  }
  for (const work of old.pending as Json[]) {
    for (const change of work.changes as Json[]) {
      if (change.set) respell(change.set as Json, SPEC_NAMES_OF_VERSION_2[String(change.collection)]);
    }
  }
  return old;
}

/**
 * A state (version 3) as version 1 kept it: the spec's field names (as version 2), and each internal
 * entry folded into its record as `_`-prefixed fields, no `internal`.
 */
export function asVersion1State(state: Json): Json {
  const old = asVersion2State(state);
  old.version = 1;
  for (const [account, collections] of Object.entries((old.internal ?? {}) as Json)) {
    for (const [name, entries] of Object.entries(collections as Json)) {
      for (const [key, entry] of Object.entries(entries as Json)) {
        const prefixed = Object.entries(entry as Json).map(([field, value]) => [`_${field}`, value]);
        Object.assign(old.accounts[account][name][key] as Json, Object.fromEntries(prefixed));
      }
    }
  }
  delete old.internal;
  return old;
}
