/**
 * The critical-path benchmark's computation (bench/chain.ts) on a small synthetic stack shaped like
 * examples/vpc-web: a VPC, a tier, two instances on it, a volume on the first, a public IP with a
 * firewall rule; with jobs of known durations and a request log of known times.
 */
import {
  analyseOperation,
  attributeWork,
  chainGaps,
  deletionRounds,
  formatChain,
  longestChain,
  pollsPerJob,
  seen,
  slack,
  stackGraph,
  type LoggedRequest,
  type StateResource,
  type TimelineWork,
} from "../../../bench/chain";

const T = 1_000_000; // the epoch ms the operation starts at
const urn = (name: string, type: string) => `urn:pulumi:s::p::restcloud:index:${type}::${name}`;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

const VPC = urn("vpc", "Vpc");
const TIER = urn("tier", "VpcTier");
const APP = urn("app", "Instance");
const WEB = urn("web", "Instance");
const DATA = urn("data", "Volume");
const IP = urn("ip", "PublicIpAddress");
const FW = urn("fw", "FirewallRule");
const STACK = "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s";

const resources: StateResource[] = [
  { urn: STACK, type: "pulumi:pulumi:Stack" },
  { urn: "urn:pulumi:s::p::pulumi:providers:restcloud::default", type: "pulumi:providers:restcloud", id: "p-1" },
  { urn: VPC, type: "restcloud:index:Vpc", id: uuid(1), parent: STACK },
  { urn: TIER, type: "restcloud:index:VpcTier", id: uuid(2), dependencies: [VPC], parent: STACK },
  // The dependency given by propertyDependencies only, as the dynamic mode may write it.
  { urn: APP, type: "restcloud:index:Instance", id: uuid(3), propertyDependencies: { networkUuid: [TIER] } },
  { urn: WEB, type: "restcloud:index:Instance", id: uuid(4), dependencies: [TIER] },
  // Its id is no uuid: the record is found by its outputs' uuid.
  { urn: DATA, type: "restcloud:index:Volume", id: "data-id", outputs: { uuid: uuid(5) }, dependencies: [APP] },
  { urn: IP, type: "restcloud:index:PublicIpAddress", id: uuid(6), dependencies: [VPC] },
  { urn: FW, type: "restcloud:index:FirewallRule", id: uuid(7), dependencies: [IP] },
];

const AREAS: Record<string, string> = { Instance: "instance", Volume: "volume", VpcTier: "network", Vpc: "vpc" };
const graph = stackGraph(resources, (type) => AREAS[type.slice(type.lastIndexOf(":") + 1)] ?? null);

const work = (
  id: string,
  kind: string,
  resourceIds: string[],
  startedAt: number,
  completedAt: number | null,
  more: Partial<TimelineWork> = {},
): TimelineWork => ({
  id,
  kind,
  resourceIds,
  jobId: null,
  startedAt: T + startedAt,
  dueAt: T + (completedAt ?? startedAt + 3000),
  completedAt: completedAt === null ? null : T + completedAt,
  ...more,
});

const request = (at: number, path: string, kind: "read" | "change", area: string | null = null): LoggedRequest => ({
  at: T + at,
  path,
  read: kind === "read",
  mutating: kind === "change",
  area,
});

