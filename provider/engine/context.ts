// What an operation runs with: a declaration's functions (declaration.ts) and the identity of creates (identity.ts)
// both take it, so it sits apart from both.
import type { RestCloudClient } from "../client";
import type { InventoryFacet } from "./inventory";
import type { OwnerTagType } from "./ownership";

/** What a declaration says of its kind that another kind's operation may need (a tag's zone). */
export interface KindFacts {
  readonly type: string;
  readonly noun?: string;
  readonly tagType?: OwnerTagType;
  readonly inventory?: InventoryFacet;
}

/** The provider configuration the engine runs with (from `restcloud:*` config or RESTCLOUD_* variables). */
export interface ProviderSettings {
  /** The default zone for resources that take a `zoneUuid` and were given none. */
  readonly zoneUuid?: string;
  /** Whether creates claim their records with the owner tag (ownership.ts). Default: true. */
  readonly ownerTags?: boolean;
  /** Tags check merges into every taggable resource's `tags`, the resource's own winning (tags.ts). */
  readonly defaultTags?: Readonly<Record<string, string>>;
}

/** What a declaration's functions receive: a client, the settings, and this operation's time budget. */
export interface OperationContext {
  readonly client: RestCloudClient;
  readonly settings: ProviderSettings;
  /** The overall time this operation may wait (create, update or delete timeout). */
  readonly timeoutMs: number;
  /** Reports progress of a long wait (shown by `pulumi up` in verbose mode). */
  progress(message: string): void;
  /**
   * The record each wait of this operation ended on, by kind and id, for the lookup that follows it
   * (waits.ts): the read after a wait need not ask the API again what the wait's last poll answered.
   */
  readonly lastSeen?: Map<string, { record: unknown; changes: number }>;
  /**
   * Every kind's declaration, handed over by whoever made the engine: resource files cannot import
   * the registry, yet a ResourceTag finds its record's zone through the tagged kind's inventory.
   */
  readonly declarations?: readonly KindFacts[];
}
