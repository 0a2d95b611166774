/**
 * The generator on a declaration and a function built for the test: zod types to Pulumi types
 * (enums, nested objects, lists, maps, unions, named types), what changes do, secrets, defaults,
 * examples, and the README splice.
 */
import { z } from "zod";
import { defineResource } from "../../../provider/engine/declaration";
import { withDefaultText } from "../../../provider/engine/defaults";
import { defineFunction } from "../../../provider/functions/define";
import { packageModel } from "../../../provider/schema/model";
import { packageSchema, schemaJson } from "../../../provider/schema/package-schema";
import {
  README_BEGIN,
  README_END,
  referenceDocs,
  SETTINGS_BEGIN,
  SETTINGS_END,
  settingsTable,
  spliceReadme,
  updateReplaceTables,
} from "../../../provider/schema/markdown";
import { singular } from "../../../provider/schema/types";
import {
  exampleCode,
  functionProgram,
  pythonName,
  resourceProgram,
  type ExampleProgram,
} from "../../../provider/schema/examples";

const gadget = defineResource({
  type: "Gadget",
  description: "A test resource.",
  inputs: z
    .object({
      name: z.string().optional().describe("The name."),
      zoneUuid: z.string().optional().describe("The zone."),
      cidr: z.string().describe("The block, e.g. 10.2.0.0/16."),
      mode: z.enum(["Fast", "Slow"]).optional().describe("The mode."),
      size: z.number().int().min(2).max(9).describe("The size."),
      labels: z.record(z.string(), z.string()).optional().describe("Labels."),
      ports: withDefaultText(z.array(z.number().int()).optional().describe("Ports."), "none open"),
      password: z.string().optional().describe("A password."),
      left: z.string().optional().describe("One of left and right."),
      right: z.string().optional().describe("One of left and right."),
    })
    .superRefine((v, ctx) => {
      if ((v.left === undefined) === (v.right === undefined))
        ctx.addIssue({ code: "custom", path: ["left"], message: "set exactly one of left and right" });
    }),
  outputs: z.object({
    uuid: z.string().describe("The id."),
    token: z.string().optional().describe("A token the API returns."),
    password: z.string().optional().describe("The password as stored."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  defaults: { mode: "Fast" },
  secretInputs: ["password"],
  secretOutputs: ["token"],
  replaceOn: ["zoneUuid", "cidr", "password"],
  updates: [
    { fields: ["name", "mode", "size"], via: "updateGadget (awaited)", apply: async () => undefined },
    { fields: ["labels"], via: "tagGadget", apply: async () => undefined },
  ],
  deleteBeforeReplace: true,
  defaultTimeouts: { create: 1000, update: 1000, delete: 1000 },
  identity: { scope: () => "test" },
  create: async () => ({ id: "id-1" }),
  read: async () => undefined,
  delete: async () => undefined,
});

const region = z
  .object({ uuid: z.string().describe("The id."), name: z.string().optional().describe("The name.") })
  .meta({ id: "TestRegion" });

const getGadgets = defineFunction({
  name: "getGadgets",
  description: "Test gadgets.",
  inputs: z.object({
    zoneUuid: z.string().optional().describe("The zone."),
    kind: z.enum(["A", "B"]).default("A").describe("The kind."),
    ownerUuid: z.string().describe("The owner."),
    policy: z
      .union([z.literal("None"), z.string().regex(/^G\d+$/)])
      .optional()
      .describe("None or a group."),
  }),
  outputs: z.object({
    gadgets: z
      .array(
        z.object({
          uuid: z.string().describe("The id."),
          size: z.number().nullable().describe("The size, null when unknown."),
          extra: z.union([z.string(), z.number()]).optional().describe("Either."),
          region: region.optional().describe("Its region."),
        }),
      )
      .describe("The gadgets."),
    regions: z.array(region).describe("Every region."),
  }),
  zoneDefault: "zoneUuid",
  invoke: async () => ({ gadgets: [], regions: [] }),
});

const info = {
  version: "1.2.3",
  description: "Test package.",
  license: "MIT",
  npmPackage: "pulumi-restcloud",
  pulumiSdkVersion: "3.259.0",
};
const model = packageModel([gadget] as never, [getGadgets.declaration] as never, info);
const schema = packageSchema(model) as Record<string, Record<string, Record<string, unknown>>>;
const resource = schema.resources["restcloud:index:Gadget"] as Record<string, Record<string, Record<string, unknown>>>;

describe("resources in schema.json", () => {
  test("types, descriptions, defaults, secrets and replaceOnChanges of the arguments", () => {
    const inputs = resource.inputProperties;
    expect(inputs.cidr).toEqual({
      type: "string",
      description: "The block, e.g. 10.2.0.0/16. Changing it replaces the gadget.",
      replaceOnChanges: true,
    });
    expect(inputs.mode).toEqual({
      $ref: "#/types/restcloud:index:GadgetMode",
      description: 'The mode. Default: "Fast". Updated in place (updateGadget).',
      default: "Fast",
    });
    expect(inputs.name.description).toBe(
      "The name. Default: the resource's logical name plus a random suffix, kept across updates, or as the stack's `pulumi:autonaming` says (native mode). Updated in place (updateGadget).",
    );
    // A default check does not fill in is documented, not given to the SDKs (they would send it).
    expect(inputs.ports).toEqual({
      type: "array",
      items: { type: "integer" },
      description: "Ports. Default: none open.",
    });
    expect(inputs.size).toMatchObject({ type: "integer" });
    expect(inputs.labels).toMatchObject({ type: "object", additionalProperties: { type: "string" } });
    expect(inputs.password).toMatchObject({ type: "string", secret: true, replaceOnChanges: true });
    expect(inputs.name.replaceOnChanges).toBeUndefined();
    expect(resource.requiredInputs).toEqual(["cidr", "size"]);
    expect(schema.types["restcloud:index:GadgetMode"]).toEqual({
      type: "string",
      enum: [{ value: "Fast" }, { value: "Slow" }],
    });
  });

  test("properties: arguments then outputs, secrets kept, defaults only on inputs; what is always present", () => {
    const properties = resource.properties;
    expect(Object.keys(properties)).toEqual([...Object.keys(resource.inputProperties), "uuid", "token"]);
    expect(properties.password.secret).toBe(true);
    expect(properties.token.secret).toBe(true);
    expect(properties.mode.default).toBeUndefined();
    expect(resource.required).toEqual(["name", "zoneUuid", "cidr", "mode", "size", "uuid"]);
  });

  test("deterministic JSON: two spaces, a trailing newline, sorted tokens", () => {
    const text = schemaJson(model);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toBe(schemaJson(packageModel([gadget] as never, [getGadgets.declaration] as never, info)));
    expect(text.split("\n")[1]).toBe('  "name": "restcloud",');
    const types = Object.keys(schema.types);
    expect(types).toEqual([...types].sort());
  });

  test("the example holds the required arguments and what the cross-field rules ask for, and validates", () => {
    const [r] = model.resources;
    expect(r.exampleArguments).toEqual({ cidr: "10.2.0.0/16", size: 2, left: "<left>" });
    expect(gadget.inputs.safeParse(r.exampleArguments).success).toBe(true);
  });
});

describe("functions in schema.json", () => {
  const fn = schema.functions["restcloud:index:getGadgets"] as Record<string, Record<string, unknown>>;

  test("inputs with zod defaults and required arguments; outputs with named object types", () => {
    expect(fn.inputs).toMatchObject({
      properties: {
        kind: { $ref: "#/types/restcloud:index:GetGadgetsKind", default: "A", description: 'The kind. Default: "A".' },
        zoneUuid: { description: "The zone. Default: the provider's `restcloud:zoneUuid` (or RESTCLOUD_ZONE_UUID)." },
      },
      required: ["ownerUuid"],
    });
    // A union whose members all map to one Pulumi type is that type.
    expect((fn.inputs as { properties: Record<string, unknown> }).properties.policy).toEqual({
      type: "string",
      description: "None or a group.",
    });
    expect(fn.outputs).toEqual({
      properties: {
        gadgets: {
          type: "array",
          items: { $ref: "#/types/restcloud:index:GetGadgetsGadget" },
          description: "The gadgets.",
        },
        regions: { type: "array", items: { $ref: "#/types/restcloud:index:TestRegion" }, description: "Every region." },
      },
      required: ["gadgets", "regions"],
    });
  });

  test("nested objects: nullable unwrapped, unions as oneOf, a zod meta id names a shared type", () => {
    expect(schema.types["restcloud:index:GetGadgetsGadget"]).toEqual({
      type: "object",
      properties: {
        uuid: { type: "string", description: "The id." },
        size: { type: "number", description: "The size, null when unknown." },
        extra: { oneOf: [{ type: "string" }, { type: "number" }], description: "Either." },
        region: { $ref: "#/types/restcloud:index:TestRegion", description: "Its region." },
      },
      required: ["uuid", "size"],
    });
    expect(schema.types["restcloud:index:TestRegion"]).toMatchObject({ required: ["uuid"] });
  });

  test("two different types given one name are refused", () => {
    const clash = defineFunction({
      name: "getGadgets",
      description: "Same owner, another kind enum.",
      inputs: z.object({ kind: z.enum(["X", "Y"]).optional().describe("Another kind.") }),
      outputs: z.object({ n: z.number().describe("A number.") }),
      invoke: async () => ({ n: 1 }),
    });
    expect(() => packageModel([], [getGadgets.declaration, clash.declaration] as never, info)).toThrow(
      /two different types are both named restcloud:index:GetGadgetsKind/,
    );
  });
});

describe("the provider's settings in schema.json", () => {
  const provider = schema.provider as unknown as {
    description: string;
    inputProperties: Record<string, Record<string, unknown>>;
  };

  test("the provider resource takes every setting, typed, the secrets marked", () => {
    expect(provider.description).toMatch(/restcloud\.Provider/);
    expect(provider.inputProperties.apiKey).toMatchObject({ type: "string", secret: true });
    expect(provider.inputProperties.secretKey).toMatchObject({ type: "string", secret: true });
    expect(provider.inputProperties.apiUrl.secret).toBeUndefined();
    expect(provider.inputProperties.maxConcurrentRequests).toMatchObject({
      type: "integer",
      default: 8,
      defaultInfo: { environment: ["RESTCLOUD_MAX_CONCURRENT_REQUESTS"] },
    });
    expect(provider.inputProperties.shareReads).toMatchObject({ type: "boolean", default: true });
    // A duration is a string in the schema.
    expect(provider.inputProperties.requestTimeout).toMatchObject({ type: "string", default: "30s" });
  });

  test("the config variables are the same properties", () => {
    expect((schema.config as Record<string, unknown>).variables).toEqual(provider.inputProperties);
  });
});

describe("docs and the README tables", () => {
  const docs = referenceDocs(model);

  test("one page per resource and function, and the index linking them", () => {
    expect([...docs.keys()]).toEqual(["README.md", "resources/gadget.md", "functions/get-gadgets.md"]);
    expect(docs.get("README.md")).toContain("[Gadget](resources/gadget.md)");
    expect(docs.get("README.md")).toContain("| `restcloud:apiKey` | `RESTCLOUD_API_KEY` | yes | yes |");
  });

  test("the resource page: arguments with type, default, change and secret; outputs; the example", () => {
    const page = docs.get("resources/gadget.md")!;
    expect(page).toContain(
      '| `mode` | "Fast" or "Slow" | no | `"Fast"` | updates in place: updateGadget (awaited) | no | The mode. Default: "Fast". Updated in place (updateGadget). |',
    );
    expect(page).toContain(
      "| `ports` | list of integer | no | none open | no update step declares it | no | Ports. Default: none open. |",
    );
    expect(page).toContain("| `size` | integer (2 to 9) | yes |  | updates in place: updateGadget (awaited) | no |");
    expect(page).toContain("| `password` | string | no |  | replaces | yes |");
    expect(page).toContain(
      "| `name` | string | no | the resource's logical name plus a random suffix, kept across updates, or as the stack's `pulumi:autonaming` says (native mode) | updates in place",
    );
    expect(page).toContain("| `zoneUuid` | string | no | the provider's `restcloud:zoneUuid` | replaces |");
    expect(page).toContain("| `token` | string | no | yes | A token the API returns. |");
    expect(page).toContain('const gadget = new restcloud.Gadget("gadget", {\n  cidr: "10.2.0.0/16",');
    expect(page).toContain("deletes the old resource before creating the new one");
  });

  test("the function page documents its nested types", () => {
    const page = docs.get("functions/get-gadgets.md")!;
    expect(page).toContain("| `gadgets` | list of [GetGadgetsGadget](#getgadgetsgadget) | yes | no | The gadgets. |");
    expect(page).toContain("### GetGadgetsGadget");
    expect(page).toContain("### TestRegion");
    expect(page).toContain('await restcloud.getGadgets({\n    ownerUuid: "<owner uuid>",\n  });');
  });

  test("the update/replace table: each step with its call, then what replaces", () => {
    const tables = updateReplaceTables(model);
    expect(tables).toContain("| `name`, `mode`, `size` | updates in place | updateGadget (awaited) |");
    expect(tables).toContain("| `labels` | updates in place | tagGadget |");
    expect(tables).toContain("| `zoneUuid`, `cidr`, `password` | replaces | delete, then create |");
    expect(tables).toContain("| `ports`, `left`, `right` | no update step declares it |  |");
  });

  test("spliceReadme replaces only what lies between the markers, and needs them", () => {
    const readme = `# Title\n\nintro\n\n${README_BEGIN}\nold\n${README_END}\n\n## After\n`;
    expect(spliceReadme(readme, "new")).toBe(`# Title\n\nintro\n\n${README_BEGIN}\nnew\n${README_END}\n\n## After\n`);
    expect(() => spliceReadme("# no markers\n", "new")).toThrow(/lacks the markers/);
  });

  test("the README's settings table: one row per setting, secrets and required ones flagged", () => {
    const table = settingsTable(model);
    expect(table).toContain(
      "| `restcloud:apiKey` (secret, required) | `RESTCLOUD_API_KEY` | The account's API key (the `apikey` header).",
    );
    expect(table).toContain("| `restcloud:apiUrl` (required) | `RESTCLOUD_API_URL` |");
    expect(table).toContain("| `restcloud:shareReads` | `RESTCLOUD_SHARE_READS` | Whether concurrent reads share");
    expect(table.split("\n").filter((l) => l.startsWith("| `restcloud:"))).toHaveLength(model.config.length);
    const readme = `a\n${SETTINGS_BEGIN}\nold\n${SETTINGS_END}\nb\n`;
    expect(spliceReadme(readme, table, [SETTINGS_BEGIN, SETTINGS_END])).toBe(
      `a\n${SETTINGS_BEGIN}\n${table}\n${SETTINGS_END}\nb\n`,
    );
  });

  test("table cells escape pipes and stay on one line", () => {
    const piped = defineResource({
      ...gadget,
      type: "Piped",
      inputs: z.object({ cidr: z.string().describe("a | b\nc") }),
      replaceOn: ["cidr"],
      updates: [],
    } as never);
    const page = referenceDocs(packageModel([piped] as never, [], info)).get("resources/piped.md")!;
    expect(page).toContain("| a \\| b c Changing it replaces the piped. |");
  });

  test("singular names of list items", () => {
    expect(["zones", "addresses", "categories", "data", "boxes"].map(singular)).toEqual([
      "zone",
      "address",
      "category",
      "dataItem",
      "box",
    ]);
  });
});

describe("the examples, in TypeScript, Python, Go and YAML, from the one set of arguments", () => {
  const docs = referenceDocs(model);
  const [gadgetModel] = model.resources;
  const [getGadgetsModel] = model.functions;

  test("a page's Example section: a sub-heading and a fenced block per language, in order", () => {
    for (const page of ["resources/gadget.md", "functions/get-gadgets.md"]) {
      const text = docs.get(page)!;
      const section = text.slice(text.indexOf("## Example\n"), text.indexOf("## Arguments"));
      expect([...section.matchAll(/^### (.+)\n\n```(\w+)$/gm)].map((m) => [m[1], m[2]])).toEqual([
        ["TypeScript", "ts"],
        ["Python", "python"],
        ["Go", "go"],
        ["YAML", "yaml"],
      ]);
    }
  });

  test("a resource: Python's snake_case keywords, Go's Args struct and wrappers, YAML's token", () => {
    const code = exampleCode(model, resourceProgram(gadgetModel));
    expect(code.python).toBe(
      [
        "import pulumi",
        "import pulumi_restcloud as restcloud",
        "",
        "gadget = restcloud.Gadget(",
        '    "gadget",',
        '    cidr="10.2.0.0/16",',
        "    size=2,",
        '    left="<left>",',
        ")",
        "",
        'pulumi.export("gadgetId", gadget.uuid)',
      ].join("\n"),
    );
    expect(code.go).toContain(
      [
        '\t\tgadget, err := restcloud.NewGadget(ctx, "gadget", &restcloud.GadgetArgs{',
        '\t\t\tCidr: pulumi.String("10.2.0.0/16"),',
        "\t\t\tSize: pulumi.Int(2),",
        '\t\t\tLeft: pulumi.String("<left>"),',
        "\t\t})",
      ].join("\n"),
    );
    expect(code.go).toContain('ctx.Export("gadgetId", gadget.Uuid)');
    expect(code.go).not.toContain("pulumi/config");
    expect(code.yaml).toBe(
      [
        "resources:",
        "  gadget:",
        "    type: restcloud:index:Gadget",
        "    properties:",
        '      cidr: "10.2.0.0/16"',
        "      size: 2",
        '      left: "<left>"',
        "outputs:",
        "  gadgetId: ${gadget.uuid}",
      ].join("\n"),
    );
  });

  test("a function: Python's call, Go's plain arguments (a pointer when optional), YAML's fn::invoke", () => {
    const program = functionProgram(getGadgetsModel);
    const withZone: ExampleProgram =
      program.kind === "function"
        ? {
            ...program,
            arguments: [
              ...program.arguments,
              { name: "zoneUuid", value: "zone-1", spec: { type: "string" }, required: false, secret: false },
            ],
          }
        : program;
    const code = exampleCode(model, withZone);
    expect(code.python).toContain(
      'result = restcloud.get_gadgets(\n    owner_uuid="<owner uuid>",\n    zone_uuid="zone-1",\n)\npulumi.export("gadgets", result.gadgets)',
    );
    expect(code.go).toContain('\t\t\tOwnerUuid: "<owner uuid>",\n\t\t\tZoneUuid:  pulumi.StringRef("zone-1"),');
    expect(code.go).toContain('ctx.Export("gadgets", pulumi.Any(result.Gadgets))');
    expect(code.yaml).toBe(
      [
        "variables:",
        "  result:",
        "    fn::invoke:",
        "      function: restcloud:index:getGadgets",
        "      arguments:",
        '        ownerUuid: "<owner uuid>"',
        '        zoneUuid: "zone-1"',
        "outputs:",
        "  gadgets: ${result.gadgets}",
      ].join("\n"),
    );
  });

  test("secrets come from the stack's config in every language; enums, lists and maps in Go", () => {
    const base = resourceProgram(gadgetModel);
    const input = (name: string) => gadgetModel.inputs.find((p) => p.name === name)!;
    const argument = (name: string, value: unknown) => ({
      name,
      value,
      spec: input(name).spec,
      required: input(name).required,
      secret: input(name).secret,
    });
    const program = {
      ...base,
      arguments: [
        argument("password", "never shown"),
        argument("mode", "Slow"),
        argument("ports", [80, 443]),
        argument("labels", { team: "web" }),
      ],
    } as ExampleProgram;
    const code = exampleCode(model, program);
    expect(code.typescript).toContain('password: config.requireSecret("password"),');
    expect(code.python).toContain("config = pulumi.Config()\n");
    expect(code.python).toContain('    password=config.require_secret("password"),');
    expect(code.go).toContain('\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"\n');
    expect(code.go).toContain('\t\tcfg := config.New(ctx, "")\n');
    expect(code.go).toContain('Password: cfg.RequireSecret("password"),');
    expect(code.go).toContain('Mode:     restcloud.GadgetMode("Slow"),');
    expect(code.go).toContain("Ports:    pulumi.IntArray{pulumi.Int(80), pulumi.Int(443)},");
    expect(code.go).toContain('Labels:   pulumi.StringMap{"team": pulumi.String("web")},');
    expect(code.yaml).toContain("configuration:\n  password:\n    type: String\n    secret: true\n");
    expect(code.yaml).toContain("      password: ${password}\n");
    for (const text of Object.values(code)) expect(text).not.toContain("never shown");
    expect(code.python).toContain("    ports=[80, 443],");
    expect(code.python).toContain('    labels={"team": "web"},');
  });

  test("schema.json's descriptions: the description, then the examples in Pulumi's shortcodes", () => {
    const description = resource.description as unknown as string;
    expect(
      description.startsWith(
        "A test resource.\n\n{{% examples %}}\n## Example Usage\n\n{{% example %}}\n### Basic usage\n\n```typescript\n",
      ),
    ).toBe(true);
    expect(description.endsWith("```\n{{% /example %}}\n{{% /examples %}}")).toBe(true);
    expect([...description.matchAll(/^```(\w+)$/gm)].map((m) => m[1])).toEqual(["typescript", "python", "go", "yaml"]);
    const fn = schema.functions["restcloud:index:getGadgets"] as unknown as { description: string };
    expect(fn.description).toContain("Test gadgets.\n\n{{% examples %}}");
    expect(fn.description).toContain("restcloud.get_gadgets(");
  });

  test("Python names as Pulumi's Python generator spells them", () => {
    expect(
      ["vpcOfferingUuid", "cidrList", "getZones", "SHA256Hash", "ipAddressUuid", "VpcTier"].map(pythonName),
    ).toEqual(["vpc_offering_uuid", "cidr_list", "get_zones", "sha256_hash", "ip_address_uuid", "vpc_tier"]);
  });
});
