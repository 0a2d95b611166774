// An import (`pulumi import`, the `import` option): a record known by its id alone. This finds the state a read needs
// (`locate`, else the zone whose read finds it, default zone first), reads the record, and answers every argument it
// shows plus defaults, so a program declaring the same shows no diff. Each resource file says which arguments no record
// carries.
import { isNotFound } from "../client/errors";
import type { OperationContext, ResourceDeclaration } from "./declaration";
import { TAGS_ARGUMENT, liveTags } from "./tags";

type Values = Record<string, unknown>;

/**
 * The key listing the arguments an import could not read from the record (declaration.unreadable): in
 * the outputs, and in the inputs Read answers for an import, which Pulumi keeps as the state's inputs
 * and hands to Check and Diff (olds). A program's inputs never carry it.
 */
export const NOT_READ_ON_IMPORT = "__notReadOnImport";

/** The arguments a marker names as not read on import, in any of these values (inputs, outputs). */
export function notReadOnImport(...values: (Values | undefined)[]): Set<string> {
  const named = new Set<string>();
  for (const marker of values.map((v) => v?.[NOT_READ_ON_IMPORT])) {
    if (Array.isArray(marker)) for (const name of marker) if (typeof name === "string") named.add(name);
  }
  return named;
}

/**
 * The arguments Check lets be absent: those both olds and news name as not read. Only Pulumi's check
 * of an import passes the read inputs as both (`pulumi import`); a program's inputs never carry the
 * marker, so a program that leaves out a required argument still fails naming it.
 */
export function absenceAccepted(olds: Values, news: Values): Set<string> {
  const inOlds = notReadOnImport(olds);
  return new Set([...notReadOnImport(news)].filter((name) => inOlds.has(name) && news[name] === undefined));
}

/**
 * The arguments whose declared value Diff takes as no change: absent from the old inputs, and named
 * as not read by the old inputs' marker (an import's Read) or the old outputs' (a state written
 * before the marker went into the inputs too).
 */
export function takenAsDeclared(oldInputs: Values, oldOutputs: Values = {}): Set<string> {
  return new Set([...notReadOnImport(oldInputs, oldOutputs)].filter((name) => oldInputs[name] === undefined));
}

/** The values with the marker naming those of `names` still absent from them (none: no marker). */
export function withNotReadMarker(values: Values, names: Iterable<string>): Values {
  const { [NOT_READ_ON_IMPORT]: _previous, ...rest } = values;
  const absent = [...new Set(names)].filter((name) => rest[name] === undefined);
  return absent.length > 0 ? { ...rest, [NOT_READ_ON_IMPORT]: absent } : rest;
}

/** What an import answers: the arguments, as a program would declare them, and the outputs. */
export interface ImportedRecord {
  inputs: Values;
  outputs: Values;
}

/**
 * The zones to look in for a record known by its id alone: the provider's default zone first
 * (where most records are), then every other zone of the catalog.
 */
export async function zonesToSearch(ctx: OperationContext): Promise<string[]> {
  const preferred = ctx.settings.zoneUuid;
  const others = (await ctx.client.costEstimate.zones())
    .map((zone) => zone.uuid)
    .filter((uuid): uuid is string => uuid !== undefined && uuid !== preferred);
  return preferred === undefined ? [...new Set(others)] : [preferred, ...new Set(others)];
}

/**
 * The first zone (zonesToSearch's order) in which `probe` finds something, with what it found;
 * undefined when no zone does. A zone the API does not know (a stale default) counts as empty.
 */
export async function findInZones<T>(
  ctx: OperationContext,
  probe: (zoneUuid: string) => Promise<T | undefined>,
): Promise<{ zoneUuid: string; found: T } | undefined> {
  for (const zoneUuid of await zonesToSearch(ctx)) {
    const found = await absentOn404(() => probe(zoneUuid));
    if (found !== undefined) return { zoneUuid, found };
  }
  return undefined;
}

/** The answer, or undefined when the API says 404 (the record, or its parent, is not there). */
async function absentOn404<T>(call: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** A value that says nothing: absent, null, an empty string or an empty list. */
function isUnset(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === "number" && Number.isNaN(value)) ||
    (typeof value === "string" && value.trim() === "") ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** The state the read needs and the record it finds; undefined when no record has this id. */
async function locateAndRead(
  declaration: ResourceDeclaration,
  ctx: OperationContext,
  id: string,
): Promise<{ located: Values; live: { inputs: Values; outputs: Values } } | undefined> {
  const read = async (state: Values) => {
    const live = await absentOn404(() => declaration.read(ctx, id, state as never));
    return live && { located: state, live: live as { inputs: Values; outputs: Values } };
  };
  if (declaration.locate) {
    const located = await absentOn404(() => declaration.locate!(ctx, id));
    return located === undefined ? undefined : read(located as Values);
  }
  const zoneField = declaration.zoneDefault;
  if (zoneField !== undefined) {
    return (await findInZones(ctx, (zoneUuid) => read({ [zoneField]: zoneUuid })))?.found;
  }
  return read({});
}

/**
 * The record with this id, as the arguments a program would declare to match it and the outputs;
 * undefined when no record of the declaration's kind has this id.
 */
export async function readForImport(
  declaration: ResourceDeclaration,
  ctx: OperationContext,
  id: string,
): Promise<ImportedRecord | undefined> {
  const found = await locateAndRead(declaration, ctx, id);
  if (!found) return undefined;
  const { located, live } = found;
  // Every tag but the owner's: a program declaring them shows no change.
  if (declaration.tagType) {
    const tags = await liveTags(ctx, id);
    if (Object.keys(tags).length > 0) live.inputs[TAGS_ARGUMENT] = tags;
  }
  const argumentNames = Object.keys(declaration.inputs.shape);
  const defaults = (declaration.defaults ?? {}) as Values;
  const unreadable = new Set<string>(declaration.unreadable ?? []);
  const inputs: Values = {};
  for (const name of argumentNames) {
    // The record first, then what the search established, then the declaration's default (not for
    // an argument the record may not show: its default would claim what nothing read).
    const candidates = [live.inputs[name], located[name], unreadable.has(name) ? undefined : defaults[name]];
    const value = candidates.find((v) => !isUnset(v));
    if (value !== undefined) inputs[name] = value;
  }
  // What the program says of these is taken as it is (engine.diff): nothing here contradicts it.
  const notRead = argumentNames.filter((name) => unreadable.has(name) && inputs[name] === undefined);
  const outputs: Values = notRead.length > 0 ? { [NOT_READ_ON_IMPORT]: notRead } : {};
  for (const [name, value] of Object.entries(located)) {
    if (!argumentNames.includes(name) && !isUnset(value)) outputs[name] = value;
  }
  for (const [name, value] of Object.entries(live.outputs)) {
    if (value !== undefined) outputs[name] = value;
  }
  return { inputs, outputs };
}
