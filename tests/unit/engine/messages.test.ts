/**
 * Messages in one voice: every argument of every resource and every function is fed values at and
 * past its boundaries (wrong types, numbers below and above the range and fractional, empty and
 * over-long strings, malformed formats, unknown enum values, bad list items and nested fields), and
 * no message that comes out is one of zod's own ("Too big: expected number to be <=128", "Invalid
 * input: expected string, received number"): each is the project's, naming what is allowed. The
 * values go through the same paths as in a program: the engine's check for resources, the function
 * itself for functions.
 */
import type { z } from "zod";
import { Engine } from "../../../provider/engine/engine";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { FUNCTIONS } from "../../../provider/functions/registry";
import * as functions from "../../../provider/functions";
import type { RestCloudClient } from "../../../provider/client";

/** What zod's English locale says: the start of each of its messages, and its comparison forms. */
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized|Expected)\b|[<>]=?\s?-?\d|expected \w+, received/;

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  checks?: { _zod: { def: { check?: string; value?: number; minimum?: number; maximum?: number } } }[];
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  valueType?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;

/** Through optional, default, nullable, readonly and pipes, to the schema that validates. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(current);
    const next = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
    if (!next) break;
    current = next;
  }
  return current;
}

/** Values at and past the boundaries the schema declares, and of every wrong type. */
function badValues(schema: z.ZodType, depth = 0): unknown[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  const wrongTypes = [42, "text", true, [1], { a: 1 }, null];
  switch (def.type) {
    case "string": {
      const values: unknown[] = [42, true, [], {}, "", " ", "%% not valid %%", "x".repeat(300)];
      for (const c of checks) {
        if (c.check === "min_length" && c.minimum !== undefined) values.push("x".repeat(Math.max(0, c.minimum - 1)));
        if (c.check === "max_length" && c.maximum !== undefined) values.push("x".repeat(c.maximum + 1));
      }
      return values;
    }
    case "number": {
      const values: unknown[] = ["12", true, [], 0.5, -1e9, 1e9, Infinity, 0, -1];
      for (const c of checks) {
        if (c.check === "greater_than" && c.value !== undefined) values.push(c.value - 1, c.value);
        if (c.check === "less_than" && c.value !== undefined) values.push(c.value + 1, c.value);
      }
      return values;
    }
    case "boolean":
      return ["yes", 1, []];
    case "enum":
    case "literal":
      return ["NOT-AN-OPTION", 7, "tcp"];
    case "array": {
      const values: unknown[] = ["x", {}];
      if (def.element && depth < 3) values.push(...badValues(def.element, depth + 1).map((item) => [item]));
      for (const c of checks) {
        if (c.check === "min_length" && c.minimum !== undefined) values.push([]);
        if (c.check === "max_length" && c.maximum !== undefined) values.push(Array(c.maximum + 1).fill("x"));
      }
      return values;
    }
    case "object": {
      const values: unknown[] = ["x", 7, []];
      if (depth < 3) {
        for (const [key, field] of Object.entries(def.shape ?? {})) {
          values.push(...badValues(field, depth + 1).map((v) => ({ [key]: v })));
        }
      }
      return values;
    }
    case "union":
      return [...wrongTypes, "NOT-AN-OPTION", ...(def.options ?? []).flatMap((o) => badValues(o, depth + 1))];
    case "record":
      return ["x", { key: 7 }, ...(def.valueType ? badValues(def.valueType, depth + 1).map((v) => ({ key: v })) : [])];
    default:
      return wrongTypes;
  }
}

/** The allowed values of an enum argument, when it is one. */
function enumOptions(schema: z.ZodType): string[] | undefined {
  const def = defOf(unwrap(schema));
  return def.type === "enum" && def.entries ? Object.values(def.entries).map(String) : undefined;
}

const show = (value: unknown) =>
  typeof value === "string" && value.length > 20 ? `"${value.slice(0, 8)}..."` : JSON.stringify(value);

describe("resource arguments", () => {
  test.each(DECLARATIONS.map((d) => [d.type, d] as const))("%s: no message of zod's own", (_type, declaration) => {
    const engine = new Engine(declaration, {
      client: () => {
        throw new Error("check needs no client");
      },
      settings: () => ({ zoneUuid: "zone-1" }),
    });
    const shape = declaration.inputs.shape as Record<string, z.ZodType>;
    const wrong: string[] = [];
    let fed = 0;
    for (const [field, schema] of Object.entries(shape)) {
      for (const value of badValues(schema)) {
        fed++;
        const { failures } = engine.check({}, { [field]: value });
        for (const f of failures) {
          if (ZOD_DEFAULT.test(f.reason)) wrong.push(`${field} = ${show(value)}: ${f.property}: ${f.reason}`);
        }
        const options = enumOptions(schema);
        const own = failures.find((f) => f.property === field);
        if (options && own && typeof value === "string" && !options.every((o) => own.reason.includes(o))) {
          wrong.push(`${field} = ${show(value)}: "${own.reason}" does not name ${options.join(", ")}`);
        }
      }
    }
    expect(fed).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });

  test("a range is named whole, whichever end is crossed", () => {
    const volume = DECLARATIONS.find((d) => d.type === "Instance")!;
    const engine = new Engine(volume, { client: () => ({}) as RestCloudClient, settings: () => ({ zoneUuid: "z" }) });
    const reason = (cpuCore: unknown) =>
      engine.check({}, { cpuCore, memory: 1024 }).failures.find((f) => f.property === "cpuCore")?.reason;
    expect(reason(0)).toBe("must be a whole number from 1 to 128");
    expect(reason(129)).toBe("must be a whole number from 1 to 128");
    expect(reason(1.5)).toBe("must be a whole number from 1 to 128");
    expect(reason("2")).toBe("must be a whole number from 1 to 128, not a string");
  });
});

describe("function arguments", () => {
  const client = {} as RestCloudClient; // never reached: every case fails validation first, or is ignored
  const callable = functions as unknown as Record<string, (args: unknown, options: unknown) => Promise<unknown>>;

  test.each(FUNCTIONS.map((f) => [f.name, f] as const))("%s: no message of zod's own", async (name, declaration) => {
    const fn = callable[name];
    expect(typeof fn).toBe("function");
    const shape = declaration.inputs.shape as Record<string, z.ZodType>;
    const wrong: string[] = [];
    for (const [field, schema] of Object.entries(shape)) {
      for (const value of badValues(schema)) {
        const message = await fn({ [field]: value }, { client, zoneUuid: "zone-1" }).then(
          () => "",
          (error: Error) => error.message,
        );
        if (!message.includes("invalid arguments:")) continue; // accepted: the call went on to the client
        const reasons = message.slice(message.indexOf("invalid arguments:") + "invalid arguments:".length);
        for (const reason of reasons.split("; ").map((r) => r.slice(r.indexOf(":") + 1).trim())) {
          if (ZOD_DEFAULT.test(reason)) wrong.push(`${field} = ${show(value)}: ${reason}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  test("an unknown argument is named, with the function", async () => {
    await expect(functions.getZone({ nameRgex: "x" } as never, { client })).rejects.toThrow(
      "restcloud.getZone: invalid arguments: nameRgex: is not an argument of getZone",
    );
  });
});
