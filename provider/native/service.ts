// The plugin's gRPC server on a free port of 127.0.0.1. It loads only gRPC and the service stubs and asks for the
// handlers on the first call, so the port (which the engine waits for) prints before the provider loads.
import type * as grpcJs from "@grpc/grpc-js";
import { sdkModule } from "./sdk-modules";

const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");
const providerRpc = sdkModule<{ ResourceProviderService: grpcJs.ServiceDefinition }>(
  "@pulumi/pulumi/proto/provider_grpc_pb",
);

/** The methods of the generated service definition that the plugin answers; the others are UNIMPLEMENTED. */
export const SERVED_METHODS = [
  "getPluginInfo",
  "getSchema",
  "checkConfig",
  "diffConfig",
  "configure",
  "check",
  "diff",
  "create",
  "read",
  "update",
  "delete",
  "invoke",
  "cancel",
] as const;

/** A unary call's handler, whatever its messages. */
export type UnaryHandler = grpcJs.handleUnaryCall<unknown, unknown>;
export type ServiceHandlers = Record<(typeof SERVED_METHODS)[number], UnaryHandler>;

/** Serves the handlers, given or asked for on the first call: the port (a plugin prints it) and a way to stop. */
export async function listen(
  handlers: ServiceHandlers | (() => ServiceHandlers),
): Promise<{ port: number; stop(): void }> {
  const handlersNow = typeof handlers === "function" ? handlers : () => handlers;
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(
    providerRpc.ResourceProviderService,
    Object.fromEntries(
      SERVED_METHODS.map((method): [string, UnaryHandler] => [
        method,
        (call, callback) => handlersNow()[method](call, callback),
      ]),
    ),
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { port, stop: () => server.forceShutdown() };
}
