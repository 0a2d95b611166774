// schema.json, the Pulumi package schema (https://www.pulumi.com/docs/iac/extend/packages/schema/), from the package
// model: resources, functions, named types and the provider's configuration.
import { exampleCode, functionProgram, resourceProgram, withSchemaExamples } from "./examples";
import type { ConfigModel, PackageModel, PropertyModel } from "./model";
import { PLUGIN_DOWNLOAD_URL, REPOSITORY } from "../plugin-release";
import { GO_IMPORT_PATH, PYTHON_PACKAGE, type PropertySpec } from "./types";

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

/**
 * A setting as a property: its type, description, default, environment variable and secrecy. A map
 * (tags) names no variable: the SDKs' generators would read its JSON text as the map itself (Go's
 * would not compile), and the plugin reads the variable anyway when the setting is not given.
 */
function settingSpec(c: ConfigModel): Record<string, unknown> {
  const map = c.type === "object";
  return {
    type: c.type,
    ...(map ? { additionalProperties: { type: "string" } } : {}),
    description: c.description,
    ...(c.default === undefined ? {} : { default: c.default }),
    ...(map ? {} : { defaultInfo: { environment: [c.environment] } }),
    ...(c.secret ? { secret: true } : {}),
  };
}

/**
 * The provider resource (`restcloud.Provider`, `pulumi:providers:restcloud`): one typed argument
 * per setting. None is a required input: each falls back to its environment variable.
 */
function providerSpec(model: PackageModel): Record<string, unknown> {
  return {
    description:
      "The provider type for the restcloud package. Without an explicit provider, resources and functions use " +
      "the stack's `restcloud:*` configuration (else the RESTCLOUD_* environment variables); a `restcloud.Provider` " +
      "takes the same settings as arguments.",
    inputProperties: Object.fromEntries(model.config.map((c) => [c.name, settingSpec(c)])),
  };
}

/** The `go` directive of sdk/go's go.mod: the Pulumi Go SDK's own. */
const GO_DIRECTIVE = "1.25.11";

/**
 * Each language's settings for its SDK, read by Pulumi's code generators (tools/sdkgen writes
 * sdk/python and sdk/go from them): package names, the import path, and the dependency on the Pulumi
 * SDK of the version this package is built against. `x-` keys are read by tools/sdkgen alone.
 */
function languageSettings(model: PackageModel): Record<string, unknown> {
  return {
    nodejs: { packageName: model.npmPackage },
    python: {
      packageName: PYTHON_PACKAGE,
      respectSchemaVersion: true,
      pyproject: { enabled: true },
      pythonRequires: ">=3.9",
      requires: { pulumi: `>=${model.pulumiSdkVersion},<4.0.0` },
      readme: [
        "# pulumi_restcloud",
        "",
        "The Python SDK of the Pulumi provider for the RestCloud API, generated from the pulumi-restcloud",
        "package's schema. Its resources and functions are served by the provider's plugin,",
        `\`pulumi-resource-restcloud\` v${model.version}, a self-contained executable that Pulumi downloads`,
        `on first use from the releases of https://${REPOSITORY} (offline: \`pulumi plugin install resource`,
        `restcloud ${model.version} --file pulumi-resource-restcloud-v${model.version}-<os>-<arch>.tar.gz\`).`,
        "",
        "```python",
        "import pulumi_restcloud as restcloud",
        "",
        'zone = restcloud.get_zone(name_regex="frankfurt")',
        "offering = restcloud.get_vpc_offerings(zone_uuid=zone.uuid).offerings[0]",
        'vpc = restcloud.Vpc("web", zone_uuid=zone.uuid, cidr="10.1.0.0/16", vpc_offering_uuid=offering.uuid)',
        "```",
      ].join("\n"),
    },
    go: {
      importBasePath: GO_IMPORT_PATH,
      respectSchemaVersion: true,
      generateResourceContainerTypes: true,
      "x-pulumiSdkRequire": `v${model.pulumiSdkVersion}`,
      "x-goDirective": GO_DIRECTIVE,
    },
  };
}

/** The package schema as a plain object. */
export function packageSchema(model: PackageModel): Record<string, unknown> {
  return {
    name: model.name,
    displayName: "RestCloud",
    version: model.version,
    description: model.description,
    keywords: ["pulumi", "restcloud", "category/cloud"],
    license: model.license,
    repository: `https://${REPOSITORY}`,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    config: {
      variables: Object.fromEntries(model.config.map((c) => [c.name, settingSpec(c)])),
      defaults: model.config.filter((c) => !c.required).map((c) => c.name),
    },
    provider: providerSpec(model),
    types: sortedEntries([...model.types.entries()]),
    resources: sortedEntries(
      model.resources.map((r) => {
        const inputs = propertyMap(r.inputs);
        const requiredInputs = requiredOf(r.inputs);
        return [
          r.token,
          {
            description: withSchemaExamples(r.description, exampleCode(model, resourceProgram(r))),
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
          description: withSchemaExamples(f.description, exampleCode(model, functionProgram(f))),
          ...(f.inputs.length > 0 ? { inputs: objectTypeSpec(f.inputs) } : {}),
          outputs: objectTypeSpec(f.outputs),
        },
      ]),
    ),
    language: languageSettings(model),
  };
}

/** Deterministic JSON: the object's key order (set above), 2 spaces, a trailing newline. */
export function schemaJson(model: PackageModel): string {
  return JSON.stringify(packageSchema(model), null, 2) + "\n";
}
