/**
 * The engine's pure parts: check (validation, unknowns, auto-naming, default zone) and diff
 * (replace vs update in place), on a small declaration built for the test.
 */
import { z } from "zod";
import { defineResource, type ResourceDeclaration } from "../../../provider/engine/declaration";
import { ProviderSession } from "../../../provider/session";
import { Engine, NOT_READ_ON_IMPORT, autoName } from "../../../provider/engine/engine";
import { parseDuration } from "../../../provider/duration";
import { UNKNOWN, containsUnknown } from "../../../provider/wire";
import { META_KEY, namingOf, withoutMeta } from "../../../provider/dynamic/meta";
import { cidrBlock, checkPortRange, port, protocol, resourceName } from "../../../provider/engine/validators";

const widget = defineResource({
  type: "Widget",
  description: "A test resource.",
  inputs: z
    .object({
      name: resourceName.optional(),
      zoneUuid: z.string().optional(),
      cidr: cidrBlock,
      protocol: protocol.optional(),
      startPort: port.optional(),
      endPort: port.optional(),
      description: z.string().optional(),
    })
    .superRefine(checkPortRange),
  outputs: z.object({ uuid: z.string(), state: z.string() }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  replaceOn: ["zoneUuid", "cidr", "protocol", "startPort", "endPort"],
  updates: [{ fields: ["name", "description"], via: "updateWidget", apply: async () => undefined }],
  defaultTimeouts: { create: 1000, update: 1000, delete: 1000 },
  identity: { scope: () => "test" },
  create: async () => ({ id: "id-1" }),
  read: async () => undefined,
  delete: async () => undefined,
});

function engine(zoneUuid?: string): Engine {
  return new Engine(widget, {
    client: () => {
      throw new Error("check and diff must not need a client");
    },
    settings: () => ({ zoneUuid }),
    containsUnknown,
  });
}

describe("check", () => {
  test("a valid input passes and keeps its values", () => {
    const { inputs, failures } = engine().check({}, { name: "w", zoneUuid: "z", cidr: "10.0.0.0/16" });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ name: "w", zoneUuid: "z", cidr: "10.0.0.0/16" });
  });

  test("one failure per bad field, naming it, with a reason a user understands", () => {
    const { failures } = engine().check(
      {},
      { zoneUuid: "z", cidr: "10.0.0.300/16", protocol: "SCTP", startPort: 70000, endPort: 10 },
    );
    const byField = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    expect(byField.cidr).toMatch(/not an IPv4 CIDR block/);
    expect(byField.protocol).toMatch(/TCP, UDP, ICMP/);
    expect(byField.startPort).toMatch(/between 1 and 65535/);
  });

  test("start port after end port is refused on endPort", () => {
    const { failures } = engine().check(
      {},
      { zoneUuid: "z", cidr: "10.0.0.0/16", protocol: "TCP", startPort: 90, endPort: 80 },
    );
    expect(failures).toEqual([{ property: "endPort", reason: "must be greater than or equal to startPort (90)" }]);
  });

  test("host bits in a CIDR are refused", () => {
    const { failures } = engine().check({}, { zoneUuid: "z", cidr: "10.0.0.1/16" });
    expect(failures[0]).toMatchObject({ property: "cidr", reason: expect.stringMatching(/host bits/) });
  });

  test("a missing required argument is named; the zone says how to set a default", () => {
    const { failures } = engine().check({}, { name: "w" });
    const byField = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    expect(byField.cidr).toBe("is required");
    expect(byField.zoneUuid).toMatch(/restcloud:zoneUuid/);
  });

  test("the default zone fills zoneUuid", () => {
    const { inputs, failures } = engine("zone-default").check({}, { name: "w", cidr: "10.0.0.0/16" });
    expect(failures).toEqual([]);
    expect(inputs.zoneUuid).toBe("zone-default");
  });

  test("unknown values (during preview) pass validation, cross-field rules included", () => {
    const { failures } = engine().check({}, { zoneUuid: UNKNOWN, cidr: UNKNOWN, protocol: "TCP", startPort: UNKNOWN });
    expect(failures).toEqual([]);
  });

  test("what is unknown is the front end's to say: without its predicate, Pulumi's sentinel is a value", () => {
    const bare = new Engine(widget, { client: () => ({}) as never, settings: () => ({}) });
    expect(bare.check({}, { zoneUuid: "z", cidr: UNKNOWN }).failures).toEqual([
      { property: "cidr", reason: expect.stringMatching(/not an IPv4 CIDR block/) },
    ]);
  });

  test("the session hands its engines the wire's predicate", () => {
    const session = new ProviderSession(new Map([[widget.type, widget as unknown as ResourceDeclaration]]));
    expect(session.engine("Widget").check({}, { zoneUuid: "z", cidr: UNKNOWN }).failures).toEqual([]);
  });

  test("an argument the resource does not have is refused", () => {
    const { failures } = engine().check({}, { zoneUuid: "z", cidr: "10.0.0.0/16", cidrBlock: "x" });
    expect(failures).toEqual([{ property: "cidrBlock", reason: "is not an argument of Widget" }]);
  });

  test("auto-naming: logical name plus a suffix; the previous name kept", () => {
    const news = { zoneUuid: "z", cidr: "10.0.0.0/16" };
    const first = engine().check({}, news, { logicalName: "web" }).inputs;
    expect(first.name).toMatch(/^web-[0-9a-f]{7}$/);
    const again = engine().check(first, news, { logicalName: "web", previousName: String(first.name) }).inputs;
    expect(again.name).toBe(first.name);
    const other = engine().check({}, news, { logicalName: "web" }).inputs;
    expect(other.name).not.toBe(first.name);
  });

  test("auto-naming: the same random seed gives the same name (a preview and the update that follows it)", () => {
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
    const news = { zoneUuid: "z", cidr: "10.0.0.0/16" };
    const preview = engine().check({}, news, { logicalName: "web", seed }).inputs.name;
    expect(engine().check({}, news, { logicalName: "web", seed }).inputs.name).toBe(preview);
    expect(preview).toBe(autoName("web", seed));
    expect(
      autoName(
        "web",
        Uint8Array.from({ length: 32 }, () => 7),
      ),
    ).not.toBe(preview);
  });

  describe("as the stack's pulumi:autonaming says (the engine's proposal, native Check)", () => {
    const news = { zoneUuid: "z", cidr: "10.0.0.0/16" };
    const naming = (mode: "propose" | "enforce" | "disable", proposedName?: string, previousName?: string) => ({
      logicalName: "web",
      ...(previousName ? { previousName } : {}),
      autonaming: { mode, ...(proposedName !== undefined ? { proposedName } : {}) },
    });

    test.each(["propose", "enforce"] as const)(
      "%s: the proposed name when the program gives none; the program's name, or the one given before, wins",
      (mode) => {
        expect(engine().check({}, news, naming(mode, "dev-web-1a2b"))).toEqual({
          inputs: { ...news, name: "dev-web-1a2b" },
          failures: [],
        });
        expect(engine().check({}, { ...news, name: "mine" }, naming(mode, "dev-web-1a2b")).inputs.name).toBe("mine");
        // An update: the engine proposes anew (a new seed), and the name stays.
        const olds = { ...news, name: "dev-web-1a2b" };
        expect(engine().check(olds, news, naming(mode, "dev-web-9f9f", "dev-web-1a2b")).inputs.name).toBe(
          "dev-web-1a2b",
        );
      },
    );

    test("disable: a failure naming the argument when the program gives no name; none with a name, or one given before", () => {
      expect(engine().check({}, news, naming("disable")).failures).toEqual([
        {
          property: "name",
          reason: "is required: the stack's autonaming is disabled (pulumi:autonaming), so the program must give it",
        },
      ]);
      expect(engine().check({}, { ...news, name: "mine" }, naming("disable")).failures).toEqual([]);
      expect(engine().check({}, { ...news, name: UNKNOWN }, naming("disable")).failures).toEqual([]);
      expect(
        engine().check({ ...news, name: "web-3f9a2c1" }, news, naming("disable", undefined, "web-3f9a2c1")),
      ).toEqual({
        inputs: { ...news, name: "web-3f9a2c1" },
        failures: [],
      });
    });

    test.each(["propose", "enforce"] as const)(
      "%s: a proposed name the argument's rules refuse fails, naming the argument, the rule and the name",
      (mode) => {
        expect(engine().check({}, news, naming(mode, "dev/web 1a2b")).failures).toEqual([
          {
            property: "name",
            reason:
              "must start with a letter or digit and hold only letters, digits, '.', '_', '-'; " +
              '"dev/web 1a2b" is the name the stack\'s autonaming pattern gave (pulumi:autonaming)',
          },
        ]);
        expect(engine().check({}, news, naming(mode, "x".repeat(64))).failures).toEqual([
          { property: "name", reason: expect.stringMatching(/^must be at most 63 characters; "x{64}" is the name/) },
        ]);
      },
    );
  });

  test("dynamic adapter: a name drifted out of band (after refresh) is not taken as the default", () => {
    const news = { zoneUuid: "z", cidr: "10.0.0.0/16", [META_KEY]: { autoName: "web" } };
    const first = engine().check({}, withoutMeta(news), namingOf({}, news)).inputs;
    const olds = { ...first, name: "renamed-out-of-band", [META_KEY]: { autoName: "web", generatedName: first.name } };
    expect(engine().check(withoutMeta(olds), withoutMeta(news), namingOf(olds, news)).inputs.name).toBe(first.name);
  });
});

