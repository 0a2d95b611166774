/**
 * The native plugin's bad-argument messages name the field as the schema spells it and, after the
 * reason, as the Python and Go SDKs do (provider/native/server.ts: otherSpellings). Those spellings
 * must be the generated SDKs' own: for every argument of every resource and function in
 * schema.json, the Python keyword and the Go field that otherSpellings names are in sdk/python and
 * sdk/go.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { otherSpellings } from "../../../provider/native/server";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties?: Record<string, unknown> }>;
  functions: Record<string, { inputs?: { properties?: Record<string, unknown> } }>;
};

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** [token's name, argument] of every resource and function argument. */
const ARGUMENTS: [string, string][] = [
  ...Object.entries(schema.resources).flatMap(([token, r]) =>
    Object.keys(r.inputProperties ?? {}).map((arg): [string, string] => [token.split(":")[2]!, arg]),
  ),
  ...Object.entries(schema.functions).flatMap(([token, f]) =>
    Object.keys(f.inputs?.properties ?? {}).map((arg): [string, string] => [token.split(":")[2]!, arg]),
  ),
];

test("the schema has arguments to check", () => {
  expect(ARGUMENTS.length).toBeGreaterThan(50);
});

test.each(ARGUMENTS)("%s.%s: the Python and Go spellings named are the SDKs'", (kind, arg) => {
  const python = fs.readFileSync(path.join(ROOT, "sdk", "python", "pulumi_restcloud", `${snake(kind)}.py`), "utf8");
  const go = fs.readFileSync(path.join(ROOT, "sdk", "go", "restcloud", `${lowerFirst(kind)}.go`), "utf8");
  const spelled = /^ \(Python: (\S+), Go: (\S+)\)$/.exec(otherSpellings(arg));
  // A name of one lowercase word is spelt alike in Python (and capitalised in Go): nothing added.
  const [pythonName, goName] = spelled ? [spelled[1]!, spelled[2]!] : [arg, arg.charAt(0).toUpperCase() + arg.slice(1)];
  if (!spelled) expect(arg).toMatch(/^[a-z0-9]+$/);
  expect(python).toMatch(new RegExp(`\\b${pythonName}: `));
  expect(go).toMatch(new RegExp(`\\t${goName} `));
});

test("a nested path is spelt segment by segment; a one-word name gets no addition", () => {
  expect(otherSpellings("rules.0.startPort")).toBe(" (Python: rules.0.start_port, Go: Rules.0.StartPort)");
  expect(otherSpellings("cidr")).toBe("");
  expect(otherSpellings("(arguments)")).toBe("");
});
