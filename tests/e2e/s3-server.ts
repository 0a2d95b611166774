// An S3-compatible object store of a test's own (moto's server), for Pulumi's self-managed S3 state
// backend: a bucket, and the `pulumi login` URL and environment that reach it.
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { freePort } from "./reliability/helpers";

export interface S3Server {
  /** `pulumi login` URL of the bucket (path-style addressing, plain HTTP). */
  readonly loginUrl: string;
  /** What the CLI's AWS SDK needs: any keys (moto checks none), a region, no checksum warnings. */
  readonly env: Record<string, string>;
  /** The keys the bucket holds. */
  keys(): Promise<string[]>;
  /** Writes an object. */
  put(key: string, body: string): Promise<void>;
  stop(): Promise<void>;
}

const ROOT = path.join(__dirname, "../..");

/** moto's server, installing it when missing (scripts/install-s3.sh). */
export function s3ServerBinary(): string {
  const out = execFileSync("bash", [path.join(ROOT, "scripts/install-s3.sh")], { encoding: "utf8" });
  return out.trim().split("\n").pop()!;
}

export async function startS3(bucket = "pulumi-state"): Promise<S3Server> {
  const binary = s3ServerBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-s3-"));
  const port = await freePort();
  const log = fs.openSync(path.join(dir, "server.log"), "a");
  const server = spawn(binary, ["-H", "127.0.0.1", "-p", String(port)], { stdio: ["ignore", log, log] });
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    // moto checks no signature: a plain PUT makes the bucket.
    const made = await fetch(`${endpoint}/${bucket}`, { method: "PUT" }).then(
      (answer) => answer.ok,
      () => false,
    );
    if (made) break;
    if (i >= 150 || server.exitCode !== null)
      throw new Error(`the S3 server did not start: ${fs.readFileSync(path.join(dir, "server.log"), "utf8")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    loginUrl: `s3://${bucket}?endpoint=${endpoint}&use_path_style=true&region=us-east-1`,
    env: {
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
      AWS_REGION: "us-east-1",
      AWS_RESPONSE_CHECKSUM_VALIDATION: "when_required",
    },
    async keys() {
      const listing = await (await fetch(`${endpoint}/${bucket}?list-type=2`)).text();
      return [...listing.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]);
    },
    async put(key, body) {
      const answer = await fetch(`${endpoint}/${bucket}/${key}`, { method: "PUT", body });
      if (!answer.ok) throw new Error(`PUT ${key}: HTTP ${answer.status}`);
    },
    async stop() {
      server.kill("SIGKILL");
      fs.closeSync(log);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
