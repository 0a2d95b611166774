// Tells the user what a provider process waits on, through Pulumi's engine `Log` call (its address is an argument of
// both processes). Best effort: a message that cannot be delivered is dropped.
import type * as grpcJs from "@grpc/grpc-js";
import { sdkModule } from "./native/sdk-modules";
import type { Notice } from "./engine/operation";

/** pulumirpc.LogSeverity */
const SEVERITY = { debug: 0, info: 1, warning: 2, error: 3 } as const;

interface LogRequest {
  setSeverity(value: number): void;
  setMessage(value: string): void;
  setUrn(value: string): void;
  setStreamid(value: number): void;
  setEphemeral(value: boolean): void;
}

interface EngineClient {
  log(request: LogRequest, callback: (error: Error | null) => void): void;
  close(): void;
}

/** `127.0.0.1:41234`, `localhost:41234`, `[::1]:41234`. */
const ADDRESS = /^(\[[0-9a-f:]+\]|[\w.-]+):\d{1,5}$/i;

/** The engine's address: the provider process's last argument, when it is one. */
export function pulumiEngineAddress(argv: readonly string[] = process.argv): string | undefined {
  const last = argv.length > 2 ? argv[argv.length - 1] : undefined;
  return last !== undefined && ADDRESS.test(last) ? last : undefined;
}

export class PulumiEngineLog {
  private client: EngineClient | undefined;
  private failed = false;
  private newRequest: (() => LogRequest) | undefined;

  constructor(private readonly address: string | undefined = pulumiEngineAddress()) {}

  /** Whether messages can reach the engine (the process was started by it). */
  get connected(): boolean {
    return this.address !== undefined && !this.failed;
  }

  /** A passing status on the resource's row (the stack's, for an empty urn). */
  status(urn: string | undefined, message: string): Promise<void> {
    return this.send(SEVERITY.info, urn, message, true);
  }

  /** A lasting warning. */
  warn(urn: string | undefined, message: string): Promise<void> {
    return this.send(SEVERITY.warning, urn, message, false);
  }

  /** A lasting line of information. */
  info(urn: string | undefined, message: string): Promise<void> {
    return this.send(SEVERITY.info, urn, message, false);
  }

  /** What the engine's operations tell the user (engine/operation.ts), each as its kind asks. */
  notify(notice: Notice): void {
    if (notice.kind === "status") void this.status(notice.urn, notice.message);
    else if (notice.kind === "warning") void this.warn(notice.urn, notice.message);
    else void this.info(notice.urn, notice.message);
  }

  close(): void {
    this.client?.close();
    this.client = undefined;
  }

  /**
   * Until every message sent so far has reached the engine: a front end awaits it before answering
   * an operation, so that an operation's last status ("created after 16s") is not overtaken by its end.
   */
  async flush(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private readonly inFlight = new Set<Promise<void>>();

  private send(severity: number, urn: string | undefined, message: string, ephemeral: boolean): Promise<void> {
    const sent = this.deliver(severity, urn, message, ephemeral);
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
    return sent;
  }

  private deliver(severity: number, urn: string | undefined, message: string, ephemeral: boolean): Promise<void> {
    const client = this.connect();
    if (!client || !this.newRequest) return Promise.resolve();
    const request = this.newRequest();
    request.setSeverity(severity);
    request.setMessage(message);
    request.setUrn(urn ?? "");
    request.setStreamid(0);
    request.setEphemeral(ephemeral);
    return new Promise((resolve) => client.log(request, () => resolve()));
  }

  private connect(): EngineClient | undefined {
    if (this.client || !this.connected) return this.client;
    try {
      const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");
      const stubs = sdkModule<{
        EngineClient: new (address: string, credentials: grpcJs.ChannelCredentials) => EngineClient;
      }>("@pulumi/pulumi/proto/engine_grpc_pb");
      const messages = sdkModule<{ LogRequest: new () => LogRequest }>("@pulumi/pulumi/proto/engine_pb");
      this.client = new stubs.EngineClient(this.address!, grpc.credentials.createInsecure());
      this.newRequest = () => new messages.LogRequest();
    } catch {
      this.failed = true;
    }
    return this.client;
  }
}
