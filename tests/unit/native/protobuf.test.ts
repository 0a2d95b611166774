/**
 * The plugin's protobuf codec (provider/native/protobuf.ts with the tables of messages.ts) against the SDK's
 * google-protobuf stubs, which are what Pulumi's engine reads and writes: every served method's request, built and
 * encoded by the stubs, decodes to the same fields; every response it encodes, the stubs decode to the same values.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's stubs */
import type * as ProviderMessages from "@pulumi/pulumi/proto/provider_pb";
import { decode, encode } from "../../../provider/native/protobuf";
import { METHODS, RESOURCE_INIT_FAILED, STATUS } from "../../../provider/native/messages";

const pb = require("@pulumi/pulumi/proto/provider_pb") as typeof ProviderMessages;
const { Struct } = require("google-protobuf/google/protobuf/struct_pb");
const { Status } = require("@pulumi/pulumi/proto/status_pb");
const { PluginInfo } = require("@pulumi/pulumi/proto/plugin_pb");

/** Every kind of Struct value: nesting, lists, null, numbers that are not integers, text beyond ASCII. */
const VALUES = {
  name: "web-é-€-😀",
  empty: "",
  count: 3,
  negative: -12.5,
  large: 2 ** 53 - 1,
  tiny: 1e-300,
  zero: 0,
  on: true,
  off: false,
  nothing: null,
  tags: { team: "payments", nested: { deep: [1, "two", null, { three: false }] } },
  list: [],
  object: {},
  secret: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s3cret" },
  long: "x".repeat(300),
};

const bytesOf = (message: { serializeBinary(): Uint8Array }) => Buffer.from(message.serializeBinary());

test("a Struct of every kind of value reads as the stubs read it, and writes so that they read it back", () => {
  const request = new pb.ReadRequest().setId("i").setProperties(Struct.fromJavaScript(VALUES));
  expect(decode(METHODS.read.request, bytesOf(request)).properties).toEqual(VALUES);
  const written = encode(METHODS.read.response, { id: "i", properties: VALUES, inputs: {} });
  const read = pb.ReadResponse.deserializeBinary(written);
  expect(read.getProperties()!.toJavaScript()).toEqual(VALUES);
  expect(read.getInputs()!.toJavaScript()).toEqual({});
  // The stubs write the same bytes, but for the order of a map's entries (they sort them).
  expect(written.length).toBe(bytesOf(pb.ReadResponse.deserializeBinary(written)).length);
});

test("a member left undefined is left out, as JSON leaves it", () => {
  const written = encode(METHODS.update.response, { properties: { a: 1, b: undefined, c: { d: undefined } } });
  expect(pb.UpdateResponse.deserializeBinary(written).getProperties()!.toJavaScript()).toEqual({ a: 1, c: {} });
});

test("every served request reads as the stubs built it; fields it does not name are skipped; absent ones take proto3's defaults", () => {
  const props = Struct.fromJavaScript({ cidr: "10.0.0.0/16" });
  const autonaming = new pb.CheckRequest.AutonamingOptions()
    .setMode(pb.CheckRequest.AutonamingOptions.Mode.ENFORCE)
    .setProposedName("web-1");
  const check = new pb.CheckRequest()
    .setUrn("urn:x")
    .setOlds(props)
    .setNews(props)
    .setRandomseed(Uint8Array.from([1, 2, 255]))
    .setName("web")
    .setType("restcloud:index:Vpc")
    .setAutonaming(autonaming)
    .setOldOutputs(props);
  expect(decode(METHODS.check.request, bytesOf(check))).toEqual({
    urn: "urn:x",
    olds: { cidr: "10.0.0.0/16" },
    news: { cidr: "10.0.0.0/16" },
    randomSeed: Uint8Array.from([1, 2, 255]),
    name: "web",
    type: "restcloud:index:Vpc",
    autonaming: { proposedName: "web-1", mode: 1 },
  });
  const diff = new pb.DiffRequest().setId("1").setUrn("u").setNews(props).setIgnorechangesList(["a"]);
  expect(decode(METHODS.diff.request, bytesOf(diff))).toEqual({
    id: "1",
    urn: "u",
    olds: undefined,
    news: { cidr: "10.0.0.0/16" },
    oldInputs: undefined,
    name: "",
    type: "",
  });
  const create = new pb.CreateRequest().setUrn("u").setProperties(props).setTimeout(90.5).setPreview(true);
  expect(decode(METHODS.create.request, bytesOf(create))).toMatchObject({ timeout: 90.5, preview: true });
  const read = new pb.ReadRequest().setId("1").setInputs(props).setTimeout(30);
  expect(decode(METHODS.read.request, bytesOf(read))).toMatchObject({ id: "1", inputs: props.toJavaScript() });
  const update = new pb.UpdateRequest().setId("1").setOlds(props).setOldInputs(props).setNews(props).setPreview(true);
  expect(decode(METHODS.update.request, bytesOf(update))).toMatchObject({
    preview: true,
    oldInputs: { cidr: "10.0.0.0/16" },
  });
  const del = new pb.DeleteRequest().setId("1").setProperties(props).setTimeout(5).setOldInputs(props);
  expect(decode(METHODS.delete.request, bytesOf(del))).toMatchObject({ id: "1", timeout: 5 });
  const configure = new pb.ConfigureRequest().setAcceptsecrets(true);
  configure.getVariablesMap().set("restcloud:config:apiUrl", "http://x").set("restcloud:config:zoneUuid", "z");
  expect(decode(METHODS.configure.request, bytesOf(configure))).toEqual({
    variables: { "restcloud:config:apiUrl": "http://x", "restcloud:config:zoneUuid": "z" },
    args: undefined,
    acceptSecrets: true,
  });
  const invoke = new pb.InvokeRequest().setTok("restcloud:index:getZones").setArgs(props);
  expect(decode(METHODS.invoke.request, bytesOf(invoke))).toEqual({
    tok: "restcloud:index:getZones",
    args: props.toJavaScript(),
  });
  expect(decode(METHODS.getSchema.request, bytesOf(new pb.GetSchemaRequest().setVersion(2)))).toEqual({ version: 2 });
  expect(decode(METHODS.getSchema.request, bytesOf(new pb.GetSchemaRequest().setVersion(-3)))).toEqual({ version: -3 });
});

