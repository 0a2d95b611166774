/**
 * What the Go end-to-end tests share: their programs. A Go project (`runtime: go`) runs as any other
 * through the harness (../harness.ts: `pulumi up`, preview, refresh, destroy): the CLI's Go language
 * host (pulumi-language-go beside `pulumi`, scripts/install-pulumi-cli.sh) builds the program in its
 * directory (`go build`, go.mod's `replace` of the SDK included) and runs it. The programs run in
 * place, as the plugin path in their Pulumi.yaml and the replace in their go.mod are relative.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../harness";

export const VPC_WEB_GO = path.join(REPO_ROOT, "examples", "vpc-web-go");
/** Typed function results, a secret, a replacement, a bad argument: see its main.go. */
export const CHECKS_PROGRAM = path.join(__dirname, "programs", "checks");

/** The operations' times, printed after a test file's tests: each includes the host's `go build`. */
export class Timings {
  private readonly rows: string[] = [];

  async time<T>(what: string, operation: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await operation();
    } finally {
      this.rows.push(`${what.padEnd(40)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }

  print(heading: string): void {
    console.log(`${heading}\n${this.rows.join("\n")}`);
  }
}
