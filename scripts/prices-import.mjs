#!/usr/bin/env node
/**
 * `npm run prices:import -- --pricelist 12 --file prices.csv [--dry-run] [--restart]
 *   [--url http://localhost:8787] [--key …]`
 *
 * Streams a price CSV (`productCode,minQuantity,amount`, see scripts/lib/csv-prices.mjs) into
 * `PUT /v1/api/pricelist/{id}/prices`, 1000 rows per request. Decimal amounts become minor units
 * of the pricelist's currency exactly (scripts/lib/money.mjs).
 *
 * - Rows that cannot be read (syntax, codes, quantities, amounts with too many decimals, a tier
 *   repeated in the file) are rejected locally with their line numbers and never sent.
 * - The PUT is atomic: a 400 rejects its whole chunk. The issue paths (`body.prices.17.productCode`)
 *   name the rows; those lines are rejected, the rest of the chunk is sent again.
 * - After each accepted chunk, `<file>.import-state.json` records the last line done. Run the same
 *   command again after an interruption (Ctrl-C, a lost connection, a killed process) and it
 *   resumes after that line; the state belongs to this file (path, size, mtime), this pricelist and
 *   this URL, and is ignored when any differs. `--restart` ignores it. It is removed when the
 *   import completes. Upserts are idempotent, so a chunk sent twice does no harm.
 * - `--dry-run` reads and checks the whole file (and the pricelist), sends nothing. Only the
 *   service knows which products exist, so unknown products show up in a real run only.
 *
 * Output: a progress bar on stderr; the rejected rows and a summary on stdout.
 * Exit status: 0 all rows imported, 2 finished with rejected rows, 1 failed, 130 interrupted.
 */
import {
  createReadStream,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createCsvParser } from "./lib/csv.mjs";
import { createTierTracker, readHeader, readPriceRow, rejectedLines } from "./lib/csv-prices.mjs";
import {
  createApi,
  describeFailure,
  fetchPricelist,
  COMMON_OPTIONS,
  pricelistIdOf,
  resolveTarget,
} from "./lib/csv-prices-api.mjs";
import { count, createProgress } from "./lib/csv-progress.mjs";

const CHUNK_ROWS = 1000;

const USAGE = `usage: npm run prices:import -- --pricelist <id> --file <prices.csv> [options]

  --pricelist <id>   the pricelist to write to (its currency decides the decimals)
  --file <path>      CSV with the header productCode,minQuantity,amount
  --dry-run          read and check the file, send nothing
  --restart          ignore the resume state of an earlier interrupted import
  --url <base>       the service (default PRICING_API_URL, else http://localhost:8787)
  --key <key>        an admin key (default PRICING_API_KEY; dev-admin-key on localhost)`;

/**
 * @typedef {import("./lib/csv-prices.mjs").PriceRow} PriceRow
 * @typedef {import("./lib/csv-prices.mjs").Rejection} Rejection
 * @typedef {{ version: 1, file: string, size: number, mtimeMs: number, pricelistId: number,
 *   url: string, committedLine: number, chunks: number, rowsWritten: number, resends: number,
 *   rejected: Rejection[], updatedAt: string }} ImportState
 */

const rowsOf = (/** @type {number} */ n) => `${count(n)} row${n === 1 ? "" : "s"}`;

/** Set once a chunk is written: from then on a failure can be resumed. */
let resumable = false;

const info = (/** @type {string} */ text) => process.stderr.write(`[import] ${text}\n`);

/**
 * @param {string} path
 * @param {Pick<ImportState, "file" | "size" | "mtimeMs" | "pricelistId" | "url">} key
 * @returns {ImportState | undefined}
 */
function readState(path, key) {
  if (!existsSync(path)) return undefined;
  /** @type {ImportState} */
  let state;
  try {
    state = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    info(`ignoring ${path}: not readable JSON`);
    return undefined;
  }
  const same =
    state.version === 1 &&
    state.file === key.file &&
    state.size === key.size &&
    state.mtimeMs === key.mtimeMs &&
    state.pricelistId === key.pricelistId &&
    state.url === key.url;
  if (!same) {
    info(`ignoring ${path}: it belongs to another import (file changed, or other pricelist/URL)`);
    return undefined;
  }
  return state;
}

