/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's own gRPC library and stubs, as the real plugin uses them */
// The native floor of the benchmark: a plugin (`pulumi-resource-noop`, in noop-plugin/) whose resources do nothing,
// over the same gRPC library and stubs as pulumi-resource-restcloud: what the engine and a Node.js plugin cost, before
// ours.
import * as path from "node:path";
import type * as grpcJs from "@grpc/grpc-js";
import type * as ProviderMessages from "@pulumi/pulumi/proto/provider_pb";

const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromSdk = <T>(name: string): T => require(require.resolve(name, { paths: [sdkRoot] })) as T;
const grpc = fromSdk<typeof grpcJs>("@grpc/grpc-js");
const pb = require("@pulumi/pulumi/proto/provider_pb") as typeof ProviderMessages;
const pluginPb = require("@pulumi/pulumi/proto/plugin_pb") as typeof import("@pulumi/pulumi/proto/plugin_pb");
const emptyPb = fromSdk<typeof import("google-protobuf/google/protobuf/empty_pb")>(
  "google-protobuf/google/protobuf/empty_pb",
);
const rpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as { ResourceProviderService: grpcJs.ServiceDefinition };

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
  create: (r: ProviderMessages.CreateRequest) =>
    new pb.CreateResponse().setId(`noop-${process.pid}-${++created}`).setProperties(r.getProperties()),
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
