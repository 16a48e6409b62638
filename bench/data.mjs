#!/usr/bin/env node
/**
 * `npm run bench:data` — generates the scale data set from a seed and loads it into a local D1.
 *
 *   node bench/data.mjs [--size 10k|100k|1m] [--seed 42] [--persist-to DIR] [--force]
 *
 * The D1 is the one `wrangler dev --persist-to DIR` and `wrangler d1 execute DB --local
 * --persist-to DIR` see (default DIR: .wrangler/bench-<size>). Migrations are applied with
 * wrangler; the rows go in through Miniflare's D1 API in batches of multi-row INSERTs (generated
 * values rendered as SQL literals, each statement under D1's 100 kB limit), which loads 100k
 * products and a million price rows in well under a minute instead of pushing a huge SQL file
 * through `wrangler d1 execute`. Triggers (for example a search index) run as for any insert.
 *
 * A finished load leaves `DIR/bench-data.json`; running again with the same size and seed is a
 * no-op. A database holding other data is refused unless `--force` (which deletes DIR/v3/d1).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import { applyMigrations, wrangler } from "../scripts/lib/local-db.mjs";
import { literal } from "../scripts/lib/sql.mjs";
import {
  checkSize,
  d1PersistOf,
  databaseId,
  duration,
  markerOf,
  persistDir,
  Progress,
  readMarker,
  shownDir,
  SEARCH_TERMS,
  SIZES,
  thousands,
} from "./lib/common.mjs";
import { groupTree } from "./lib/b2b.mjs";
import {
  buildModel,
  GENERATOR_VERSION,
  PRICE_COLUMNS,
  PRODUCT_COLUMNS,
  priceRows,
  productRows,
} from "./lib/model.mjs";

/** @typedef {import("../scripts/lib/sql.mjs").SqlValue} SqlValue */
/** @typedef {Awaited<ReturnType<Miniflare["getD1Database"]>>} D1 */

const GROUP_COLUMNS = ["id", "code", "name", "parent_id", "created_at", "updated_at"];

/** D1 refuses statements over 100 kB, and runs out of memory on very long VALUES lists. */
const MAX_STATEMENT_BYTES = 90_000;
const MAX_STATEMENT_ROWS = 1_000;
/** Statements per db.batch: one transaction, one round trip to the local D1. */
const BATCH_BYTES = 2_000_000;
const BATCH_STATEMENTS = 40;

/** Streams rows into multi-row INSERTs and sends them in batches, one batch in flight. */
class Loader {
  /**
   * @param {D1} db
   * @param {Progress} progress
   */
  constructor(db, progress) {
    this.db = db;
    this.progress = progress;
    /** @type {{ sql: string, rows: number, table: string }[]} */
    this.pending = [];
    this.pendingBytes = 0;
    /** @type {Promise<void> | undefined} */
    this.inFlight = undefined;
    /** @type {unknown} */
    this.failure = undefined;
    /** @type {Record<string, number>} */
    this.counts = {};
  }

  /**
   * @param {string} table
   * @param {readonly string[]} columns
   * @param {Iterable<SqlValue[]>} rows
   */
  async insert(table, columns, rows) {
    const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
    /** @type {string[]} */
    let tuples = [];
    let bytes = head.length;
    for (const row of rows) {
      if (row.length !== columns.length) throw new Error(`${table}: row of ${row.length} values`);
      const tuple = `(${row.map(literal).join(",")})`;
      const size = Buffer.byteLength(tuple) + 1;
      if (
        (bytes + size > MAX_STATEMENT_BYTES || tuples.length >= MAX_STATEMENT_ROWS) &&
        tuples.length > 0
      ) {
        await this.statement(table, head + tuples.join(","), tuples.length);
        tuples = [];
        bytes = head.length;
      }
      tuples.push(tuple);
      bytes += size;
    }
    if (tuples.length > 0) await this.statement(table, head + tuples.join(","), tuples.length);
    this.counts[table] ??= 0;
  }

  /**
   * @param {string} table
   * @param {string} sql
   * @param {number} rows
   */
  async statement(table, sql, rows) {
    this.counts[table] = (this.counts[table] ?? 0) + rows;
    this.pending.push({ sql, rows, table });
    this.pendingBytes += sql.length;
    if (this.pending.length >= BATCH_STATEMENTS || this.pendingBytes >= BATCH_BYTES)
      await this.send();
  }

