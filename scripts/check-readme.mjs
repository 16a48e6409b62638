#!/usr/bin/env node
/**
 * `npm run docs:check`: the tables of the docs that list operations are generated from the
 * OpenAPI document the Worker serves at /doc, so they list every operation and cannot drift from
 * the code:
 *
 * - README.md, between `<!-- endpoints:start -->` and `<!-- endpoints:end -->`: one small table
 *   per tag of /doc (in the document's tag order), one row per operation (method, path, summary,
 *   role);
 * - docs/list-queries.md §10, between `<!-- lists:start -->` and `<!-- lists:end -->`: one row per
 *   list endpoint (a GET with `sortBy`), with its sorts, search fields, filters and `select`, read
 *   off the parameters the list engine documents (src/list/openapi.ts).
 *
 * The document is built in-process, as `client:generate` does.
 *
 *   --check        do not write; exit 1 if a block differs from what /doc gives
 *   --write        rewrite the blocks (the default when neither flag is given; wins over --check,
 *                  so `npm run docs:check -- --write` writes)
 *   --url <base>   read <base>/doc of a running service instead
 *
 * Each file goes through prettier before the blocks are compared, so the committed files are
 * exactly what `npm run lint` accepts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import * as prettier from "prettier";
import { documentFromSource, documentFromUrl, ROOT } from "./lib/openapi-doc.mjs";

/** @typedef {{ name: string, description?: string, schema?: { items?: { enum?: string[] } }, example?: unknown }} Parameter */
/** @typedef {{ operationId?: string, summary?: string, tags?: string[], responses?: Record<string, unknown>, parameters?: Parameter[], "x-roles"?: string[] }} Operation */
/** @typedef {{ method: string, path: string, operation: Operation }} Entry */

const METHODS = ["get", "put", "post", "patch", "delete"];

/**
 * Writes that only read: a POST because its body is long (a cart), callable with a read key.
 * Every other operation's role is derived from /doc: documenting a 403 means "admin only".
 */
const READ_ONLY_WRITES = new Set(["resolvePrices"]);

/**
 * `admin` when the operation documents a 403 (a read key is refused), else `read`; a write that
 * other roles than admin may make names them in `x-roles` (quotes: `admin, sales` or
 * `admin, read`, docs/quotes.md §1), shown as they are. A write that documents no 403 must be a
 * known read-only one, so a forgotten 403 fails here instead of showing a write as callable with
 * a read key.
 * @param {Entry} entry
 * @returns {string}
 */
function roleOf({ method, path, operation }) {
  const roles = /** @type {{ "x-roles"?: string[] }} */ (operation)["x-roles"];
  if (roles) return roles.join(", ");
  const refusesReadKeys = Object.hasOwn(operation.responses ?? {}, "403");
  const readOnly = method === "get" || READ_ONLY_WRITES.has(operation.operationId ?? "");
  const name = `${method.toUpperCase()} ${path} (${operation.operationId})`;
  if (!refusesReadKeys && !readOnly) {
    throw new Error(`${name} documents no 403 but is a write: add 403 to its responses`);
  }
  if (refusesReadKeys && READ_ONLY_WRITES.has(operation.operationId ?? "")) {
    throw new Error(`${name} documents a 403: remove it from READ_ONLY_WRITES in this script`);
  }
  return refusesReadKeys ? "admin" : "read";
}

/** Table cells hold no line breaks and no bare pipes. */
const cell = (/** @type {string} */ text) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|");

/**
 * Every operation of /doc, in its order.
 * @param {import("openapi-typescript").OpenAPI3} doc
 * @returns {Entry[]}
 */
function operationsOf(doc) {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = /** @type {Operation | undefined} */ (
        /** @type {Record<string, unknown>} */ (item)[method]
      );
      return operation ? [{ method, path, operation }] : [];
    }),
  );
}

/**
 * README's block: the endpoint table (unformatted; prettier aligns it).
 * @param {import("openapi-typescript").OpenAPI3} doc
 * @returns {string}
 */
function endpointTable(doc) {
  /** @type {Map<string, Entry[]>} */
  const byTag = new Map((doc.tags ?? []).map((tag) => [tag.name, []]));
  for (const entry of operationsOf(doc)) {
    const { method, path, operation } = entry;
    if (!operation.summary) throw new Error(`${method.toUpperCase()} ${path} has no summary`);
    const tag = operation.tags?.[0] ?? "Other";
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag)?.push(entry);
  }
  const descriptions = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
  const sections = [];
  for (const [tag, entries] of byTag) {
    if (entries.length === 0) continue;
    const description = descriptions.get(tag);
    const rows = entries.map(
      (entry) =>
        `| ${entry.method.toUpperCase()} | \`${entry.path}\` | ${cell(entry.operation.summary ?? "")} | ${roleOf(entry)} |`,
    );
    sections.push(
      [
        `**${tag}**${description ? `: ${cell(description)}` : ""}`,
        "",
        "| method | path | summary | role |",
        "| --- | --- | --- | --- |",
        ...rows,
      ].join("\n"),
    );
  }
  return sections.join("\n\n");
}

const code = (/** @type {string} */ text) => `\`${text}\``;

/**
 * What a list parameter's description says after `label` (up to the sentence's end).
 * @param {Parameter | undefined} parameter @param {RegExp} pattern
 */
