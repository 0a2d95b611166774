#!/usr/bin/env node
// `restcloud-emulator`: run the emulator in a terminal. The first line printed is `listening on URL`.
import { DEFAULT_ACCOUNTS } from "./store";
import { parseArgs } from "node:util";
import { controlAccessNotice } from "./control/access";
import { parseAccountSpec, resolveAccounts, type AccountSpec } from "./control/accounts";
import { ASYNC_MODES, type AsyncMode } from "./jobs";
import { JOB_KINDS, QUIRKS, isJobKind, type JobKind, type Quirk } from "./core";
import { InvalidJobDurations, JOB_PROFILES, readDuration, type JobDuration, type JobProfile } from "./durations";
import { parseFaultSpec } from "./faults";
import { startEmulator, type RunningEmulator } from "./index";
import type { EmulatorOptions } from "./server";

const HELP = `Usage: restcloud-emulator [options]

A stateful emulator of the RestCloud REST API on your machine.

  --port N                 port to listen on (default 8080; 0 picks a free port)
  --host HOST              address to bind (default 127.0.0.1); beyond loopback (0.0.0.0, a LAN
                           address) the /_emulator control endpoints need a control token
  --control-token T        that token (default: $RESTCLOUD_EMULATOR_CONTROL_TOKEN, else a random
                           one, printed at start); pass it as the header x-emulator-control-token
                           or Authorization: Bearer T, and open the console as /_emulator/?token=T
  --async-delay-ms N       delay of asynchronous work (default 3000): every kind the profile and
                           --job-duration do not set
  --job-profile NAME       durations of every kind of asynchronous work: ${JOB_PROFILES.join(", ")}.
                           uniform (default): --async-delay-ms each (Kubernetes cluster steps
                           twice that); realistic: figures of CloudStack-family clouds (README)
  --job-duration KIND=MS[~JITTER]
                           one kind's duration in milliseconds, over the profile; with ~JITTER,
                           uniform in [MS-JITTER, MS+JITTER] (deterministic with --seed).
                           Repeatable, or comma-separated:
                             --job-duration createVolume=5000,createInstance=40000~10000
                           KIND is the operation that starts the work:
${wrap(JOB_KINDS.join(", "), 27, 100)}
  --state-file PATH        persist state to PATH after each change and reload it on start
  --load FILE              load a snapshot (saved from GET /_emulator/state) at start
  --async-mode MODE        auto (default): asynchronous work completes when due (its duration);
                           manual: only on POST /_emulator/advance
  --latency-ms N           added latency per API request
  --fail-rate R            probability (0..1) of a 503 before processing
  --throttle-rate R        probability (0..1) of a 429 with Retry-After: 1
  --fail-after-rate R      probability (0..1) of a 503 after processing (the change is applied)
  --fault SPEC             a fault rule, repeatable, checked in order before the rates. SPEC is
                           comma-separated key=value pairs: operation (names joined by |), method,
                           mutating, effect (status|hang|reset), when (before|after), status,
                           hangMs, probability, count. For example:
                             --fault operation=createFirewallRule,effect=status,status=503,when=after,count=1
                             --fault 'operation=acquireIpAddress|createVpc,effect=hang,when=after,probability=0.3'
  --seed S                 deterministic uuids, random numbers and fault draws
  --quirks a,b             deployment differences: ${QUIRKS.join(", ")}
  --api-key K              the demo account's apikey (default demo-api-key)
  --secret-key K           the demo account's secretkey (default demo-secret-key)
  --admin-api-key K        the admin account's apikey (default admin-api-key)
  --admin-secret-key K     the admin account's secretkey (default admin-secret-key)
  --account NAME:APIKEY:SECRETKEY
                           a further (regular) account, repeatable; names and keys must be unique
  --logger                 log every request
  --help                   show this help
`;

/** `text` in lines of at most `width` characters, each indented by `indent` spaces. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${" ".repeat(indent)}${l}`).join("\n");
}

/**
 * `--job-duration` values (each `KIND=MS[~JITTER]`, several comma-separated) as durations by kind; a
 * mistake names the flag, the item and the part at fault (KIND, MS, JITTER).
 */
export function parseJobDurationSpecs(values: readonly string[]): Partial<Record<JobKind, JobDuration>> {
  const durations: Partial<Record<JobKind, JobDuration>> = {};
  for (const item of values.flatMap((v) => v.split(",")).map((v) => v.trim())) {
    if (item === "") continue;
    const fail = (reason: string): never => {
      throw new Error(`--job-duration ${item}: ${reason}`);
    };
    const match = /^([^=]*)=([^~]*)(?:~(.*))?$/.exec(item);
    if (!match) fail("must be KIND=MS or KIND=MS~JITTER");
    const [, kind, msText, jitterText] = match as RegExpExecArray;
    if (!isJobKind(kind)) fail(`unknown kind ${JSON.stringify(kind)} (kinds: ${JOB_KINDS.join(", ")})`);
    const numberOf = (part: string, text: string): number =>
      text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : fail(`${part} is not a number: ${text}`);
    const ms = numberOf("MS", msText);
    const jitterMs = jitterText === undefined ? 0 : numberOf("JITTER", jitterText);
    try {
      durations[kind as JobKind] = readDuration(kind, { ms, jitterMs });
    } catch (err) {
      if (!(err instanceof InvalidJobDurations)) throw err;
      fail(`${err.field.endsWith(".jitterMs") ? "JITTER" : "MS"} ${err.reason}`);
    }
  }
  return durations;
}

function number(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n)) throw new Error(`--${flag}: not a number: ${text}`);
  return n;
}

