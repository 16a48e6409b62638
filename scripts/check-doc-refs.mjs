#!/usr/bin/env node
/**
 * `npm run docs:check` (after check-readme.mjs): every citation of the docs can be opened.
 *
 * 1. Code cites the docs by path and numbered section, or by a heading's title in quotes:
 *    `docs/api/relations.md §5.12`, `docs/pricing-rules.md §4.1–§4.3`,
 *    `docs/pricing-lint.md §2, §7, §9–§11`, `docs/operations.md "Rate limits"`,
 *    `docs/performance.md#the-product-cache`; a doc may sit in a folder of docs/ (the parts of
 *    the API contract, `docs/api/*.md`, whose section numbers run on across the parts). In the source
 *    files (src/, test/, scripts/, bench/, app/, wrangler.toml, vitest.config.ts, .ci/run) each
 *    cited file must exist, each § number must be a numbered heading of it (`## 5.` or
 *    `### 5.12`), each quoted title the start of one of its headings (numbers left out), each
 *    `#fragment` one of its anchors. A doc named without its folder (`pricing-rules.md §2`,
 *    `api/resources.md §2`) is a fault: a reader opens a path. A § number that the cited file
 *    lacks but a file beside it has (another part of the API contract, or a part of an index
 *    such as docs/api.md) is named in the fault, so a moved section is quick to follow.
 * 2. Markdown links in README.md, CONTRIBUTING.md, docs/ and the notes of bench/results/: the linked
 *    file exists, and a `#fragment` is the anchor GitHub gives one of its headings.
 *
 *   node scripts/check-doc-refs.mjs                 # the project: exit 1 and one line per fault
 *   node scripts/check-doc-refs.mjs --root DIR      # another tree (test/scripts/ uses a fixture)
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({ options: { root: { type: "string" } } });
const ROOT = args.root
  ? resolve(args.root)
  : resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CODE_ROOTS = ["src", "test", "scripts", "bench", "app", "wrangler.toml", "vitest.config.ts"];
const CODE_FILES = [".ci/run"];
const CODE_EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js", ".toml"];
const MARKDOWN = ["README.md", "CONTRIBUTING.md", "docs", "bench/results"];
const SKIP = new Set(["node_modules", "dist", ".wrangler", "fixtures"]);
/** This file and its test show broken citations on purpose. */
const SELF = new Set(["scripts/check-doc-refs.mjs", "test/scripts/check-doc-refs.test.mjs"]);

/**
 * Whether git ignores `path` (a file that exists here but not in a clone, such as a benchmark's
 * JSON in bench/results/ that was not added with -f); false where git cannot tell.
 * @param {string} path
 */
const ignoredByGit = (path) =>
  spawnSync("git", ["check-ignore", "-q", path], { cwd: ROOT }).status === 0;

/** @typedef {{ slug: string, number: string | null, title: string }} Heading */

/** @param {string} path @param {(name: string) => boolean} keep @returns {string[]} */
function filesUnder(path, keep) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const child = join(path, entry.name);
    if (entry.isDirectory()) return filesUnder(child, keep);
    return keep(entry.name) ? [child] : [];
  });
}

/**
 * GitHub's anchor of a heading: lower case, everything but letters, digits, spaces, `-` and `_`
 * dropped, each space a `-`; a repeated anchor gets `-1`, `-2`, … (github-slugger).
 * @param {string} text @param {Map<string, number>} seen
 */
function slugOf(text, seen) {
  const plain = text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .split("`")
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<[^>]+>/g, "")))
    .join("")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
  const count = seen.get(plain) ?? 0;
  seen.set(plain, count + 1);
  return count === 0 ? plain : `${plain}-${count}`;
}

/** @type {Map<string, Heading[]>} */
const headingCache = new Map();

