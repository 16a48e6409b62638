#!/usr/bin/env node
/**
 * `npm run -s export -- <kind> [--file out.csv] [--pricelist <id>] [--concurrency <n>] [--url …]
 *   [--key …]` (docs/csv.md)
 *
 * Writes every record of one kind as the CSV `npm run import` reads, in the kind's order (by code;
 * prices by productCode then minQuantity; exchange rates by pair then validFrom), LF line ends, through the engine of
 * scripts/lib/csv-engine.mjs. Without --file the CSV goes to stdout. A file is written beside and
 * renamed into place at the end, so a failed export never leaves half a file. The pages are read
 * one by one: records changed during the export may be missed or repeated, which the summary
 * reports when the count moved.
 *
 * stdout must hold the CSV alone: `npm run export` (without -s) prints its banner there first, so
 * when stdout is not a terminal and npm was not silenced, the export refuses to start.
 */
import { createWriteStream, renameSync, rmSync } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { exportCsv } from "./lib/csv-engine.mjs";
import { COMMON_OPTIONS, COMMON_USAGE, setUp, userPath } from "./lib/csv-cli.mjs";
import { count, createProgress } from "./lib/csv-progress.mjs";

const USAGE = `usage: npm run -s export -- <kind> [options]      (-s: no npm banner in the CSV)

${COMMON_USAGE}
  --file <path>        where to write the CSV (default: stdout)`;

const info = (/** @type {string} */ text) => process.stderr.write(`[export] ${text}\n`);

/**
 * npm prints `> pkg@1.0.0 export` on stdout before running the script unless its log level is
 * silent (`npm run -s`); in a file or a pipe that line would become the CSV's first line.
 * @param {NodeJS.ProcessEnv} env
 */
const npmBannerInStdout = (env) =>
  env.npm_lifecycle_event !== undefined && env.npm_config_loglevel !== "silent";

async function main() {
  const args = parseArgs({ allowPositionals: true, options: COMMON_OPTIONS });
  const path = typeof args.values.file === "string" ? userPath(args.values.file) : undefined;
  if (!path && !process.stdout.isTTY && npmBannerInStdout(process.env))
    throw new Error(
      "npm has printed its banner into this CSV: run `npm run -s export -- …` (or pass --file out.csv)",
    );
  const { kind, ctx, api, concurrency } = await setUp(args, USAGE, info);

  const partial = path && `${path}.partial-${process.pid}`;
  const out = partial ? createWriteStream(partial) : process.stdout;
  const write = async (/** @type {string} */ text) => {
    if (!out.write(text)) await once(out, "drain");
  };
  const started = performance.now();
  /** @type {ReturnType<typeof createProgress> | undefined} */
  let progress;
  try {
    const result = await exportCsv({
      kind,
      ctx,
      api,
      write,
      concurrency,
      onProgress({ rows, totalItems }) {
        progress ??= createProgress({ label: "exporting", total: totalItems });
        progress.update(rows, `${count(rows)} of ${count(totalItems)} rows`);
      },
    });
    progress?.update(
      result.rows,
      `${count(result.rows)} of ${count(result.totalItems)} rows`,
      true,
    );
    progress?.done();
    if (partial && path) {
      out.end();
      await once(out, "finish");
      renameSync(partial, path);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    info(
      `exported ${count(result.rows)} ${kind.name} rows${path ? ` to ${path}` : ""} [${seconds}s]`,
    );
    if (result.rows !== result.totalItems)
      info(
        `the data changed during the export (${count(result.totalItems)} rows at the start): run it again`,
      );
  } catch (error) {
    progress?.done();
    if (partial) {
      out.destroy();
      rmSync(partial, { force: true });
    }
    throw error;
  }
}

// `export … | head` closes the pipe early: that is not an error.
process.stdout.on("error", (error) => {
  if (/** @type {NodeJS.ErrnoException} */ (error).code === "EPIPE") process.exit(0);
  throw error;
});

main().catch((error) => {
  info(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
