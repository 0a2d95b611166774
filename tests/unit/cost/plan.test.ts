/**
 * Reading plans for the cost estimate (provider/cost/plan.ts): a preview's steps merged per
 * resource (a replacement's three steps are one resource, priced before and after), both modes'
 * type tokens, other providers counted, and a clear error for input that is no plan.
 */
import { PlanFormatError, readPlan } from "../../../provider/cost/plan";

const urn = (type: string, name: string) => `urn:pulumi:dev::proj::${type}::${name}`;
const DYNAMIC_VPC = "pulumi-nodejs:dynamic/restcloud:Vpc";
const NATIVE_VOLUME = "restcloud:index:Volume";
const state = (type: string, name: string, inputs: Record<string, unknown>, id?: string) => ({
  urn: urn(type, name),
  custom: true,
  type,
  ...(id ? { id } : {}),
  inputs,
  outputs: {},
});

test("a replacement's steps are one resource, with its state before and after", () => {
  const before = state(DYNAMIC_VPC, "web", { cidr: "10.0.0.0/16" }, "old-id");
  const after = state(DYNAMIC_VPC, "web", { cidr: "10.1.0.0/16" });
  const plan = readPlan(
    JSON.stringify({
      steps: [
        { op: "create-replacement", urn: before.urn, oldState: before, newState: after },
        { op: "replace", urn: before.urn, oldState: before, newState: after },
        { op: "delete-replaced", urn: before.urn, oldState: before },
      ],
    }),
  );
  expect(plan.resources).toHaveLength(1);
  const [vpc] = plan.resources;
  expect(vpc).toMatchObject({ name: "web", kind: "Vpc", op: "replace" });
  expect(vpc!.before?.properties.cidr).toBe("10.0.0.0/16");
  expect(vpc!.before?.id).toBe("old-id");
  expect(vpc!.after?.properties.cidr).toBe("10.1.0.0/16");
});

test("creates, deletes and unchanged resources of both modes; other providers counted, not priced", () => {
  const volume = state(NATIVE_VOLUME, "data", { size: 50 }, "v-1");
  const gone = state(DYNAMIC_VPC, "old", { cidr: "10.9.0.0/16" }, "vpc-9");
  const plan = readPlan(
    JSON.stringify({
      config: { "restcloud:apiUrl": "http://127.0.0.1:1", "restcloud:apiKey": "[secret]" },
      steps: [
        {
          op: "same",
          urn: urn("pulumi:pulumi:Stack", "proj-dev"),
          newState: { type: "pulumi:pulumi:Stack", custom: false },
        },
        { op: "same", urn: volume.urn, oldState: volume, newState: volume },
        { op: "delete", urn: gone.urn, oldState: gone },
        { op: "create", urn: urn("aws:s3/bucket:Bucket", "b"), newState: state("aws:s3/bucket:Bucket", "b", {}) },
        {
          op: "create",
          urn: urn("pulumi:providers:aws", "default"),
          newState: state("pulumi:providers:aws", "default", {}),
        },
      ],
    }),
  );
  expect(plan.resources.map((r) => [r.kind, r.name, r.op, r.before !== undefined, r.after !== undefined])).toEqual([
    ["Volume", "data", "same", true, true],
    ["Vpc", "old", "delete", true, false],
  ]);
  expect(plan.otherResources).toBe(1);
  expect(plan.listsUnchanged).toBe(true);
  expect(plan.config["restcloud:apiUrl"]).toBe("http://127.0.0.1:1");
});

test("a preview of an existing stack without --show-sames says that it lists only changes", () => {
  const before = state(NATIVE_VOLUME, "data", { size: 50 }, "v-1");
  const after = { ...before, inputs: { size: 60 } };
  const plan = readPlan(
    JSON.stringify({ steps: [{ op: "update", urn: before.urn, oldState: before, newState: after }] }),
  );
  expect(plan.listsUnchanged).toBe(false);
  expect(plan.resources[0]?.op).toBe("update");
});

test("a stack export: every resource as it is", () => {
  const plan = readPlan(
    JSON.stringify({
      version: 3,
      deployment: {
        resources: [
          { urn: urn("pulumi:pulumi:Stack", "proj-dev"), type: "pulumi:pulumi:Stack", custom: false },
          { ...state(DYNAMIC_VPC, "web", { cidr: "10.0.0.0/16" }, "vpc-1") },
          { ...state(DYNAMIC_VPC, "web", { cidr: "10.0.0.0/16" }, "vpc-0"), delete: true },
        ],
      },
    }),
  );
  expect(plan.source).toBe("state");
  expect(plan.resources.map((r) => [r.name, r.op, r.before?.id])).toEqual([["web", "same", "vpc-1"]]);
});

test.each([
  ["", /the input is empty/],
  ["Previewing update (dev):", /not JSON/],
  [JSON.stringify({ hello: 1 }), /neither a preview .* nor a stack export/],
  [JSON.stringify({ steps: [{ nope: true }] }), /no urn or op/],
  [
    JSON.stringify({ steps: [], diagnostics: [{ severity: "error", message: "program failed: boom\n" }] }),
    /the preview failed, there is no plan to price: program failed: boom/,
  ],
])("input that is no plan: %j", (text, message) => {
  expect(() => readPlan(text)).toThrow(PlanFormatError);
  expect(() => readPlan(text)).toThrow(message);
});
