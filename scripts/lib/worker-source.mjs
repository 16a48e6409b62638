/**
 * The Worker's source: src/ without the words of its OpenAPI document (docs/performance.md "The
 * Worker bundle", docs/architecture.md §1.2). Route files and schemas are written once, with their
 * descriptions and examples beside the code (CONTRIBUTING.md); /doc is generated from them under
 * Node at build time (scripts/lib/openapi-doc.mjs) and served as a static asset, so the Worker
 * needs none of those words. This module blanks them out of each file, keeping every line where
 * it was (the source maps of a deploy still point at the right line of src/), and every column but
 * where a value is wrapped (the last point):
 *
 * - in the object literals given to `.openapi(…)` (a schema's or a parameter's metadata), or to
 *   a helper that hands its object to `.openapi(…)` as it is (`METADATA_HELPERS`: `bulkBody`):
 *   the properties `description`, `summary`, `example` and `examples`, at any depth of nested
 *   object literals;
 * - in a route's object: `description` and `summary` at any depth of nested object literals, and
 *   `responses`, which only /doc reads (the Worker validates requests, not answers). A route's
 *   object is the one given to `createRoute(…)` or to a list's `.route(…)`, any object literal
 *   naming a `method`, a `path` and an `operationId` (a function that builds routes returns one),
 *   and the object arguments of the functions a `*.routes.ts` declares (route factories, such as
 *   change requests' `action(name, { summary, description, responses })`);
 * - in the object given to a route helper of src/http/ (`ROUTE_HELPER_WORDS`: `bulkUpsertRoute`,
 *   `assignmentRoutes`), the words it only writes into the route's summary and description;
 * - in `*.routes.ts`, the `description` of the resource's group, `export const tag = { … }` (the
 *   tags of /doc, src/resources/index.ts; the Worker reads only its `name`);
 * - in the files that declare values only (`PURE_FILES`: schemas, examples, routes and their
 *   shared helpers), each top-level value that is computed is wrapped in an arrow function called
 *   pure, `/* @__PURE__ *\/ (() => (value))()`, so a value nothing else uses (an answer's schema,
 *   an example, the examples of the problems) is left out of the bundle whole, however it is built
 *   (a pure mark on a call alone does not drop one whose arguments spread an object or call
 *   something); esbuild's minifier writes a kept one back as the value itself. Declaring a schema
 *   or a route has no effect besides the value.
 *
 * - in SQL (a template tagged `sql`, or given to `sql.raw(…)`), the indentation that starts each of
 *   its lines (outside SQL strings): whitespace to SQLite, some 0.4 KiB of the gzipped bundle. Its
 *   line breaks stay (a `--` comment ends at one), and so does every line.
 *
 * Values inside a call are never entered (`jsonBody(z.object({ description: … }))` keeps a field
 * named `description`), so what a request is validated against is exactly what the source says.
 * Used by scripts/worker-build.mjs (wrangler.toml `[build]`: `wrangler dev`, `wrangler deploy`,
 * `npm run build`) and by vitest.config.ts (the tests run the same text).
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

/** The words of /doc in a schema's or a parameter's `.openapi(…)` metadata. */
const METADATA_WORDS = new Set(["description", "summary", "example", "examples"]);
/** Functions of src/ that pass an object argument to `.openapi(…)` unchanged. */
const METADATA_HELPERS = new Set(["bulkBody"]);
/**
 * Route helpers of src/http/ given words only /doc reads beside the route's own (the owner's
 * rules, a bulk route's noun and example path: they go into its summary and description), at any
 * depth of their object argument.
 */
const ROUTE_HELPER_WORDS = new Map([
  ["bulkUpsertRoute", new Set(["noun", "example", "rules"])],
  ["assignmentRoutes", new Set(["rules"])],
]);
/** The words of /doc in a route's object; `responses` at its top level too. */
const ROUTE_WORDS = new Set(["description", "summary"]);
/** What only /doc reads at the top level of a route's object: its answers. */
const ROUTE_ONLY = new Set(["responses"]);

/** Files that declare a resource's routes and its group of /doc (`export const tag = { … }`). */
const ROUTE_FILES = /\.routes\.ts$/;

/**
 * Files whose top-level declarations build values only: schemas, examples, routes, and the
 * shared helpers of schemas and routes (src/core/schemas.ts, src/http/openapi.ts,
 * src/list/openapi.ts).
 */
const PURE_FILES =
  /([.-](schemas|examples|routes)\.ts|(^|\/)(core\/schemas|http\/openapi|list\/openapi)\.ts)$/;

