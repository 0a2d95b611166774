// The critical path of one `pulumi up` or `destroy`, from the emulator's timeline and request log and the stack's
// dependencies: the heaviest chain of dependent jobs, the floor a provider's waits are measured against. Pure
// (bench/critical-path.ts feeds it). Work counts for the resource one of its resourceIds names (id, or outputs'
// `uuid`); a resource's jobs run one after another, so its weight is their sum.

/** One piece of asynchronous work of the emulator's timeline (`GET /_emulator/timeline`); times in epoch ms. */
export interface TimelineWork {
  id: string;
  kind: string;
  account?: string;
  resourceType?: string;
  resourceIds: string[];
  jobId: string | null;
  startedAt: number;
  dueAt: number;
  completedAt: number | null;
  outcome?: string | null;
}

/** A resource of `pulumi stack export`'s deployment, the fields read here. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  parent?: string;
}

/** One API request of the emulator's request log, its time in epoch ms. */
export interface LoggedRequest {
  at: number;
  /** Path and query: the uuids a request names are found in it. */
  path: string;
  /** A read: a GET that changes nothing. */
  read: boolean;
  /** A request that changes something (whatever its method: some of the API's actions are GETs). */
  mutating: boolean;
  /** The area of the API the operation belongs to (`instance`, `volume`...), or null. */
  area: string | null;
}

export type Direction = "up" | "destroy";

export interface GraphNode {
  urn: string;
  /** The logical name (the URN's last part). */
  name: string;
  type: string;
  /** The API area whose lists show this resource's record, if known. */
  area: string | null;
  /** The record uuids that name it: its id and its outputs' `uuid`. */
  uuids: string[];
  /** URNs of the graph's resources it depends on (created before it, deleted after it). */
  dependsOn: string[];
}

export interface StackGraph {
  nodes: Map<string, GraphNode>;
}

/** Resources that are no cloud records: the stack itself and the providers. */
const isBookkeeping = (type: string) => type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");

/** `Instance`, from `restcloud:index:Instance` or `pulumi-nodejs:dynamic/restcloud:Instance`. */
export const typeName = (type: string): string => type.slice(type.lastIndexOf(":") + 1);

/** The dependency graph of a stack's resources (the stack and its providers left out). */
export function stackGraph(
  resources: readonly StateResource[],
  areaOf: (type: string) => string | null = () => null,
): StackGraph {
  const own = resources.filter((r) => !isBookkeeping(r.type));
  const urns = new Set(own.map((r) => r.urn));
  const nodes = new Map<string, GraphNode>();
  for (const r of own) {
    const uuid = r.outputs?.uuid;
    const uuids = [r.id, typeof uuid === "string" ? uuid : undefined].filter((u): u is string => !!u);
    const named = [
      ...(r.dependencies ?? []),
      ...Object.values(r.propertyDependencies ?? {}).flat(),
      ...(r.parent ? [r.parent] : []),
    ];
    nodes.set(r.urn, {
      urn: r.urn,
      name: r.urn.slice(r.urn.lastIndexOf("::") + 2),
      type: r.type,
      area: areaOf(r.type),
      uuids: [...new Set(uuids)],
      dependsOn: [...new Set(named)].filter((u) => u !== r.urn && urns.has(u)),
    });
  }
  return { nodes };
}

/** The pieces of work of each resource (oldest first), and those that name none of the stack's. */
export interface Attribution {
  byResource: Map<string, TimelineWork[]>;
  unattributed: TimelineWork[];
}

/**
 * Attributes each piece of work to the resource one of its resourceIds names. When several do (an
 * attachment names the volume and the instance), the one whose type the work's resourceType names
 * wins, else the first named.
 */
export function attributeWork(graph: StackGraph, work: readonly TimelineWork[]): Attribution {
  const byUuid = new Map<string, GraphNode>();
  for (const node of graph.nodes.values()) for (const uuid of node.uuids) byUuid.set(uuid, node);
  const byResource = new Map<string, TimelineWork[]>();
  const unattributed: TimelineWork[] = [];
  for (const w of [...work].sort((a, b) => a.startedAt - b.startedAt)) {
    const named = [...new Set(w.resourceIds.map((id) => byUuid.get(id)).filter((n) => n !== undefined))];
    const wanted = (w.resourceType ?? "").toLowerCase();
    const node = named.find((n) => wanted !== "" && typeName(n.type).toLowerCase() === wanted) ?? named[0];
    if (!node) unattributed.push(w);
    else byResource.set(node.urn, [...(byResource.get(node.urn) ?? []), w]);
  }
  return { byResource, unattributed };
}

