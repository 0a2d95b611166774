/** The benchmark's growth figures (bench/growth.ts): the fits, and the tables on a made-up run at two sizes. */
import { fitLinear, fitQuadratic, growthTable, projectionTable, type GrowthPoint } from "../../../bench/growth";

describe("fits", () => {
  test("a*n + b*n^2 through the origin, exact on two sizes and on three of one curve", () => {
    const curve = (n: number) => 30 * n + 0.02 * n * n;
    for (const sizes of [
      [100, 1000],
      [100, 1000, 2000],
    ]) {
      const fit = fitQuadratic(sizes.map((n) => ({ n, y: curve(n) })))!;
      expect(fit.a).toBeCloseTo(30, 6);
      expect(fit.b).toBeCloseTo(0.02, 9);
    }
  });

  test("one size: all of it linear; a shrinking square term: taken as noise, linear", () => {
    expect(fitQuadratic([{ n: 100, y: 4000 }])).toEqual({ a: 40, b: 0 });
    const fit = fitQuadratic([
      { n: 100, y: 4000 },
      { n: 1000, y: 30_000 },
    ])!;
    expect(fit.b).toBe(0);
    expect(fit.a).toBeCloseTo((4000 * 100 + 30_000 * 1000) / (100 ** 2 + 1000 ** 2), 9);
  });

  test("c*n + d by least squares; one size: proportional", () => {
    expect(fitLinear([{ n: 100, y: 2000 }])).toEqual({ c: 20, d: 0 });
    const fit = fitLinear([
      { n: 100, y: 1500 },
      { n: 1000, y: 10_500 },
    ])!;
    expect(fit.c).toBeCloseTo(10, 9);
    expect(fit.d).toBeCloseTo(500, 6);
  });
});

describe("tables", () => {
  const point = (size: number, cli: number): GrowthPoint => ({
    size,
    mode: "native",
    operation: "up",
    stateBytesPerResource: 2000,
    requests: 4.3 * size,
    cliCpuMs: cli,
    programCpuMs: 40 * size,
    providerCpuMs: 18 * size,
    floorCliCpuMs: cli / 2,
  });
  const points = [point(1000, 30 * 1000 + 0.02 * 1000 ** 2), point(100, 30 * 100 + 0.02 * 100 ** 2)];

  test("the growth per resource from the size before, in order of size", () => {
    const lines = growthTable(points).split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/native\s+up\s+100\s+2000\s+4\.30\s+32\.0\s+16\.0\s+40\.0\s+18\.0\s*$/);
    // 50 ms/res. at 1,000 against 32 at 100: x1.56; requests and the provider's CPU grow linearly.
    expect(lines[3]).toMatch(
      /1000\s+2000\s+x1\.00\s+4\.30\s+x1\.00\s+50\.0\s+x1\.56\s+25\.0\s+40\.0\s+18\.0\s+x1\.00$/,
    );
  });

  test("the projection: the CLI's quadratic, ours linear", () => {
    const line = projectionTable(points, 10_000).split("\n")[2]!;
    // CLI: 30*10,000 + 0.02*10,000^2 = 2,300,000 ms; the floor's half; ours 58 ms/res.: 580 s.
    expect(line).toMatch(/native\s+up\s+100,1000\s+30\.0\s+2\.00e-2\s+2300\.0\s+1150\.0\s+58\.0\s+0\s+580\.0$/);
  });
});
