#!/usr/bin/env node
/**
 * `npm run bench:import` — how long `npm run import` takes for a large catalogue, end to end:
 *
 *   node bench/import.mjs [--rows 100000] [--concurrency 4] [--skip-export] [--keep]
 *
 * 1. generates a product-group CSV (100 groups under 10 roots) and a product CSV of `--rows`
 *    products (codes P-0000001…, names with commas and quotes now and then, 98 % in a group,
 *    some boxed or with a maximum), sorted by code and written exactly as the export writes them;
 * 2. starts a fresh local `wrangler dev` on a free port of 127.0.0.1 (an empty D1 in a temp
 *    folder, the migrations of drizzle/ applied, an API key of its own: nothing of the project's
 *    local state is read or changed);
 * 3. imports the groups, then times the import of the products with the real tool
 *    (`node scripts/import.mjs products …`), and checks the product count through the API;
 * 4. unless --skip-export, times `node scripts/export.mjs products` and checks that it gives back
 *    the generated file byte for byte;
 * 5. prints the figures; stops wrangler and removes the temp folder (--keep keeps it).
 *
 * Nothing is written into the project: the figures go to stdout (docs/performance.md keeps them).
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { csvRow } from "../scripts/lib/csv.mjs";
import { KINDS } from "../scripts/lib/csv-kinds.mjs";
import { ROOT } from "../scripts/lib/local-db.mjs";
import { thousands } from "./lib/common.mjs";
import { startService } from "./lib/service.mjs";

const GROUPS = 100;
const ROOTS = 10;

const step = (/** @type {string} */ text) => console.log(`[bench:import] ${text}`);

/**
 * Writes the rows of a kind, as the export would, to `path`.
 * @param {string} path
 * @param {string} kind
 * @param {Iterable<Record<string, unknown>>} items
 */
async function writeCsv(path, kind, items) {
  const out = createWriteStream(path);
  const columns = /** @type {import("../scripts/lib/csv-kinds.mjs").Kind} */ (KINDS[kind]).columns;
  const write = async (/** @type {string} */ text) => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write(csvRow(columns));
  let text = "";
  for (const item of items) {
    text += csvRow(columns.map((c) => /** @type {string | number | null} */ (item[c] ?? null)));
    if (text.length > 1 << 16) {
      await write(text);
      text = "";
    }
  }
  await write(text);
  out.end();
  await once(out, "finish");
}

const groupCode = (/** @type {number} */ i) => `G-${String(i).padStart(3, "0")}`;

/** The roots are the last codes, so every child comes before its parent (sorted by code). */
const isRoot = (/** @type {number} */ i) => i >= GROUPS - ROOTS;

function* groups() {
  for (let i = 0; i < GROUPS; i++)
    yield {
      code: groupCode(i),
      name: isRoot(i) ? `Department ${i}` : `Family ${i}, range ${i % 7}`,
      parentCode: isRoot(i) ? null : groupCode(GROUPS - ROOTS + (i % ROOTS)),
    };
}

/** @param {number} rows */
function* products(rows) {
  for (let i = 1; i <= rows; i++) {
    const boxed = i % 10 === 0;
    yield {
      code: `P-${String(i).padStart(7, "0")}`,
      name: i % 50 === 0 ? `Hex bolt M${i % 30}, "special" ${i}` : `Product ${i} size ${i % 97}`,
      productGroupCode: i % 50 === 7 ? null : groupCode(i % (GROUPS - ROOTS)),
      minOrderQuantity: boxed ? 10 : 1,
      orderIncrement: boxed ? 5 : 1,
      maxOrderQuantity: i % 17 === 0 ? 500 : null,
    };
  }
}

/**
 * Runs one of the tools; resolves with its run time, rejects on a non-zero exit.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
async function tool(args, env) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (t) => (stdout += t));
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited ${code}\n${stdout}`);
  return { seconds: (performance.now() - started) / 1000, stdout };
}

async function main() {
  const { values } = parseArgs({
    options: {
      rows: { type: "string", default: "100000" },
      concurrency: { type: "string", default: "4" },
      "skip-export": { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
    },
  });
  const rows = Number(values.rows);
  if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`--rows ${values.rows}: a count`);
  const dir = mkdtempSync(join(tmpdir(), "pricing-bench-import-"));
  /** @type {(() => Promise<void>) | undefined} */
  let service;
  const stop = () => {
    service?.();
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  };
  process.on("SIGINT", () => {
    stop();
    process.exit(130);
  });
  try {
    const groupsCsv = join(dir, "product-groups.csv");
    const productsCsv = join(dir, "products.csv");
    await writeCsv(groupsCsv, "product-groups", groups());
    await writeCsv(productsCsv, "products", products(rows));
    step(`generated ${thousands(rows)} products in ${GROUPS} groups under ${dir}`);
    const started = await startService(dir);
    service = started.stop;
    step(`wrangler dev on ${started.url}, empty D1, migrations applied`);
    const env = { ...process.env, PRICING_API_URL: started.url, PRICING_API_KEY: started.key };
    const concurrency = ["--concurrency", String(values.concurrency)];
    await tool(["scripts/import.mjs", "product-groups", groupsCsv], env);
    const run = await tool(["scripts/import.mjs", "products", productsCsv, ...concurrency], env);
    const count = /** @type {{ meta: { totalItems: number } }} */ (
      await fetch(`${started.url}/v1/api/product?limit=1`, {
        headers: { "x-webhook-signature": started.key },
      }).then((r) => r.json())
    );
    if (count.meta.totalItems !== rows)
      throw new Error(`the service holds ${count.meta.totalItems} products, not ${rows}`);
    const perSecond = Math.round(rows / run.seconds);
    step(run.stdout.trim());
    console.log(
      `import: ${thousands(rows)} products in ${run.seconds.toFixed(1)} s (${thousands(perSecond)} rows/s, concurrency ${values.concurrency})`,
    );
    if (!values["skip-export"]) {
      const out = join(dir, "exported.csv");
      const exported = await tool(
        ["scripts/export.mjs", "products", "--file", out, ...concurrency],
        env,
      );
      const same = readFileSync(out).equals(readFileSync(productsCsv));
      console.log(
        `export: ${thousands(rows)} products in ${exported.seconds.toFixed(1)} s; ${same ? "byte-identical to the imported file" : "DIFFERS from the imported file"}`,
      );
      if (!same) process.exitCode = 1;
    }
  } finally {
    stop();
  }
}

main().catch((error) => {
  console.error(`[bench:import] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
