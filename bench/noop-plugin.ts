// The native floor of the benchmark: a plugin (`pulumi-resource-noop`, in noop-plugin/) whose resources do nothing,
// over the same gRPC library and stubs as pulumi-resource-restcloud: what the engine and a Node.js plugin cost, before
// ours.
import * as fs from "node:fs";
import type * as grpcJs from "@grpc/grpc-js";
import type * as ProviderMessages from "@pulumi/pulumi/proto/provider_pb";
import { sdkModule } from "../provider/native/sdk-modules";

// Through sdkModule, as the real plugin: the release's bundle (the bench's default form) sees these as static requires.
const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");
const pb = sdkModule<typeof ProviderMessages>("@pulumi/pulumi/proto/provider_pb");
const pluginPb = sdkModule<typeof import("@pulumi/pulumi/proto/plugin_pb")>("@pulumi/pulumi/proto/plugin_pb");
const emptyPb = sdkModule<typeof import("google-protobuf/google/protobuf/empty_pb")>(
  "google-protobuf/google/protobuf/empty_pb",
);
const structPb = sdkModule<typeof import("google-protobuf/google/protobuf/struct_pb")>(
  "google-protobuf/google/protobuf/struct_pb",
);
const rpc = sdkModule<{ ResourceProviderService: grpcJs.ServiceDefinition }>("@pulumi/pulumi/proto/provider_grpc_pb");

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler takes its own request message
type Handler = (request: any) => unknown;
const unary =
  (handler: Handler): grpcJs.handleUnaryCall<unknown, unknown> =>
  (call, callback) => {
    try {
      callback(null, handler(call.request));
    } catch (error) {
      callback(error as grpcJs.ServiceError);
    }
  };

type JsonObject = Parameters<typeof structPb.Struct.fromJavaScript>[0];
/** NOOP_REPLAY (bench/replay.ts): the fleet's recorded resources; `noop-<i>` answers with the id and outputs of the i-th. */
const replayed = process.env.NOOP_REPLAY
  ? (JSON.parse(fs.readFileSync(process.env.NOOP_REPLAY, "utf8")) as { id: string; outputs: JsonObject }[])
  : undefined;
const replayedOf = (r: ProviderMessages.CreateRequest) => {
  const place = /::noop-(\d+)$/.exec(r.getUrn());
  return replayed && place ? replayed[Number(place[1])] : undefined;
};

let created = 0;
const service: Record<string, Handler> = {
  getPluginInfo: () => new pluginPb.PluginInfo().setVersion("0.0.1"),
  getSchema: () => new pb.GetSchemaResponse().setSchema(JSON.stringify({ name: "noop", version: "0.0.1" })),
  checkConfig: (r: ProviderMessages.CheckRequest) => new pb.CheckResponse().setInputs(r.getNews()),
  diffConfig: () => new pb.DiffResponse().setChanges(pb.DiffResponse.DiffChanges.DIFF_NONE),
  configure: () => new pb.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true),
  check: (r: ProviderMessages.CheckRequest) => new pb.CheckResponse().setInputs(r.getNews()),
  diff: (r: ProviderMessages.DiffRequest) => {
    const olds = r.getOldInputs()?.toJavaScript() ?? {};
    const news = r.getNews()?.toJavaScript() ?? {};
    const changed = ["label", "parentId"].filter((key) => olds[key] !== news[key]);
    return new pb.DiffResponse()
      .setChanges(changed.length ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE)
      .setDiffsList(changed);
  },
  create: (r: ProviderMessages.CreateRequest) => {
    const recorded = replayedOf(r);
    return recorded
      ? new pb.CreateResponse().setId(recorded.id).setProperties(structPb.Struct.fromJavaScript(recorded.outputs))
      : new pb.CreateResponse().setId(`noop-${process.pid}-${++created}`).setProperties(r.getProperties());
  },
  read: (r: ProviderMessages.ReadRequest) =>
    new pb.ReadResponse().setId(r.getId()).setProperties(r.getProperties()).setInputs(r.getInputs()),
  update: (r: ProviderMessages.UpdateRequest) => new pb.UpdateResponse().setProperties(r.getNews()),
  delete: () => new emptyPb.Empty(),
  cancel: () => new emptyPb.Empty(),
};

const server = new grpc.Server();
server.addService(
  rpc.ResourceProviderService,
  Object.fromEntries(Object.entries(service).map(([name, handler]) => [name, unary(handler)])),
);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  process.stdout.write(`${port}\n`);
});
