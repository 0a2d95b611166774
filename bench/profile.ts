// Summarises the CPU profiles `BENCH_PROFILE=1 npm run bench` writes: per provider process and the program, busy time,
// module loading, and self time by where the code lives, then the costliest functions.
//   node dist/bench/profile.js bench/results/profiles/fleet-100-dynamic [...more dirs]
import * as fs from "node:fs";
import * as path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, from its script's URL. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node";
  const rules: [RegExp, string][] = [
    [/dist\/provider\/engine\//, "ours: engine"],
    [/dist\/provider\/client\//, "ours: client"],
    [/dist\/provider\/(dynamic|native|sdk)\//, "ours: front end"],
    [/dist\/provider\/(resources|functions|schema)\//, "ours: declarations"],
    [/dist\/provider\//, "ours: other"],
    [/node_modules\/zod\//, "zod"],
    [
      /node_modules\/(got|@szmarczak|cacheable|http2-wrapper|responselike|keyv|lowercase-keys|p-cancelable|@sindresorhus|decompress-response|mimic-response|defer-to-connect|quick-lru)/,
      "got",
    ],
    [/node_modules\/@grpc\//, "grpc"],
    [/node_modules\/google-protobuf\//, "protobuf"],
    [/@pulumi\/pulumi\/proto\//, "protobuf"],
    [/@pulumi\/pulumi\/(cmd\/dynamic-provider|dynamic)\//, "pulumi: dynamic provider"],
    [/@pulumi\/pulumi\/runtime\/(closure|)/, "pulumi: runtime"],
    [/@pulumi\/pulumi\//, "pulumi: other"],
    [/node_modules\/typescript\//, "typescript"],
    [/node_modules\/(ts-node|@swc|source-map)/, "transpiler"],
    [/node_modules\//, "other packages"],
  ];
  return rules.find(([pattern]) => pattern.test(url))?.[1] ?? (url.includes("/programs/") ? "program" : "other");
}

/** What process wrote the profile, from the scripts it ran. */
function processOf(profile: CpuProfile): string {
  const urls = profile.nodes.map((n) => n.callFrame.url);
  if (urls.some((u) => u.includes("noop-plugin.js"))) return "no-op native plugin";
  if (urls.some((u) => u.includes("native-plugin.js"))) return "native plugin";
  if (urls.some((u) => u.includes("cmd/dynamic-provider"))) return "dynamic provider";
  if (urls.some((u) => u.includes("/programs/"))) return "program";
  return "other";
}

const LOADING = new Set(["Module._load", "wrapModuleLoad", "Module.require", "compileForInternalLoader"]);

interface Summary {
  file: string;
  process: string;
  operation: string;
  wallMs: number;
  busyMs: number;
  loadingMs: number;
  byPlace: Map<string, number>;
  byFunction: Map<string, number>;
}

function summarise(file: string, operation: string): Summary {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const loadingCache = new Map<number, boolean>();
  const underLoading = (id: number): boolean => {
    const cached = loadingCache.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id)!;
    const up = parent.get(id);
    const result = LOADING.has(node.callFrame.functionName) || (up !== undefined && underLoading(up));
    loadingCache.set(id, result);
    return result;
  };
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let loading = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    busy += ms;
    if (underLoading(id)) loading += ms;
    const place = placeOf(frame.url, frame.functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
    const name = `${frame.functionName || "(anonymous)"} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  });
  return {
    file,
    process: processOf(profile),
    operation,
    wallMs: (profile.endTime - profile.startTime) / 1000,
    busyMs: busy,
    loadingMs: loading,
    byPlace,
    byFunction,
  };
}

/** The operation a profile belongs to: the one running when its process ended and wrote it. */
function operationOf(file: string, timeline: { operation: string; started: number; ended: number }[]): string {
  const written = fs.statSync(file).mtimeMs;
  const during = timeline.find((t) => written >= t.started && written <= t.ended);
  // A process may write its profile just after the operation returned.
  const justAfter = timeline.filter((t) => written > t.ended && written <= t.ended + 3000).pop();
  return (during ?? justAfter)?.operation ?? "?";
}

const top = (map: Map<string, number>, n: number, busy: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, ms]) => `    ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${key}`)
    .join("\n");

function main(): void {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) {
    process.stderr.write("usage: node dist/bench/profile.js PROFILE_DIR [...]\n");
    process.exit(2);
  }
  for (const dir of dirs) {
    const timelineFile = path.join(dir, "timeline.json");
    const timeline = fs.existsSync(timelineFile)
      ? (JSON.parse(fs.readFileSync(timelineFile, "utf8")) as { operation: string; started: number; ended: number }[])
      : [];
    const summaries = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".cpuprofile"))
      .map((f) => summarise(path.join(dir, f), operationOf(path.join(dir, f), timeline)))
      .filter((s) => s.process !== "other");
    const order = ["up", "preview", "refresh", "destroy", "?"];
    summaries.sort(
      (a, b) => order.indexOf(a.operation) - order.indexOf(b.operation) || a.process.localeCompare(b.process),
    );
    process.stdout.write(`# ${dir}\n`);
    for (const s of summaries) {
      process.stdout.write(
        `\n${s.operation} — ${s.process}: ${s.wallMs.toFixed(0)} ms alive, ${s.busyMs.toFixed(0)} ms busy, ` +
          `${s.loadingMs.toFixed(0)} ms loading modules\n  by place:\n${top(s.byPlace, 12, s.busyMs)}\n` +
          `  functions (self time):\n${top(s.byFunction, Number(process.env.TOP ?? 12), s.busyMs)}\n`,
      );
    }
  }
}

main();
