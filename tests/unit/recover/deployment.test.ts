/**
 * What `restcloud recover` reads from a stack export and writes back (provider/recover/deployment.ts):
 * the pending creates of restcloud resources in either mode, their inputs with secrets in clear, the
 * records the state holds, and the deployment with the records found put in state.
 */
import {
  DeploymentFormatError,
  parseExport,
  resolvedDeployment,
  revealSecrets,
  stackStateOf,
  type ExportedStack,
} from "../../../provider/recover/deployment";

const SIG = "4dabf18193072939515e22adb298388d";
const STACK = "urn:pulumi:ci::shop::";
const provider = `${STACK}pulumi:providers:restcloud::default::1f`;

function exported(): ExportedStack {
  return {
    version: 3,
    deployment: {
      manifest: { magic: "m" },
      resources: [
        { urn: `${STACK}pulumi:pulumi:Stack::shop-ci`, type: "pulumi:pulumi:Stack", custom: false },
        { urn: `${STACK}restcloud:index:Vpc::vpc`, type: "restcloud:index:Vpc", id: "vpc-1", custom: true },
        {
          urn: `${STACK}pulumi-nodejs:dynamic/restcloud:VpcTier::tier`,
          type: "pulumi-nodejs:dynamic/restcloud:VpcTier",
          id: "net-1",
        },
        { urn: `${STACK}random:index:RandomPet::pet`, type: "random:index:RandomPet", id: "pet" },
        { urn: `${STACK}restcloud:index:Instance::old`, type: "restcloud:index:Instance", id: "vm-0" },
      ],
      pending_operations: [
        {
          type: "creating",
          resource: {
            urn: `${STACK}restcloud:index:Instance::web`,
            type: "restcloud:index:Instance",
            custom: true,
            provider,
            inputs: {
              name: "web-1a2b3c4",
              zoneUuid: "z1",
              userData: { [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:x" },
            },
          },
        },
        {
          type: "creating",
          resource: {
            urn: `${STACK}pulumi-nodejs:dynamic/restcloud:EgressRule::egress`,
            type: "pulumi-nodejs:dynamic/restcloud:EgressRule",
            inputs: { networkUuid: "net-1", protocol: "TCP", __provider: "exports.handler = ..." },
          },
        },
        { type: "creating", resource: { urn: `${STACK}random:index:RandomPet::pet2`, type: "random:index:RandomPet" } },
        {
          type: "updating",
          resource: { urn: `${STACK}restcloud:index:Vpc::vpc`, type: "restcloud:index:Vpc", id: "vpc-1" },
        },
      ],
    },
  };
}

test("secrets exported with --show-secrets read in clear; still encrypted, they read as nothing", () => {
  expect(
    revealSecrets({
      a: { [SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: '"s3cret"' },
      b: [{ [SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: '{"k":1}' }],
      c: { [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" },
      d: "plain",
    }),
  ).toEqual({ a: "s3cret", b: [{ k: 1 }], c: undefined, d: "plain" });
});

test("the pending creates of restcloud resources in either mode, the held records, the others' creates", () => {
  const state = stackStateOf(exported());
  expect(state.pendingCreates.map((p) => [p.kind, p.name])).toEqual([
    ["Instance", "web"],
    ["EgressRule", "egress"],
  ]);
  expect(state.pendingCreates[1].inputs.__provider).toBe("exports.handler = ...");
  expect(state.otherPendingCreates).toEqual([`${STACK}random:index:RandomPet::pet2`]);
  expect(state.held.map((h) => [h.kind, h.id])).toEqual([
    ["Vpc", "vpc-1"],
    ["VpcTier", "net-1"],
    ["Instance", "vm-0"],
  ]);
});

test("an adopted record becomes its resource, after the others; the resolved creates leave pending_operations", () => {
  const edited = resolvedDeployment(exported(), [
    { urn: `${STACK}restcloud:index:Instance::web`, adopt: { id: "vm-1", outputs: { uuid: "vm-1" } } },
    { urn: `${STACK}pulumi-nodejs:dynamic/restcloud:EgressRule::egress`, drop: true },
  ]);
  const resources = edited.deployment.resources!;
  expect(resources).toHaveLength(6);
  expect(resources[5]).toEqual({
    urn: `${STACK}restcloud:index:Instance::web`,
    type: "restcloud:index:Instance",
    custom: true,
    provider,
    id: "vm-1",
    // The encrypted input stays encrypted, in the inputs and the outputs alike.
    inputs: exported().deployment.pending_operations![0].resource.inputs,
    outputs: { uuid: "vm-1", ...exported().deployment.pending_operations![0].resource.inputs },
  });
  expect(edited.deployment.pending_operations!.map((op) => [op.type, op.resource.urn.split("::").pop()])).toEqual([
    ["creating", "pet2"],
    ["updating", "vpc"],
  ]);
  expect(edited.deployment.manifest).toEqual({ magic: "m" });
});

test("a replacement's create adopted: the resource it replaces is marked for deletion", () => {
  const base = exported();
  base.deployment.pending_operations![0].resource.urn = `${STACK}restcloud:index:Instance::old`;
  const edited = resolvedDeployment(base, [
    { urn: `${STACK}restcloud:index:Instance::old`, adopt: { id: "vm-1", outputs: {} } },
  ]);
  const olds = edited.deployment.resources!.filter((r) => r.urn === `${STACK}restcloud:index:Instance::old`);
  expect(olds.map((r) => [r.id, r.delete === true])).toEqual([
    ["vm-0", true],
    ["vm-1", false],
  ]);
});

test("an export without a deployment is refused, saying so", () => {
  expect(() => parseExport("{}")).toThrow(DeploymentFormatError);
  expect(() => parseExport("not json")).toThrow(/not JSON/);
  expect(parseExport(JSON.stringify(exported())).deployment.resources).toHaveLength(5);
});
