#!/usr/bin/env node
/**
 * Fails on any import cycle among the TypeScript files under a folder (src/ by default). Every
 * kind of import is an edge, because a cycle of types is still a cycle for a reader and for the
 * next refactor: `import`, `import type`, `export ... from`, `import x = require()`, `import()`
 * and `import("...").T` types. Relative specifiers resolve to files (`./x`, `./x.ts`, `./x.js`)
 * and to a folder's index.ts; packages are outside the graph.
 *
 *   node scripts/check-cycles.mjs                              # src/: exit 0 and a summary
 *   node scripts/check-cycles.mjs --root test/fixtures/cycles  # exit 1, lists the fixture's cycle
 *
 * With cycles it lists every elementary cycle (Johnson's algorithm), one chain `a -> b -> a` per
 * line, and exits 1. .ci/run runs both commands above; the fixture keeps the checker honest.
 *
 * For src/ it also checks the folder layering (docs/architecture.md "Layers"): each folder is a
 * room (`db`, `http`, `resources/prices`, …), the rooms form LAYERS, and a file may import
 * only from its own layer or one below; no two rooms may import each other, even through others;
 * a resource imports of another only its service, schemas, list or routes (RESOURCE_FACES).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"];
/** A listing past this many cycles would not help anyone; the count still says how bad it is. */
const MAX_LISTED = 200;

/**
 * The layers of src/, lowest first: a room imports only rooms of its own layer or lower ones.
 * A room is a file's first folder, or its first two under resources/; "." holds the
 * Worker's entry files.
 */
const LAYERS = [
  ["pricing"],
  ["core"],
  ["db"],
  ["list"],
  ["feed"],
  ["http"],
  ["webhooks"],
  ["resources/*"],
  ["resources"],
  ["doc"],
  ["jobs"],
  ["."],
];

/** The room of a file under src/. @param {string} path src-relative, "/"-separated */
function roomOf(path) {
  const parts = path.split("/");
  if (parts.length === 1) return ".";
  if (parts[0] === "resources" && parts.length > 2) {
    return `${parts[0]}/${parts[1] ?? ""}`;
  }
  return parts[0] ?? ".";
}

/** The layer index of a room, or -1 when LAYERS does not name it. @param {string} room */
const layerOf = (room) =>
  LAYERS.findIndex((layer) =>
    layer.some((name) =>
      name.endsWith("/*") ? room.startsWith(name.slice(0, -1)) : room === name,
    ),
  );

/**
 * What a resource may import of another (STYLE.md: "a resource folder is a room"): its service,
 * its schemas, its list configuration and its routes (for its tag); never its repository, its
 * handlers or its router.
 */
const RESOURCE_FACES = /\.(service|schemas|list|routes)\.ts$/;

/**
 * Layering faults: imports from a higher layer, rooms no layer names, cycles between rooms, and
 * imports of another resource's insides.
 * @param {Map<string, string[]>} graph @param {(file: string) => string} name
 */
function layerFaults(graph, name) {
  /** @type {string[]} */
  const faults = [];
  /** @type {Map<string, Set<string>>} */
  const rooms = new Map();
  for (const [file, targets] of graph) {
    const from = roomOf(name(file));
    if (layerOf(from) < 0) faults.push(`${name(file)}: its folder ${from} is in no layer`);
    const edges = rooms.get(from) ?? new Set();
    rooms.set(from, edges);
    for (const target of targets) {
      const to = roomOf(name(target));
      if (to === from) continue;
      edges.add(to);
      if (layerOf(to) > layerOf(from)) {
        faults.push(
          `${name(file)} -> ${name(target)}: ${from} may not import ${to}, a higher layer`,
        );
      }
      const resources = from.startsWith("resources/") && to.startsWith("resources/");
      if (resources && !RESOURCE_FACES.test(name(target))) {
        faults.push(
          `${name(file)} -> ${name(target)}: another resource's insides; import its service, schemas, list or routes`,
        );
      }
    }
  }
  const roomGraph = new Map([...rooms].map(([room, edges]) => [room, [...edges].sort()]));
  for (const cycle of elementaryCycles(roomGraph)) {
    faults.push(`folders import each other: ${cycle.join(" -> ")}`);
  }
  return faults;
}

/** The folder to check, or undefined when the arguments make no sense. @param {string[]} argv */
function rootOf(argv) {
  if (argv.length === 0) return resolve("src");
  if (argv.length !== 2 || argv[0] !== "--root" || !argv[1]) return undefined;
  const root = resolve(argv[1]);
  return existsSync(root) && statSync(root).isDirectory() ? root : undefined;
}

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return EXTENSIONS.some((ext) => entry.name.endsWith(ext)) ? [path] : [];
  });
}

