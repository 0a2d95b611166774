// Property values between the protocol's Structs (as protobuf.ts reads and writes them: plain objects) and the engine's
// values. Secrets arrive wrapped (the plugin accepts them); unwrapping records which top-level properties were secret
// and wrapping marks them, and the declaration's secret properties, again. Unknown values (preview) pass as the UNKNOWN
// string (../wire.ts).
import type { PropertyMap } from "../engine/engine";
import { structSafe } from "../wire";
import type { Plain } from "./protobuf";

export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

function isSecret(value: unknown): value is { value?: unknown } {
  return value !== null && typeof value === "object" && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** A value with every secret mark removed; `found` is set when there was one. */
function unwrap(value: unknown, found: { secret: boolean }): unknown {
  if (isSecret(value)) {
    found.secret = true;
    return unwrap(value.value, found);
  }
  if (Array.isArray(value)) return value.map((item) => unwrap(item, found));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unwrap(item, found)]));
  }
  return value;
}

/** Plain properties, and the names of those that were secret (at any depth within them). */
export function fromStruct(struct: Plain | undefined): { props: PropertyMap; secrets: Set<string> } {
  const props: PropertyMap = {};
  const secrets = new Set<string>();
  for (const [key, value] of Object.entries(struct ?? {})) {
    const found = { secret: false };
    props[key] = unwrap(value, found);
    if (found.secret) secrets.add(key);
  }
  return { props, secrets };
}

/** A Struct of the properties, the named ones marked secret; undefined values left out (Struct cannot carry them). */
export function toStruct(props: PropertyMap, secrets: Iterable<string> = []): Plain {
  const secret = new Set(secrets);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    out[key] = secret.has(key) ? { [SIG_KEY]: SECRET_SIG, value: structSafe(value) } : structSafe(value);
  }
  return out;
}