/** When the work ended: its completion, or when it was due if it has not completed. */
export const endOf = (w: TimelineWork): number => w.completedAt ?? w.dueAt;
export const durationOf = (w: TimelineWork): number => Math.max(0, endOf(w) - w.startedAt);

export interface ChainJob {
  kind: string;
  ms: number;
  startedAt: number;
  /** When it completed (or was due). */
  endedAt: number;
}

export interface ChainLink {
  urn: string;
  name: string;
  type: string;
  /** Its jobs the next link waited for (the operation's end, for the last link). */
  jobs: ChainJob[];
  /** Its jobs the next link started before they completed: not part of the chain. */
  notAwaited: ChainJob[];
  /** The sum of `jobs`' durations. */
  ms: number;
}

export interface Chain {
  /** The heaviest path's weight: the sum of its jobs' durations. */
  ms: number;
  /** The path, in the order the operation must take it (zero-weight resources included). */
  links: ChainLink[];
}

/** What tells which jobs a step waited for: when steps started, and when the operation ended. */
export interface Observed {
  requests: readonly LoggedRequest[];
  /** When the operation ended (epoch ms). */
  endedAt: number;
}

/**
 * The heaviest path through the DAG (dependencies, propertyDependencies, parent), each resource weighing the sum of its
 * jobs: for an up, from dependencies to dependants; for a destroy, the reverse. With `observed`, a job weighs on a link
 * only if the next link's first step (or the operation's end) came after it: a job nothing waited for (a network's
 * description, applied while instances start on it) is in no chain; a first step showing no work nor request naming
 * it counts as having waited. Without `observed`, every job weighs.
 */
export function longestChain(
  graph: StackGraph,
  attribution: Attribution,
  direction: Direction,
  observed?: Observed,
): Chain {
  const before = predecessors(graph, direction);
  const workOf = (urn: string) => attribution.byResource.get(urn) ?? [];
  const firstStart = firstStarts(graph, attribution, observed?.requests ?? []);
  /** `urn`'s jobs that `next` (undefined: the operation's end) waited for, and the others. */
  const split = (urn: string, next: string | undefined) => {
    const limit = !observed ? undefined : next === undefined ? observed.endedAt : firstStart.get(next);
    const awaited = workOf(urn).filter((w) => limit === undefined || endOf(w) <= limit);
    const rest = workOf(urn).filter((w) => !awaited.includes(w));
    return { awaited, rest, ms: awaited.reduce((sum, w) => sum + durationOf(w), 0) };
  };
  type Path = { ms: number; jobs: number; from: string | undefined };
  // Of equal weights, the path of more jobs: with no delay, every path weighs 0.
  const heavier = (a: Omit<Path, "from">, b: Omit<Path, "from">) => a.ms > b.ms || (a.ms === b.ms && a.jobs > b.jobs);
  /** Per resource, the heaviest path up to it, its own jobs left out (they weigh by what comes next). */
  const best = new Map<string, Path>();
  const visiting = new Set<string>();
  const solve = (urn: string): Path => {
    const known = best.get(urn);
    if (known) return known;
    if (visiting.has(urn)) throw new Error(`the stack's dependencies form a cycle through ${urn}`);
    visiting.add(urn);
    let path: Path = { ms: 0, jobs: 0, from: undefined };
    for (const p of [...(before.get(urn) ?? [])].sort()) {
      const prefix = solve(p);
      const own = split(p, urn);
      const candidate = { ms: prefix.ms + own.ms, jobs: prefix.jobs + own.awaited.length, from: p };
      if (path.from === undefined || heavier(candidate, path)) path = candidate;
    }
    visiting.delete(urn);
    best.set(urn, path);
    return path;
  };
  const total = (urn: string) => {
    const own = split(urn, undefined);
    return { ms: solve(urn).ms + own.ms, jobs: solve(urn).jobs + own.awaited.length };
  };
  let end: string | undefined;
  for (const urn of [...graph.nodes.keys()].sort()) {
    if (end === undefined || heavier(total(urn), total(end))) end = urn;
  }
  const links: ChainLink[] = [];
  const job = (w: TimelineWork): ChainJob => ({
    kind: w.kind,
    ms: durationOf(w),
    startedAt: w.startedAt,
    endedAt: endOf(w),
  });
  for (
    let urn = end, next: string | undefined = undefined;
    urn !== undefined;
    [next, urn] = [urn, best.get(urn)!.from]
  ) {
    const node = graph.nodes.get(urn)!;
    const own = split(urn, next);
    links.unshift({
      urn,
      name: node.name,
      type: node.type,
      jobs: own.awaited.map(job),
      notAwaited: own.rest.map(job),
      ms: own.ms,
    });
  }
  return { ms: end === undefined ? 0 : total(end).ms, links };
}

