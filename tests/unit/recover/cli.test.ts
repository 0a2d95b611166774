/**
 * `restcloud recover`'s usage (provider/recover/cli.ts): what it refuses before it runs anything.
 * What it does to a stack is tested with the Pulumi CLI (tests/e2e/reliability/killed-up-*.test.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RECOVER_USAGE, runRecover } from "../../../provider/recover/cli";

async function recover(argv: string[], cwd = os.tmpdir()) {
  let stdout = "";
  let stderr = "";
  const code = await runRecover(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { PATH: "/nonexistent" },
    cwd,
  });
  return { code, stdout, stderr };
}

test("--help prints the usage", async () => {
  expect(await recover(["--help"])).toEqual({ code: 0, stdout: RECOVER_USAGE, stderr: "" });
});

test("an unknown option, an argument or an empty stack name is bad usage (2)", async () => {
  for (const argv of [["--force"], ["dev"], ["--stack", ""]]) {
    const { code, stderr } = await recover(argv);
    expect({ argv, code }).toEqual({ argv, code: 2 });
    expect(stderr).toContain("Usage: restcloud recover");
  }
});

test("outside a Pulumi project: bad usage, naming the directory", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "recover-"));
  try {
    const { code, stderr } = await recover([], dir);
    expect(code).toBe(2);
    expect(stderr).toContain(`no Pulumi.yaml in ${dir}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("no pulumi CLI: says where it looked (1)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "recover-"));
  try {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: shop\nruntime: nodejs\n");
    const { code, stderr } = await recover([], dir);
    expect(code).toBe(1);
    expect(stderr).toContain("the pulumi CLI was not found (pulumi): put it on PATH, or name it in PULUMI_CLI");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
