// provider/pulumi-cli.ts: how discover and recover start the pulumi CLI (a stand-in CLI here that prints
// what it was given).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runPulumi } from "../../provider/pulumi-cli";

let dir: string;
let cli: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cli-"));
  cli = path.join(dir, "pulumi");
  fs.writeFileSync(cli, '#!/bin/sh\necho "args: $*"\necho "parallel: ${PULUMI_DIY_BACKEND_PARALLEL:-unset}"\n', {
    mode: 0o755,
  });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const fail = (message: string) => new Error(message);

test("never interactive; the self-managed backends' listing kept at 3 at once (a PostgreSQL backend hangs at 4)", () => {
  const run = runPulumi(["stack", "ls", "--json"], dir, { PATH: process.env.PATH, PULUMI_CLI: cli }, fail);
  expect(run).toEqual({ status: 0, stdout: "args: stack ls --json --non-interactive\nparallel: 3\n", stderr: "" });
});

test("a listing parallelism the user set is kept", () => {
  const env = { PATH: process.env.PATH, PULUMI_CLI: cli, PULUMI_DIY_BACKEND_PARALLEL: "1" };
  expect(runPulumi(["stack", "ls"], dir, env, fail).stdout).toContain("parallel: 1\n");
});

test("a CLI that is not there: the caller's error, naming it", () => {
  const missing = path.join(dir, "no-such-pulumi");
  expect(() => runPulumi(["whoami"], dir, { PULUMI_CLI: missing }, fail)).toThrow(
    `the pulumi CLI was not found (${missing})`,
  );
});
