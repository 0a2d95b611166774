// How long each kind of asynchronous work takes: a profile (`uniform` from `asyncDelayMs`, the default, or `realistic`,
// sourced in emulator/README.md "Job durations"), optional seeded jitter, and per-kind overrides.
import { JOB_KINDS, isJobKind, type JobKind } from "./core";

export interface JobDuration {
  ms: number;
  /** The drawn duration lies uniformly in [ms - jitterMs, ms + jitterMs]; 0: always `ms`. */
  jitterMs: number;
}

/** A duration as options and requests give it: milliseconds, or `{ms, jitterMs}`. */
export type JobDurationInput = number | { ms: number; jitterMs?: number };

export const JOB_PROFILES = ["uniform", "realistic"] as const;
export type JobProfile = (typeof JOB_PROFILES)[number];

/** setTimeout's limit: a longer delay would fire at once. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** Cluster steps boot or stop several machines: under `uniform` they take this many default delays. */
export const KUBERNETES_DELAY_FACTOR = 2;
const KUBERNETES_KINDS: ReadonlySet<JobKind> = new Set([
  "createKubernetes",
  "startKubernetes",
  "stopKubernetes",
  "scaleKubernetes",
  "destroyKubernetes",
]);

const fixed = (seconds: number, jitterSeconds: number): JobDuration => ({
  ms: seconds * 1000,
  jitterMs: jitterSeconds * 1000,
});

/** The `realistic` profile; emulator/README.md ("Job durations") gives the source of each figure. */
export const REALISTIC_DURATIONS: Readonly<Record<JobKind, JobDuration>> = {
  createInstance: fixed(30, 10),
  startInstance: fixed(20, 5),
  stopInstance: fixed(15, 5),
  resizeVm: fixed(10, 5),
  destroyInstance: fixed(10, 5),
  updateInstanceName: fixed(1, 0.5),
  createKubernetes: fixed(300, 60),
  startKubernetes: fixed(120, 30),
  stopKubernetes: fixed(60, 15),
  scaleKubernetes: fixed(180, 60),
  destroyKubernetes: fixed(90, 30),
  createVolume: fixed(2, 1),
  attachVolume: fixed(10, 5),
  detachVolume: fixed(5, 2),
  resizeVolume: fixed(10, 5),
  uploadVolume: fixed(120, 60),
  createSnapshot: fixed(90, 30),
  createVmSnapshot: fixed(20, 10),
  revertToVmSnapshot: fixed(20, 10),
  updateVpc: fixed(2, 1),
  restartVpc: fixed(120, 30),
  updateVpcNetwork: fixed(2, 1),
  updateNetwork: fixed(2, 1),
  restartNetwork: fixed(120, 30),
  createLoadBalancerRule: fixed(5, 2),
  updateLoadBalancerRule: fixed(5, 2),
  addVpnConnection: fixed(15, 5),
  resetVpnConnection: fixed(10, 5),
  updateVpnCustomerGateway: fixed(2, 1),
  deleteVpc: fixed(30, 10),
  deleteNetwork: fixed(20, 10),
  deleteVolume: fixed(5, 2),
  deleteSecurityGroup: fixed(2, 1),
};

/** A duration setting that cannot be used; `field` names it as the caller spelled it (`durations.createVolume.ms`). */
export class InvalidJobDurations extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = "InvalidJobDurations";
  }
}

/** The whole setting: a profile, the default delay and the kinds given their own duration. */
export interface JobDurationSettings {
  profile: JobProfile;
  defaultMs: number;
  /** Explicit durations, which win over the profile. */
  overrides: Partial<Record<JobKind, JobDuration>>;
}

/** The duration of `kind` under `settings`. */
export function durationOf(settings: JobDurationSettings, kind: JobKind): JobDuration {
  const override = settings.overrides[kind];
  if (override) return { ...override };
  if (settings.profile === "realistic") return { ...REALISTIC_DURATIONS[kind] };
  const factor = KUBERNETES_KINDS.has(kind) ? KUBERNETES_DELAY_FACTOR : 1;
  return { ms: settings.defaultMs * factor, jitterMs: 0 };
}

