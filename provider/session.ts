// What both front ends hold for the life of a provider process: its configuration, client and engines. The client is
// kept while the configuration is the same: one request limit and one set of shared reads for the whole operation.
import { RestCloudClient } from "./client";
import type { ProviderSettings, ResourceDeclaration } from "./engine/declaration";
import { Engine } from "./engine/engine";
import { operationMonitor, type Notice } from "./engine/operation";
import { resolveProviderConfig, sameClientConfig, type ProviderConfig } from "./settings";
import { containsUnknown } from "./wire";

export interface ConfigSource {
  /** A setting by its full key (`restcloud:apiUrl`), as text; undefined when not set. */
  get(key: string): string | undefined;
}

export class ProviderSession {
  private config: ProviderConfig = resolveProviderConfig({ get: () => undefined });
  private currentClient: RestCloudClient | undefined;
  private readonly engines = new Map<string, Engine>();

  constructor(
    private readonly declarations: ReadonlyMap<string, ResourceDeclaration>,
    private readonly log?: { notify(notice: Notice): void; flush(): Promise<void> },
  ) {}

  /**
   * Runs one operation of the front end and, before it answers, lets what the user was told reach
   * the engine (an operation's last status must not arrive after its end).
   */
  async answer<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } finally {
      await this.log?.flush();
    }
  }

  configure(source: ConfigSource): ProviderConfig {
    const next = resolveProviderConfig(source);
    if (!sameClientConfig(this.config, next)) this.currentClient = undefined;
    this.config = next;
    return next;
  }

  get settings(): ProviderSettings {
    return { zoneUuid: this.config.zoneUuid, ownerTags: this.config.ownerTags, defaultTags: this.config.defaultTags };
  }

  /** The client; an error naming each missing or invalid setting when the configuration is incomplete. */
  client(): RestCloudClient {
    if (!this.currentClient) {
      const missing = this.config.missing();
      if (missing.length > 0) throw new Error(`restcloud provider configuration: ${missing.join("; ")}`);
      this.currentClient = new RestCloudClient({
        apiUrl: this.config.apiUrl,
        apiKey: this.config.apiKey,
        secretKey: this.config.secretKey,
        maxConcurrentRequests: this.config.maxConcurrentRequests,
        shareReads: this.config.shareReads,
        timeoutMs: this.config.requestTimeoutMs,
        pollIntervalMs: this.config.pollIntervalMs,
      });
    }
    return this.currentClient;
  }

  /** The engine of a resource type (`Vpc`). */
  engine(type: string): Engine {
    let engine = this.engines.get(type);
    if (!engine) {
      const declaration = this.declarations.get(type);
      if (!declaration) throw new Error(`restcloud: unknown resource type ${type}`);
      engine = new Engine(declaration, {
        client: () => this.client(),
        settings: () => this.settings,
        containsUnknown,
        declarations: [...this.declarations.values()],
        ...(this.log ? { notify: (notice: Notice) => this.log!.notify(notice) } : {}),
      });
      this.engines.set(type, engine);
    }
    return engine;
  }
}

/**
 * Ctrl-C in a terminal reaches the whole process group, the provider process too: while operations
 * run, it must not die mid-create (an orphan, a pending operation); it ends their waits instead, so
 * that each answers the engine (a create with its id). With nothing running, SIGINT is how the
 * engine closes a plugin: exit at once.
 */
export function cancelOnInterrupt(): void {
  process.on("SIGINT", () => {
    if (operationMonitor.cancelAll() === 0) process.exit(0);
  });
}
