#!/usr/bin/env node
// `restcloud`: the package's command line.
//   restcloud cost        what a stack will cost a month, from the live cost catalog (cost/cli.ts)
//   restcloud recover     after a killed `pulumi up`, its pending creates' records into the state (recover/cli.ts)
//   restcloud discover    the account's records no stack holds, and what adopts them (discover/cli.ts)
import { COST_USAGE, runCost } from "./cost/cli";
import { runRecover } from "./recover/cli";
import { runDiscover } from "./discover/cli";

const USAGE = `Usage: restcloud <command> [options]

Commands:
  cost        price a Pulumi preview or stack from the API's cost catalog (restcloud cost --help)
  recover     after a killed pulumi up, put its pending creates' records into the state (restcloud recover --help)
  discover    list the account's records no stack holds, write what adopts them (restcloud discover --help)
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "cost")
    return runCost(rest, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      readStdin: async () => {
        if (process.stdin.isTTY) throw new Error(`no input: pipe a preview in, or give a FILE\n\n${COST_USAGE}`);
        const chunks: Buffer[] = [];
        for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString("utf8");
      },
      env: process.env,
      cwd: process.cwd(),
    });
  if (command === "recover")
    return runRecover(rest, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env,
      cwd: process.cwd(),
    });
  if (command === "discover")
    return runDiscover(rest, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env,
      cwd: process.cwd(),
      isTTY: process.stdin.isTTY === true && process.stdout.isTTY === true,
      prompt: async (question) => {
        const readline = await import("node:readline/promises");
        const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
        try {
          return await rl.question(question);
        } finally {
          rl.close();
        }
      },
    });
  if (command === undefined || command === "-h" || command === "--help") {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  process.stderr.write(`restcloud: unknown command ${command}\n\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`restcloud: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