/** Every kind's duration, in the order of `JOB_KINDS`. */
export function allDurations(settings: JobDurationSettings): Record<JobKind, JobDuration> {
  return Object.fromEntries(JOB_KINDS.map((kind) => [kind, durationOf(settings, kind)])) as Record<
    JobKind,
    JobDuration
  >;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Milliseconds: a number from 0 to setTimeout's limit. */
export function readMilliseconds(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidJobDurations(field, `must be a number of milliseconds (got ${JSON.stringify(value)})`);
  }
  if (value < 0 || value > MAX_DURATION_MS) {
    throw new InvalidJobDurations(field, `must be from 0 to ${MAX_DURATION_MS} milliseconds (got ${value})`);
  }
  return value;
}

export const readProfile = (field: string, value: unknown): JobProfile => {
  if (typeof value === "string" && (JOB_PROFILES as readonly string[]).includes(value)) return value as JobProfile;
  throw new InvalidJobDurations(field, `must be one of ${JOB_PROFILES.join(", ")} (got ${JSON.stringify(value)})`);
};

/** One duration: milliseconds, or `{ms, jitterMs}` with a jitter no larger than `ms` (a duration is never negative). */
export function readDuration(field: string, value: unknown): JobDuration {
  if (!isObject(value)) return { ms: readMilliseconds(field, value), jitterMs: 0 };
  const unknown = Object.keys(value).find((key) => key !== "ms" && key !== "jitterMs");
  if (unknown !== undefined)
    throw new InvalidJobDurations(`${field}.${unknown}`, "unknown field (expected ms, jitterMs)");
  const ms = readMilliseconds(`${field}.ms`, value.ms);
  const jitterMs = value.jitterMs === undefined ? 0 : readMilliseconds(`${field}.jitterMs`, value.jitterMs);
  if (jitterMs > ms) {
    throw new InvalidJobDurations(
      `${field}.jitterMs`,
      `must not exceed the duration (${ms} ms): a duration is never negative`,
    );
  }
  return { ms, jitterMs };
}

/** `{kind: duration}`; an unknown kind is named with the list of kinds. */
export function readDurations(field: string, value: unknown): Partial<Record<JobKind, JobDuration>> {
  if (!isObject(value)) {
    throw new InvalidJobDurations(field, "must be an object of durations by kind ({createVolume: 5000, ...})");
  }
  const durations: Partial<Record<JobKind, JobDuration>> = {};
  for (const [kind, duration] of Object.entries(value)) {
    if (!isJobKind(kind)) {
      throw new InvalidJobDurations(`${field}.${kind}`, `unknown job kind (kinds: ${JOB_KINDS.join(", ")})`);
    }
    durations[kind] = readDuration(`${field}.${kind}`, duration);
  }
  return durations;
}

/**
 * The durations in force, and the draw of each piece of work's duration. `draw` takes its jitter
 * from `random` (the seeded stream), and only for a kind with jitter, so that a seeded emulator
 * draws the same durations for the same sequence of work.
 */
export class JobDurations {
  constructor(
    private current: JobDurationSettings,
    private readonly random: () => number,
  ) {}

  get settings(): JobDurationSettings {
    return { ...this.current, overrides: { ...this.current.overrides } };
  }

  get defaultMs(): number {
    return this.current.defaultMs;
  }

  /** Replace the setting; work already pending keeps its due time. */
  replace(next: JobDurationSettings): void {
    this.current = { ...next, overrides: { ...next.overrides } };
  }

  /** The duration, in whole milliseconds, of one new piece of work of `kind`. */
  draw(kind: JobKind): number {
    const { ms, jitterMs } = durationOf(this.current, kind);
    if (jitterMs === 0) return Math.round(ms);
    return Math.round(ms - jitterMs + this.random() * 2 * jitterMs);
  }

  /** As `GET /_emulator/job-durations` answers: every kind, with its duration in force. */
  view(): { profile: JobProfile; defaultMs: number; durations: Record<JobKind, JobDuration> } {
    return { profile: this.current.profile, defaultMs: this.current.defaultMs, durations: allDurations(this.current) };
  }
}