/** Written beside and renamed over, so a kill never leaves half a state file. */
function writeState(/** @type {string} */ path, /** @type {ImportState} */ state) {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

async function main() {
  const { values } = parseArgs({
    options: {
      ...COMMON_OPTIONS,
      file: { type: "string", short: "f" },
      "dry-run": { type: "boolean", default: false },
      restart: { type: "boolean", default: false },
    },
  });
  const pricelistId = pricelistIdOf(values, USAGE);
  if (typeof values.file !== "string") throw new Error(`--file <path> is required\n\n${USAGE}`);
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), values.file);
  if (!existsSync(file)) throw new Error(`no such file: ${file}`);
  const stat = statSync(file);
  const dryRun = values["dry-run"] === true;

  const target = resolveTarget(
    {
      url: /** @type {string | undefined} */ (values.url),
      key: /** @type {string | undefined} */ (values.key),
    },
    process.env,
  );
  const api = createApi(target);
  const pricelist = await fetchPricelist(api, pricelistId);
  const decimals = pricelist.digits === 1 ? "1 decimal" : `${pricelist.digits} decimals`;
  info(
    `pricelist ${pricelist.id} "${pricelist.name}" (${pricelist.status}, ${pricelist.currency}: ${decimals}) at ${target.url}, key from ${target.keySource}`,
  );
  if (!pricelist.known)
    info(`${pricelist.currency} is not in the table of minor units: assuming 2 decimals`);
  if (pricelist.status === "ARCHIVED")
    throw new Error(`pricelist ${pricelist.id} is ARCHIVED: its prices cannot change`);

  const statePath = `${file}.import-state.json`;
  const key = { file, size: stat.size, mtimeMs: stat.mtimeMs, pricelistId, url: target.url };
  const resumed = dryRun || values.restart ? undefined : readState(statePath, key);
  /** @type {ImportState} */
  const state = resumed ?? {
    version: 1,
    ...key,
    committedLine: 0,
    chunks: 0,
    rowsWritten: 0,
    resends: 0,
    rejected: [],
    updatedAt: new Date().toISOString(),
  };
  if (resumed)
    info(
      `resuming after line ${state.committedLine}: ${state.chunks} chunks, ${count(state.rowsWritten)} rows written before (--restart to start over)`,
    );

  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  const progress = createProgress({ label: dryRun ? "checking" : "importing", total: stat.size });
  let stopping = false;
  const stop = () => {
    if (stopping || dryRun) process.exit(130);
    stopping = true;
    progress.log("[import] stopping after the chunk in flight (again to stop at once)");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  const money = { digits: pricelist.digits, currency: pricelist.currency };
  const tiers = createTierTracker();
  /** @type {Rejection[]} */
  let pending = [];
  /** @type {PriceRow[]} */
  let rows = [];
  /** @type {number[]} */
  let lines = [];
  let lastLine = state.committedLine;
  let sentThisRun = 0;
  /** @type {import("./lib/csv-prices.mjs").Columns | undefined} */
  let columns;

  const started = performance.now();
  const rejectedCount = () => state.rejected.length + pending.length;
  let consumed = 0;
  let position = 0;
  const show = (force = false) =>
    progress.update(
      position,
      `${count(state.rowsWritten + sentThisRun)} rows${dryRun ? " ok" : ""}, ${count(rejectedCount())} rejected`,
      force,
    );

  /** @param {Rejection} rejection */
  const reject = (rejection) => pending.push(rejection);

  /** Sends one chunk; on a 400, drops the rows it names and sends the rest again. */
  async function send() {
    let body = rows;
    let bodyLines = lines;
    let resends = 0;
    while (body.length > 0) {
      const res = await api.put(`/v1/api/pricelist/${pricelistId}/prices`, { prices: body });
      if (res.status === 200) return { written: Number(res.body.upserted), resends };
      const where = `lines ${bodyLines[0]}-${bodyLines.at(-1)}`;
      if (res.status !== 400 || !Array.isArray(res.body?.errors))
        throw new Error(`${where}: ${describeFailure(res)}`);
      const { byLine, unmapped } = rejectedLines(res.body.errors, bodyLines);
      if (byLine.size === 0)
        throw new Error(`${where}: ${describeFailure(res)} ${unmapped.join("; ")}`);
      for (const [line, messages] of byLine) reject({ line, reason: messages.join("; ") });
      const keep = bodyLines.map((line) => !byLine.has(line));
      body = body.filter((_, i) => keep[i]);
      bodyLines = bodyLines.filter((_, i) => keep[i]);
      resends++;
    }
    return { written: 0, resends };
  }

  async function flush() {
    if (dryRun) {
      sentThisRun += rows.length;
    } else if (rows.length > 0) {
      const { written, resends } = await send();
      state.rowsWritten += written;
      state.resends += resends;
      state.chunks++;
    }
    state.rejected.push(...pending);
    state.committedLine = lastLine;
    state.updatedAt = new Date().toISOString();
    if (!dryRun) {
      writeState(statePath, state);
      resumable = true;
    }
    pending = [];
    rows = [];
    lines = [];
    show();
    if (stopping) {
      progress.done();
      info(`interrupted after line ${state.committedLine}; run the same command again to resume`);
      process.exit(130);
    }
  }

  /** @param {import("./lib/csv.mjs").CsvRecord} record */
  async function take(record) {
    if (!columns) {
      if (record.error) throw new Error(`line ${record.line}: ${record.error}`);
      const read = readHeader(record.fields);
      if (!read.ok) throw new Error(`line ${record.line}: ${read.error}`);
      columns = read.columns;
      return;
    }
    const replay = record.line <= state.committedLine; // done before: only rebuild the tier memory
    if (!replay) lastLine = record.line;
    if (record.error) {
      if (!replay) reject({ line: record.line, reason: record.error });
      return;
    }
    const read = readPriceRow(record.fields, columns, money);
    if (!read.ok) {
      if (!replay) reject({ line: record.line, reason: read.error });
      return;
    }
    const earlier = tiers.see(read.row, record.line);
    if (replay) return;
    if (earlier !== undefined) {
      const { productCode, minQuantity } = read.row;
      reject({
        line: record.line,
        reason: `repeats ${productCode} with minQuantity ${minQuantity} of line ${earlier}`,
      });
      return;
    }
    rows.push(read.row);
    lines.push(record.line);
    if (rows.length === CHUNK_ROWS) await flush();
  }

  const parser = createCsvParser();
  for await (const text of stream) {
    // The bar follows the records handled, not the read-ahead of the stream.
    const records = parser.push(/** @type {string} */ (text));
    const bytes = Buffer.byteLength(/** @type {string} */ (text));
    for (const [i, record] of records.entries()) {
      position = consumed + (bytes * (i + 1)) / records.length;
      await take(record);
    }
    consumed += bytes;
    position = consumed;
    show();
  }
  for (const record of parser.end()) await take(record);
  if (!columns)
    throw new Error(`${file} is empty: the header ${"productCode,minQuantity,amount"} is required`);
  // Rejected lines after the last full chunk still move the resume point.
  if (rows.length > 0 || pending.length > 0) await flush();
  show(true);
  progress.done();
  if (!dryRun) rmSync(statePath, { force: true });

  const seconds = (performance.now() - started) / 1000;
  const rejected = [...state.rejected].sort((a, b) => a.line - b.line);
  if (rejected.length > 0) {
    console.log(`rejected rows (${count(rejected.length)}):`);
    for (const r of rejected) console.log(`line ${r.line}: ${r.reason}`);
  }
  if (dryRun)
    console.log(
      `dry run: ${rowsOf(sentThisRun)} would be sent in ${Math.ceil(sentThisRun / CHUNK_ROWS)} chunk(s), ${count(rejected.length)} rejected; nothing was sent (unknown products are found by the service only) [${seconds.toFixed(1)}s]`,
    );
  else
    console.log(
      `imported ${rowsOf(state.rowsWritten)} into pricelist ${pricelistId} in ${state.chunks} chunk${state.chunks === 1 ? "" : "s"}` +
        `${state.resends ? ` (${state.resends} resent without their rejected rows)` : ""}, ${count(rejected.length)} rejected` +
        `${resumed ? ", resumed" : ""} [${seconds.toFixed(1)}s this run]`,
    );
  process.exitCode = rejected.length > 0 ? 2 : 0;
}

main().catch((error) => {
  if (process.stderr.isTTY) process.stderr.write("\n"); // off the progress bar's line
  console.error(`[import] ${error instanceof Error ? error.message : error}`);
  if (resumable)
    console.error(
      "[import] the chunks accepted so far are written; run the same command again to resume",
    );
  process.exit(1);
});
