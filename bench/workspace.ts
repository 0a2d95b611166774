// Pulumi stacks for the benchmark, offline as in the e2e tests (tests/e2e/offline-stack.ts); this runs compiled,
// from dist/bench.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { createOfflineStack, type StackConfig } from "../tests/e2e/offline-stack";

/** dist/bench/workspace.js, two levels below the repository root. */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

export interface BenchStack {
  stack: Stack;
  dispose(): void;
}

export async function createStack(
  programDir: string,
  stackName: string,
  config: StackConfig,
  env: Record<string, string> = {},
): Promise<BenchStack> {
  const { stack, tempDir, settingsFile } = await createOfflineStack({
    repoRoot: REPO_ROOT,
    programDir,
    stackName,
    config,
    env,
    tempPrefix: "restcloud-bench-",
  });
  return {
    stack,
    dispose: () => {
      // The stack's config file lives in the program directory: leave no trace there.
      fs.rmSync(settingsFile, { force: true });
      fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
