// The hidden input `__restcloud` the dynamic adapter adds: what Pulumi does not tell a dynamic provider (logical name,
// URN, customTimeouts) and what it must keep in state itself (the generated name, a create to finish). The runtime
// turns it into the engine's arguments; the engine never sees it.
import type { Naming, PropertyMap, ResourceCall } from "../engine/engine";
import { parseDuration } from "../duration";

export const META_KEY = "__restcloud";
/** The serialized provider Pulumi adds to a dynamic resource's inputs. */
export const PROVIDER_KEY = "__provider";

export interface ResourceMeta {
  /** The logical name, set when the auto-named argument was not given. */
  autoName?: string;
  /** The name generated for it (set by check, kept in state). */
  generatedName?: string;
  /** Set when the create's wait failed: the next update finishes it (its ready waits and follow-up steps). */
  pendingReady?: boolean;
  /** Pulumi's customTimeouts, as given ("10m", "90s", "1h"). */
  timeouts?: { create?: string; update?: string; delete?: string };
  /**
   * The resource's URN: what the user is told about names (operation.ts). Its logical name is the
   * URN's last part; states written by earlier versions keep it beside (`name`), which is still read.
   */
  urn?: string;
  name?: string;
}

/** A URN's logical name: what follows its type (`urn:pulumi:stack::project::type::name`). */
export function urnName(urn: string): string | undefined {
  const parts = urn.split("::");
  return parts.length >= 4 ? parts.slice(3).join("::") : undefined;
}

export function metaOf(props: PropertyMap): ResourceMeta {
  return (props[META_KEY] ?? {}) as ResourceMeta;
}

/** The properties without the adapter's own keys: what the engine is given. */
export function withoutMeta(props: PropertyMap): PropertyMap {
  const { [META_KEY]: _meta, [PROVIDER_KEY]: _provider, ...rest } = props;
  return rest;
}

/** The engine's arguments for an operation of this resource. */
export function callOf(props: PropertyMap, operation: "create" | "update" | "delete"): ResourceCall {
  const meta = metaOf(props);
  const name = meta.name ?? (meta.urn === undefined ? undefined : urnName(meta.urn)) ?? meta.autoName;
  const timeoutMs = parseDuration(meta.timeouts?.[operation]);
  return {
    ...(name ? { name } : {}),
    ...(meta.urn ? { urn: meta.urn } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(meta.pendingReady ? { pendingReady: true } : {}),
  };
}

/**
 * How check names the resource when its auto-named argument is absent: the name generated before,
 * while the logical name is the same. It lives in the meta, not in the argument, which refresh may
 * have set to a drifted live value that must show as drift and not become the new default.
 */
export function namingOf(olds: PropertyMap, news: PropertyMap): Naming | undefined {
  const meta = metaOf(news);
  if (!meta.autoName) return undefined;
  const old = metaOf(olds);
  return {
    logicalName: meta.autoName,
    ...(old.autoName === meta.autoName && old.generatedName ? { previousName: old.generatedName } : {}),
  };
}
