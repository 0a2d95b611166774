/**
 * schema.json, the Pulumi package schema (https://www.pulumi.com/docs/iac/extend/packages/schema/),
 * from the package model: resources, functions, named types and the provider's configuration.
 */
import type { PackageModel, PropertyModel } from "./model";
import type { PropertySpec } from "./types";

function propertyMap(properties: readonly PropertyModel[]): Record<string, PropertySpec> {
  return Object.fromEntries(properties.map((p) => [p.name, p.spec]));
}

/** A resource's arguments as output properties: the same, less the default (applied to inputs only). */
function asOutputs(properties: readonly PropertyModel[]): Record<string, PropertySpec> {
  return Object.fromEntries(properties.map(({ name, spec: { default: _default, ...spec } }) => [name, spec]));
}

const requiredOf = (properties: readonly PropertyModel[]): string[] =>
  properties.filter((p) => p.required).map((p) => p.name);

/** An object type with its `required` list only when it has one. */
function objectTypeSpec(properties: readonly PropertyModel[]) {
  const required = requiredOf(properties);
  return { properties: propertyMap(properties), ...(required.length > 0 ? { required } : {}) };
}

const sortedEntries = <T>(entries: [string, T][]): Record<string, T> =>
  Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The package schema as a plain object. */
export function packageSchema(model: PackageModel): Record<string, unknown> {
  return {
    name: model.name,
    displayName: "RestCloud",
    version: model.version,
    description: model.description,
    keywords: ["pulumi", "restcloud", "category/cloud"],
    license: model.license,
    config: {
      variables: Object.fromEntries(
        model.config.map((c) => [
          c.name,
          {
            type: c.type,
            description: c.description,
            ...(c.default === undefined ? {} : { default: c.default }),
            defaultInfo: { environment: [c.environment] },
            ...(c.secret ? { secret: true } : {}),
          },
        ]),
      ),
      defaults: model.config.filter((c) => !c.required).map((c) => c.name),
    },
    types: sortedEntries([...model.types.entries()]),
    resources: sortedEntries(
      model.resources.map((r) => {
        const inputs = propertyMap(r.inputs);
        const requiredInputs = requiredOf(r.inputs);
        return [
          r.token,
          {
            description: r.description,
            properties: { ...asOutputs(r.inputs), ...propertyMap(r.outputs) },
            required: r.alwaysPresent,
            inputProperties: inputs,
            ...(requiredInputs.length > 0 ? { requiredInputs } : {}),
          },
        ];
      }),
    ),
    functions: sortedEntries(
      model.functions.map((f) => [
        f.token,
        {
          description: f.description,
          ...(f.inputs.length > 0 ? { inputs: objectTypeSpec(f.inputs) } : {}),
          outputs: objectTypeSpec(f.outputs),
        },
      ]),
    ),
    language: { nodejs: { packageName: model.npmPackage } },
  };
}

/** Deterministic JSON: the object's key order (set above), 2 spaces, a trailing newline. */
export function schemaJson(model: PackageModel): string {
  return JSON.stringify(packageSchema(model), null, 2) + "\n";
}
