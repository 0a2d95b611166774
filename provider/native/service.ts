// The plugin's gRPC server on a free port of 127.0.0.1. It loads only gRPC and the message tables and asks for the
// handlers on the first call, so the port (which the engine waits for) prints before the provider loads. gRPC loads in
// `listen`: it needs node:http2, which the release executable's startup snapshot cannot hold (native-plugin.ts).
// Messages are plain objects (protobuf.ts); a method not served is UNIMPLEMENTED, as gRPC answers any path it does not
// know.
import type * as grpcJs from "@grpc/grpc-js";
import { sdkModule } from "./sdk-modules";
import { METHODS, type ServedMethod } from "./messages";
import { decode, encode, type Plain } from "./protobuf";

/** The ResourceProvider methods the plugin answers. */
export const SERVED_METHODS = Object.keys(METHODS) as ServedMethod[];

/** A unary call's handler, whatever its messages. */
export type UnaryHandler = grpcJs.handleUnaryCall<unknown, unknown>;
export type ServiceHandlers = Record<ServedMethod, UnaryHandler>;

/** The service's definition for gRPC: each method's path and how its messages are read and written. */
function serviceDefinition(): grpcJs.ServiceDefinition {
  return Object.fromEntries(
    SERVED_METHODS.map((method) => {
      const { path, request, response } = METHODS[method];
      const definition: grpcJs.MethodDefinition<Plain, Plain> = {
        path: `/pulumirpc.ResourceProvider/${path}`,
        requestStream: false,
        responseStream: false,
        requestSerialize: (message) => encode(request, message),
        requestDeserialize: (bytes) => decode(request, bytes),
        responseSerialize: (message) => encode(response, message),
        responseDeserialize: (bytes) => decode(response, bytes),
      };
      return [method, definition];
    }),
  );
}

/** Serves the handlers, given or asked for on the first call: the port (a plugin prints it) and a way to stop. */
export async function listen(
  handlers: ServiceHandlers | (() => ServiceHandlers),
): Promise<{ port: number; stop(): void }> {
  const handlersNow = typeof handlers === "function" ? handlers : () => handlers;
  const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(
    serviceDefinition(),
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
