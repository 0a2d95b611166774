/**
 * What the user hears of operations in progress (engine/operation.ts), on a fake clock: within
 * seconds of the API not answering, each waiting operation's status (on its resource's row) says
 * what it waits on, since when, the last error and until when it keeps trying; one lasting warning
 * when the outage begins, one line when the API answers again; long ordinary waits show too.
 */
import { ApiError } from "../../../provider/client/errors";
import { ApiHealth } from "../../../provider/client/health";
import { currentScope, withActivity } from "../../../provider/client/scope";
import { OperationMonitor, subjectOf, type Notice, type OperationSpec } from "../../../provider/engine/operation";

const T0 = new Date(2030, 0, 1, 12, 0, 0).getTime();
const URN = "urn:pulumi:s::p::pulumi-nodejs:dynamic/restcloud:Instance::web-1";
const refused = new ApiError({
  operation: "instanceList",
  method: "GET",
  path: "/restapi/instance/instanceList",
  errorCode: "ECONNREFUSED",
  message: "connect ECONNREFUSED 127.0.0.1:41234",
  retryable: true,
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The create of instance web-1 (a 10-minute timeout), telling `notices`, on `clock`. */
function createOfWeb1(notices: Notice[], clock: () => number): OperationSpec {
  return {
    type: "Instance",
    name: "web-1",
    urn: URN,
    action: "create",
    timeoutName: "create",
    timeoutMs: 600_000,
    notify: (n) => notices.push(n),
    now: clock,
  };
}

test("the subject names the resource by logical name, else by id", () => {
  expect(subjectOf({ type: "Instance", name: "web-1" })).toBe("restcloud:Instance web-1");
  expect(subjectOf({ type: "Instance", id: "i-1" })).toBe("restcloud:Instance i-1");
  expect(subjectOf({ type: "Instance" })).toBe("restcloud:Instance");
});

test("an outage, then the API back, then a long wait: what the user is told, and when", async () => {
  let now = T0;
  const clock = () => now;
  const health = new ApiHealth("http://127.0.0.1:41234", clock);
  const monitor = new OperationMonitor({ tickMs: 3_600_000 });
  const notices: Notice[] = [];
  const notify = (notice: Notice) => notices.push(notice);
  const release = deferred();
  const spec = { action: "create", timeoutName: "create", timeoutMs: 600_000, health, notify, now: clock } as const;

  const waitOn = (awaited: string) => () =>
    withActivity(`waiting for ${awaited}`, async (activity) => {
      activity!.state = "state=Starting";
      await release.promise;
    });
  const web1 = monitor.run(
    {
      ...spec,
      type: "Instance",
      name: "web-1",
      urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/restcloud:Instance::web-1",
    },
    waitOn("instance i-1 to be Running"),
  );
  const web2 = monitor.run({ ...spec, type: "Instance", name: "web-2" }, waitOn("instance i-2 to be Running"));
  await Promise.resolve();

  health.unanswered(refused);
  const at = (ms: number) => {
    now = T0 + ms;
    notices.length = 0;
    monitor.tick();
    return notices.map((n) => `${n.kind} ${n.urn ?? "(stack)"}: ${n.message}`);
  };

  expect(at(2000)).toEqual([]);
  expect(at(3000)).toEqual([
    "warning (stack): restcloud: API not answering since 12:00:00 (connect ECONNREFUSED 127.0.0.1:41234), at http://127.0.0.1:41234; " +
      "waiting on it: restcloud:Instance web-1 (create), restcloud:Instance web-2 (create). " +
      "Each operation keeps trying until its timeout runs out (customTimeouts lengthens it).",
    // On the resource's own row, the row names it; on the stack's row, the message does.
    `status ${URN}: API not answering for 3s (connect ECONNREFUSED 127.0.0.1:41234; since 12:00:00); ` +
      "waiting for instance i-1 to be Running; retrying until the create timeout (10m) runs out in 9m57s",
    "status (stack): restcloud:Instance web-2: API not answering for 3s (connect ECONNREFUSED 127.0.0.1:41234; since 12:00:00); " +
      "waiting for instance i-2 to be Running; retrying until the create timeout (10m) runs out in 9m57s",
  ]);
  expect(at(4000)).toEqual([]);
  expect(at(8000)).toEqual([
    `status ${URN}: API not answering for 8s (connect ECONNREFUSED 127.0.0.1:41234; since 12:00:00); ` +
      "waiting for instance i-1 to be Running; retrying until the create timeout (10m) runs out in 9m52s",
    expect.stringMatching(/^status \(stack\): restcloud:Instance web-2: API not answering for 8s /),
  ]);

  now = T0 + 9000;
  health.answered();
  expect(at(9500)).toEqual([
    "info (stack): restcloud: the API at http://127.0.0.1:41234 answered again at 12:00:09, after 9s without an answer",
    `status ${URN}: the API answers again; waiting for instance i-1 to be Running`,
    "status (stack): restcloud:Instance web-2: the API answers again; waiting for instance i-2 to be Running",
  ]);
  // The status was renewed at 9.5 s: the next one comes 5 s later, about the long wait.
  expect(at(12_000)).toEqual([]);
  expect(at(15_000)).toEqual([
    `status ${URN}: waiting for instance i-1 to be Running (last seen: state=Starting) for 15s; the create timeout (10m) runs out in 9m45s`,
    "status (stack): restcloud:Instance web-2: waiting for instance i-2 to be Running (last seen: state=Starting) for 15s; the create timeout (10m) runs out in 9m45s",
  ]);
  expect(at(17_000)).toEqual([]);
  // After a minute of waiting, every 30 s rather than every 5.
  expect(at(20_000)).toHaveLength(2);
  expect(at(60_000)).toHaveLength(2);
  expect(at(65_000)).toEqual([]);
  expect(at(85_000)).toEqual([]);
  expect(at(90_000)).toEqual([
    `status ${URN}: waiting for instance i-1 to be Running (last seen: state=Starting) for 1m30s; the create timeout (10m) runs out in 8m30s`,
    expect.stringContaining("restcloud:Instance web-2: waiting for instance i-2 to be Running"),
  ]);

  release.resolve();
  await Promise.all([web1, web2]);
  expect(at(30_000)).toEqual([]);
});

test("each operation runs in its own scope, with its deadline from its timeout", async () => {
  const monitor = new OperationMonitor();
  const now = () => T0;
  const seen = await monitor.run(
    { type: "Vpc", name: "main", action: "delete", timeoutName: "delete", timeoutMs: 90_000, now },
    async () => currentScope(),
  );
  expect(seen).toMatchObject({
    subject: "restcloud:Vpc main",
    timeoutName: "delete",
    timeoutMs: 90_000,
    started: T0,
    deadline: T0 + 90_000,
  });
  expect(currentScope()).toBeUndefined();
});

test("an operation that ends right after the API came back says so, not the outage, as its last status", async () => {
  let now = T0;
  const clock = () => now;
  const health = new ApiHealth("http://127.0.0.1:41234", clock);
  const monitor = new OperationMonitor({ tickMs: 3_600_000 });
  const notices: Notice[] = [];
  const release = deferred();
  const running = monitor.run({ ...createOfWeb1(notices, clock), health }, () => release.promise);
  health.unanswered(refused);
  now = T0 + 5000;
  monitor.tick();
  now = T0 + 65_000;
  health.answered();
  release.resolve();
  await running;
  expect(notices.filter((n) => n.kind === "status").map((n) => n.message)).toEqual([
    "API not answering for 5s (connect ECONNREFUSED 127.0.0.1:41234; since 12:00:00); creating; retrying until the create timeout (10m) runs out in 9m55s",
    "the API answered again at 12:01:05, after 1m5s without an answer",
  ]);
  // And the lasting line, as the last operation ends.
  expect(notices.filter((n) => n.kind === "info").map((n) => n.message)).toEqual([
    "restcloud: the API at http://127.0.0.1:41234 answered again at 12:01:05, after 1m5s without an answer",
  ]);
});

test("a long wait that shows a status ends with a status saying how it ended, not the stale wait", async () => {
  let now = T0;
  const clock = () => now;
  const monitor = new OperationMonitor({ tickMs: 3_600_000 });
  const notices: Notice[] = [];
  const release = deferred();
  const running = monitor.run(createOfWeb1(notices, clock), () =>
    withActivity("waiting for instance i-1 to be Running", () => release.promise),
  );
  now = T0 + 12_000;
  monitor.tick();
  now = T0 + 16_000;
  release.resolve();
  await running;
  expect(notices.map((n) => `${n.kind} ${n.urn}: ${n.message}`)).toEqual([
    `status ${URN}: waiting for instance i-1 to be Running for 12s; the create timeout (10m) runs out in 9m48s`,
    `status ${URN}: created after 16s`,
  ]);
});

test("a short operation that showed nothing says nothing when it ends", async () => {
  const monitor = new OperationMonitor({ tickMs: 3_600_000 });
  const notices: Notice[] = [];
  await monitor.run(
    {
      type: "Vpc",
      name: "v",
      urn: URN,
      action: "delete",
      timeoutName: "delete",
      timeoutMs: 60_000,
      notify: (n) => notices.push(n),
    },
    async () => undefined,
  );
  expect(notices).toEqual([]);
});
