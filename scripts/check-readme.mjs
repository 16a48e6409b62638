#!/usr/bin/env node
/**
 * `npm run docs:check`: the README's endpoint table is generated from the OpenAPI document the
 * Worker serves at /doc, so it lists every operation and cannot drift from the code.
 *
 * The table sits between `<!-- endpoints:start -->` and `<!-- endpoints:end -->` in README.md:
 * one small table per tag of /doc (in the document's tag order), one row per operation
 * (method, path, summary, role). The document is built in-process, as `client:generate` does.
 *
 *   --check        do not write; exit 1 if the README's block differs from what /doc gives
 *   --write        rewrite the block (the default when neither flag is given; wins over --check,
 *                  so `npm run docs:check -- --write` writes)
 *   --url <base>   read <base>/doc of a running service instead
 *
 * The README goes through prettier before the blocks are compared, so the committed file is
 * exactly what `npm run lint` accepts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as prettier from "prettier";
import { documentFromSource, documentFromUrl, ROOT } from "./lib/openapi-doc.mjs";

/** @typedef {{ operationId?: string, summary?: string, tags?: string[], responses?: Record<string, unknown> }} Operation */
/** @typedef {{ method: string, path: string, operation: Operation }} Entry */

const README = join(ROOT, "README.md");
const START = "<!-- endpoints:start -->";
const END = "<!-- endpoints:end -->";
const METHODS = ["get", "put", "post", "patch", "delete"];

/**
 * Writes that only read: a POST because its body is long (a cart), callable with a read key.
 * Every other operation's role is derived from /doc: documenting a 403 means "admin only".
 */
const READ_ONLY_WRITES = new Set(["resolvePrices"]);

/**
 * `admin` when the operation documents a 403 (a read key is refused), else `read`. A write that
 * documents no 403 must be a known read-only one, so a forgotten 403 fails here instead of
 * showing a write as callable with a read key.
 * @param {Entry} entry
 * @returns {"admin" | "read"}
 */
function roleOf({ method, path, operation }) {
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
 * The markdown between the markers (unformatted; prettier aligns it).
 * @param {import("openapi-typescript").OpenAPI3} doc
 * @returns {string}
 */
function endpointTable(doc) {
  /** @type {Map<string, Entry[]>} */
  const byTag = new Map((doc.tags ?? []).map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = /** @type {Operation | undefined} */ (
        /** @type {Record<string, unknown>} */ (item)[method]
      );
      if (!operation) continue;
      if (!operation.summary) throw new Error(`${method.toUpperCase()} ${path} has no summary`);
      const tag = operation.tags?.[0] ?? "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)?.push({ method, path, operation });
    }
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

/**
 * The text between the markers, or an error naming what is missing.
 * @param {string} text
 * @returns {{ before: string, block: string, after: string }}
 */
function split(text) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`README.md needs the markers ${START} and ${END}, in this order`);
  }
  return {
    before: text.slice(0, start + START.length),
    block: text.slice(start + START.length, end),
    after: text.slice(end),
  };
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
  const current = readFileSync(README, "utf8");
  const parts = split(current);
  const config = (await prettier.resolveConfig(README)) ?? {};
  const table = endpointTable(doc);
  const wanted = await prettier.format(`${parts.before}\n\n${table}\n\n${parts.after}`, {
    ...config,
    filepath: README,
  });
  const operations = table.split("\n").filter((line) => /^\| [A-Z]+ \|/.test(line)).length;

  if (values.check && !values.write) {
    if (split(wanted).block !== parts.block) {
      console.error(
        "README.md: the endpoint table differs from /doc; run node scripts/check-readme.mjs --write",
      );
      process.exit(1);
    }
    console.log(`README.md: the endpoint table matches /doc (${operations} operations)`);
    return;
  }
  // Only the block is replaced: the rest of the README stays as written.
  const updated = parts.before + split(wanted).block + parts.after;
  writeFileSync(README, updated);
  console.log(`README.md: endpoint table written (${operations} operations)`);
}

main().catch((error) => {
  console.error(`[docs:check] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
