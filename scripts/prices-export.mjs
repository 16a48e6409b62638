#!/usr/bin/env node
/**
 * `npm run prices:export -- --pricelist 12 [--file out.csv] [--url …] [--key …]`
 *
 * Writes the prices of a pricelist as the CSV `prices:import` reads (`productCode,minQuantity,
 * amount`, amounts as decimals of the pricelist's currency, sorted by productCode then
 * minQuantity, LF line ends), paging through `GET /v1/api/pricelist/{id}/prices?limit=100`
 * (the API's page cap) with a few pages in flight. Without --file the CSV goes to stdout. A file
 * is written beside and renamed into place at the end, so a failed export never leaves half a
 * file. The pages are read one by one: prices changed during the export may be missed or repeated,
 * which the summary reports when the count moved.
 */
import { createWriteStream, renameSync, rmSync } from "node:fs";
import { once } from "node:events";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { csvRow } from "./lib/csv.mjs";
import { COLUMNS, priceRecord } from "./lib/csv-prices.mjs";
import {
  COMMON_OPTIONS,
  createApi,
  describeFailure,
  fetchPricelist,
  pricelistIdOf,
  resolveTarget,
} from "./lib/csv-prices-api.mjs";
import { count, createProgress } from "./lib/csv-progress.mjs";

const PAGE_SIZE = 100;
const IN_FLIGHT = 4;

const USAGE = `usage: npm run prices:export -- --pricelist <id> [options]

  --pricelist <id>   the pricelist to read
  --file <path>      where to write the CSV (default: stdout)
  --url <base>       the service (default PRICING_API_URL, else http://localhost:8787)
  --key <key>        an API key, read is enough (default PRICING_API_KEY; dev-admin-key on localhost)`;

const info = (/** @type {string} */ text) => process.stderr.write(`[export] ${text}\n`);

/**
 * @typedef {import("./lib/csv-prices.mjs").PriceRow} PriceRow
 * @typedef {{ data: PriceRow[], meta: { totalItems: number, totalPages: number } }} PricePage
 */

async function main() {
  const { values } = parseArgs({
    options: { ...COMMON_OPTIONS, file: { type: "string", short: "f" } },
  });
  const pricelistId = pricelistIdOf(values, USAGE);
  const target = resolveTarget(values, process.env);
  const api = createApi(target);
  const pricelist = await fetchPricelist(api, pricelistId);
  info(
    `pricelist ${pricelist.id} "${pricelist.name}" (${pricelist.currency}: ${pricelist.digits} decimals) at ${target.url}`,
  );
  if (!pricelist.known)
    info(`${pricelist.currency} is not in the table of minor units: assuming 2 decimals`);

  /** @returns {Promise<PricePage>} */
  const page = async (/** @type {number} */ n) => {
    const query = `limit=${PAGE_SIZE}&page=${n}&sortBy=productCode:ASC&sortBy=minQuantity:ASC`;
    const res = await api.get(`/v1/api/pricelist/${pricelistId}/prices?${query}`);
    if (res.status !== 200) throw new Error(`page ${n}: ${describeFailure(res)}`);
    return res.body;
  };

  const path =
    typeof values.file === "string"
      ? resolve(process.env.INIT_CWD ?? process.cwd(), values.file)
      : undefined;
  const partial = path && `${path}.partial-${process.pid}`;
  const out = partial ? createWriteStream(partial) : process.stdout;
  const write = async (/** @type {string} */ text) => {
    if (!out.write(text)) await once(out, "drain");
  };

  const started = performance.now();
  try {
    const first = await page(1);
    const { totalItems, totalPages } = first.meta;
    const progress = createProgress({ label: "exporting", total: totalItems });
    let rows = 0;
    const emit = async (/** @type {PricePage} */ p) => {
      let text = "";
      for (const price of p.data) text += csvRow(priceRecord(price, pricelist.digits));
      rows += p.data.length;
      await write(text);
      progress.update(rows, `${count(rows)} of ${count(totalItems)} rows`);
    };
    await write(csvRow(COLUMNS));
    await emit(first);

    // A sliding window of requests, written in page order.
    /** @type {Promise<PricePage>[]} */
    const window = [];
    let next = 2;
    const request = () => {
      const p = page(next++);
      p.catch(() => {}); // a failure surfaces when its turn is awaited, not as an unhandled rejection
      window.push(p);
    };
    while (next <= totalPages && window.length < IN_FLIGHT) request();
    while (window.length > 0) {
      const p = await /** @type {Promise<PricePage>} */ (window.shift());
      if (next <= totalPages) request();
      await emit(p);
    }
    progress.update(rows, `${count(rows)} of ${count(totalItems)} rows`, true);
    progress.done();

    if (partial && path) {
      out.end();
      await once(out, "finish");
      renameSync(partial, path);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    info(
      `exported ${count(rows)} prices of pricelist ${pricelistId} in ${totalPages} pages${path ? ` to ${path}` : ""} [${seconds}s]`,
    );
    if (rows !== totalItems)
      info(
        `the pricelist changed during the export (${count(totalItems)} prices at the start): run it again`,
      );
  } catch (error) {
    if (partial) {
      out.destroy();
      rmSync(partial, { force: true });
    }
    throw error;
  }
}

// `prices:export … | head` closes the pipe early: that is not an error.
process.stdout.on("error", (error) => {
  if (/** @type {NodeJS.ErrnoException} */ (error).code === "EPIPE") process.exit(0);
  throw error;
});

main().catch((error) => {
  console.error(`[export] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