/** Each resource's height: the longest path down its dependencies (0: it depends on none). */
function heightsOf(graph: StackGraph): Map<string, number> {
  const heights = new Map<string, number>();
  const heightOf = (urn: string, path: Set<string>): number => {
    const known = heights.get(urn);
    if (known !== undefined) return known;
    if (path.has(urn)) throw new Error(`the stack's dependencies form a cycle through ${urn}`);
    path.add(urn);
    const deps = graph.nodes.get(urn)!.dependsOn;
    const h = deps.length ? 1 + Math.max(...deps.map((d) => heightOf(d, path))) : 0;
    path.delete(urn);
    heights.set(urn, h);
    return h;
  };
  for (const urn of graph.nodes.keys()) heightOf(urn, new Set());
  return heights;
}

/**
 * The floor of a destroy as the Pulumi engine schedules it: it deletes in rounds (antichains), a
 * round starting only when the whole previous one is done; a resource's round is its height in the
 * dependency graph (the longest path down its dependencies), the highest first. So a destroy takes
 * at least the sum, over rounds, of the heaviest resource of each: a tier waits for every instance
 * of the round before it, not only its own. The links are those heaviest resources, round by round.
 */
export function deletionRounds(graph: StackGraph, attribution: Attribution): Chain {
  const heights = heightsOf(graph);
  const rounds = new Map<number, string[]>();
  for (const urn of [...graph.nodes.keys()].sort()) {
    const h = heights.get(urn)!;
    rounds.set(h, [...(rounds.get(h) ?? []), urn]);
  }
  const job = (w: TimelineWork): ChainJob => ({
    kind: w.kind,
    ms: durationOf(w),
    startedAt: w.startedAt,
    endedAt: endOf(w),
  });
  const links: ChainLink[] = [...rounds.keys()]
    .sort((a, b) => b - a)
    .map((h) => {
      const weighed = rounds.get(h)!.map((urn) => {
        const work = attribution.byResource.get(urn) ?? [];
        return { urn, work, ms: work.reduce((sum, w) => sum + durationOf(w), 0) };
      });
      const heaviest = weighed.reduce((a, b) =>
        b.ms > a.ms || (b.ms === a.ms && b.work.length > a.work.length) ? b : a,
      );
      const node = graph.nodes.get(heaviest.urn)!;
      return {
        urn: node.urn,
        name: node.name,
        type: node.type,
        jobs: heaviest.work.map(job),
        notAwaited: [],
        ms: heaviest.ms,
      };
    });
  return { ms: links.reduce((sum, l) => sum + l.ms, 0), links };
}

/**
 * The gaps of a chain: from each of its jobs' end to the next one's start, along the chain (within a
 * resource, a volume's creation to its attachment; between links, an instance started to the volume
 * created on it). What the chain's path spent running no job: the provider seeing a completion, the
 * steps of no job on the way (a deletion confirmed), the engine moving on.
 */
export function chainGaps(chain: Chain): Delays {
  const jobs = chain.links.flatMap((l) => l.jobs.map((j) => ({ ...j, name: l.name })));
  const samples = jobs.slice(1).map((next, i) => ({
    resource: jobs[i]!.name,
    kind: jobs[i]!.kind,
    completedAt: jobs[i]!.endedAt,
    ms: next.startedAt - jobs[i]!.endedAt,
    next: `${next.name} ${next.kind}`,
  }));
  return delays(samples);
}

/** `app-1 (instance 3.0) → app-data (volume.create 3.0, volume.attach 3.0)`: the links that have jobs, in seconds. */
export function formatChain(chain: Chain): string {
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const links = chain.links
    .filter((l) => l.jobs.length > 0)
    .map((l) => `${l.name} (${l.jobs.map((j) => `${j.kind} ${s(j.ms)}`).join(", ")})`);
  return links.length > 0 ? `${links.join(" → ")} = ${s(chain.ms)} s` : "no jobs";
}

