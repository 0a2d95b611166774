// Routes as a table: method, path, operation and a handler from inputs to answer (JSON, or `accepted(body)` for a 202);
// one function registers them all with the config the core needs.
import type { FastifyInstance } from "fastify";
import { ApiFault, scopeOf, type AccountScope, type EmulatorContext } from "./core";
import type { Inputs } from "./http";

export interface EndpointInputs {
  query: Inputs;
  params: Inputs;
  body: Inputs;
  scope: AccountScope;
}

export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The exact spec path, `{uuid}` written `:uuid`. */
  path: string;
  operation: string;
  mutating: boolean;
  /** The spec's spelling of model field names that its 400s name (`{ cidr: "getcIDR" }`). */
  specNames?: Readonly<Record<string, string>>;
  handle(inputs: EndpointInputs, ctx: EmulatorContext): unknown;
}

/** An answer with a status other than 200 (202 for the asynchronous updates). */
class WithStatus {
  constructor(
    readonly status: 202,
    readonly body: unknown,
  ) {}
}

/** Answer `body` with HTTP status 202 Accepted. */
export const accepted = (body: unknown): WithStatus => new WithStatus(202, body);

const asInputs = (value: unknown): Inputs =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

export function registerEndpoints(app: FastifyInstance, ctx: EmulatorContext, endpoints: readonly Endpoint[]): void {
  for (const endpoint of endpoints) {
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      config: { operation: endpoint.operation, mutating: endpoint.mutating },
      handler: async (request, reply) => {
        const inputs: EndpointInputs = {
          query: asInputs(request.query),
          params: asInputs(request.params),
          body: asInputs(request.body),
          scope: scopeOf(request),
        };
        let result: unknown;
        try {
          result = endpoint.handle(inputs, ctx);
        } catch (err) {
          throw err instanceof ApiFault && endpoint.specNames ? err.spelled(endpoint.specNames) : err;
        }
        if (!(result instanceof WithStatus)) return result;
        reply.code(result.status);
        return result.body;
      },
    });
  }
}
