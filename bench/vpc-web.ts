// Wall time and API requests of `pulumi up` and `destroy` of examples/vpc-web against the emulator with its default
// delay (3 s), as a user sees them. Writes bench/results/vpc-web.json; a measurement, not a test.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_CREDENTIALS, startEmulator } from "../emulator";
import { createStack, REPO_ROOT } from "./workspace";

interface Stats {
  total: number;
  mutating: number;
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0 }); // the default asynchronous delay
  const stats = async (): Promise<Stats> => (await (await fetch(`${emulator.url}/_emulator/stats`)).json()) as Stats;
  const bench = await createStack(path.join(REPO_ROOT, "examples", "vpc-web"), "bench-vpc-web", {
    "restcloud:apiUrl": emulator.url,
    "restcloud:apiKey": { value: DEMO_CREDENTIALS.apiKey, secret: true },
    "restcloud:secretKey": { value: DEMO_CREDENTIALS.secretKey, secret: true },
  });
  try {
    const measure = async (operation: () => Promise<unknown>) => {
      const before = await stats();
      const started = performance.now();
      await operation();
      const seconds = (performance.now() - started) / 1000;
      const after = await stats();
      return {
        seconds: Number(seconds.toFixed(1)),
        requests: after.total - before.total,
        mutating: after.mutating - before.mutating,
      };
    };
    const up = await measure(() => bench.stack.up());
    const destroy = await measure(() => bench.stack.destroy());
    const result = { example: "examples/vpc-web", asyncDelayMs: emulator.context.asyncDelayMs, up, destroy };
    console.log(`examples/vpc-web, emulator delay ${result.asyncDelayMs} ms`);
    console.log(`pulumi up:      ${up.seconds} s, ${up.requests} requests (${up.mutating} mutating)`);
    console.log(`pulumi destroy: ${destroy.seconds} s, ${destroy.requests} requests (${destroy.mutating} mutating)`);
    const out = path.join(REPO_ROOT, "bench", "results");
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, "vpc-web.json"), JSON.stringify(result, null, 2) + "\n");
  } finally {
    bench.dispose();
    await emulator.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
