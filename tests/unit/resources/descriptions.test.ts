/**
 * One source per fact: no argument's own description restates what a change does or its default;
 * the generated descriptions (schema.json, docs, and from schema.json the SDKs' doc comments) say
 * both, derived from replaceOn, the update steps and the declared defaults, for every declaration.
 */
import type { z } from "zod";
import { argumentDefault, stateDefaults } from "../../../provider/engine/defaults";
import { FUNCTIONS } from "../../../provider/functions/registry";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { currentModel } from "../../../provider/schema/generate";
import { packageSchema } from "../../../provider/schema/package-schema";
import { defaultSentence, nounOf, replaceSentence, updateSentence } from "../../../provider/schema/sentences";

/** Words that state a change's effect or a default by hand. */
const RESTATED = /Changing it replaces|replaces the|Updated in place|updates? in place|Default:/;

const model = currentModel();
const schema = packageSchema(model) as {
  resources: Record<string, { inputProperties: Record<string, { description?: string; default?: unknown }> }>;
  functions: Record<string, { inputs?: { properties: Record<string, { description?: string }> } }>;
};

describe.each(DECLARATIONS.map((d) => [d.type, d] as const))("%s", (_type, declaration) => {
  const fields = declaration.inputs.shape as Record<string, z.ZodType>;
  const resource = model.resources.find((r) => r.type === declaration.type)!;
  const described = (name: string) => resource.inputs.find((p) => p.name === name)!.description;

  test("no argument's own description restates a replace, an update or a default", () => {
    const restating = Object.entries(fields)
      .filter(([, field]) => RESTATED.test(field.description ?? ""))
      .map(([name, field]) => `${name}: ${field.description}`);
    expect(restating).toEqual([]);
  });

  test("every replacing argument's generated description ends saying so", () => {
    const sentence = replaceSentence(nounOf(declaration));
    for (const name of declaration.replaceOn)
      expect([name, described(name)]).toEqual([name, expect.stringContaining(sentence)]);
  });

  test("every argument of an update step says it updates in place, through the step's operations", () => {
    for (const step of declaration.updates) {
      for (const name of step.fields) {
        expect([name, described(name)]).toEqual([name, expect.stringContaining(updateSentence(step))]);
        expect(described(name)).not.toContain("Changing it replaces");
      }
    }
  });

  test("schema.json carries the generated descriptions", () => {
    const properties = schema.resources[resource.token].inputProperties;
    for (const p of resource.inputs) expect([p.name, properties[p.name].description]).toEqual([p.name, p.description]);
  });

  test("the defaults check fills in are the declared ones kept in state, said once in the docs", () => {
    expect(declaration.defaults ?? {}).toEqual(stateDefaults(declaration.inputs));
    const properties = schema.resources[resource.token].inputProperties;
    for (const [name, value] of Object.entries(declaration.defaults ?? {})) {
      expect(properties[name].default).toEqual(value);
      const fact = argumentDefault(fields[name])!;
      expect(described(name).split(defaultSentence(fact))).toHaveLength(2);
    }
  });

  test("a documented default that check does not fill in stays out of schema.json (the SDKs would send it)", () => {
    const properties = schema.resources[resource.token].inputProperties;
    for (const [name, field] of Object.entries(fields)) {
      const fact = argumentDefault(field);
      if (fact === undefined) continue;
      expect(described(name)).toContain(defaultSentence(fact));
      const kept = "value" in fact && fact.keptInState === true;
      if (!kept) expect([name, properties[name].default]).toEqual([name, undefined]);
    }
  });
});

describe.each(FUNCTIONS.map((f) => [f.name, f] as const))("%s", (_name, fn) => {
  const fields = fn.inputs.shape as Record<string, z.ZodType>;

  test("no argument's own description states its default by hand; the generated one does", () => {
    const restating = Object.entries(fields)
      .filter(([, field]) => RESTATED.test(field.description ?? ""))
      .map(([name]) => name);
    expect(restating).toEqual([]);
    const model_ = model.functions.find((f) => f.name === fn.name)!;
    for (const p of model_.inputs) {
      if (p.defaultFact !== undefined) expect(p.description).toContain(defaultSentence(p.defaultFact));
      expect(schema.functions[model_.token].inputs?.properties[p.name].description).toBe(p.description);
    }
  });
});

describe("the sentences", () => {
  test("an update step's sentence names its operations, without how it waits", () => {
    expect(updateSentence({ via: "updateVpc (202, awaited until visible)" })).toBe("Updated in place (updateVpc).");
    expect(updateSentence({ via: "startInstance, stopInstance (awaited)" })).toBe(
      "Updated in place (startInstance, stopInstance).",
    );
    expect(updateSentence({ via: "replaceAcl" })).toBe("Updated in place (replaceAcl).");
    expect(updateSentence({ via: "(provider setting, no API call)" })).toBe("Updated in place (no API call).");
  });

  test("a noun from the type name, acronyms spelled out, unless declared", () => {
    expect(nounOf({ type: "VpcTier" })).toBe("VPC tier");
    expect(nounOf({ type: "PublicIpAddress" })).toBe("public IP address");
    expect(nounOf({ type: "KubernetesCluster" })).toBe("Kubernetes cluster");
    expect(nounOf({ type: "PortForwardingRule", noun: "port-forwarding rule" })).toBe("port-forwarding rule");
  });

  test("defaults: a value as JSON, with its gloss; words as they are", () => {
    expect(defaultSentence({ value: "Running", keptInState: true })).toBe('Default: "Running".');
    expect(defaultSentence({ value: -1, note: "any" })).toBe("Default: -1 (any).");
    expect(defaultSentence({ text: "the template's" })).toBe("Default: the template's.");
  });
});
