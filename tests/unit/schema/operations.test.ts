/**
 * Every operation of the client is reached by a resource, a function or a tool of the package, or
 * is listed in CLIENT_ONLY with its reason (provider/schema/operations.ts); docs/operations.md says
 * which (its staleness is checked with the other generated files).
 */
import { OPERATIONS } from "../../../provider/client/operations";
import { repoRoot } from "../../../provider/schema/generate";
import {
  CLIENT_ONLY,
  REACHED_BY,
  operationRows,
  operationsDoc,
  reachProblems,
} from "../../../provider/schema/operations";

const root = repoRoot(__dirname);
const rows = operationRows(root);

test("every operation of the client is reached, or stays in the client with a stated reason", () => {
  expect(rows.length).toBe(OPERATIONS.length);
  expect(reachProblems(rows)).toEqual([]);
});

test("the issue's operations: reached by the new functions, or declared, or client-only", () => {
  const foundBy = (key: string) => rows.find((r) => r.key === key)!.found;
  expect(foundBy("instance.passwords")).toEqual(["getInstancePasswords"]);
  expect(foundBy("invoice.paymentStatus")).toEqual(["getInvoicePaymentStatus"]);
  for (const [key, fn] of Object.entries({
    publicKey: "getPublicKey",
    serviceCategories: "getServiceCategories",
    vpnUserCost: "getUnitCosts",
    vmSchedulerCost: "getVmSchedulerCost",
    bandwidthCost: "getBandwidthCost",
    objectStorageCost: "getObjectStorageCost",
    sfsStorageOfferings: "getSfsStorageOfferings",
    supportCategories: "getSupportCategories",
    supportPlans: "getSupportPlans",
    tax: "getTax",
  }))
    expect({ key, found: foundBy(`costEstimate.${key}`) }).toEqual({ key, found: expect.arrayContaining([fn]) });
  expect(Object.keys(CLIENT_ONLY).sort()).toEqual([
    "instance.recover",
    "invoice.changeCost",
    "invoice.generate",
    "invoice.updateStatus",
    "invoice.updateTax",
  ]);
  // The resources' part: the search finds each call in its declaration, and the update step that
  // makes it states it (`reaches`), so the field is named.
  const declaredBy = (key: string) => rows.find((r) => r.key === key)!.declared?.via;
  for (const [key, declaration, field] of [
    ["vpc.restart", "Vpc", "Vpc.restartTriggers"],
    ["network.restart", "Network", "Network.restartTriggers"],
    ["instance.attachIso", "Instance", "Instance.isoUuid"],
    ["instance.detachIso", "Instance", "Instance.isoUuid"],
    ["instance.resetSshKey", "Instance", "Instance.sshKeyName"],
  ] as const) {
    expect({ key, found: foundBy(key) }).toEqual({ key, found: [declaration] });
    expect({ key, via: declaredBy(key) }).toEqual({ key, via: field });
  }
  expect(foundBy("volume.upload")).toEqual(["UploadedVolume"]);
});

test("the declarations state what the search cannot see; REACHED_BY holds no kind's entry", () => {
  const row = (key: string) => rows.find((r) => r.key === key)!;
  // ruleBehaviour is handed the area: the declaration states the calls (`reaches`).
  for (const key of ["firewallRule.create", "firewallRule.delete"])
    expect({ key, declared: row(key).declared }).toEqual({
      key,
      declared: { via: "FirewallRule", note: expect.stringContaining("ruleBehaviour") },
    });
  // The price book calls unit prices by name: the price facets say which calls restcloud cost makes.
  for (const call of ["ipCost", "portForwardingCost", "snapshotCost", "vmSnapshotCost", "k8sCost"])
    expect({ call, found: row(`costEstimate.${call}`).found }).toEqual({
      call,
      found: expect.arrayContaining(["restcloud cost"]),
    });
  expect(Object.keys(REACHED_BY)).toEqual(["asyncJob.status"]);
});

test("a throw-away kind's stated reach is credited to it", () => {
  const kind = { type: "Gadget", reaches: { operations: ["vpc.restart"], how: "a test" }, updates: [] };
  const derived = operationRows(root, [kind as never]);
  expect(derived.find((r) => r.key === "vpc.restart")!.declared).toEqual({ via: "Gadget", note: "a test" });
});

test("a comment or a description naming a call is no call; a call credits the declaration around it", () => {
  // account.ts names client.invoice.updateTax({ id }) in a description and client.invoice.generate in a comment.
  expect(rows.find((r) => r.key === "invoice.updateTax")!.found).toEqual([]);
  expect(rows.find((r) => r.key === "invoice.generate")!.found).toEqual([]);
  // A helper (templatesMatching) credits the functions that use it.
  expect(rows.find((r) => r.key === "costEstimate.templates")!.found).toEqual(
    expect.arrayContaining(["getTemplate", "getTemplates"]),
  );
  expect(rows.find((r) => r.key === "vpc.create")!.found).toEqual(["Vpc"]);
});

test("the doc shows the client call of each client-only operation and a row per operation", () => {
  const doc = operationsDoc(rows);
  for (const { call } of Object.values(CLIENT_ONLY)) expect(doc).toContain(call);
  for (const row of rows) expect(doc).toContain(`| \`${row.key}\` |`);
  expect(doc).toMatch(/\| `vpc.restart` \|.*\| Vpc.restartTriggers \|/);
});
