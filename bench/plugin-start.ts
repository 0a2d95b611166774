// `npm run bench:plugin-start`: the release's single-executable plugin against today's (Node.js on dist/): time to its
// port, to a first GetSchema answer (which loads the provider), and peak memory (VmHWM). Medians of BENCH_RUNS starts
// (default 7) after one uncounted start that fills the compile cache. Builds the linux-amd64 executable, so runs there.
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import type * as grpcJs from "@grpc/grpc-js";
import type * as ProviderMessages from "@pulumi/pulumi/proto/provider_pb";
import { sdkModule } from "../provider/native/sdk-modules";
import { packageRoot } from "../provider/package-files";
import { buildRelease } from "../tools/release/release";
import { formatTable } from "./table";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");
const pb = sdkModule<typeof ProviderMessages>("@pulumi/pulumi/proto/provider_pb");
const { ResourceProviderClient } = sdkModule<{
  ResourceProviderClient: new (
    address: string,
    credentials: grpcJs.ChannelCredentials,
  ) => {
    getSchema(request: ProviderMessages.GetSchemaRequest, callback: (error: Error | null) => void): void;
    close(): void;
  };
}>("@pulumi/pulumi/proto/provider_grpc_pb");

interface Start {
  portMs: number;
  schemaMs: number;
  peakMb: number;
}

const peakMemoryMb = (pid: number): number =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

async function startOnce(executable: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(executable, [], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`${executable} exited (${code}) before printing its port`)));
      readline.createInterface({ input: child.stdout! }).once("line", resolve);
    });
    const portMs = performance.now() - started;
    const client = new ResourceProviderClient(`127.0.0.1:${port.trim()}`, grpc.credentials.createInsecure());
    await new Promise<void>((resolve, reject) =>
      client.getSchema(new pb.GetSchemaRequest(), (error) => (error ? reject(error) : resolve())),
    );
    const schemaMs = performance.now() - started;
    client.close();
    return { portMs, schemaMs, peakMb: peakMemoryMb(child.pid!) };
  } finally {
    child.kill();
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function measure(executable: string): Promise<Start> {
  await startOnce(executable);
  const starts: Start[] = [];
  for (let run = 0; run < RUNS; run++) starts.push(await startOnce(executable));
  return {
    portMs: median(starts.map((s) => s.portMs)),
    schemaMs: median(starts.map((s) => s.schemaMs)),
    peakMb: median(starts.map((s) => s.peakMb)),
  };
}

async function main(): Promise<void> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-bench-plugin-"));
  try {
    const release = await buildRelease({ out, platforms: ["linux-amd64"], only: ["plugin"] });
    const unpacked = path.join(out, "unpacked");
    fs.mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", release.artifacts[0]!.file, "-C", unpacked]);
    const variants = [
      { name: "today's plugin (node + dist/)", file: path.join(packageRoot, "plugin", "pulumi-resource-restcloud") },
      { name: "single executable", file: path.join(unpacked, "pulumi-resource-restcloud") },
    ];
    const lines: string[][] = [];
    for (const variant of variants) {
      const figures = await measure(variant.file);
      lines.push([variant.name, figures.portMs.toFixed(0), figures.schemaMs.toFixed(0), figures.peakMb.toFixed(1)]);
    }
    process.stdout.write(
      `The native plugin's start, median of ${RUNS} (${os.cpus().length} cores, Node.js ${process.versions.node}):\n\n`,
    );
    const header = ["plugin", "port printed (ms)", "first GetSchema answered (ms)", "peak memory, VmHWM (MB)"];
    process.stdout.write(`${formatTable(header, lines)}\n`);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