// The up: the instances start (3 s, web's a little longer), then the volume is created on app and
// attached (3 s each). The volume's jobs name both records, as an attachment does.
const upWork = [
  work("w1", "instance.start", [uuid(3)], 0, 3000),
  work("w2", "instance.start", [uuid(4)], 0, 3500),
  work("w3", "volume.create", [uuid(5)], 3200, 6200, { jobId: "job-create", resourceType: "Volume" }),
  work("w4", "volume.attach", [uuid(3), uuid(5)], 6250, 9250, { jobId: "job-attach", resourceType: "Volume" }),
];
const upRequests = [
  request(0, "/restapi/instance/createInstance", "change", "instance"),
  request(100, "/restapi/instance/instanceList?zoneUuid=z", "read", "instance"),
  request(2900, "/restapi/instance/instanceList?zoneUuid=z", "read", "instance"),
  request(3150, "/restapi/instance/instanceList?zoneUuid=z", "read", "instance"), // sees app: 150
  request(3200, "/restapi/volume/createVolume", "change", "volume"), // no uuid: the job's start tells
  request(3300, "/restapi/asyncjob/resourceStatus?jobId=job-create", "read", "asyncJob"),
  request(3900, "/restapi/instance/instanceList?zoneUuid=z", "read", "instance"), // sees web: 400
  request(6240, "/restapi/asyncjob/resourceStatus?jobId=job-create", "read", "asyncJob"), // sees the creation: 40
  request(6250, `/restapi/volume/attachVolume?uuid=${uuid(5)}&instanceUuid=${uuid(3)}`, "change", "volume"),
  request(9300, "/restapi/asyncjob/resourceStatus?jobId=job-attach", "read", "asyncJob"), // sees the attachment: 50
  request(9400, "/restapi/vpc/vpcList?zoneUuid=z", "read", "vpc"), // after all work: no poll
];

describe("the stack's graph", () => {
  test("leaves out the stack and its providers, follows dependencies, propertyDependencies and parents in the graph", () => {
    expect([...graph.nodes.values()].map((n) => n.name)).toEqual(["vpc", "tier", "app", "web", "data", "ip", "fw"]);
    expect(graph.nodes.get(TIER)!.dependsOn).toEqual([VPC]); // the parent, the stack, is not a resource of the graph
    expect(graph.nodes.get(APP)!.dependsOn).toEqual([TIER]);
    expect(graph.nodes.get(DATA)!.uuids).toEqual(["data-id", uuid(5)]);
    expect(graph.nodes.get(APP)!.area).toBe("instance");
    expect(graph.nodes.get(IP)!.area).toBeNull();
  });

  test("a parent that is a resource of the stack is a dependency", () => {
    const component = urn("group", "Group");
    const child = stackGraph([
      { urn: component, type: "my:index:Group" },
      { urn: VPC, type: "restcloud:index:Vpc", id: uuid(1), parent: component },
    ]);
    expect(child.nodes.get(VPC)!.dependsOn).toEqual([component]);
  });
});

describe("attribution", () => {
  test("each piece of work goes to the resource it names, the one of its resourceType when it names several", () => {
    const stray = work("w9", "vpc.restart", [uuid(99)], 0, 10);
    const { byResource, unattributed } = attributeWork(graph, [...upWork, stray]);
    expect(byResource.get(APP)!.map((w) => w.id)).toEqual(["w1"]);
    expect(byResource.get(WEB)!.map((w) => w.id)).toEqual(["w2"]);
    expect(byResource.get(DATA)!.map((w) => w.id)).toEqual(["w3", "w4"]);
    expect(unattributed.map((w) => w.id)).toEqual(["w9"]);
  });
});