describe("diff", () => {
  const olds = { name: "w", zoneUuid: "z", cidr: "10.0.0.0/16", description: "a", uuid: "id-1", state: "Running" };

  test("no change", () => {
    expect(engine().diff(olds, { name: "w", zoneUuid: "z", cidr: "10.0.0.0/16", description: "a" })).toMatchObject({
      changes: false,
      replaces: [],
      updates: [],
    });
  });

  test("an updatable argument updates in place", () => {
    expect(engine().diff(olds, { ...olds, description: "b" })).toMatchObject({
      changes: true,
      replaces: [],
      updates: ["description"],
    });
  });

  test("a replacing argument replaces", () => {
    expect(engine().diff(olds, { ...olds, cidr: "10.2.0.0/16" })).toMatchObject({ changes: true, replaces: ["cidr"] });
  });

  test("an unknown value is a change", () => {
    expect(engine().diff(olds, { ...olds, zoneUuid: UNKNOWN })).toMatchObject({
      changes: true,
      replaces: ["zoneUuid"],
    });
  });

  test("outputs are not arguments", () => {
    expect(
      engine().diff(olds, {
        name: "w",
        zoneUuid: "z",
        cidr: "10.0.0.0/16",
        description: "a",
      }).changes,
    ).toBe(false);
  });
});

