/** Listed records parsed once per process (provider/client/parsed-records.ts). */
import { z } from "zod";
import { ParsedRecords } from "../../../provider/client/parsed-records";

const schema = z.object({ uuid: z.string(), size: z.coerce.number(), tags: z.array(z.string()).default([]) });

function counting(records: ParsedRecords, target: z.ZodType = schema) {
  let parses = 0;
  const parse = (value: unknown) => {
    parses++;
    const parsed = target.safeParse(value);
    if (!parsed.success) throw new Error("bad record");
    return parsed.data;
  };
  return { parse: (value: unknown) => records.parse(target, value, parse), parses: () => parses };
}

test("a record of the same text is parsed once, and each caller gets its own objects", () => {
  const { parse, parses } = counting(new ParsedRecords());
  const first = parse({ uuid: "a", size: "10" }) as { tags: string[] };
  const second = parse({ uuid: "a", size: "10" }) as { tags: string[] };
  expect(second).toEqual({ uuid: "a", size: 10, tags: [] });
  expect(second).toEqual(first);
  expect(second).not.toBe(first);
  second.tags.push("changed");
  expect(parse({ uuid: "a", size: "10" })).toEqual({ uuid: "a", size: 10, tags: [] });
  expect(parses()).toBe(1);
  // Another text (a changed field) is parsed.
  expect(parse({ uuid: "a", size: "20" })).toEqual({ uuid: "a", size: 20, tags: [] });
  expect(parses()).toBe(2);
});

test("a failure is never kept, and another schema parses the same text itself", () => {
  const records = new ParsedRecords();
  const { parse, parses } = counting(records);
  expect(() => parse({ uuid: 1 })).toThrow("bad record");
  expect(() => parse({ uuid: 1 })).toThrow("bad record");
  expect(parses()).toBe(2);
  const other = counting(records, z.object({ uuid: z.string() }));
  parse({ uuid: "a", size: 1 });
  expect(other.parse({ uuid: "a", size: 1 })).toEqual({ uuid: "a" });
  expect(other.parses()).toBe(1);
});

test("what JSON cannot carry (a Date) is parsed each time; the oldest records go past the bound", () => {
  const records = new ParsedRecords(3);
  const dated = counting(records, z.object({ at: z.coerce.date() }));
  expect(dated.parse({ at: "2026-01-01" })).toEqual({ at: new Date("2026-01-01") });
  expect(dated.parse({ at: "2026-01-01" })).toBeInstanceOf(Object);
  expect(dated.parses()).toBe(2);
  const { parse, parses } = counting(records);
  for (const uuid of ["a", "b", "c", "d"]) parse({ uuid, size: 1 });
  expect(records.size).toBe(3);
  parse({ uuid: "d", size: 1 });
  expect(parses()).toBe(4);
  parse({ uuid: "a", size: 1 }); // dropped: parsed again
  expect(parses()).toBe(5);
});
