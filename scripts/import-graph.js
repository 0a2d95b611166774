// Prints the imports between provider/'s folders, with counts, so the layering can be seen:
//
//   node scripts/import-graph.js          the graph (`npm run graph`)
//   node scripts/import-graph.js --check  also exits 1 on a broken layering rule or a cycle between groups
//
// A group is a folder of provider/ (client/operations counts as client), or a top-level file by name,
// or a process entry point by name (ENTRY_POINTS).
// Counted: every import, export-from, require("...") and import("...") with a literal path, type-only
// ones too (marked). A require by the package's own name (pulumi-restcloud/dist/provider/...) is how the
// dynamic shim, serialized into state, loads its runtime in the provider process: it is listed apart,
// and left out of the cycles, since no process loads both ends through it. madge (`npm run
// lint:cycles`) finds cycles between files; this finds them between groups, and checks the rules below.
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const root = path.join(__dirname, "..", "provider");
const SELF = "pulumi-restcloud/dist/provider/";

/**
 * Files that start a process and hand it the registry, kept apart from their folder: the dynamic
 * provider process starts at dynamic/runtime.ts because every dynamic resource's state names that path.
 */
const ENTRY_POINTS = ["dynamic/runtime.ts"];

/** What a group must not import: the layering of shared/design.md ("Data flow"). */
const RULES = [
  { from: "engine", mustNot: ["dynamic", "native", "program", "resources", "native-plugin.ts", "wire.ts"] },
  { from: "client", mustNot: ["engine", "settings.ts", "resources", "dynamic", "native", "program"] },
  { from: "dynamic", mustNot: ["resources", "native", "program"] },
  { from: "native", mustNot: ["resources", "dynamic", "program"] },
  // Provider processes load the declarations, never the classes a program constructs.
  { from: "resources", mustNot: ["program", "dynamic", "native", "discover", "recover", "cost", "schema"] },
  // Prices are a facet of the declarations: resources import pricing, so it sits below them and the tools.
  {
    from: "pricing",
    mustNot: ["resources", "cost", "discover", "recover", "program", "schema", "dynamic", "native"],
  },
];

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function groupOf(file) {
  // "client" for provider/client/operations/jobs.ts, "settings.ts" for provider/settings.ts.
  const relative = path.relative(root, file).split(path.sep).join("/");
  return ENTRY_POINTS.includes(relative) ? relative : relative.split("/")[0];
}

/** The provider file a specifier names, or undefined for a package or a file outside provider/. */
function resolve(fromFile, specifier) {
  let base;
  if (specifier.startsWith(".")) base = path.resolve(path.dirname(fromFile), specifier);
  else if (specifier.startsWith(SELF)) base = path.join(root, specifier.slice(SELF.length));
  else return undefined;
  base = base.replace(/\.js$/, "");
  for (const candidate of [`${base}.ts`, path.join(base, "index.ts")]) {
    if (candidate.startsWith(root + path.sep) && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Each import of a file: its specifier, and whether it is erased at compile time (type only). */
function importsOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      ts.isStringLiteralLike(node.initializer) &&
      node.initializer.text.startsWith(SELF)
    ) {
      // A module name kept in a constant and required later (dynamic/shim.ts).
      found.push({ specifier: node.initializer.text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Imports between groups: "from -> to" to counts (a file importing another twice counts once). */
function groupEdges() {
  const edges = new Map();
  for (const file of sourceFiles(root)) {
    const seen = new Map();
    for (const { specifier, typeOnly } of importsOf(file)) {
      const target = resolve(file, specifier);
      if (!target) continue;
      const previous = seen.get(target) ?? { typeOnly: true, byName: true };
      seen.set(target, {
        typeOnly: previous.typeOnly && typeOnly,
        byName: previous.byName && specifier.startsWith(SELF),
      });
    }
    for (const [target, { typeOnly, byName }] of seen) {
      const from = groupOf(file);
      const to = groupOf(target);
      if (from === to) continue;
      const key = `${from} -> ${to}${byName ? " (by name)" : ""}`;
      const edge = edges.get(key) ?? { from, to, byName, files: 0, typeOnly: 0 };
      edge.files += 1;
      if (typeOnly) edge.typeOnly += 1;
      edges.set(key, edge);
    }
  }
  return [...edges.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/** Groups that reach each other (Tarjan's strongly connected components), each of more than one group. */
function cycles(edges) {
  const next = new Map();
  for (const { from, to, byName } of edges) if (!byName) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  const connect = (group) => {
    index.set(group, counter);
    low.set(group, counter);
    counter += 1;
    stack.push(group);
    onStack.add(group);
    for (const to of next.get(group) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(group, Math.min(low.get(group), low.get(to)));
      } else if (onStack.has(to)) low.set(group, Math.min(low.get(group), index.get(to)));
    }
    if (low.get(group) === index.get(group)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== group);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const group of [...next.keys()].sort()) if (!index.has(group)) connect(group);
  return components;
}

const edges = groupEdges();
const groups = [...new Set(sourceFiles(root).map(groupOf))].sort();
console.log(`provider/: ${groups.length} groups (folders; top-level files and entry points by name)`);
console.log("Imports between groups (files importing; 'type' = of those, type-only imports, erased at build):");
for (const group of groups) {
  const out = edges.filter((edge) => edge.from === group);
  const targets = out.map(
    (edge) =>
      `${edge.to} ${edge.files}${edge.typeOnly ? ` (${edge.typeOnly} type)` : ""}${edge.byName ? " (by name, in the provider process)" : ""}`,
  );
  console.log(`  ${group.padEnd(18)} -> ${targets.length ? targets.join(", ") : "(nothing)"}`);
}

const broken = RULES.flatMap((rule) =>
  edges
    .filter((edge) => edge.from === rule.from && rule.mustNot.includes(edge.to))
    .map((edge) => `${edge.from} imports ${edge.to} (${edge.files} file(s))`),
);
const loops = cycles(edges);
console.log("Layering rules:");
for (const rule of RULES) console.log(`  ${rule.from} must not import ${rule.mustNot.join(", ")}`);
console.log(broken.length ? `Broken:\n${broken.map((line) => `  ${line}`).join("\n")}` : "Broken: none");
console.log(
  loops.length
    ? `Cycles between groups:\n${loops.map((c) => `  ${c.join(" <-> ")}`).join("\n")}`
    : "Cycles between groups: none",
);
if (process.argv.includes("--check") && (broken.length || loops.length)) process.exit(1);
