// RestCloudClient: one typed method per API operation, by area (`client.vpc.create(input)`), generated from the
// operation tables; plus the job waiter.
import { inspect } from "node:util";
import type { z } from "zod";
import { resolveConfig, type ClientOptions, type ResolvedConfig } from "./config";
import { callOperation, sendOperation, type CallOptions, type CallerContext } from "./caller";
import { SharedReads } from "./coalesce";
import { HttpTransport } from "./http";
import type { ApiHealth } from "./health";
import { AREAS } from "./operations";
import type { AnyOperation, InputOf, OutputOf } from "./operations/define";
import type { AsyncJob } from "./operations/jobs";
import { waitForJob, type WaitOptions } from "./waiters";

/** The input fields an object schema requires (those whose schema is not optional). */
type RequiredFields<Shape> = {
  [K in keyof Shape]-?: Shape[K] extends { _zod: { optin: "optional" | "defaulted" } } ? never : K;
}[keyof Shape];

/** True when the operation can be called without input: no field required, or free-form parameters. */
type InputIsOptional<O extends AnyOperation> =
  O["input"] extends z.ZodObject<infer Shape> ? ([RequiredFields<Shape>] extends [never] ? true : false) : true;

/** A facade method: the input is optional when the operation has no required input. */
export type OperationMethod<O extends AnyOperation> =
  InputIsOptional<O> extends true
    ? (input?: InputOf<O>, options?: CallOptions<OutputOf<O>>) => Promise<OutputOf<O>>
    : (input: InputOf<O>, options?: CallOptions<OutputOf<O>>) => Promise<OutputOf<O>>;

export type AreaClient<Table extends Record<string, AnyOperation>> = {
  readonly [Method in keyof Table]: OperationMethod<Table[Method]>;
};

export type AreaClients = { readonly [Area in keyof typeof AREAS]: AreaClient<(typeof AREAS)[Area]> };

class RestCloudClientCore implements CallerContext {
  readonly transport: HttpTransport;
  readonly retry: ResolvedConfig["retry"];
  readonly apiUrl: string;
  readonly sharedReads: SharedReads | undefined;
  readonly pollIntervalMs: number;

  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    // The credentials live only inside the transport (private fields): a dump of the client shows none.
    this.transport = new HttpTransport(config);
    this.retry = config.retry;
    this.apiUrl = config.apiUrl;
    this.pollIntervalMs = config.pollIntervalMs;
    this.sharedReads = config.shareReads
      ? new SharedReads(
          (operation, values, keepRecords) => sendOperation(this, operation, values, { keepRecords }),
          config.shareReads,
          (line) => this.transport.log(line),
          () => this.transport.whenFree(),
        )
      : undefined;
    for (const [area, table] of Object.entries(AREAS)) {
      const methods = Object.fromEntries(
        Object.entries(table as Record<string, AnyOperation>).map(([method, operation]) => [
          method,
          (input?: unknown, callOptions?: CallOptions<unknown>) =>
            callOperation(this, operation, input as never, callOptions as never),
        ]),
      );
      Object.defineProperty(this, area, { value: Object.freeze(methods), enumerable: true });
    }
  }

  /** Whether the API answers: since when it has not, its last error, its last answer (health.ts). */
  get health(): ApiHealth {
    return this.transport.health;
  }

  /** Call any operation of the tables (the facades do this). */
  call<O extends AnyOperation>(
    operation: O,
    input?: InputOf<O>,
    options?: CallOptions<OutputOf<O>>,
  ): Promise<OutputOf<O>> {
    return callOperation(this, operation, input, options);
  }

  /** Wait for an asynchronous job (GET /restapi/asyncjob/resourceStatus): its record when SUCCEEDED. */
  waitForJob(jobId: string, options?: WaitOptions<AsyncJob>): Promise<AsyncJob> {
    return waitForJob(
      { jobId, poll: (id) => callOperation(this, AREAS.asyncJob.status, { jobId: id }) },
      // A job is read by its own id: its polls have no other waiter to meet on the common tick.
      { initialDelayMs: this.pollIntervalMs, onCommonTick: false, ...options },
    );
  }

  toJSON(): Record<string, unknown> {
    return { apiUrl: this.apiUrl };
  }

  [inspect.custom](): string {
    return `RestCloudClient { apiUrl: ${JSON.stringify(this.apiUrl)} }`;
  }
}

export type RestCloudClient = RestCloudClientCore & AreaClients;
/** `new RestCloudClient({ apiUrl, apiKey, secretKey, ... })`; missing settings fall back to RESTCLOUD_* variables. */
export const RestCloudClient = RestCloudClientCore as new (options?: ClientOptions) => RestCloudClient;
