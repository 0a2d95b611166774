// A Pulumi project's Pulumi.yaml as the commands (discover, recover, cost) read it: where it is, the
// project's name and its runtime. A few keys only, read by pattern: no YAML parser is loaded for them.
import * as fs from "node:fs";
import * as path from "node:path";

/** The project file of `cwd` (Pulumi.yaml, else Pulumi.yml); undefined when `cwd` is no Pulumi project. */
export function pulumiProjectFile(cwd: string): string | undefined {
  return ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(cwd, f)).find((f) => fs.existsSync(f));
}

const read = (cwd: string): string => {
  const file = pulumiProjectFile(cwd);
  return file === undefined ? "" : fs.readFileSync(file, "utf8");
};

/** The project's `name:`; undefined when there is no project file or it names none. */
export function pulumiProjectName(cwd: string): string | undefined {
  const match = /^name:[ \t]*(?:"([^"]*)"|'([^']*)'|([^#\s][^#\n]*?))[ \t]*(?:#.*)?$/m.exec(read(cwd));
  return match?.[1] || match?.[2] || match?.[3] || undefined;
}

/** The project's runtime (`runtime: nodejs`, or `runtime:` with `name: python` below it); undefined when none. */
export function pulumiProjectRuntime(cwd: string): string | undefined {
  const text = read(cwd);
  const match =
    /^runtime:[ \t]*["']?([A-Za-z0-9_-]+)/m.exec(text) ??
    /^runtime:[ \t]*\n(?:[ \t]+.*\n)*?[ \t]+name:[ \t]*["']?([A-Za-z0-9_-]+)/m.exec(text);
  return match?.[1];
}
