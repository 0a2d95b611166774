// A team's shared backend for the runners' tests, PostgreSQL or an S3-compatible store: its login, the
// environment its clients need, and its stacks' locks as the CLI keeps them (read, and one left by a
// runner of another machine).
import { randomUUID } from "node:crypto";
import { startPostgres, type PostgresServer } from "../postgres-server";
import { startS3 } from "../s3-server";

export type BackendKind = "postgres" | "s3";

/** A lock as the CLI writes one: the run's process and machine. */
export interface StackLock {
  host: string;
  pid: number;
}

export interface TeamBackend {
  readonly kind: BackendKind;
  readonly loginUrl: string;
  /** What a runner's CLI needs beside the login (the object store's credentials and region). */
  readonly env: Record<string, string>;
  /** The keys of the stack's locks. */
  lockKeys(stack: string): Promise<string[]>;
  /** A lock of the stack left by a run elsewhere, beside the stack's checkpoint. */
  insertLock(stack: string, lock: StackLock): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Where a stack's next lock goes, from its checkpoint's key (`<prefix>.pulumi/stacks/<project>/<stack>.json`:
 * PostgreSQL's keys start with the database's name): `<prefix>.pulumi/locks/organization/<project>/<stack>/<id>.json`.
 */
function lockKeyBeside(keys: readonly string[], stack: string): string {
  const checkpoint = keys
    .map((key) => new RegExp(`^(.*)\\.pulumi/stacks/([^/]+)/${stack}\\.json$`).exec(key.trim()))
    .find((m) => m !== null);
  if (!checkpoint) throw new Error(`no checkpoint of stack ${stack} in the backend`);
  return `${checkpoint[1]}.pulumi/locks/organization/${checkpoint[2]}/${stack}/${randomUUID()}.json`;
}

const lockBody = (lock: StackLock) =>
  JSON.stringify({ pid: lock.pid, username: "ci", hostname: lock.host, timestamp: new Date().toISOString() });

const isLockOf = (stack: string) => (key: string) => new RegExp(`\\.pulumi/locks/.*/${stack}/[^/]+\\.json$`).test(key);

/** A PostgreSQL lock row: the lock's JSON in base64 under "data", as the CLI keeps every blob. */
export function insertPostgresLock(pg: PostgresServer, stack: string, lock: StackLock): void {
  const key = lockKeyBeside(pg.sql("select key from pulumi_state").split("\n"), stack);
  const data = JSON.stringify({ data: Buffer.from(lockBody(lock)).toString("base64") });
  pg.sql(`insert into pulumi_state (key, data) values ('${key}', '${data}')`);
}

export async function startBackend(kind: BackendKind): Promise<TeamBackend> {
  if (kind === "postgres") {
    const pg = await startPostgres();
    const keys = () =>
      pg
        .sql("select key from pulumi_state")
        .split("\n")
        .map((key) => key.trim());
    return {
      kind,
      loginUrl: pg.loginUrl,
      env: {},
      lockKeys: async (stack) => keys().filter(isLockOf(stack)),
      insertLock: async (stack, lock) => insertPostgresLock(pg, stack, lock),
      stop: () => pg.stop(),
    };
  }
  const s3 = await startS3();
  return {
    kind,
    loginUrl: s3.loginUrl,
    env: s3.env,
    lockKeys: async (stack) => (await s3.keys()).filter(isLockOf(stack)),
    insertLock: async (stack, lock) => s3.put(lockKeyBeside(await s3.keys(), stack), lockBody(lock)),
    stop: () => s3.stop(),
  };
}
