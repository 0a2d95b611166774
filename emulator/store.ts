/**
 * The emulator's whole mutable state: each account's resources, the asynchronous jobs, the pending
 * deferred changes and the public IP pools. Persisted atomically (temp file, then rename) after each
 * change when a state file is configured, and reloaded from it on start.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { dirname } from "node:path";
import type { Account, AccountResources, AccountScope, ApiRecord, DeferredChange, JobRecord } from "./core";

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

export interface State {
  version: 1;
  accounts: Record<string, AccountResources>;
  jobs: Record<string, StoredJob>;
  pending: PendingWork[];
  /** zoneUuid to the allocated public addresses of its pool (global across accounts). */
  publicIps: Record<string, string[]>;
  /** Draws of the uuid stream so far, so a seeded emulator restarted from its file does not reissue ids. */
  uuidCounter: number;
}

export const emptyState = (): State => ({
  version: 1,
  accounts: {},
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
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<State>;
    if (parsed.version !== 1)
      throw new Error(`${file}: not an emulator state file (version ${String(parsed.version)})`);
    return { ...emptyState(), ...parsed };
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

  scope(account: Account): AccountScope {
    let scope = this.scopes.get(account.id);
    if (!scope) {
      scope = {
        account,
        collection: (name: string): Record<string, ApiRecord> => (this.resources(account.id)[name] ??= {}),
        changed: () => this.persist(),
        collectionNames: () => Object.keys(this.resources(account.id)),
      };
      this.scopes.set(account.id, scope);
    }
    return scope;
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
