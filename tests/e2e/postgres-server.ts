// A PostgreSQL server of a test's own, for Pulumi's self-managed PostgreSQL state backend (a team's
// shared backend). Run as the `postgres` user when the tests run as root: initdb refuses root.
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export interface PostgresServer {
  readonly port: number;
  /** `pulumi login` URL of the database (TLS off: the Go driver tries it by default). */
  readonly loginUrl: string;
  /** Runs SQL as the superuser and answers psql's unaligned rows. */
  sql(query: string): string;
  stop(): Promise<void>;
}

const ROOT = path.join(__dirname, "../..");

/** The server binaries' directory, installing Debian's package when missing (scripts/install-postgres.sh). */
export function postgresBin(): string {
  const out = execFileSync("bash", [path.join(ROOT, "scripts/install-postgres.sh")], { encoding: "utf8" });
  return out.trim().split("\n").pop()!;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server binary as the postgres user when root (initdb refuses root), else as ourselves. */
function asServerUser(bin: string, command: string, args: readonly string[]): [string, string[]] {
  const program = path.join(bin, command);
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, [...args]];
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-pg-"));
  const data = path.join(dir, "data");
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, uid, gid);
  }
  const run = (command: string, args: readonly string[]) => {
    const [program, argv] = asServerUser(bin, command, args);
    return execFileSync(program, argv, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  };
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const [program, argv] = asServerUser(bin, "postgres", [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
  ]);
  const log = fs.openSync(path.join(dir, "server.log"), "a");
  const server = spawn(program, argv, { cwd: dir, stdio: ["ignore", log, log], detached: true });
  server.unref();
  const connect = ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres"];
  for (let i = 0; ; i++) {
    try {
      run("pg_isready", [...connect, "-q"]);
      break;
    } catch {
      if (i >= 150 || server.exitCode !== null)
        throw new Error(`PostgreSQL did not start: ${fs.readFileSync(path.join(dir, "server.log"), "utf8")}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  run("createdb", [...connect, "pulumi"]);
  return {
    port,
    loginUrl: `postgres://postgres@127.0.0.1:${port}/pulumi?sslmode=disable`,
    sql: (query) => execFileSync("psql", [...connect, "-d", "pulumi", "-At", "-c", query], { encoding: "utf8" }),
    async stop() {
      try {
        run("pg_ctl", ["-D", data, "stop", "-m", "immediate", "-w"]);
      } catch {
        server.kill("SIGKILL");
      }
      fs.closeSync(log);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
