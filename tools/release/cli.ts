// `npm run release [-- --platforms linux-amd64,... --only plugin,emulator,... --out DIR]`: see docs/release.md.
// Prints each artifact's path, one a line.
import { parseArgs } from "node:util";
import * as path from "node:path";
import { REPO_ROOT } from "./bundle";
import { PLATFORMS, platformById } from "./platforms";
import { PARTS, buildRelease, type Part } from "./release";

const list = (value: string | undefined): string[] | undefined =>
  value
    ?.split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export function parseReleaseArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { platforms: { type: "string" }, only: { type: "string" }, out: { type: "string" } },
    strict: true,
  });
  const platforms = (list(values.platforms) ?? PLATFORMS.map((p) => p.id)).map((id) => platformById(id).id);
  const only = (list(values.only) ?? [...PARTS]).map((part) => {
    if (!(PARTS as readonly string[]).includes(part))
      throw new Error(`unknown part ${part}: one of ${PARTS.join(", ")}`);
    return part as Part;
  });
  return { platforms, only, out: path.resolve(values.out ?? path.join(REPO_ROOT, "dist", "release")) };
}

async function main(): Promise<void> {
  const started = Date.now();
  const release = await buildRelease(parseReleaseArgs(process.argv.slice(2)));
  for (const artifact of release.artifacts) process.stdout.write(`${artifact.file}\n`);
  for (const gap of release.missing) process.stderr.write(`[release] missing: ${gap}\n`);
  process.stderr.write(
    `[release] v${release.version} in ${release.dir} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