/** The headings of a markdown file (outside code fences). @param {string} path repo-relative */
function headingsOf(path) {
  const cached = headingCache.get(path);
  if (cached) return cached;
  /** @type {Heading[]} */
  const headings = [];
  const seen = new Map();
  let fence = false;
  for (const line of readFileSync(join(ROOT, path), "utf8").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const match = fence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const text = match[1] ?? "";
    const numbered = /^(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(text);
    headings.push({
      slug: slugOf(text, seen),
      number: numbered ? (numbered[1] ?? null) : null,
      title: (numbered ? (numbered[2] ?? "") : text).replace(/[`*_]/g, ""),
    });
  }
  headingCache.set(path, headings);
  return headings;
}

const SECTION = String.raw`§\s?\d+(?:\.\d+)*`;
const SECTION_LIST = String.raw`${SECTION}(?:\s*[–—-]\s*§?\s?\d+(?:\.\d+)*)?`;
/**
 * A citation in code: a doc's name, then sections (`§2, §7, §9–§11`, `§4.4 and §5.4`), a quoted
 * title, or a fragment.
 */
const CITATION = new RegExp(
  String.raw`(?<![\w./-])((?:\.\.?/)*(?:docs/)?)((?:[a-z][a-z0-9-]*/)*[a-z][a-z0-9-]*\.md)` +
    String.raw`((?:\s?${SECTION_LIST}(?:(?:,\s*|\s+and\s+)${SECTION_LIST})*)?)` +
    String.raw`(?:,?\s+"([^"\n]+)"|#([\w-]+))?`,
  "g",
);

/**
 * The markdown files beside `doc` and in its namesake folder (docs/api/*.md for docs/api.md; the
 * other parts for docs/api/prices.md), where a section it lacks may live.
 * @param {string} doc repo-relative
 */
function neighboursOf(doc) {
  const folders = [dirname(doc), doc.replace(/\.md$/, "")];
  return folders.flatMap((folder) =>
    filesUnder(folder, (name) => name.endsWith(".md"))
      .map((file) => file.split(sep).join("/"))
      .filter((file) => file !== doc && dirname(file) === folder),
  );
}

/**
 * What is wrong with a citation of `doc` (repo-relative), or undefined.
 * @param {string} doc @param {string} sections @param {string | undefined} title
 * @param {string | undefined} fragment
 */
function citationFault(doc, sections, title, fragment) {
  const headings = headingsOf(doc);
  const numbers = [...sections.matchAll(/\d+(?:\.\d+)*/g)].map((m) => m[0]);
  const missing = numbers.filter((n) => !headings.some((h) => h.number === n));
  if (missing.length > 0) {
    const holders = new Set(
      missing.flatMap((n) =>
        neighboursOf(doc).filter((file) => headingsOf(file).some((h) => h.number === n)),
      ),
    );
    const hint = holders.size > 0 ? ` (see ${[...holders].join(", ")})` : "";
    return `${doc} has no section ${missing.map((n) => `§${n}`).join(", ")}${hint}`;
  }
  if (title !== undefined) {
    const wanted = title.toLowerCase();
    if (!headings.some((h) => h.title.toLowerCase().startsWith(wanted))) {
      return `${doc} has no heading "${title}"`;
    }
  }
  if (fragment !== undefined && !headings.some((h) => h.slug === fragment)) {
    return `${doc} has no heading with the anchor #${fragment}`;
  }
  return undefined;
}

/** Broken citations of the docs in one source file. @param {string} file repo-relative */
function codeFaults(file) {
  /** @type {string[]} */
  const faults = [];
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  lines.forEach((line, index) => {
    for (const match of line.matchAll(CITATION)) {
      const [whole, prefix = "", name = "", sections = "", title, fragment] = match;
      const where = `${file}:${index + 1}: ${whole.trim()}`;
      const inDocs = existsSync(join(ROOT, "docs", name));
      const cited = sections !== "" || title !== undefined || fragment !== undefined;
      if (!prefix.includes("docs/")) {
        // README.md, CONTRIBUTING.md, a test's own fixture: only a doc of docs/ with a section
        // or title is a citation, and then it needs its path.
        if (inDocs && cited) faults.push(`${where}: cite it by path, docs/${name}`);
        continue;
      }
      if (!inDocs) {
        faults.push(`${where}: docs/${name} does not exist`);
        continue;
      }
      const fault = citationFault(`docs/${name}`, sections, title, fragment);
      if (fault) faults.push(`${where}: ${fault}`);
    }
  });
  return faults;
}

/** Broken links of one markdown file. @param {string} file repo-relative */
function markdownFaults(file) {
  /** @type {string[]} */
  const faults = [];
  let fence = false;
  readFileSync(join(ROOT, file), "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (/^\s*(```|~~~)/.test(line)) fence = !fence;
      if (fence) return;
      for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? "";
        if (/^[a-z]+:/i.test(target)) continue;
        const [path = "", fragment] = target.split("#");
        const linked = path === "" ? file : relative(ROOT, resolve(ROOT, dirname(file), path));
        const where = `${file}:${index + 1}: (${target})`;
        if (!existsSync(join(ROOT, linked))) {
          faults.push(`${where}: ${linked} does not exist`);
          continue;
        }
        if (ignoredByGit(linked)) {
          faults.push(`${where}: ${linked} is ignored by git, so a clone does not have it`);
          continue;
        }
        if (fragment === undefined || !linked.endsWith(".md")) continue;
        const name = linked.split(sep).join("/");
        if (!headingsOf(name).some((h) => h.slug === fragment)) {
          faults.push(`${where}: ${name} has no heading with the anchor #${fragment}`);
        }
      }
    });
  return faults;
}

function main() {
  const code = [
    ...CODE_ROOTS.flatMap((root) =>
      filesUnder(root, (name) => CODE_EXTENSIONS.some((ext) => name.endsWith(ext))),
    ).filter((file) => !SELF.has(file.split(sep).join("/"))),
    ...CODE_FILES.filter((file) => existsSync(join(ROOT, file))),
  ];
  const markdown = MARKDOWN.flatMap((root) => filesUnder(root, (name) => name.endsWith(".md")));
  const faults = [...code.flatMap(codeFaults), ...markdown.flatMap(markdownFaults)];
  if (faults.length > 0) {
    for (const fault of faults) console.error(fault);
    console.error(`[docs:check] ${faults.length} citation(s) of the docs do not resolve`);
    process.exit(1);
  }
  console.log(
    `docs: every citation resolves (${code.length} source files, ${markdown.length} markdown files)`,
  );
}

main();
