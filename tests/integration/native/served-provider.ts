// The native plugin's gRPC service of the registry, served on a free port, and a client of it: what
// the integration tests call as Pulumi's engine would.
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's stubs, as the plugin loads them */
import type * as grpcJs from "@grpc/grpc-js";
import { NativeProvider, serve } from "../../../provider/native/server";
import { sdkModule } from "../../../provider/native/sdk-modules";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { FUNCTIONS } from "../../../provider/functions/registry";
import { fromStruct, toStruct } from "../../../provider/native/marshal";
import { METHODS, type RequestOf, type ServedMethod } from "../../../provider/native/messages";
import { decode } from "../../../provider/native/protobuf";
import type { Struct as StructMessage } from "google-protobuf/google/protobuf/struct_pb";

const { Struct } = sdkModule<typeof import("google-protobuf/google/protobuf/struct_pb")>(
  "google-protobuf/google/protobuf/struct_pb",
);

/** Properties as the engine sends them: a Struct of the SDK's stubs, the named ones marked secret. */
export const struct = (props: Record<string, unknown>, secrets: Iterable<string> = []): StructMessage =>
  Struct.fromJavaScript(toStruct(props, secrets) as never);

/** The properties of a Struct the service answered, and those marked secret. */
export const propsOf = (answered: StructMessage | undefined) => fromStruct(answered?.toJavaScript());

/** A request built with the SDK's stubs, as the service receives it (its bytes read by protobuf.ts). */
export function asReceived<M extends ServedMethod>(
  method: M,
  message: { serializeBinary(): Uint8Array },
): RequestOf<M> {
  return decode(METHODS[method].request, Buffer.from(message.serializeBinary())) as RequestOf<M>;
}

type Call = (request: unknown, callback: (error: grpcJs.ServiceError | null, response: never) => void) => void;

export interface ServedProvider {
  provider: NativeProvider;
  client: Record<string, Call>;
  /** One call of the service, by its method's name (`configure`, `check`...). */
  rpc<T>(method: string, request: unknown): Promise<T>;
  stop(): void;
}

export async function serveProvider(): Promise<ServedProvider> {
  const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");
  const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb");
  const provider = new NativeProvider({
    version: "9.9.9",
    schema: () => JSON.stringify({ name: "restcloud", provider: { inputProperties: {} } }),
    declarations: DECLARATIONS,
    functions: () => FUNCTIONS,
  });
  const served = await serve(provider);
  const client = new ResourceProviderClient(`127.0.0.1:${served.port}`, grpc.credentials.createInsecure()) as Record<
    string,
    Call
  >;
  return {
    provider,
    client,
    rpc: <T>(method: string, request: unknown) =>
      new Promise<T>((resolve, reject) =>
        client[method]!.call(client, request, (error, response) => (error ? reject(error) : resolve(response as T))),
      ),
    stop() {
      (client as unknown as grpcJs.Client).close();
      served.stop();
    },
  };
}
