#!/usr/bin/env node
/**
 * `npm run import -- <kind> <file.csv> [--pricelist <id>] [--dry-run] [--restart]
 *   [--from-line <n>] [--concurrency <n>] [--url …] [--key …]` (docs/csv.md)
 *
 * Streams a CSV of one kind (product-groups, products, customer-groups, customers, prices,
 * exchange-rates) into the kind's bulk upsert, through the engine of scripts/lib/csv-engine.mjs.
 *
 * - Rows that cannot be read (syntax, codes, numbers, amounts with too many decimals, a key
 *   repeated in the file) are rejected locally with their line numbers and never sent; rows the
 *   service refuses come back in the 400 of their body and are rejected with their lines too.
 * - Checkpoint: `<file>.import-state.json` records the line up to which everything is written or
 *   rejected. Run the same command again after an interruption (Ctrl-C, a lost connection, a
 *   killed process) and it continues from there; the checkpoint belongs to this file (path, size,
 *   mtime), this kind (and pricelist) and this URL, and is ignored when any differs. `--restart`
 *   ignores it, `--from-line <n>` starts at line n whatever it says. It is removed when the import
 *   completes. The upserts are idempotent, so rows sent twice do no harm.
 * - `--dry-run` reads and checks the whole file, sends nothing.
 *
 * Output: a progress bar on stderr when it is a terminal; the rejected rows and a summary on
 * stdout. Exit status: 0 all rows imported, 2 finished with rejected rows, 1 failed, 130
 * interrupted.
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
import { parseArgs } from "node:util";
import { importCsv, MAX_ROWS } from "./lib/csv-engine.mjs";
import { COMMON_OPTIONS, COMMON_USAGE, setUp, userPath } from "./lib/csv-cli.mjs";
import { count, createProgress } from "./lib/csv-progress.mjs";

const USAGE = `usage: npm run import -- <kind> <file.csv> [options]

${COMMON_USAGE}
  --dry-run            read and check the file, send nothing
  --restart            ignore the checkpoint of an earlier interrupted import
  --from-line <n>      start at line n of the file (the lines before are only read)`;

/**
 * @typedef {import("./lib/csv-engine.mjs").Checkpoint} Checkpoint
 * @typedef {{ version: 2, kind: string, context: string, file: string, size: number,
 *   mtimeMs: number, url: string, updatedAt: string } & Checkpoint} ImportState
 */

const info = (/** @type {string} */ text) => process.stderr.write(`[import] ${text}\n`);

/** Set once a checkpoint is written: from then on a failure can be resumed. */
let resumable = false;

/**
 * The checkpoint of an earlier run of this very import, if any.
 * @param {string} path
 * @param {Omit<ImportState, keyof Checkpoint | "version" | "updatedAt">} key
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
    state.version === 2 &&
    Object.entries(key).every(([k, v]) => state[/** @type {keyof typeof key} */ (k)] === v);
  if (same) return state;
  info(`ignoring ${path}: it belongs to another import (file changed, or other kind/URL)`);
  return undefined;
}

/** Written beside and renamed over, so a kill never leaves half a state file. */
function writeState(/** @type {string} */ path, /** @type {ImportState} */ state) {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/** @param {string | boolean | undefined} raw */
function fromLineOf(raw) {
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || !/^\d{1,12}$/.test(raw) || Number(raw) < 2)
    throw new Error(`--from-line ${raw} must be a line number of the data (2 or more)`);
  return Number(raw);
}

/**
 * The file, and where to start: after the checkpoint of an earlier run of this very import, at
 * `--from-line`, or at the top.
 * @param {{ values: Record<string, string | boolean | undefined>, positionals: string[] }} args
 * @param {Awaited<ReturnType<typeof setUp>>} run
 */
