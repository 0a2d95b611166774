// The emulator's whole mutable state (records, internal entries, jobs, deferred changes, IP pools), persisted
// atomically (temp file, then rename) after each change when a state file is set. Older format versions are migrated on
// read (`migrateState`, where they are described); the current version is always what is written.
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { dirname } from "node:path";
import type {
  Account,
  AccountInternals,
  AccountResources,
  AccountScope,
  ApiRecord,
  DeferredChange,
  JobRecord,
} from "./core";

export interface AccountKeys {
  apiKey: string;
  secretKey: string;
}

export type AccountName = "demo" | "admin";

/** The two built-in accounts; their keys can be overridden by option. */
export const DEFAULT_ACCOUNTS: ReadonlyArray<Account & AccountKeys> = [
  {
    id: "demo",
    name: "demo",
    email: "demo@restcloud.example",
    isAdmin: false,
    apiKey: "demo-api-key",
    secretKey: "demo-secret-key",
  },
  {
    id: "admin",
    name: "admin",
    email: "admin@restcloud.example",
    isAdmin: true,
    apiKey: "admin-api-key",
    secretKey: "admin-secret-key",
  },
];

/** Deferred changes waiting for their due time; data, so they survive a restart. */
export interface PendingWork {
  id: string;
  accountId: string;
  dueAt: number;
  changes: DeferredChange[];
  /** Per change: whether its record existed when the work was scheduled (then it is an update, not a creation). */
  existedAtStart: boolean[];
  /** The job this work completes, if any. */
  jobId?: string;
}

export interface StoredJob extends JobRecord {
  accountId: string;
}

/** The version of the state written (in the state file and in snapshots). */
export const STATE_VERSION = 3;

/** The versions a state file or snapshot may have; older ones are migrated on load. */
export const READABLE_STATE_VERSIONS: readonly number[] = [1, 2, STATE_VERSION];

export interface State {
  version: typeof STATE_VERSION;
  /** Account id to its records. */
  accounts: Record<string, AccountResources>;
  /** Account id to the internal entries of its records (same collection names and keys as `accounts`). */
  internal: Record<string, AccountInternals>;
  jobs: Record<string, StoredJob>;
  pending: PendingWork[];
  /** zoneUuid to the allocated public addresses of its pool (global across accounts). */
  publicIps: Record<string, string[]>;
  /** Draws of the uuid stream so far, so a seeded emulator restarted from its file does not reissue ids. */
  uuidCounter: number;
}

export const emptyState = (): State => ({
  version: STATE_VERSION,
  accounts: {},
  internal: {},
  jobs: {},
  pending: [],
  publicIps: {},
  uuidCounter: 0,
});

export class Store {
  private state: State;
  private readonly scopes = new Map<string, AccountScope>();
  readonly accounts: ReadonlyArray<Account & AccountKeys>;

  constructor(
    private readonly stateFile: string | undefined,
    /** Every account served, with its keys (the built-in ones by default). */
    accounts: ReadonlyArray<Account & AccountKeys> = DEFAULT_ACCOUNTS,
  ) {
    this.accounts = accounts.map((a) => ({ ...a }));
    this.state = stateFile && existsSync(stateFile) ? Store.load(stateFile) : emptyState();
  }

  private static load(file: string): State {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<Omit<State, "version">> & { version?: unknown };
    if (!READABLE_STATE_VERSIONS.includes(parsed.version as number))
      throw new Error(`${file}: not an emulator state file (version ${String(parsed.version)})`);
    return migrateState({ ...emptyState(), ...parsed, version: parsed.version });
  }

  /** The account whose keys these are, if any. */
  authenticate(apiKey: unknown, secretKey: unknown): Account | undefined {
    const match = this.accounts.find((a) => a.apiKey === apiKey && a.secretKey === secretKey);
    return match && this.account(match.id);
  }

  account(idOrName: string): Account | undefined {
    const match = this.accounts.find((a) => a.id === idOrName || a.name === idOrName);
    return match && { id: match.id, name: match.name, email: match.email, isAdmin: match.isAdmin };
  }

  resources(accountId: string): AccountResources {
    return (this.state.accounts[accountId] ??= {});
  }

  internals(accountId: string): AccountInternals {
    return (this.state.internal[accountId] ??= {});
  }

  /**
   * The account's records with their internal entries folded in as `_`-prefixed fields (as version 1
   * kept them): the view `GET /_emulator/resources` gives, for tests and the console. Never an API answer.
   */
  resourcesWithInternals(accountId: string): AccountResources {
    const internals = this.internals(accountId);
    return Object.fromEntries(
      Object.entries(this.resources(accountId)).map(([name, records]) => [
        name,
        Object.fromEntries(
          Object.entries(records).map(([key, record]) => {
            const internal = internals[name]?.[key];
            if (!internal) return [key, record];
            const prefixed = Object.entries(internal).map(([field, value]) => [`_${field}`, value]);
            return [key, { ...record, ...Object.fromEntries(prefixed) }];
          }),
        ),
      ]),
    );
  }