const said = (parameter, pattern) => parameter?.description?.match(pattern)?.[1];

/**
 * One filter as the table shows it: its field, its type when not text, its operators.
 * @param {Parameter} parameter
 */
function filterCell(parameter) {
  const field = parameter.name.slice("filter.".length);
  const type = said(parameter, /^Filter on \S+ \(([^)]*)\)/) ?? "text";
  const shown = type === "text" ? "" : type.startsWith("one of") ? "enum; " : `${type}; `;
  return `${code(field)} (${shown}${said(parameter, /Allowed: ([^.]*)\./) ?? "$eq"})`;
}

/**
 * docs/list-queries.md's block: one row per list endpoint (unformatted; prettier aligns it).
 * @param {import("openapi-typescript").OpenAPI3} doc
 * @returns {string}
 */
function listTable(doc) {
  const rows = operationsOf(doc).flatMap((entry) => {
    const parameters = new Map((entry.operation.parameters ?? []).map((p) => [p.name, p]));
    const sortBy = parameters.get("sortBy");
    if (entry.method !== "get" || !sortBy) return [];
    const fields = (/** @type {string} */ list) => list.split(", ").map(code).join(", ");
    const sorts = [
      ...new Set((sortBy.schema?.items?.enum ?? []).map((term) => term.split(":")[0] ?? term)),
    ];
    const [byDefault] = /** @type {string[]} */ (sortBy.example ?? []);
    const searchBy = parameters.get("searchBy");
    const search = searchBy
      ? `${(searchBy.schema?.items?.enum ?? []).map(code).join(", ")} (${fields(said(searchBy, /default: (.*)\.$/) ?? "")})`
      : "–";
    const filters = [...parameters.values()].filter((p) => p.name.startsWith("filter."));
    const select = said(parameters.get("select"), /\(id is always included\): (.*?)\.(?: |$)/);
    const admin = roleOf(entry) === "admin" ? " (admin keys only)" : "";
    return [
      `| \`GET ${entry.path}\`${admin} | ${sorts.map(code).join(", ")}; default ${code(byDefault ?? "")} | ${search} | ${filters.map(filterCell).join(", ") || "–"} | ${select ? fields(select) : "–"} |`,
    ];
  });
  return [
    "| endpoint | sortBy | search (default fields) | filters (operators) | select |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** The generated blocks: where each one sits, and what /doc makes of it. */
const BLOCKS = [
  {
    file: join(ROOT, "README.md"),
    name: "the endpoint table",
    start: "<!-- endpoints:start -->",
    end: "<!-- endpoints:end -->",
    build: endpointTable,
    count: (/** @type {string} */ table) =>
      `${table.split("\n").filter((line) => /^\| [A-Z]+ \|/.test(line)).length} operations`,
  },
  {
    file: join(ROOT, "docs", "list-queries.md"),
    name: "the list endpoints table (§10)",
    start: "<!-- lists:start -->",
    end: "<!-- lists:end -->",
    build: listTable,
    count: (/** @type {string} */ table) => `${table.split("\n").length - 2} lists`,
  },
];

/**
 * The text between the markers, or an error naming what is missing.
 * @param {string} text @param {typeof BLOCKS[number]} block
 * @returns {{ before: string, block: string, after: string }}
 */
function split(text, { file, start: START, end: END }) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`${relative(ROOT, file)} needs the markers ${START} and ${END}, in this order`);
  }
  return {
    before: text.slice(0, start + START.length),
    block: text.slice(start + START.length, end),
    after: text.slice(end),
  };
}

/**
 * Checks or writes one block; whether it matched.
 * @param {import("openapi-typescript").OpenAPI3} doc @param {typeof BLOCKS[number]} block
 * @param {boolean} check
 */
async function sync(doc, block, check) {
  const shown = relative(ROOT, block.file);
  const current = readFileSync(block.file, "utf8");
  const parts = split(current, block);
  const config = (await prettier.resolveConfig(block.file)) ?? {};
  const table = block.build(doc);
  const wanted = await prettier.format(`${parts.before}\n\n${table}\n\n${parts.after}`, {
    ...config,
    filepath: block.file,
  });
  if (check) {
    const same = split(wanted, block).block === parts.block;
    if (same) console.log(`${shown}: ${block.name} matches /doc (${block.count(table)})`);
    else
      console.error(
        `${shown}: ${block.name} differs from /doc; run node scripts/check-readme.mjs --write`,
      );
    return same;
  }
  // Only the block is replaced: the rest of the file stays as written.
  writeFileSync(block.file, parts.before + split(wanted, block).block + parts.after);
  console.log(`${shown}: ${block.name} written (${block.count(table)})`);
  return true;
}

async function main() {
  const { values } = parseArgs({
    options: {
      check: { type: "boolean", default: false },
      write: { type: "boolean", default: false },
      url: { type: "string" },
    },
  });
  const doc = values.url ? await documentFromUrl(values.url) : await documentFromSource();
  const check = values.check && !values.write;
  let matched = true;
  for (const block of BLOCKS) matched = (await sync(doc, block, check)) && matched;
  if (!matched) process.exit(1);
}

main().catch((error) => {
  console.error(`[docs:check] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
