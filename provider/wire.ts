// Pulumi's wire format, as both front ends (the dynamic adapter and the native plugin) receive and send properties.
// The engine knows none of it: a front end hands it `containsUnknown` (session.ts).

/** The value Pulumi sends for inputs not yet known during a preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Whether a value is, or holds, a value not known yet (a preview's UNKNOWN). */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Properties as Pulumi's protobuf Struct can carry them (both front ends send them in one): without
 * undefined values (a declaration's optional output the API left out), which would fail the whole
 * call with "Unexpected struct type".
 */
export function structSafe<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(structSafe) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => [key, structSafe(item)]),
  ) as T;
}