describe("the longest chain", () => {
  test("of an up: the dependencies first, each resource weighing the sum of its jobs", () => {
    const chain = longestChain(graph, attributeWork(graph, upWork), "up");
    // app (3.0) + data (3.0 + 3.0) = 9.0 outweighs web's 3.5.
    expect(chain.ms).toBe(9000);
    expect(chain.links.map((l) => l.name)).toEqual(["vpc", "tier", "app", "data"]);
    expect(chain.links.at(-1)!.jobs).toEqual([
      { kind: "volume.create", ms: 3000, startedAt: T + 3200, endedAt: T + 6200 },
      { kind: "volume.attach", ms: 3000, startedAt: T + 6250, endedAt: T + 9250 },
    ]);
    expect(formatChain(chain)).toBe("app (instance.start 3.0) → data (volume.create 3.0, volume.attach 3.0) = 9.0 s");
  });

  test("of a destroy: the dependants first; work not yet completed counts until it was due", () => {
    const destroyWork = [
      work("d1", "volume.detach", [uuid(5)], 0, 2000),
      work("d2", "instance.destroy", [uuid(3)], 2100, 5100),
      work("d3", "instance.destroy", [uuid(4)], 0, null), // due at 3000
      work("d4", "vpc.delete", [uuid(1)], 5200, 5700),
    ];
    const chain = longestChain(graph, attributeWork(graph, destroyWork), "destroy");
    expect(chain.links.map((l) => l.name)).toEqual(["data", "app", "tier", "vpc"]);
    expect(chain.ms).toBe(2000 + 3000 + 500);
    expect(formatChain(chain)).toBe(
      "data (volume.detach 2.0) → app (instance.destroy 3.0) → vpc (vpc.delete 0.5) = 5.5 s",
    );
  });

  test("of equal weights, the path of more jobs: with no delay, the chain still shows the jobs' order", () => {
    const instant = [
      work("w1", "createInstance", [uuid(3)], 0, 0),
      work("w2", "createInstance", [uuid(4)], 0, 0),
      work("w3", "createVolume", [uuid(5)], 10, 10),
    ];
    const chain = longestChain(graph, attributeWork(graph, instant), "up");
    expect(chain.links.map((l) => l.name)).toEqual(["vpc", "tier", "app", "data"]);
    expect(formatChain(chain)).toBe("app (createInstance 0.0) → data (createVolume 0.0) = 0.0 s");
  });

  test("observed: a job the next link did not wait for is no part of the chain", () => {
    // The tier's description is applied 3 s later; the instances start on the tier meanwhile.
    const withTierUpdate = [work("t1", "updateVpcNetwork", [uuid(2)], -500, 2500), ...upWork];
    const attribution = attributeWork(graph, withTierUpdate);
    const structural = longestChain(graph, attribution, "up");
    expect(structural.ms).toBe(12_000);
    const observed = longestChain(graph, attribution, "up", { requests: upRequests, endedAt: T + 10_000 });
    expect(observed.ms).toBe(9000);
    expect(observed.links.find((l) => l.name === "tier")).toMatchObject({
      jobs: [],
      notAwaited: [{ kind: "updateVpcNetwork", ms: 3000 }],
    });
    expect(formatChain(observed)).toBe(
      "app (instance.start 3.0) → data (volume.create 3.0, volume.attach 3.0) = 9.0 s",
    );
  });

  test("observed: the last link's jobs weigh only if the operation ended after them", () => {
    const attribution = attributeWork(graph, upWork);
    const early = longestChain(graph, attribution, "up", { requests: upRequests, endedAt: T + 8000 });
    // The attachment (due at 9.25 s) was not awaited: app and the volume's creation make 6 s.
    expect(early.ms).toBe(6000);
    expect(early.links.at(-1)).toMatchObject({ name: "data", notAwaited: [{ kind: "volume.attach", ms: 3000 }] });
  });

  test("observed: a link whose start nothing shows is taken to have waited", () => {
    // No work and no request names the firewall rule: the IP's job counts as awaited.
    const ipWork = [work("i1", "acquireIp", [uuid(6)], 0, 20_000)];
    const chain = longestChain(graph, attributeWork(graph, ipWork), "up", { requests: [], endedAt: T + 30_000 });
    expect(chain.links.map((l) => l.name)).toEqual(["vpc", "ip", "fw"]);
    expect(chain.ms).toBe(20_000);
  });

  test("a destroy's rounds: the engine deletes by height, each round after the whole previous one", () => {
    const destroyWork = [
      work("d1", "volume.detach", [uuid(5)], 0, 2000),
      work("d2", "instance.destroy", [uuid(3)], 2100, 5100),
      work("d3", "instance.destroy", [uuid(4)], 2100, 6100), // web: no volume, but the longer destroy
      work("d4", "vpc.delete", [uuid(1)], 6200, 6700),
    ];
    const attribution = attributeWork(graph, destroyWork);
    // The chain through the dependencies: data, app, tier, vpc (5.5 s); web's 4 s and its path are lighter.
    expect(longestChain(graph, attribution, "destroy").ms).toBe(5500);
    // The rounds: data (height 3); app, web, fw (2); tier, ip (1); vpc (0): web's 4 s counts after data's 2.
    const rounds = deletionRounds(graph, attribution);
    expect(rounds.links.map((l) => l.name)).toEqual(["data", "web", "ip", "vpc"]);
    expect(rounds.ms).toBe(2000 + 4000 + 500);
    expect(formatChain(rounds)).toBe(
      "data (volume.detach 2.0) → web (instance.destroy 4.0) → vpc (vpc.delete 0.5) = 6.5 s",
    );
  });

  test("without work the chain weighs nothing and says so", () => {
    const chain = longestChain(graph, attributeWork(graph, []), "up");
    expect(chain.ms).toBe(0);
    expect(formatChain(chain)).toBe("no jobs");
  });

  test("a cycle is an error, not a chain", () => {
    const cyclic = stackGraph([
      { urn: VPC, type: "restcloud:index:Vpc", id: uuid(1), dependencies: [TIER] },
      { urn: TIER, type: "restcloud:index:VpcTier", id: uuid(2), dependencies: [VPC] },
    ]);
    expect(() => longestChain(cyclic, attributeWork(cyclic, []), "up")).toThrow("form a cycle");
  });
});