/** Per resource, the resources that must be done before it in this direction. */
function predecessors(graph: StackGraph, direction: Direction): Map<string, string[]> {
  const before = new Map<string, string[]>([...graph.nodes.keys()].map((urn) => [urn, []]));
  for (const node of graph.nodes.values()) {
    for (const dependency of node.dependsOn) {
      if (direction === "up") before.get(node.urn)!.push(dependency);
      else before.get(dependency)!.push(node.urn);
    }
  }
  return before;
}

/** What an up waits for: per resource, its dependencies (before) and its dependants (after). */
function dependencyOrder(graph: StackGraph): { before: Map<string, string[]>; after: Map<string, string[]> } {
  return { before: predecessors(graph, "up"), after: predecessors(graph, "destroy") };
}

/**
 * What a destroy waits for, by the engine's rounds of deletions (see `deletionRounds`): per resource,
 * every resource of a higher round (before) and of a lower one (after), dependency or not.
 */
function roundOrder(graph: StackGraph): { before: Map<string, string[]>; after: Map<string, string[]> } {
  const heights = heightsOf(graph);
  const urns = [...graph.nodes.keys()];
  const pick = (higher: boolean) =>
    new Map(
      urns.map((u) => [
        u,
        urns.filter((v) => (higher ? heights.get(v)! > heights.get(u)! : heights.get(v)! < heights.get(u)!)),
      ]),
    );
  return { before: pick(true), after: pick(false) };
}

/** Requests sent while at least one piece of work was pending, read ones only; per piece of work. */
export function pollsPerJob(requests: readonly LoggedRequest[], work: readonly TimelineWork[]): number | undefined {
  if (work.length === 0) return undefined;
  const pending = (at: number) => work.some((w) => w.startedAt <= at && at < endOf(w));
  return requests.filter((r) => r.read && pending(r.at)).length / work.length;
}

/** One completed job and how long after its completion something happened; see `slack` and `seen`. */
export interface JobDelay {
  resource: string;
  kind: string;
  completedAt: number;
  ms: number;
  /** What came next: the resource whose step began (slack), or the read's path (seen). */
  next: string;
}

export interface Delays {
  /** Mean of `samples`' ms; undefined without samples. */
  meanMs: number | undefined;
  samples: JobDelay[];
}

const delays = (samples: JobDelay[]): Delays => ({
  meanMs: samples.length ? samples.reduce((sum, s) => sum + s.ms, 0) / samples.length : undefined,
  samples,
});

const names = (request: LoggedRequest, uuids: readonly string[]) => uuids.some((u) => request.path.includes(u));

/**
 * When each resource's first step in the operation started: its first piece of work, or the first
 * request naming its uuid; undefined when neither shows (a create names no uuid: a resource created
 * without work shows no start).
 */
export function firstStarts(
  graph: StackGraph,
  attribution: Attribution,
  requests: readonly LoggedRequest[],
): Map<string, number | undefined> {
  const starts = new Map<string, number | undefined>();
  for (const node of graph.nodes.values()) {
    const named = requests.filter((r) => names(r, node.uuids)).map((r) => r.at);
    const all = [...(attribution.byResource.get(node.urn) ?? []).map((w) => w.startedAt), ...named];
    starts.set(node.urn, all.length ? Math.min(...all) : undefined);
  }
  return starts;
}

/**
 * Slack: per completed job, from its completion to the start of the next step it held back: its resource's next change
 * (its reads are the polls `seen` measures), or the first step of a resource done after it (up: its dependants;
 * destroy: the engine's later rounds of deletions, each waiting for the whole round before). A job counts only if it
 * was the last awaited (a later job of that step's resource or its predecessors carries the slack); a job that held
 * nothing back has none.
 */
