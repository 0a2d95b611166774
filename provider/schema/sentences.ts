// The sentences generated descriptions add to an argument's own words, each from a fact stated once: what a change does
// (replaceOn, update steps) and what applies when it is not given. Declarations say what an argument is; these the
// rest.
import { nounOf, type ResourceDeclaration, type UpdateStep } from "../engine/declaration";

export { nounOf };
import type { ArgumentDefault } from "../engine/defaults";
import { AWAITED_TEXT } from "../engine/waits";

/**
 * What a change does to the resource as a whole, where one sentence says it: every change replaces
 * it (no update step), or every argument updates in place (nothing replaces). Otherwise the
 * arguments' own sentences say it.
 */
export function changeSummary(d: Pick<ResourceDeclaration, "updates" | "replaceOn" | "deleteBeforeReplace">): string {
  if (d.updates.length === 0) {
    return d.deleteBeforeReplace
      ? "Every change replaces it, deleting it first (the API has no update call)."
      : "Every change replaces it (the API has no update call).";
  }
  if (d.replaceOn.length === 0) return "Every argument updates in place.";
  return "";
}

export function replaceSentence(noun: string): string {
  return `Changing it replaces the ${noun}.`;
}

/**
 * The API operations a step's `via` names: its text less parenthesized remarks, which say how the
 * step waits ("updateVpc (202, awaited until visible)": "updateVpc").
 */
function operationsOf(via: string): string {
  return via.replace(/\s*\([^)]*\)/g, "").trim();
}

/**
 * How a step updates, for the tables: its `via` with what it awaits (`awaits`), e.g. "updateVpc
 * (awaited until visible)", "resizeVm (stopping and restarting only if the API requires it; awaited
 * until visible, awaited until its state settles)".
 */
export function howUpdated(step: Pick<UpdateStep<never>, "via" | "awaits">): string {
  const awaited = (step.awaits ?? []).map((kind) => AWAITED_TEXT[kind]).join(", ");
  if (awaited === "") return step.via;
  return step.via.endsWith(")") ? `${step.via.slice(0, -1)}; ${awaited})` : `${step.via} (${awaited})`;
}

/** "Updated in place (updateVpc).", or "(no API call)" for a step that only changes what state holds. */
export function updateSentence(step: Pick<UpdateStep<never>, "via">): string {
  const operations = operationsOf(step.via);
  if (operations !== "") return `Updated in place (${operations}).`;
  return /no API call/.test(step.via) ? "Updated in place (no API call)." : "Updated in place.";
}

/** A default in the docs' Default column: `"Running"`, `-1` (any), or the words. */
export function defaultText(fact: ArgumentDefault): string {
  if ("text" in fact) return fact.text;
  const value = `\`${JSON.stringify(fact.value)}\``;
  return fact.note === undefined ? value : `${value} (${fact.note})`;
}

/** "Default: "Running".", "Default: -1 (any).", "Default: the template's.". */
export function defaultSentence(fact: ArgumentDefault): string {
  if ("text" in fact) return `Default: ${fact.text}.`;
  const value = JSON.stringify(fact.value);
  return `Default: ${fact.note === undefined ? value : `${value} (${fact.note})`}.`;
}

/** An argument's own words, then the derived sentences, in this order: default, then change. */
export function withFacts(description: string, ...sentences: (string | undefined)[]): string {
  return [description, ...sentences].filter((s): s is string => s !== undefined && s !== "").join(" ");
}
