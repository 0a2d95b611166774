// The stack's config, as the engine hands it to the pack. The CLI sends it, secrets decrypted, in the analyzer's
// ConfigureStack call, but @pulumi/policy (1.21) keeps only that call's tags: so the handler is wrapped, before the
// pack serves, to keep the config too. The API's URL and keys come from there, else from RESTCLOUD_* (settings.ts).
import * as path from "node:path";
import { resolveProviderConfig, type ProviderConfig } from "../settings";

/** The part of a ConfigureStack request the pack reads (`AnalyzerStackConfigureRequest` of analyzer.proto). */
interface StackConfigureRequest {
  getConfigMap(): { forEach(callback: (value: string, key: string) => void): void };
}

type Handler = (call: { request: StackConfigureRequest }, callback: unknown) => unknown;

/** The stack's provider settings (`restcloud:apiUrl` → value), once the engine has sent them; empty before. */
let stackConfig: ReadonlyMap<string, string> = new Map();

/** Keeps the `restcloud:*` config of a ConfigureStack request (the rest, secrets of other programs, is left). */
export function keepStackConfig(request: StackConfigureRequest): void {
  const config = new Map<string, string>();
  request.getConfigMap().forEach((value, key) => {
    if (key.startsWith("restcloud:")) config.set(key, value);
  });
  stackConfig = config;
}

/**
 * Wraps the ConfigureStack handler that @pulumi/policy registers, on the gRPC module that it loads
 * (its own, wherever npm put it), so that the request's config is kept before its own handler runs.
 * Call it before `new PolicyPack`, which serves at once.
 */
export function captureStackConfig(): void {
  const policyDir = path.dirname(require.resolve("@pulumi/policy"));
  // The module @pulumi/policy resolves, by path: an import would get ours, perhaps another copy.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [policyDir] })) as {
    Server: { prototype: { addService(service: unknown, implementation: Record<string, Handler>): void } };
  };
  const proto = grpc.Server.prototype;
  const addService = proto.addService;
  proto.addService = function (service, implementation) {
    const configureStack = implementation.configureStack;
    const wrapped =
      configureStack === undefined
        ? implementation
        : {
            ...implementation,
            configureStack: (call: { request: StackConfigureRequest }, callback: unknown) => {
              keepStackConfig(call.request);
              return configureStack(call, callback);
            },
          };
    return addService.call(this, service, wrapped);
  };
}

/** The provider settings of the stack: its `restcloud:*` config, else the environment (`RESTCLOUD_*`). */
export function stackProviderConfig(env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  return resolveProviderConfig({ get: (key) => stackConfig.get(key) }, env);
}