  /** Sends the pending statements as one batch once the previous batch is done. */
  async send() {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    await this.settle();
    const sent = this.db.batch(batch.map((s) => this.db.prepare(s.sql)));
    this.inFlight = sent.then(
      () => {
        for (const s of batch) this.progress.add(s.rows, s.table);
      },
      (/** @type {unknown} */ error) => {
        const tables = [...new Set(batch.map((s) => s.table))].join(", ");
        const kb = Math.round(batch.reduce((n, s) => n + s.sql.length, 0) / 1024);
        this.failure = new Error(`batch of ${batch.length} statements (${kb} KiB) into ${tables}`, {
          cause: error,
        });
      },
    );
  }

  async settle() {
    if (this.inFlight) await this.inFlight;
    this.inFlight = undefined;
    if (this.failure) throw this.failure;
  }

  async close() {
    if (this.pending.length > 0) await this.send();
    await this.settle();
  }
}

/**
 * @param {string} dir
 * @param {{ size: string, seed: number, force: boolean }} options
 * @returns {"load" | "skip"}
 */
function prepareDir(dir, { size, seed, force }) {
  const marker = readMarker(dir);
  const d1 = d1PersistOf(dir);
  const same =
    marker?.status === "complete" &&
    marker.size === size &&
    marker.seed === seed &&
    marker.version === GENERATOR_VERSION;
  if (same && !force) return "skip";
  if (existsSync(d1)) {
    // Our own interrupted or different load may be replaced; anything else only with --force.
    if (!force && !marker) {
      throw new Error(
        `${dir} already holds a D1 database that bench:data did not write; ` +
          `pass --force to delete ${d1} and load the bench data, or choose --persist-to`,
      );
    }
    if (!force && marker?.status === "complete") {
      throw new Error(
        `${dir} holds the ${marker.size} data set of seed ${marker.seed} (generator v${marker.version}); ` +
          `pass --force to replace it, or choose --persist-to`,
      );
    }
    rmSync(d1, { recursive: true, force: true });
  }
  rmSync(markerOf(dir), { force: true });
  return "load";
}