const CLI_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "control-token": { type: "string" },
  "async-delay-ms": { type: "string" },
  "state-file": { type: "string" },
  load: { type: "string" },
  "async-mode": { type: "string" },
  "job-profile": { type: "string" },
  "job-duration": { type: "string", multiple: true },
  account: { type: "string", multiple: true },
  "latency-ms": { type: "string" },
  "fail-rate": { type: "string" },
  "throttle-rate": { type: "string" },
  "fail-after-rate": { type: "string" },
  fault: { type: "string", multiple: true },
  seed: { type: "string" },
  quirks: { type: "string" },
  "api-key": { type: "string" },
  "secret-key": { type: "string" },
  "admin-api-key": { type: "string" },
  "admin-secret-key": { type: "string" },
  logger: { type: "boolean" },
  help: { type: "boolean" },
} as const;

type CliValues = ReturnType<typeof parseArgs<{ options: typeof CLI_OPTIONS; strict: true }>>["values"];

export function parseCli(argv: string[]): EmulatorOptions | "help" {
  const { values } = parseArgs({ args: argv, strict: true, options: CLI_OPTIONS });
  if (values.help) return "help";
  const asyncMode = values["async-mode"];
  if (asyncMode !== undefined && !(ASYNC_MODES as readonly string[]).includes(asyncMode)) {
    throw new Error(`--async-mode ${asyncMode}: must be one of ${ASYNC_MODES.join(", ")}`);
  }
  const jobProfile = values["job-profile"];
  if (jobProfile !== undefined && !(JOB_PROFILES as readonly string[]).includes(jobProfile)) {
    throw new Error(`--job-profile ${jobProfile}: must be one of ${JOB_PROFILES.join(", ")}`);
  }
  const jobDurations = parseJobDurationSpecs(values["job-duration"] ?? []);
  const accounts = cliAccounts(values);
  return {
    port: number("port", values.port) ?? 8080,
    host: values.host,
    controlToken: values["control-token"],
    asyncDelayMs: number("async-delay-ms", values["async-delay-ms"]),
    stateFile: values["state-file"],
    loadStateFile: values.load,
    asyncMode: asyncMode as AsyncMode | undefined,
    jobProfile: jobProfile as JobProfile | undefined,
    ...(Object.keys(jobDurations).length > 0 ? { jobDurations } : {}),
    latencyMs: number("latency-ms", values["latency-ms"]),
    failRate: number("fail-rate", values["fail-rate"]),
    throttleRate: number("throttle-rate", values["throttle-rate"]),
    failAfterRate: number("fail-after-rate", values["fail-after-rate"]),
    faultRules: values.fault?.map(parseFaultSpec),
    seed: values.seed,
    quirks: values.quirks
      ?.split(",")
      .map((q) => q.trim())
      .filter(Boolean) as Quirk[] | undefined,
    accounts,
    logger: values.logger,
  };
}

// Every account, each with the flag that gave it, validated now: a mistake is one line naming its flag.
function cliAccounts(values: CliValues): AccountSpec[] {
  const demo = {
    apiKey: values["api-key"] ?? DEFAULT_ACCOUNTS[0].apiKey,
    secretKey: values["secret-key"] ?? DEFAULT_ACCOUNTS[0].secretKey,
  };
  const admin = {
    apiKey: values["admin-api-key"] ?? "admin-api-key",
    secretKey: values["admin-secret-key"] ?? "admin-secret-key",
  };
  const accounts: AccountSpec[] = [
    { name: "demo", ...demo },
    { name: "admin", ...admin },
    ...(values.account ?? []).map(parseAccountSpec),
  ];
  const flagOf = (i: number): string =>
    i === 0
      ? "--api-key/--secret-key"
      : i === 1
        ? "--admin-api-key/--admin-secret-key"
        : `--account ${accounts[i].name}:...`;
  try {
    resolveAccounts(accounts);
  } catch (err) {
    const bad = /^accounts\[(\d+)\](?:\.(\w+))?: (.*)$/.exec((err as Error).message);
    if (!bad) throw err;
    const [, index, field, message] = bad;
    const part =
      field === undefined ? "" : ` (${field === "apiKey" ? "APIKEY" : field === "secretKey" ? "SECRETKEY" : "NAME"})`;
    throw new Error(`${flagOf(Number(index))}${part}: ${message}`);
  }
  return accounts;
}

async function main(): Promise<void> {
  let options: EmulatorOptions | "help";
  try {
    options = parseCli(process.argv.slice(2));
  } catch (err) {
    const { message } = err as Error;
    // A bad --fault, --account, --async-mode, --job-profile, --job-duration (or keys) is answered in
    // one line; other mistakes show the usage too.
    const oneLine = /^--(fault|account|async-mode|job-profile|job-duration|api-key|admin-api-key)[ /]/.test(message);
    process.stderr.write(oneLine ? `${message}\n` : `${message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options === "help") {
    process.stdout.write(HELP);
    return;
  }
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(options);
  } catch (err) {
    // Operation names are checked against the route table at start: still a bad --fault.
    const { message } = err as Error;
    // A snapshot that cannot be loaded: one line naming the file and what is wrong with it.
    if (options.loadStateFile !== undefined && message.startsWith(`${options.loadStateFile}: `)) {
      process.stderr.write(`--load ${message}\n`);
      process.exit(2);
    }
    const bad = /^faultRules\[(\d+)\]\.(.*)$/.exec(message);
    if (!bad) throw err;
    process.stderr.write(`--fault #${Number(bad[1]) + 1}: ${bad[2]}\n`);
    process.exit(2);
  }
  process.stdout.write(`listening on ${emulator.url}\n`);
  const access = emulator.controlAccess;
  if (access) process.stdout.write(`${controlAccessNotice(emulator.url, access)}\n`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    emulator.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`error while stopping on ${signal}: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
