// The emulator as a library: `startEmulator({ port: 0 })` in tests, the CLI in a terminal.
import type { AccountScope, EmulatorContext } from "./core";
import { createServer, DEFAULT_HOST, type EmulatorOptions } from "./server";

export type { EmulatorOptions } from "./server";
export type { FaultRule, FaultRuleView, FaultLogEntry, FaultEffect, FaultMoment } from "./faults";
export { QUIRKS, type Quirk } from "./core";
export type { AccountSpec, AccountsOption } from "./control/accounts";
export type { Snapshot } from "./control/snapshot";
export type { RequestLogEntry } from "./control/requestlog";
export type { AsyncMode } from "./jobs";
export { JOB_KINDS, type JobKind } from "./core";
export type { TimelineEntry, WorkOutcome } from "./timeline";
export {
  JOB_PROFILES,
  REALISTIC_DURATIONS,
  type JobDuration,
  type JobDurationInput,
  type JobProfile,
} from "./durations";
import type { TimelineEntry } from "./timeline";
export type { ControlAccess } from "./control/access";
import type { ControlAccess } from "./control/access";
import { DEFAULT_ACCOUNTS } from "./store";
/** The built-in regular account's headers (`apikey`, `secretkey`), for programs and scripts run against the emulator. */
export const DEMO_CREDENTIALS = (({ apiKey, secretKey }) => ({ apiKey, secretKey }))(DEFAULT_ACCOUNTS[0]);

export interface RunningEmulator {
  /** `http://HOST:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** The token the `/_emulator` endpoints require (bound beyond loopback), and its source; undefined when they are open. */
  controlAccess: ControlAccess | undefined;
  /** What the areas see: catalog, clock, ids, async work (tests may use it to inspect or drive state). */
  context: EmulatorContext;
  /** An account's state by account name ("demo", "admin", or one of `accounts`), for tests that seed or inspect records directly. */
  scope(account: string): AccountScope;
  /** The timeline of the asynchronous work, oldest first (as `GET /_emulator/timeline` answers it). */
  timeline(): TimelineEntry[];
  /** Cancel pending work and close the server. */
  stop(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const server = await createServer(options);
  const host = options.host ?? DEFAULT_HOST;
  try {
    await server.app.listen({ port: options.port ?? 0, host });
  } catch (err) {
    await server.close();
    throw err;
  }
  const address = server.app.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    controlAccess: server.controlAccess,
    context: server.context,
    scope: server.scope,
    timeline: server.timeline,
    stop: () => server.close(),
  };
}