async function main() {
  const { values } = parseArgs({
    options: {
      size: { type: "string", default: "100k" },
      seed: { type: "string", default: "42" },
      "persist-to": { type: "string" },
      force: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      "node bench/data.mjs [--size 10k|100k|1m] [--seed 42] [--persist-to DIR] [--force]\n",
    );
    return;
  }
  const size = checkSize(values.size);
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error("--seed must be a whole number ≥ 0");
  const spec = /** @type {import("./lib/common.mjs").SizeSpec} */ (SIZES[size]);
  const dir = persistDir(values["persist-to"], size);
  const shown = shownDir(dir);

  if (prepareDir(dir, { size, seed, force: values.force }) === "skip") {
    const marker = readMarker(dir);
    process.stderr.write(
      `bench data ${size} (seed ${seed}) is already loaded in ${shown} ` +
        `(${thousands(marker?.counts?.products ?? 0)} products); --force reloads it\n`,
    );
    return;
  }

  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    markerOf(dir),
    JSON.stringify({ status: "loading", version: GENERATOR_VERSION, size, seed }, null, 2),
  );
  process.stderr.write(`applying migrations to ${shown} …\n`);
  await applyMigrations(dir);
  const migrated = performance.now();

  process.stderr.write(`loading the ${size} data set (seed ${seed}) into ${shown}\n`);
  const mf = new Miniflare({
    modules: true,
    script: "export default {}",
    d1Databases: { DB: databaseId() },
    d1Persist: d1PersistOf(dir),
  });
  // Ctrl-C or a crash stops workerd too; the marker still says "loading", so the next run starts over.
  const stop = (/** @type {unknown} */ reason) => {
    process.stderr.write(
      `\nbench:data stopped: ${reason instanceof Error ? reason.message : reason}\n`,
    );
    void mf.dispose().finally(() => process.exit(130));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.once("uncaughtException", stop);
  /** @type {Record<string, number>} */
  let counts;
  /** @type {Record<string, number>} */
  const terms = {};
  let contractCustomer;
  try {
    const db = await mf.getD1Database("DB");
    const progress = new Progress(spec.products + spec.priceRows, "rows");
    const loader = new Loader(db, progress);
    const cents = new Int32Array(spec.products + 1);
    const tree = groupTree();
    progress.total += tree.rows.length;

    await loader.insert("product_groups", GROUP_COLUMNS, tree.rows);
    await loader.insert("products", PRODUCT_COLUMNS, productRows(spec, seed, cents, terms, tree));
    const model = buildModel(spec, seed, cents, tree);
    contractCustomer = model.contractCustomer;
    // The lists of before issue 12 hold exactly spec.priceRows; floors and the derived lists'
    // own rows come on top.
    const planned = model.pricelistPlans
      .filter((p) => p.kind !== "floor" && p.kind !== "derived")
      .reduce((n, p) => n + p.budget, 0);
    if (planned !== spec.priceRows) {
      throw new Error(`generator: ${planned} price rows planned, not ${spec.priceRows}`);
    }
    const extraRows = model.priceRowCount - spec.priceRows;
    progress.total += extraRows;
    const tables = [...model.before, ...model.pricing, ...model.after];
    progress.total += tables.reduce((s, t) => s + t.rows.length, 0);
    for (const t of [...model.before, ...model.pricing]) {
      await loader.insert(t.table, t.columns, t.rows);
    }
    await loader.insert("pricelist_prices", PRICE_COLUMNS, priceRows(model, seed, cents));
    for (const t of model.after) await loader.insert(t.table, t.columns, t.rows);
    await loader.close();
    progress.finish();

    // Read back what D1 holds, in one statement.
    const loadedTables = Object.keys(loader.counts);
    const row = await db
      .prepare(
        `select ${loadedTables.map((t) => `(select count(*) from ${t}) as ${t}`).join(", ")}`,
      )
      .first();
    counts = /** @type {Record<string, number>} */ (row);
    const wrong = loadedTables.filter((t) => counts[t] !== loader.counts[t]);
    if (wrong.length > 0) {
      throw new Error(
        `row counts differ after the load: ${wrong.map((t) => `${t} ${counts[t]} ≠ ${loader.counts[t]}`).join(", ")}`,
      );
    }
  } finally {
    await mf.dispose();
  }
  const loaded = performance.now();

  // The same database through wrangler's own path, as `wrangler dev` will open it.
  const out = await wrangler([
    "d1",
    "execute",
    "DB",
    "--local",
    "--persist-to",
    dir,
    "--json",
    "--command",
    "select count(*) as n from products",
  ]);
  const seen = JSON.parse(out.slice(out.indexOf("[")))[0]?.results?.[0]?.n;
  if (seen !== spec.products) {
    throw new Error(
      `wrangler d1 execute sees ${seen} products in ${shown}, expected ${spec.products}`,
    );
  }

  const loadSeconds = (loaded - migrated) / 1000;
  writeFileSync(
    markerOf(dir),
    JSON.stringify(
      {
        status: "complete",
        version: GENERATOR_VERSION,
        size,
        seed,
        contractCustomer,
        terms,
        counts,
        loadSeconds: Number(loadSeconds.toFixed(1)),
        totalSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      },
      null,
      2,
    ) + "\n",
  );
  const totalRows = Object.values(counts).reduce((s, n) => s + n, 0);
  const lines = [
    `loaded ${thousands(totalRows)} rows in ${duration(loadSeconds)} ` +
      `(${thousands(Math.round(totalRows / loadSeconds))} rows/s; migrations ${duration((migrated - started) / 1000)}, ` +
      `wrangler check ${duration((performance.now() - loaded) / 1000)})`,
    ...Object.entries(counts).map(([t, n]) => `  ${t.padEnd(32)} ${thousands(n).padStart(12)}`),
    `search terms: "${SEARCH_TERMS.rare}" in ${terms[SEARCH_TERMS.rare]} product names, ` +
      `"${SEARCH_TERMS.common}" in ${thousands(terms[SEARCH_TERMS.common] ?? 0)}`,
    `contract customer: ${contractCustomer}; verified through wrangler d1 execute: ${thousands(seen)} products`,
    `next: node bench/run.mjs --size ${size}${values["persist-to"] ? ` --persist-to ${values["persist-to"]}` : ""}`,
  ];
  process.stderr.write(`${lines.join("\n")}\n`);
}

main().catch((error) => {
  const messages = [];
  for (let e = error, depth = 0; e && depth < 4; e = e.cause, depth++)
    messages.push(e.message ?? e);
  process.stderr.write(`\nbench:data failed: ${messages.join(": ")}\n`);
  if (error instanceof Error && error.stack && process.env.DEBUG)
    process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