function startOf({ values, positionals }, { kind, ctx, target }) {
  const named = positionals[1] ?? values.file;
  if (typeof named !== "string") throw new Error(`the CSV file is required\n\n${USAGE}`);
  const file = userPath(named);
  if (!existsSync(file)) throw new Error(`no such file: ${file}`);
  const dryRun = values["dry-run"] === true;
  if (ctx.readOnly && !dryRun) throw new Error(ctx.readOnly);
  const fromLine = fromLineOf(values["from-line"]);
  const { size, mtimeMs } = statSync(file);
  const key = { kind: kind.name, context: ctx.stateKey, file, size, mtimeMs, url: target.url };
  const statePath = `${file}.import-state.json`;
  const earlier =
    dryRun || values.restart || fromLine !== undefined ? undefined : readState(statePath, key);
  if (earlier)
    info(
      `continuing after line ${earlier.committedLine}, ${count(earlier.totals.rows)} rows written before (--restart to start over)`,
    );
  else if (fromLine) info(`starting at line ${fromLine}`);
  const resume = earlier ?? (fromLine ? { committedLine: fromLine - 1 } : undefined);
  return { file, size, dryRun, key, statePath, resume };
}

async function main() {
  const args = parseArgs({
    allowPositionals: true,
    options: {
      ...COMMON_OPTIONS,
      "dry-run": { type: "boolean", default: false },
      restart: { type: "boolean", default: false },
      "from-line": { type: "string" },
    },
  });
  const run = await setUp(args, USAGE, info);
  const { file, size, dryRun, key, statePath, resume } = startOf(args, run);

  let bytes = 0;
  async function* source() {
    for await (const text of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 18 })) {
      bytes += Buffer.byteLength(/** @type {string} */ (text));
      yield /** @type {string} */ (text);
    }
  }
  const progress = createProgress({ label: dryRun ? "checking" : "importing", total: size });
  /** @param {{ read: number, written: number, rejected: number }} p @param {boolean} [force] */
  const show = ({ read, written, rejected }, force) =>
    progress.update(
      bytes,
      `${count(dryRun ? read : written)} rows${dryRun ? " ok" : ""}, ${count(rejected)} rejected`,
      force,
    );
  let stopping = false;
  const stop = () => {
    if (stopping || dryRun) process.exit(130);
    stopping = true;
    progress.log("[import] stopping after the bodies in flight (again to stop at once)");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  const started = performance.now();
  const result = await importCsv({
    ...run,
    dryRun,
    source: source(),
    resume,
    shouldStop: () => stopping,
    onCommit(checkpoint) {
      const updatedAt = new Date().toISOString();
      writeState(statePath, { version: 2, ...key, ...checkpoint, updatedAt });
      resumable = true;
    },
    onProgress: show,
  });
  show({ read: result.read, written: result.totals.rows, rejected: result.rejected.length }, true);
  progress.done();
  report(result, { kind: run.kind.name, dryRun, resumed: Boolean(resume), started });
  if (result.interrupted) {
    info(`interrupted after line ${result.committedLine}; run the same command again to continue`);
    process.exit(130);
  }
  if (!dryRun) rmSync(statePath, { force: true });
  process.exitCode = result.rejected.length > 0 ? 2 : 0;
}

/**
 * The rejected rows and the summary, on stdout.
 * @param {import("./lib/csv-engine.mjs").ImportResult} result
 * @param {{ kind: string, dryRun: boolean, resumed: boolean, started: number }} run
 */
function report({ rejected, totals, read }, { kind, dryRun, resumed, started }) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (rejected.length > 0) {
    console.log(`rejected rows (${count(rejected.length)}):`);
    for (const r of rejected) console.log(`line ${r.line}: ${r.reason}`);
  }
  if (dryRun) {
    console.log(
      `dry run: ${count(read)} ${kind} rows would be sent in ${Math.ceil(read / MAX_ROWS)} bodies, ${count(rejected.length)} rejected; nothing was sent (what only the service knows, such as unknown codes, shows in a real run) [${seconds}s]`,
    );
    return;
  }
  const detail =
    totals.created + totals.updated + totals.unchanged > 0
      ? ` (${count(totals.created)} created, ${count(totals.updated)} updated, ${count(totals.unchanged)} unchanged)`
      : "";
  console.log(
    `imported ${count(totals.rows)} ${kind} rows${detail}, ${count(rejected.length)} rejected${resumed ? ", continued" : ""} [${seconds}s this run]`,
  );
}

main().catch((error) => {
  if (process.stderr.isTTY) process.stderr.write("\n"); // off the progress bar's line
  info(error instanceof Error ? error.message : String(error));
  if (resumable)
    info("what was accepted so far is written; run the same command again to continue");
  process.exit(1);
});
