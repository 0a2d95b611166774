// How the benchmark's figures grow with the fleet's size (bench/run.ts prints it): per mode and operation, at each
// size run, the state's bytes, the requests and the CPU time per resource; and a projection to a size not run,
// with the engine's share apart from ours. The Pulumi engine rewrites the whole checkpoint after every step, so its
// CPU (the CLI's) grows as the checkpoint's bytes times the steps: a*n + b*n^2. Ours (the program and the provider)
// does a fixed amount of work per resource: c*n + d.
import { formatTable } from "./table";

/** One operation of one mode at one size: the fleet's figures (CPU in ms, in all for the operation). */
export interface GrowthPoint {
  size: number;
  mode: string;
  operation: string;
  /** The checkpoint after up, in bytes per resource (an up only). */
  stateBytesPerResource?: number;
  requests?: number;
  cliCpuMs: number;
  programCpuMs: number;
  providerCpuMs: number;
  /** The same operation on the floor's no-op resources: the engine's CPU there. */
  floorCliCpuMs: number;
}

/** y = a*n + b*n^2, least squares through the origin (no operation costs the engine nothing per resource). */
export function fitQuadratic(points: readonly { n: number; y: number }[]): { a: number; b: number } | undefined {
  if (points.length === 0) return undefined;
  if (points.length === 1 || new Set(points.map((p) => p.n)).size === 1) {
    // One size: no way to tell the parts apart; all of it is taken as linear.
    const { n, y } = points[0]!;
    return { a: y / n, b: 0 };
  }
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let sy1 = 0;
  let sy2 = 0;
  for (const { n, y } of points) {
    s2 += n * n;
    s3 += n ** 3;
    s4 += n ** 4;
    sy1 += y * n;
    sy2 += y * n * n;
  }
  const det = s2 * s4 - s3 * s3;
  if (det === 0) return undefined;
  const a = (sy1 * s4 - sy2 * s3) / det;
  const b = (s2 * sy2 - s3 * sy1) / det;
  // A negative square term is noise (the engine's cost does not shrink per resource as n grows).
  if (b < 0) return { a: sy1 / s2, b: 0 };
  return { a, b };
}

/** y = c*n + d, least squares; with one size, proportional (d = 0). */
export function fitLinear(points: readonly { n: number; y: number }[]): { c: number; d: number } | undefined {
  if (points.length === 0) return undefined;
  const sizes = new Set(points.map((p) => p.n));
  if (sizes.size === 1) {
    const y = points.reduce((sum, p) => sum + p.y, 0) / points.length;
    return { c: y / points[0]!.n, d: 0 };
  }
  const mean = (f: (p: { n: number; y: number }) => number) => points.reduce((s, p) => s + f(p), 0) / points.length;
  const mn = mean((p) => p.n);
  const my = mean((p) => p.y);
  const sxy = points.reduce((s, p) => s + (p.n - mn) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.n - mn) ** 2, 0);
  const c = sxy / sxx;
  return { c, d: my - c * mn };
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const s = (msValue: number) => (msValue / 1000).toFixed(1);
/** How a per-resource figure grew from the previous size: "x1.23" (1.00: linear in all). */
const growth = (now: number, before: number | undefined) =>
  before === undefined || before === 0 ? "" : `x${(now / before).toFixed(2)}`;

/**
 * Per mode and operation, at each size: state B/res., requests/res., CPU ms/res. of the CLI (the
 * engine), the program and the provider, each with its growth per resource from the size before
 * (x1.00: it grows linearly). Then the projection to `projectTo` resources.
 */
export function growthTable(points: readonly GrowthPoint[]): string {
  const header = [
    "mode",
    "operation",
    "resources",
    "state B/res.",
    "growth",
    "req/res.",
    "growth",
    "CLI ms/res.",
    "growth",
    "floor CLI ms/res.",
    "program ms/res.",
    "provider ms/res.",
    "growth",
  ];
  const lines: string[][] = [];
  for (const [, series] of groups(points)) {
    let before: GrowthPoint | undefined;
    for (const p of series) {
      const per = (v: number | undefined) => (v === undefined ? undefined : v / p.size);
      const was = (v: number | undefined) => (before && v !== undefined ? v / before.size : undefined);
      lines.push([
        p.mode,
        p.operation,
        String(p.size),
        p.stateBytesPerResource === undefined ? "" : String(p.stateBytesPerResource),
        p.stateBytesPerResource === undefined ? "" : growth(p.stateBytesPerResource, before?.stateBytesPerResource),
        p.requests === undefined ? "" : per(p.requests)!.toFixed(2),
        p.requests === undefined ? "" : growth(per(p.requests)!, was(before?.requests)),
        ms(per(p.cliCpuMs)!),
        growth(per(p.cliCpuMs)!, was(before?.cliCpuMs)),
        ms(per(p.floorCliCpuMs)!),
        ms(per(p.programCpuMs)!),
        ms(per(p.providerCpuMs)!),
        growth(per(p.providerCpuMs)!, was(before?.providerCpuMs)),
      ]);
      before = p;
    }
  }
  return formatTable(header, lines);
}

/** The fleet's points by mode and operation, each series by size. */
function groups(points: readonly GrowthPoint[]): Map<string, GrowthPoint[]> {
  const byKey = new Map<string, GrowthPoint[]>();
  for (const p of points) byKey.set(`${p.mode} ${p.operation}`, [...(byKey.get(`${p.mode} ${p.operation}`) ?? []), p]);
  for (const series of byKey.values()) series.sort((a, b) => a.size - b.size);
  return byKey;
}

/** The smallest size the fits take, when a larger one ran. */
export const MIN_FITTED_SIZE = 100;

/**
 * Per mode and operation, the fits and what they give at `target` resources: the engine's CPU
 * (the CLI: a*n + b*n^2, ours and the floor's), ours (program + provider: c*n + d), in CPU seconds.
 */
export function projectionTable(points: readonly GrowthPoint[], target: number): string {
  const header = [
    "mode",
    "operation",
    "sizes fitted",
    "CLI a ms/res.",
    "CLI b ms/res.^2",
    `CLI s at ${target}`,
    `floor CLI s at ${target}`,
    "ours c ms/res.",
    "ours d ms",
    `ours s at ${target}`,
  ];
  const lines: string[][] = [];
  for (const [, all] of groups(points)) {
    // Below 100 resources the processes' start is most of the time: such sizes are left out when larger ones ran.
    const large = all.filter((p) => p.size >= MIN_FITTED_SIZE);
    const series = large.length > 0 ? large : all;
    const first = series[0]!;
    const cli = fitQuadratic(series.map((p) => ({ n: p.size, y: p.cliCpuMs })));
    const floor = fitQuadratic(series.map((p) => ({ n: p.size, y: p.floorCliCpuMs })));
    const ours = fitLinear(series.map((p) => ({ n: p.size, y: p.programCpuMs + p.providerCpuMs })));
    const at = (f: { a: number; b: number } | undefined) => (f ? s(f.a * target + f.b * target * target) : "");
    lines.push([
      first.mode,
      first.operation,
      series.map((p) => p.size).join(","),
      cli ? ms(cli.a) : "",
      cli ? cli.b.toExponential(2) : "",
      at(cli),
      at(floor),
      ours ? ms(ours.c) : "",
      ours ? ours.d.toFixed(0) : "",
      ours ? s(ours.c * target + ours.d) : "",
    ]);
  }
  return formatTable(header, lines);
}