/**
 * What an import's Read answers (import.ts): the arguments the record showed, and the marker naming
 * those it could not (here the required `cidr` and the optional `description`). Pulumi hands these
 * back as the olds of Check and Diff: `pulumi import` checks them against themselves; the `import`
 * option and the previews after either check and diff the program's inputs against them.
 */
describe("an import's marker of the arguments not read", () => {
  const read = { name: "w", zoneUuid: "z", [NOT_READ_ON_IMPORT]: ["cidr", "description"] };
  const outputs = { uuid: "id-1", state: "Running", [NOT_READ_ON_IMPORT]: ["cidr", "description"] };
  const program = { name: "w", zoneUuid: "z", cidr: "10.0.0.0/16", description: "a" };
  const { [NOT_READ_ON_IMPORT]: _marker, ...readWithoutMarker } = read;

  test("pulumi import: the read inputs pass Check against themselves, the marker no argument to refuse", () => {
    expect(engine().check(read, read).failures).toEqual([]);
  });

  test("a program's inputs never carry it: one that leaves out a required argument fails, naming it", () => {
    const required = [{ property: "cidr", reason: "is required" }];
    expect(engine().check(read, readWithoutMarker).failures).toEqual(required);
    expect(engine().check({}, readWithoutMarker).failures).toEqual(required);
    // Only both sides together say so: the marker in the news alone (or the olds alone) is not enough.
    expect(engine().check({}, read).failures).toEqual(required);
    expect(engine().check(read, { ...readWithoutMarker, [NOT_READ_ON_IMPORT]: ["description"] }).failures).toEqual(
      required,
    );
  });

  test("the marker excuses absence only: a bad value of an argument it names still fails", () => {
    expect(engine().check(read, { ...read, cidr: "10.0.0.1/16" }).failures).toMatchObject([{ property: "cidr" }]);
  });

  test("the import option: the program passes Check; Diff takes its values for those not read as no change", () => {
    expect(engine().check(read, program).failures).toEqual([]);
    expect(engine().diff(read, program, outputs)).toMatchObject({ changes: false, replaces: [], updates: [] });
    // The marker in the old inputs alone (the outputs without it) is enough, and the other way round
    // (a state written before the marker went into the inputs too).
    expect(engine().diff(read, program, {}).changes).toBe(false);
    expect(engine().diff(readWithoutMarker, program, outputs).changes).toBe(false);
    // The dynamic front end's olds are the outputs, which hold the inputs.
    expect(engine().diff({ ...outputs, ...readWithoutMarker }, program).changes).toBe(false);
  });

  test("without the marker, the same program replaces: it is what keeps the first diff quiet", () => {
    expect(engine().diff(readWithoutMarker, program, {})).toMatchObject({
      replaces: ["cidr"],
      updates: ["description"],
    });
  });

  test("an argument the record did show still diffs, and one the old inputs hold is compared as usual", () => {
    expect(engine().diff(read, { ...program, zoneUuid: "y" }, outputs).replaces).toEqual(["zoneUuid"]);
    const afterUp = { ...program, [NOT_READ_ON_IMPORT]: ["cidr", "description"] };
    expect(engine().diff(afterUp, { ...program, cidr: "10.2.0.0/16" }, outputs).replaces).toEqual(["cidr"]);
  });
});

test("customTimeouts durations", () => {
  expect(parseDuration("90s")).toBe(90_000);
  expect(parseDuration("1h30m")).toBe(5_400_000);
  expect(parseDuration("soon")).toBeUndefined();
  expect(parseDuration(undefined)).toBeUndefined();
});
