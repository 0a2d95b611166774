/**
 * The examples of the reference docs compile, as a user's program would, against the package's
 * own sources (`pulumi-restcloud` mapped to provider/index.ts): argument names and types, the
 * output the example exports, the function calls and their answers.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { currentModel, repoRoot } from "../../../provider/schema/generate";
import { referenceDocs } from "../../../provider/schema/markdown";

jest.setTimeout(120_000);

const root = repoRoot(__dirname);

test("every example of docs/ type-checks against the package", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-doc-examples-"));
  try {
    const files: string[] = [];
    for (const [page, text] of referenceDocs(currentModel(root))) {
      const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
      blocks.forEach((code, i) => {
        const file = path.join(dir, `${page.replace(/[/.]/g, "_")}_${i}.ts`);
        fs.writeFileSync(file, code);
        files.push(file);
      });
    }
    expect(files.length).toBeGreaterThan(0);
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      esModuleInterop: true,
      types: ["node"],
      typeRoots: [path.join(root, "node_modules", "@types")],
      paths: {
        "pulumi-restcloud": [path.join(root, "provider", "index.ts")],
        "*": [path.join(root, "node_modules", "*")],
      },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.includes(d.file.fileName))
      .map((d) => {
        const where = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        const message = ts.flattenDiagnosticMessageText(d.messageText, " ");
        return `${path.basename(d.file!.fileName)}:${where.line + 1}: ${message}`;
      });
    expect(problems).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
