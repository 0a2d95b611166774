// The native plugin's gRPC service of the registry, served on a free port, and a client of it: what
// the integration tests call as Pulumi's engine would.
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's stubs, as the plugin loads them */
import type * as grpcJs from "@grpc/grpc-js";
import { NativeProvider, serve } from "../../../provider/native/server";
import { sdkModule } from "../../../provider/native/sdk-modules";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { FUNCTIONS } from "../../../provider/functions/registry";

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
