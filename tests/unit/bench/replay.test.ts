/** The replay floor's file (bench/replay.ts): a fleet's recorded resources, each in the place the floor gives it. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { writeReplay, type ReplayedResource } from "../../../bench/replay";

const GROUP = ["vpc-#", "net-#", "tier-#-a", "tier-#-b", "vm-#-a", "vm-#-b", "vol-#", "ip-#", "fw-#", "eg-#"];
const urn = (name: string) => `urn:pulumi:s::p::restcloud:index:Kind::${name}`;

describe("writeReplay", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "replay-test-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("the fleet's resources by the floor's place (group order), whatever order the state lists them in", () => {
    const names = [0, 1].flatMap((g) => GROUP.map((n) => n.replace("#", String(g))));
    const resources = [...names].reverse().map((name) => ({
      urn: urn(name),
      id: `id-${name}`,
      inputs: { name },
      outputs: { name, uuid: `id-${name}` },
    }));
    const stack = { urn: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s", outputs: {} };
    fs.writeFileSync(path.join(dir, "state.json"), JSON.stringify({ resources: [stack, ...resources] }));

    writeReplay(path.join(dir, "state.json"), 13, path.join(dir, "replay.json"));

    const replay = JSON.parse(fs.readFileSync(path.join(dir, "replay.json"), "utf8")) as ReplayedResource[];
    expect(replay.map((r) => r.inputs.name)).toEqual(names.slice(0, 13));
    expect(replay[4]).toEqual({
      id: "id-vm-0-a",
      inputs: { name: "vm-0-a" },
      outputs: { name: "vm-0-a", uuid: "id-vm-0-a" },
    });
  });

  test("a dynamic fleet's `__provider` is left out: the floor puts its own in its place", () => {
    const shim = 'exports.handler=()=>require("pulumi-restcloud/dynamic").provider("Vpc")';
    const vpc = {
      urn: urn("vpc-0"),
      id: "a",
      inputs: { __provider: shim, name: "v" },
      outputs: { __provider: shim, name: "v", uuid: "a" },
    };
    fs.writeFileSync(path.join(dir, "state.json"), JSON.stringify({ resources: [vpc] }));

    writeReplay(path.join(dir, "state.json"), 1, path.join(dir, "replay.json"));

    expect(JSON.parse(fs.readFileSync(path.join(dir, "replay.json"), "utf8"))).toEqual([
      { id: "a", inputs: { name: "v" }, outputs: { name: "v", uuid: "a" } },
    ]);
  });

  test("a place the fleet has no resource for is an error naming it", () => {
    fs.writeFileSync(path.join(dir, "state.json"), JSON.stringify({ resources: [{ urn: urn("vpc-0"), id: "a" }] }));
    expect(() => writeReplay(path.join(dir, "state.json"), 2, path.join(dir, "replay.json"))).toThrow(
      /no resource named net-0/,
    );
  });
});
