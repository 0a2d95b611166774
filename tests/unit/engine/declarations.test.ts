/**
 * Rules every resource declaration keeps: each argument either replaces or is updated in place by a
 * step (never neither), is described, and the auto-named and zone arguments exist.
 */
import { DECLARATIONS } from "../../../provider/resources/registry";

describe.each(DECLARATIONS.map((d) => [d.type, d] as const))("%s", (_type, declaration) => {
  const argumentsOf = Object.keys(declaration.inputs.shape);
  const updated = declaration.updates.flatMap((step) => [...step.fields]);

  test("every argument replaces or is updated in place, not both", () => {
    const replaces = new Set<string>(declaration.replaceOn);
    expect(argumentsOf.filter((a) => !replaces.has(a) && !updated.includes(a))).toEqual([]);
    expect(argumentsOf.filter((a) => replaces.has(a) && updated.includes(a))).toEqual([]);
    expect([...replaces, ...updated].filter((a) => !argumentsOf.includes(a))).toEqual([]);
  });

  test("every argument and output is described", () => {
    const undocumented = [
      ...argumentsOf.filter((a) => !declaration.inputs.shape[a].description),
      ...Object.keys(declaration.outputs.shape).filter((o) => !declaration.outputs.shape[o].description),
    ];
    expect(undocumented).toEqual([]);
    expect(declaration.description.length).toBeGreaterThan(20);
  });

  test("auto-named, zone-defaulted and secret arguments exist", () => {
    for (const name of [declaration.autoName, declaration.zoneDefault, ...(declaration.secretInputs ?? [])]) {
      if (name !== undefined) expect(argumentsOf).toContain(name);
    }
  });
});