test("every served response writes what the stubs read", () => {
  const diff = pb.DiffResponse.deserializeBinary(
    encode(METHODS.diff.response, {
      changes: 2,
      replaces: ["cidr"],
      diffs: ["cidr", "description"],
      deleteBeforeReplace: true,
      detailedDiff: { cidr: { kind: 5, inputDiff: true }, description: { kind: 0, inputDiff: true } },
      hasDetailedDiff: true,
    }),
  );
  expect(diff.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
  expect(diff.getReplacesList()).toEqual(["cidr"]);
  expect(diff.getDiffsList()).toEqual(["cidr", "description"]);
  expect(diff.getDeletebeforereplace()).toBe(true);
  expect(diff.getHasdetaileddiff()).toBe(true);
  const detailed = diff.getDetaileddiffMap();
  expect(detailed.get("cidr")!.getKind()).toBe(pb.PropertyDiff.Kind.UPDATE_REPLACE);
  expect(detailed.get("description")!.getKind()).toBe(pb.PropertyDiff.Kind.ADD);
  expect(detailed.get("description")!.getInputdiff()).toBe(true);

  const check = pb.CheckResponse.deserializeBinary(
    encode(METHODS.check.response, { inputs: { a: "b" }, failures: [{ property: "cidr", reason: "is not a CIDR" }] }),
  );
  expect(check.getInputs()!.toJavaScript()).toEqual({ a: "b" });
  expect(check.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["cidr", "is not a CIDR"]]);

  const configure = pb.ConfigureResponse.deserializeBinary(
    encode(METHODS.configure.response, {
      acceptSecrets: true,
      supportsPreview: true,
      supportsAutonamingConfiguration: true,
    }),
  );
  expect([
    configure.getAcceptsecrets(),
    configure.getSupportspreview(),
    configure.getSupportsAutonamingConfiguration(),
  ]).toEqual([true, true, true]);
  expect(configure.getAcceptresources()).toBe(false);

  const created = pb.CreateResponse.deserializeBinary(encode(METHODS.create.response, { id: "42", properties: {} }));
  expect([created.getId(), created.getProperties()!.toJavaScript()]).toEqual(["42", {}]);
  const gone = pb.ReadResponse.deserializeBinary(encode(METHODS.read.response, {}));
  expect([gone.getId(), gone.hasProperties()]).toEqual(["", false]);
  const invoked = pb.InvokeResponse.deserializeBinary(encode(METHODS.invoke.response, { return: { zones: [] } }));
  expect(invoked.getReturn()!.toJavaScript()).toEqual({ zones: [] });
  expect(PluginInfo.deserializeBinary(encode(METHODS.getPluginInfo.response, { version: "1.2.3" })).getVersion()).toBe(
    "1.2.3",
  );
  expect(encode(METHODS.cancel.response, {}).length).toBe(0);
});

test("a create's init failure: a Status whose detail is the ErrorResourceInitFailed the engine unpacks", () => {
  const detail = encode(RESOURCE_INIT_FAILED, { id: "7", properties: { uuid: "7" }, reasons: ["timed out"] });
  const status = Status.deserializeBinary(
    encode(STATUS, {
      code: 2,
      message: "not ready",
      details: [{ typeUrl: "type.googleapis.com/pulumirpc.ErrorResourceInitFailed", value: detail }],
    }),
  );
  expect([status.getCode(), status.getMessage()]).toEqual([2, "not ready"]);
  const any = status.getDetailsList()[0];
  expect(any.getTypeName()).toBe("pulumirpc.ErrorResourceInitFailed");
  const failed = any.unpack(pb.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
  expect([failed.getId(), failed.getProperties().toJavaScript(), failed.getReasonsList()]).toEqual([
    "7",
    { uuid: "7" },
    ["timed out"],
  ]);
});

test("a message cut short is an error, not a wrong value", () => {
  const bytes = bytesOf(new pb.ReadRequest().setId("1").setProperties(Struct.fromJavaScript(VALUES)));
  expect(() => decode(METHODS.read.request, bytes.subarray(0, bytes.length - 5))).toThrow(/protobuf/);
});