describe("polls, slack and seen", () => {
  test("polls per job: the reads sent while some work was pending, per piece of work", () => {
    // Reads at 100, 2900, 3150, 3300 and 3900 fall in pending work; 6240 (between the volume's jobs),
    // 9300 and 9400 (after the last) do not; changes never count.
    expect(pollsPerJob(upRequests, upWork)).toBe(5 / 4);
    expect(pollsPerJob(upRequests, [])).toBeUndefined();
  });

  test("slack: from a job's completion to the start of the next step it held back", () => {
    const delays = slack(graph, attributeWork(graph, upWork), upRequests, "up");
    expect(delays.samples.map((s) => [s.resource, s.kind, s.ms, s.next])).toEqual([
      ["app", "instance.start", 200, "data"], // the volume's creation job started at 3200
      ["data", "volume.create", 50, "data"], // attachVolume names the volume
    ]);
    expect(delays.meanMs).toBe(125);
  });

  test("slack counts only the job that was awaited last", () => {
    // The tier is deleted after both instances; app's destroy completed first and is not counted.
    const destroyWork = [
      work("d2", "instance.destroy", [uuid(3)], 0, 3000),
      work("d3", "instance.destroy", [uuid(4)], 0, 3400),
    ];
    const requests = [request(3480, `/restapi/network/deleteNetwork/${uuid(2)}`, "change", "network")];
    const delays = slack(graph, attributeWork(graph, destroyWork), requests, "destroy");
    expect(delays.samples.map((s) => [s.resource, s.ms, s.next])).toEqual([["web", 80, "tier"]]);
  });

  test("a destroy's slack follows the engine's rounds: a round waits for the whole round before it", () => {
    // The firewall rule's deletion (round 2) completes early; the IP (round 1) is released only after
    // web's destroy (round 2 too, unrelated to the IP) completed: web's job carries the slack.
    const destroyWork = [
      work("d1", "firewallRule.delete", [uuid(7)], 0, 1000),
      work("d2", "instance.destroy", [uuid(4)], 0, 8000),
    ];
    const requests = [request(8100, `/restapi/ipaddress/releaseIpAddress?uuid=${uuid(6)}`, "change", "ipAddress")];
    const delays = slack(graph, attributeWork(graph, destroyWork), requests, "destroy");
    expect(delays.samples.map((s) => [s.resource, s.ms, s.next])).toEqual([["web", 100, "ip"]]);
  });

  test("a job's own resource starts its next step with a change; its reads are polls", () => {
    const detach = [work("d1", "volume.detach", [uuid(5)], 0, 3000)];
    const requests = [
      request(3100, `/restapi/volume/volumeList?uuid=${uuid(5)}`, "read", "volume"),
      request(3300, `/restapi/volume/deleteVolume/${uuid(5)}`, "change", "volume"),
    ];
    const delays = slack(graph, attributeWork(graph, detach), requests, "destroy");
    expect(delays.samples.map((s) => s.ms)).toEqual([300]);
  });

  test("a job nothing waited for has no slack, though later requests name the resources after it", () => {
    // The instances started on the tier before its description was applied (at 3.2 s, after app
    // was running); attachVolume names app later, with no job of app's completing in between.
    const withTierUpdate = [work("t1", "updateVpcNetwork", [uuid(2)], -500, 3200), ...upWork];
    const delays = slack(graph, attributeWork(graph, withTierUpdate), upRequests, "up");
    expect(delays.samples.map((s) => s.resource)).toEqual(["app", "data"]);
  });

  test("a job of no duration is not its own next step, nor is the change that started it", () => {
    // With no delay the detachment completes in the millisecond its request arrived.
    const detach = [work("d1", "volume.detach", [uuid(5)], 0, 0)];
    const requests = [
      request(0, `/restapi/volume/detachVolume?uuid=${uuid(5)}`, "change", "volume"),
      request(150, `/restapi/volume/deleteVolume/${uuid(5)}`, "change", "volume"),
    ];
    const delays = slack(graph, attributeWork(graph, detach), requests, "destroy");
    expect(delays.samples.map((s) => s.ms)).toEqual([150]);
  });

  test("seen: from a job's completion to the first read that could see it", () => {
    const delays = seen(graph, attributeWork(graph, upWork), upRequests);
    expect(delays.samples.map((s) => [s.resource, s.kind, s.ms])).toEqual([
      ["app", "instance.start", 150], // the zone's instance list, shared by both waiters
      ["web", "instance.start", 400],
      ["data", "volume.create", 40], // its job's status
      ["data", "volume.attach", 50],
    ]);
    expect(delays.meanMs).toBe((150 + 400 + 40 + 50) / 4);
  });

  test("a list filtered to another resource of the stack does not see this one", () => {
    const started = [work("w1", "instance.start", [uuid(3)], 0, 3000)];
    const requests = [
      request(3100, `/restapi/instance/instanceList?vmUuid=${uuid(4)}`, "read", "instance"),
      request(3500, `/restapi/instance/instanceList?vmUuid=${uuid(3)}`, "read", "instance"),
    ];
    expect(seen(graph, attributeWork(graph, started), requests).samples.map((s) => s.ms)).toEqual([500]);
  });

  test("the chain's gaps: from each of its jobs' end to the next one's start", () => {
    const chain = longestChain(graph, attributeWork(graph, upWork), "up");
    const gaps = chainGaps(chain);
    expect(gaps.samples.map((g) => [g.resource, g.kind, g.ms, g.next])).toEqual([
      ["app", "instance.start", 200, "data volume.create"],
      ["data", "volume.create", 50, "data volume.attach"],
    ]);
    expect(gaps.meanMs).toBe(125);
    expect(chainGaps(longestChain(graph, attributeWork(graph, []), "up")).meanMs).toBeUndefined();
  });

  test("analyseOperation puts it together", () => {
    const stray = work("w9", "vpc.restart", [uuid(99)], 0, 10);
    const analysis = analyseOperation(graph, [...upWork, stray], upRequests, "up", T + 10_000);
    expect(analysis.chain.ms).toBe(9000);
    expect(analysis.structuralChain.ms).toBe(9000);
    expect(analysis.work).toBe(5);
    expect(analysis.unattributed).toBe(1);
    expect(analysis.slack.samples).toHaveLength(2);
    expect(analysis.seen.samples).toHaveLength(4);
    expect(analysis.gaps.samples).toHaveLength(2);
    expect(analysis.rounds).toBeUndefined(); // an up has no rounds
    expect(analyseOperation(graph, [], [], "destroy", T).rounds).toMatchObject({ ms: 0 });
  });
});