/**
 * Whether `object` is a route's definition, wherever it is written (a function that builds routes
 * returns one): it names the route's `method`, `path` and `operationId`.
 * @param {ts.ObjectLiteralExpression} object
 */
function isRouteDefinition(object) {
  const keys = new Set(object.properties.map(keyOf));
  return keys.has("method") && keys.has("path") && keys.has("operationId");
}

/**
 * Whether a declaration's value is computed when the module loads (a call, an object or array
 * built of anything), rather than written out (a literal, a name) or a function.
 * @param {ts.Expression} init
 */
function computed(init) {
  return !(
    ts.isLiteralExpression(init) ||
    ts.isIdentifier(init) ||
    ts.isArrowFunction(init) ||
    ts.isFunctionExpression(init) ||
    init.kind === ts.SyntaxKind.TrueKeyword ||
    init.kind === ts.SyntaxKind.FalseKeyword ||
    init.kind === ts.SyntaxKind.NullKeyword
  );
}

/** @param {ts.ObjectLiteralElementLike} property */
function keyOf(property) {
  const name = property.name;
  if (!name) return undefined;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/**
 * `text` (the TypeScript source of `file`) as the Worker bundles it.
 * @param {string} text
 * @param {string} file
 * @returns {string}
 */
export function workerSource(text, file) {
  const pure = PURE_FILES.test(file);
  if (
    !pure &&
    !/\.openapi\(|createRoute\(|\.route\(\s*\{|bulkBody\(|operationId|\bsql(`|\.raw\(`)/.test(text)
  ) {
    return text;
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  /** @type {Array<[start: number, end: number]>} */
  const blanks = [];
  /** @type {Array<[at: number, text: string]>} */
  const inserts = [];
  /** @type {Array<[start: number, end: number]>} */
  const cuts = [];

  /**
   * The indentation of each line of a template literal's text (`node`): cut.
   * @param {ts.Node} node
   */
  const unindent = (node) => {
    const parts = ts.isTemplateExpression(node)
      ? [node.head, ...node.templateSpans.map((span) => span.literal)]
      : ts.isNoSubstitutionTemplateLiteral(node)
        ? [node]
        : [];
    for (const part of parts) {
      const start = part.getStart(source);
      const literal = text.slice(start, part.end);
      for (const { index, 1: indent = "" } of literal.matchAll(/\n([ \t]+)/g)) {
        // Not inside an SQL string: its text is data.
        if ((literal.slice(0, index).match(/'/g)?.length ?? 0) % 2) continue;
        cuts.push([start + index + 1, start + index + 1 + indent.length]);
      }
    }
  };

  /**
   * The functions a `*.routes.ts` file declares at its top level: route factories, whose object
   * arguments are a route's object, or part of one.
   * @type {Set<string>}
   */
  const factories = new Set();
  if (ROUTE_FILES.test(file)) {
    for (const statement of source.statements) {
      if (ts.isFunctionDeclaration(statement) && statement.name) {
        factories.add(statement.name.text);
      } else if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          const init = declaration.initializer;
          if (
            ts.isIdentifier(declaration.name) &&
            init &&
            (ts.isArrowFunction(init) || ts.isFunctionExpression(init))
          ) {
            factories.add(declaration.name.text);
          }
        }
      }
    }
  }

  /**
   * @param {ts.ObjectLiteralExpression} object
   * @param {Set<string>} words
   * @param {boolean} route the top level of a route's object
   */
  const strip = (object, words, route) => {
    const properties = object.properties;
    properties.forEach((property, i) => {
      const key = keyOf(property);
      const named = ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property);
      if (named && key !== undefined && (words.has(key) || (route && ROUTE_ONLY.has(key)))) {
        // The property and the comma after it (up to the next property), or, last, itself and
        // its trailing comma.
        const next = properties[i + 1];
        const end = next
          ? next.getStart(source)
          : properties.hasTrailingComma
            ? text.indexOf(",", property.end) + 1
            : property.end;
        blanks.push([property.getStart(source), end]);
      } else if (
        ts.isPropertyAssignment(property) &&
        ts.isObjectLiteralExpression(property.initializer)
      ) {
        strip(property.initializer, words, false);
      }
    });
  };

  /** @param {ts.Node} node */
  const visit = (node) => {
    if (
      ts.isTaggedTemplateExpression(node) &&
      ts.isIdentifier(node.tag) &&
      node.tag.text === "sql"
    ) {
      unindent(node.template);
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (
        ts.isPropertyAccessExpression(callee) &&
        callee.name.text === "raw" &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === "sql"
      ) {
        node.arguments.forEach(unindent);
      }
      const metadata =
        (ts.isPropertyAccessExpression(callee) && callee.name.text === "openapi") ||
        (ts.isIdentifier(callee) && METADATA_HELPERS.has(callee.text));
      const route =
        (ts.isIdentifier(callee) &&
          (callee.text === "createRoute" || factories.has(callee.text))) ||
        (ts.isPropertyAccessExpression(callee) && callee.name.text === "route");
      if (ts.isIdentifier(callee) && ROUTE_HELPER_WORDS.has(callee.text)) {
        for (const argument of node.arguments) {
          if (ts.isObjectLiteralExpression(argument)) {
            strip(
              argument,
              /** @type {Set<string>} */ (ROUTE_HELPER_WORDS.get(callee.text)),
              false,
            );
          }
        }
      } else if (metadata || route) {
        for (const argument of node.arguments) {
          if (ts.isObjectLiteralExpression(argument)) {
            strip(argument, metadata ? METADATA_WORDS : ROUTE_WORDS, route);
          }
        }
      }
    }
    if (ts.isObjectLiteralExpression(node) && isRouteDefinition(node))
      strip(node, ROUTE_WORDS, true);
    ts.forEachChild(node, visit);
  };
  visit(source);

  if (ROUTE_FILES.test(file)) {
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer;
        if (
          ts.isIdentifier(declaration.name) &&
          declaration.name.text === "tag" &&
          init &&
          ts.isObjectLiteralExpression(init)
        ) {
          strip(init, ROUTE_WORDS, false);
        }
      }
    }
  }

  if (pure) {
    // Each declaration's value as a call marked pure of a function that computes it, which
    // esbuild's minifier writes back as the value itself when it is kept.
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer;
        if (!init || !computed(init)) continue;
        inserts.push([init.getStart(source), "/* @__PURE__ */ (() => ("], [init.end, "))()"]);
      }
    }
  }
  // Nothing is marked inside what is blanked.
  const marked = inserts.filter(([at]) => !blanks.some(([start, end]) => at > start && at < end));
  if (!blanks.length && !marked.length && !cuts.length) return text;

  // Right to left, so earlier offsets stay valid. A blank keeps its line breaks.
  /** @type {Array<{ at: number, apply: (s: string) => string }>} */
  const edits = [
    ...blanks.map(([start, end]) => ({
      at: start,
      apply: (/** @type {string} */ s) =>
        s.slice(0, start) + s.slice(start, end).replace(/[^\n\r]/g, " ") + s.slice(end),
    })),
    ...cuts.map(([start, end]) => ({
      at: start,
      apply: (/** @type {string} */ s) => s.slice(0, start) + s.slice(end),
    })),
    ...marked.map(([at, by]) => ({
      at,
      apply: (/** @type {string} */ s) => `${s.slice(0, at)}${by}${s.slice(at)}`,
    })),
  ].sort((a, b) => b.at - a.at);
  return edits.reduce((s, edit) => edit.apply(s), text);
}

/**
 * Writes `text` to `file` through a new file renamed over it, so a build reading it meanwhile
 * (another `wrangler` run, the tests) sees the old text or the new one, never half of it.
 * @param {string} file
 * @param {string} text
 */
export function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * Writes the Worker's source of every file under `from` to the same path under `to` (a file
 * whose text is unchanged is not rewritten, so `wrangler dev` rebuilds only after a real change),
 * and removes from `to` what `from` no longer has.
 * @param {string} from
 * @param {string} to
 * @returns {number} the number of files written
 */
export function writeWorkerSource(from, to) {
  const files = readdirSync(from, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(from, join(entry.parentPath, entry.name)));
  const wanted = new Set(files);
  let written = 0;
  for (const file of files) {
    const text = readFileSync(join(from, file), "utf8");
    const out = file.endsWith(".ts") ? workerSource(text, file) : text;
    const target = join(to, file);
    if (existsSync(target) && readFileSync(target, "utf8") === out) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeAtomically(target, out);
    written++;
  }
  if (existsSync(to)) {
    for (const entry of readdirSync(to, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = relative(to, join(entry.parentPath, entry.name));
      if (!wanted.has(file) && !file.endsWith(".tmp")) rmSync(join(to, file), { force: true });
    }
  }
  return written;
}