/** Every module specifier a file names, type-only ones included. @param {string} file */
function specifiers(file) {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  /** @type {string[]} */
  const found = [];
  /** @param {ts.Node | undefined} node */
  const literal = (node) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node)) {
      if (ts.isExternalModuleReference(node.moduleReference)) {
        literal(node.moduleReference.expression);
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      literal(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      literal(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The file a relative specifier names, if it is one of `files`.
 * @param {string} from @param {string} spec @param {Set<string>} files
 */
function resolveSpecifier(from, spec, files) {
  if (!spec.startsWith("./") && !spec.startsWith("../")) return undefined;
  const base = resolve(from, "..", spec);
  const stem = base.replace(/\.(m|c)?jsx?$/, "");
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => stem + ext),
    ...EXTENSIONS.map((ext) => join(base, `index${ext}`)),
  ];
  return candidates.find((c) => files.has(c));
}

/** @param {string} root @returns {Map<string, string[]>} file -> the files it imports */
function importGraph(root) {
  const files = new Set(sourceFiles(root));
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  for (const file of [...files].sort()) {
    const targets = specifiers(file)
      .map((spec) => resolveSpecifier(file, spec, files))
      .filter((target) => target !== undefined);
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The strongly connected component holding `start` in the graph restricted to `allowed` (Tarjan).
 * @param {Map<string, string[]>} graph @param {Set<string>} allowed @param {string} start
 */
function componentOf(graph, allowed, start) {
  /** @type {Map<string, number>} */ const index = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {string[]} */ const stack = [];
  const onStack = new Set();
  /** @type {Set<string>} */ let found = new Set();
  /** @param {string} v */
  const connect = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!allowed.has(w)) continue;
      if (!index.has(w)) connect(w);
      if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    /** @type {Set<string>} */ const component = new Set();
    let w;
    do {
      w = /** @type {string} */ (stack.pop());
      onStack.delete(w);
      component.add(w);
    } while (w !== v);
    if (component.has(start)) found = component;
  };
  connect(start);
  return found;
}

/**
 * Every elementary cycle, each starting at its smallest file (Johnson's algorithm: a start only
 * looks at larger files, and blocked files are skipped until a cycle through them is possible).
 * @param {Map<string, string[]>} graph
 */
function elementaryCycles(graph) {
  const order = [...graph.keys()].sort();
  /** @type {string[][]} */
  const cycles = [];
  order.forEach((start, i) => {
    const component = componentOf(graph, new Set(order.slice(i)), start);
    const next = (/** @type {string} */ v) => (graph.get(v) ?? []).filter((w) => component.has(w));
    const blocked = new Set();
    /** @type {Map<string, Set<string>>} */ const blockedBy = new Map();
    /** @type {string[]} */ const path = [];
    /** @param {string} v */
    const unblock = (v) => {
      blocked.delete(v);
      for (const w of blockedBy.get(v) ?? []) if (blocked.has(w)) unblock(w);
      blockedBy.delete(v);
    };
    /** @param {string} v @returns {boolean} */
    const circuit = (v) => {
      let closed = false;
      path.push(v);
      blocked.add(v);
      for (const w of next(v)) {
        if (w === start) {
          cycles.push([...path, start]);
          closed = true;
        } else if (!blocked.has(w) && circuit(w)) closed = true;
      }
      if (closed) unblock(v);
      else for (const w of next(v)) blockedBy.set(w, (blockedBy.get(w) ?? new Set()).add(v));
      path.pop();
      return closed;
    };
    if (component.size > 1 || next(start).includes(start)) circuit(start);
  });
  return cycles;
}

function main() {
  const root = rootOf(process.argv.slice(2));
  // Not 1: a usage error must not pass for "cycles found".
  if (!root) {
    console.error("usage: node scripts/check-cycles.mjs [--root <existing folder>]");
    return 2;
  }
  const graph = importGraph(root);
  const name = (/** @type {string} */ file) => relative(root, file).split(sep).join("/");
  const shown = relative(process.cwd(), root) || ".";
  const cycles = elementaryCycles(graph);
  // The layering is src/'s own: a fixture has no layers.
  const faults = root === resolve("src") ? layerFaults(graph, name) : [];
  if (cycles.length === 0 && faults.length === 0) {
    const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
    console.log(
      `check-cycles: no import cycles in ${shown}/ (${graph.size} files, ${edges} import edges)` +
        (root === resolve("src") ? `; folders layered (${LAYERS.length} layers)` : ""),
    );
    return 0;
  }
  if (faults.length > 0) {
    console.error(`check-cycles: ${faults.length} layering fault(s) in ${shown}/:`);
    for (const fault of faults.slice(0, MAX_LISTED)) console.error(`  ${fault}`);
  }
  if (cycles.length === 0) return 1;
  console.error(
    `check-cycles: ${cycles.length} import cycle(s) in ${shown}/ (type imports count):`,
  );
  for (const cycle of cycles.slice(0, MAX_LISTED))
    console.error(`  ${cycle.map(name).join(" -> ")}`);
  if (cycles.length > MAX_LISTED) console.error(`  … and ${cycles.length - MAX_LISTED} more`);
  return 1;
}

process.exitCode = main();
