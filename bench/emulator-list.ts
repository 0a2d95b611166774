// Benchmark of the emulator: requests per second on a list of 1,000 records (vpcList of one zone), several keep-alive
// clients. Writes bench/results/emulator-list.json; a measurement, never a test.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import { DEMO_CREDENTIALS } from "../emulator";

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONCURRENCY = [1, 4, 16];
const HEADERS = { apikey: DEMO_CREDENTIALS.apiKey, secretkey: DEMO_CREDENTIALS.secretKey };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The emulator in its own process, so that the load generator does not share its event loop. */
async function startEmulatorProcess(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [path.join(__dirname, "..", "emulator", "cli.js"), "--port", "0", "--async-delay-ms", "0"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const firstLine = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  const url = /listening on (\S+)/.exec(firstLine)?.[1];
  if (!url) throw new Error(`unexpected first line from the emulator: ${firstLine}`);
  return { url, stop: () => child.kill("SIGTERM") };
}

async function main(): Promise<void> {
  const emulator = await startEmulatorProcess();
  try {
    const zones = (await (
      await fetch(`${emulator.url}/restapi/costestimate/zone-list`, { headers: HEADERS })
    ).json()) as {
      listZoneResponse: { uuid: string }[];
    };
    const zoneUuid = zones.listZoneResponse[0].uuid;
    const offerings = (await (
      await fetch(`${emulator.url}/restapi/costestimate/vpcoffering-list?zoneUuid=${zoneUuid}`, { headers: HEADERS })
    ).json()) as { vpcOfferingCost: { uuid: string }[] };
    const vpcOfferingUuid = offerings.vpcOfferingCost[0].uuid;
    const seedStart = performance.now();
    for (let i = 0; i < RECORDS; i++) {
      const response = await fetch(`${emulator.url}/restapi/vpc/createVpc`, {
        method: "POST",
        headers: { ...HEADERS, "content-type": "application/json" },
        body: JSON.stringify({ name: `bench-${i}`, zoneUuid, vpcOfferingUuid, getcIDR: "10.0.0.0/16" }),
      });
      if (!response.ok) throw new Error(`seeding VPC ${i}: HTTP ${response.status}`);
      await response.arrayBuffer();
    }
    const seedMs = performance.now() - seedStart;
    const listUrl = `${emulator.url}/restapi/vpc/vpcList?zoneUuid=${zoneUuid}`;
    const probe = await fetch(listUrl, { headers: HEADERS });
    const body = (await probe.json()) as { count: number };
    if (body.count !== RECORDS) throw new Error(`vpcList answered ${body.count} records, expected ${RECORDS}`);
    const bytes = Number(probe.headers.get("content-length") ?? JSON.stringify(body).length);

    const rows = [];
    for (const concurrency of CONCURRENCY) {
      const latencies: number[] = [];
      const deadline = performance.now() + DURATION_MS;
      const worker = async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          const response = await fetch(listUrl, { headers: HEADERS });
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`vpcList: HTTP ${response.status}`);
          latencies.push(performance.now() - started);
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: concurrency }, worker));
      const elapsedS = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      rows.push({
        concurrency,
        requests: latencies.length,
        requestsPerSecond: Math.round(latencies.length / elapsedS),
        p50Ms: Number(percentile(latencies, 50).toFixed(2)),
        p99Ms: Number(percentile(latencies, 99).toFixed(2)),
      });
    }
    const result = {
      endpoint: "GET /restapi/vpc/vpcList",
      records: RECORDS,
      responseBytes: bytes,
      seedMs: Math.round(seedMs),
      rows,
    };
    console.log(
      `GET /restapi/vpc/vpcList with ${RECORDS} records (${(bytes / 1024).toFixed(0)} KiB per answer), ${DURATION_MS / 1000} s per row`,
    );
    console.log("concurrency | requests | req/s | p50 ms | p99 ms");
    for (const r of rows) {
      console.log(
        `${String(r.concurrency).padStart(11)} | ${String(r.requests).padStart(8)} | ${String(r.requestsPerSecond).padStart(5)} | ${r.p50Ms.toFixed(1).padStart(6)} | ${r.p99Ms.toFixed(1).padStart(6)}`,
      );
    }
    const out = path.join(__dirname, "..", "..", "bench", "results");
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, "emulator-list.json"), JSON.stringify(result, null, 2) + "\n");
  } finally {
    emulator.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