export function slack(
  graph: StackGraph,
  attribution: Attribution,
  requests: readonly LoggedRequest[],
  direction: Direction,
): Delays {
  const { before, after } = direction === "up" ? dependencyOrder(graph) : roundOrder(graph);
  const workOf = (urn: string) => attribution.byResource.get(urn) ?? [];
  const first = firstStarts(graph, attribution, requests);
  /** The job's own resource's next step: strictly after, as a job of no duration completes in the millisecond its request arrived. */
  const ownNext = (urn: string, job: TimelineWork, done: number): number[] => {
    const work = workOf(urn).filter((w) => w !== job && w.startedAt >= done);
    const uuids = graph.nodes.get(urn)!.uuids;
    const changes = requests.filter((r) => r.mutating && r.at > done && names(r, uuids));
    return [...work.map((w) => w.startedAt), ...changes.map((r) => r.at)];
  };
  const samples: JobDelay[] = [];
  for (const [urn, work] of attribution.byResource) {
    for (const job of work) {
      if (job.completedAt === null) continue;
      const done = job.completedAt;
      const candidates = [
        ...ownNext(urn, job, done).map((at) => ({ at, urn })),
        ...(after.get(urn) ?? []).flatMap((f) => {
          const at = first.get(f);
          return at !== undefined && at >= done ? [{ at, urn: f }] : [];
        }),
      ];
      if (candidates.length === 0) continue;
      const next = candidates.reduce((a, b) => (b.at < a.at ? b : a));
      const blockers = [next.urn, ...(before.get(next.urn) ?? [])].flatMap(workOf);
      const later = blockers.some(
        (w) => w !== job && w.completedAt !== null && w.completedAt > done && w.completedAt < next.at,
      );
      if (later) continue;
      samples.push({
        resource: graph.nodes.get(urn)!.name,
        kind: job.kind,
        completedAt: done,
        ms: next.at - done,
        next: graph.nodes.get(next.urn)!.name,
      });
    }
  }
  return delays(samples.sort((a, b) => a.completedAt - b.completedAt));
}

/**
 * Seen: for each completed job, the time from its completion to the first read that could see it:
 * one naming its job or its resource, or an unfiltered list of its resource's area (a poll shared by
 * every waiter of that area names none of them). What a waiter's poll interval and the shared
 * reads' tick cost; the rest of the slack is the provider returning and the engine moving on.
 */
export function seen(graph: StackGraph, attribution: Attribution, requests: readonly LoggedRequest[]): Delays {
  const allUuids = [...graph.nodes.values()].flatMap((n) => n.uuids);
  const jobIds = [...attribution.byResource.values()].flat().flatMap((w) => (w.jobId ? [w.jobId] : []));
  const reads = requests.filter((r) => r.read).sort((a, b) => a.at - b.at);
  const samples: JobDelay[] = [];
  for (const [urn, work] of attribution.byResource) {
    const node = graph.nodes.get(urn)!;
    for (const job of work) {
      if (job.completedAt === null) continue;
      const done = job.completedAt;
      const covers = (r: LoggedRequest) =>
        names(r, node.uuids) ||
        (job.jobId !== null && r.path.includes(job.jobId)) ||
        (node.area !== null && r.area === node.area && !names(r, allUuids) && !names(r, jobIds));
      const read = reads.find((r) => r.at >= done && covers(r));
      if (!read) continue;
      samples.push({ resource: node.name, kind: job.kind, completedAt: done, ms: read.at - done, next: read.path });
    }
  }
  return delays(samples.sort((a, b) => a.completedAt - b.completedAt));
}

/** Everything computed for one operation. */
export interface OperationAnalysis {
  /** The heaviest chain of the jobs that were waited for. */
  chain: Chain;
  /** The heaviest chain of all jobs, by the dependencies alone (awaited or not). */
  structuralChain: Chain;
  /** A destroy's floor by the engine's rounds of deletions (see `deletionRounds`); undefined for an up. */
  rounds: Chain | undefined;
  /** Pieces of work of the operation, and those naming no resource of the stack. */
  work: number;
  unattributed: number;
  pollsPerJob: number | undefined;
  slack: Delays;
  seen: Delays;
  /** Along the chain, from each job's end to the next one's start. */
  gaps: Delays;
}

export function analyseOperation(
  graph: StackGraph,
  work: readonly TimelineWork[],
  requests: readonly LoggedRequest[],
  direction: Direction,
  endedAt: number,
): OperationAnalysis {
  const attribution = attributeWork(graph, work);
  const chain = longestChain(graph, attribution, direction, { requests, endedAt });
  return {
    chain,
    structuralChain: longestChain(graph, attribution, direction),
    rounds: direction === "destroy" ? deletionRounds(graph, attribution) : undefined,
    work: work.length,
    unattributed: attribution.unattributed.length,
    pollsPerJob: pollsPerJob(requests, work),
    slack: slack(graph, attribution, requests, direction),
    seen: seen(graph, attribution, requests),
    gaps: chainGaps(chain),
  };
}
