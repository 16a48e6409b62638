/**
 * scripts/check-doc-refs.mjs on a fixture (test/fixtures/doc-refs/): every kind of citation that
 * resolves passes, and each broken one is reported on its own line, so a renumbered section
 * cannot slip through `npm run docs:check`; a section cited in the wrong part of a split doc names
 * the part that has it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

/** @param {string[]} args */
const run = (...args) =>
  spawnSync(process.execPath, ["scripts/check-doc-refs.mjs", ...args], { encoding: "utf8" });

test("the project's citations all resolve", () => {
  const result = run();
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /every citation resolves/);
});

test("a fixture's broken citations are each reported, the good ones not", () => {
  const result = run("--root", "test/fixtures/doc-refs");
  assert.equal(result.status, 1);
  const faults = result.stderr.trim().split("\n");
  assert.deepEqual(faults, [
    "src/cites.ts:3: docs/guide.md §3: docs/guide.md has no section §3",
    'src/cites.ts:3: docs/guide.md "No such heading": docs/guide.md has no heading "No such heading"',
    "src/cites.ts:4: guide.md §1: cite it by path, docs/guide.md",
    "src/cites.ts:4: docs/missing.md §1: docs/missing.md does not exist",
    "src/cites.ts:5: docs/guide.md §5: docs/guide.md has no section §5 (see docs/guide/part.md)",
    "src/cites.ts:5: guide/part.md §5: cite it by path, docs/guide/part.md",
    "README.md:3: (docs/guide.md#2-none): docs/guide.md has no heading with the anchor #2-none",
    "README.md:3: (docs/nothing.md): docs/nothing.md does not exist",
    "docs/guide.md:11: (other.md#nowhere): docs/other.md does not exist",
    "[docs:check] 9 citation(s) of the docs do not resolve",
  ]);
});