  scope(account: Account): AccountScope {
    let scope = this.scopes.get(account.id);
    if (!scope) {
      const id = account.id;
      scope = {
        account,
        collection: (name: string): Record<string, ApiRecord> => (this.resources(id)[name] ??= {}),
        internal: (name: string): Record<string, Record<string, unknown>> => (this.internals(id)[name] ??= {}),
        remove: (name: string, key: string) => this.removeRecord(id, name, key),
        changed: () => this.persist(),
        collectionNames: () => Object.keys(this.resources(id)),
      };
      this.scopes.set(account.id, scope);
    }
    return scope;
  }

  /**
   * Removes a record, its internal entry and the tags on it: a resource that goes takes its tags
   * with it, whichever call removes it (CloudStack deletes a resource's tags with it).
   */
  removeRecord(accountId: string, name: string, key: string): void {
    delete this.resources(accountId)[name]?.[key];
    delete this.internals(accountId)[name]?.[key];
    if (name === "tag") return;
    const tags = this.resources(accountId).tag ?? {};
    for (const [uuid, tag] of Object.entries(tags)) if (tag.resourceUuid === key) delete tags[uuid];
  }

  get jobs(): Record<string, StoredJob> {
    return this.state.jobs;
  }

  get pending(): PendingWork[] {
    return this.state.pending;
  }

  get publicIps(): Record<string, string[]> {
    return this.state.publicIps;
  }

  get uuidCounter(): number {
    return this.state.uuidCounter;
  }

  set uuidCounter(n: number) {
    this.state.uuidCounter = n;
  }

  /** A deep copy of the whole state, for a snapshot. */
  exportState(): State {
    return structuredClone(this.state);
  }

  /** Replace the whole state (a validated snapshot's), then persist it. The caller reschedules the pending work. */
  replaceState(state: State): void {
    this.state = state;
    this.persist();
  }

  /** Empty every account, the jobs, the pending work and the IP pools (the uuid counter goes on). */
  reset(): void {
    this.state = { ...emptyState(), uuidCounter: this.state.uuidCounter };
    this.persist();
  }

  /** Write the state file atomically: a reader sees the old file or the new one, never half of one. */
  persist(): void {
    if (!this.stateFile) return;
    mkdirSync(dirname(this.stateFile), { recursive: true });
    const temp = `${this.stateFile}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.state));
    renameSync(temp, this.stateFile);
  }
}

/**
 * A state of any readable version, as the current version (3: domain field names). Mutates and returns `state`.
 * - 1 to 2: `_`-prefixed fields of a record (`_password`) move to `internal` unprefixed; those of pending changes
 *   (`_attachingTo: ""`) are dropped, as what they touched is read only in the transitional status they leave.
 * - 2 to 3: the spec's spellings (`getcIDR`, `transNetworkUuid`) in records and their pending changes become the
 *   domain's (`RENAMED_IN_VERSION_3`).
 */
export function migrateState(state: Omit<State, "version"> & { version: unknown }): State {
  if (state.version === 1) moveInternalFields(state);
  if (state.version === 1 || state.version === 2) renameFields(state, RENAMED_IN_VERSION_3);
  state.version = STATE_VERSION;
  return state as State;
}

/** Collection name to the fields that version 3 renamed in its records (old name to new). */
const RENAMED_IN_VERSION_3: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  vpc: { getcIDR: "cidr" },
  network: { getcIDR: "cidr" },
  cluster: { transNetworkUuid: "networkUuid" },
};

function renameFields(
  state: Omit<State, "version">,
  renamed: Readonly<Record<string, Readonly<Record<string, string>>>>,
): void {
  const rename = (fields: Record<string, unknown>, names: Readonly<Record<string, string>> | undefined): void => {
    for (const [from, to] of Object.entries(names ?? {})) {
      if (!(from in fields)) continue;
      if (!(to in fields)) fields[to] = fields[from];
      delete fields[from];
    }
  };
  for (const resources of Object.values(state.accounts)) {
    for (const [name, records] of Object.entries(resources)) {
      for (const record of Object.values(records)) rename(record, renamed[name]);
    }
  }
  for (const work of state.pending) {
    for (const change of work.changes) if ("set" in change) rename(change.set, renamed[change.collection]);
  }
}

function moveInternalFields(state: Omit<State, "version">): void {
  state.internal ??= {};
  for (const [accountId, resources] of Object.entries(state.accounts)) {
    for (const [name, records] of Object.entries(resources)) {
      for (const [key, record] of Object.entries(records)) {
        const internal = Object.keys(record).filter((field) => field.startsWith("_"));
        if (internal.length === 0) continue;
        const entry = (((state.internal[accountId] ??= {})[name] ??= {})[key] ??= {});
        for (const field of internal) {
          entry[field.slice(1)] = record[field];
          delete record[field];
        }
      }
    }
  }
  for (const work of state.pending) {
    for (const change of work.changes) {
      if (!("set" in change)) continue;
      for (const field of Object.keys(change.set)) if (field.startsWith("_")) delete change.set[field];
    }
  }
}
