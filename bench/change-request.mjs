#!/usr/bin/env node
/**
 * What a catalogue-wide change request costs (docs/performance.md, "A catalogue-wide change
 * request"; issue 23 item 6; `npm run bench:change-request`):
 *
 *   node bench/change-request.mjs [--rows 100000] [--items 1] [--keep]
 *   node bench/change-request.mjs --lookups [--rows 30000] [--items 10] [--seconds 10]
 *     [--connections 4] [--rounds 2] [--d1-apart [--shared-cpus]] [--out bench/results/FILE.json]
 *
 * 1. starts a fresh local `wrangler dev` on a free port of 127.0.0.1 (an empty D1 in a temp
 *    folder, the migrations of drizzle/ applied, two admin keys of its own: nothing of the
 *    project's local state is read or changed);
 * 2. loads `--rows` products and one ACTIVE pricelist with one row each through the API
 *    (`PUT /v1/api/product` and `PUT /v1/api/pricelist/{id}/prices`, 1,000 rows a call);
 * 3. times, each one call: `create` (one ADJUST_PRICES item on the whole list, +2.5 %, rounded to
 *    …9, effective 2027-01-01), `submit` (the impact: the list prices in no channel, so it
 *    simulates nothing), `approve` by the second key (the apply: every row cut, a new one each,
 *    in ONE batch), `cancel` (the exact restore, one batch); with each answer's Server-Timing;
 * 4. checks through the API that the list has twice the rows after the approval and its rows
 *    again after the cancel; stops wrangler and removes the temp folder (--keep keeps it).
 *
 * `--items N` makes the request N ADJUST_PRICES items on the whole list (+1.0 %, +1.1 %, …), each
 * on the rows as the ones before left them.
 *
 * With `--lookups` (issue 28 item 10; docs/api/change-requests.md §17.7), after loading, the list
 * becomes the primary list of a channel (so lookups price from it and the impact simulates it), and
 * `/health` and a 1-line GET /v1/api/prices (8 read keys) are measured alone, while the request
 * is created, submitted, approved and cancelled back to back (`bench/lib/change-request-load.mjs`),
 * and alone again: each p99 while a submit or approve was in flight against its p99 alone.
 *
 * `--d1-apart` runs the built Worker in Miniflare with its D1 in a workerd process of its own
 * (bench/lib/d1-apart.mjs), as on Cloudflare, instead of `wrangler dev`, where local D1 shares the
 * Worker's process and a long batch holds both. D1's process then has a CPU to itself, the Worker
 * and the load the others (bench/lib/service.mjs `apart`); `--shared-cpus` leaves all three on
 * every CPU.
 *
 * Nothing is written into the project unless `--out` names a file: the figures go to stdout.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { lookupsUnderChangeRequest } from "./lib/change-request-load.mjs";
import { devCall } from "./lib/dev-call.mjs";
import { thousands } from "./lib/common.mjs";
import { startService } from "./lib/service.mjs";

const step = (/** @type {string} */ text) => console.log(`[bench:change-request] ${text}`);
const CHUNK = 1000;

/**
 * One call, timed; throws on an answer ≥ 300. Through `devCall`: it survives wrangler's dev proxy
 * after a long call (bench/lib/dev-call.mjs says how).
 * @param {string} url
 * @param {string} key
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
const call = (url, key, method, path, body) => devCall(url, key, method, path, body, { log: step });

/**
 * The catalogue: `rows` products and a pricelist with one row each, 1,000 a call, the calls spread
 * over the loader keys (one key may write 300 times a minute).
 * @param {{ url: string, key: string, loaderKeys: string[] }} service
 * @param {number} rows
 */
async function loadCatalogue(service, rows) {
  const { url, key } = service;
  const loaders = service.loaderKeys.length ? service.loaderKeys : [key];
  let calls = 0;
  const loader = () => /** @type {string} */ (loaders[calls++ % loaders.length]);
  const code = (/** @type {number} */ i) => `BULK-${String(i).padStart(7, "0")}`;
  const list = await call(url, key, "POST", "/v1/api/pricelist", {
    name: "Catalogue",
    currency: "EUR",
    status: "ACTIVE",
  });
  const started = performance.now();
  for (let from = 0; from < rows; from += CHUNK) {
    const chunk = Array.from({ length: Math.min(CHUNK, rows - from) }, (_, i) => from + i);
    await call(url, loader(), "PUT", "/v1/api/product", {
      products: chunk.map((i) => ({ code: code(i), name: `Bulk ${i}` })),
    });
    await call(url, loader(), "PUT", `/v1/api/pricelist/${list.answer.id}/prices`, {
      prices: chunk.map((i) => ({ productCode: code(i), amount: 1000 + (i % 997) })),
    });
  }
  step(
    `loaded ${thousands(rows)} products and rows in ${Math.round(performance.now() - started)} ms`,
  );
  return /** @type {number} */ (list.answer.id);
}

/**
 * How many rows the list has: its prices list's total.
 * @param {{ url: string, key: string }} service
 * @param {number} list
 */
const rowCount = async (service, list) =>
  /** @type {number} */ (
    (await call(service.url, service.key, "GET", `/v1/api/pricelist/${list}/prices?limit=1`)).answer
      .meta.totalItems
  );

/**
 * The request: one ADJUST_PRICES of the whole list (+2.5 %), or `items` of them (+1.0 %, +1.1 %, …).
 * @param {number} list
 * @param {number} items
 */
const requestBody = (list, items) => ({
  title: items === 1 ? "Catalogue +2.5 %" : `Catalogue, ${items} adjustments`,
  effectiveAt: "2027-01-01T00:00:00Z",
  items: Array.from({ length: items }, (_, i) => ({
    kind: "ADJUST_PRICES",
    pricelistId: list,
    adjustmentBp: items === 1 ? 250 : 100 + 10 * i,
    rounding: { mode: "NEAREST", step: 10, ending: 9 },
  })),
});

/**
 * The list as the primary list of a new channel, and the two subjects the lookups measure.
 * @param {{ url: string, key: string, readKeys: string[] }} service
 * @param {number} list
 */
async function lookupSubjects(service, list) {
  const { url, key, readKeys } = service;
  await call(url, key, "POST", "/v1/api/channel", { code: "BENCH-CR", name: "Bench" });
  await call(url, key, "PUT", "/v1/api/channel/BENCH-CR/pricelist/primary", { pricelistId: list });
  return [
    { id: "health", title: "GET /health", path: "/health", headers: [{}] },
    {
      id: "prices-get-1",
      title: "GET /prices 1 line",
      path: "/v1/api/prices?channel=BENCH-CR&product=BULK-0000001&quantity=1",
      headers: readKeys.map((k) => ({ "x-webhook-signature": k })),
    },
  ];
}

/**
 * The four timed calls.
 * @param {{ url: string, key: string, approverKey: string }} service
 * @param {number} list
 */
async function changeRequest(service, list, items = 1) {
  const { url, key, approverKey } = service;
  const base = "/v1/api/change-requests";
  const create = await call(url, key, "POST", base, requestBody(list, items));
  const id = create.answer.id;
  step(`created ${id} in ${Math.round(create.ms)} ms; submitting …`);
  const submit = await call(url, key, "POST", `${base}/${id}/submit`);
  step(`submitted in ${Math.round(submit.ms)} ms; approving …`);
  if (submit.answer.status !== "PENDING_APPROVAL")
    throw new Error(`submit: ${submit.answer.status}`);
  const approve = await call(url, approverKey, "POST", `${base}/${id}/approve`);
  if (approve.answer.status !== "APPLIED") throw new Error(`approve: ${approve.answer.status}`);
  step(`approved in ${Math.round(approve.ms)} ms; counting the rows …`);
  const applied = await rowCount(service, list);
  step(`${thousands(applied)} rows; cancelling …`);
  const cancel = await call(url, key, "POST", `${base}/${id}/cancel`);
  if (cancel.answer.status !== "CANCELLED") throw new Error(`cancel: ${cancel.answer.status}`);
  const restored = await rowCount(service, list);
  return { runs: { create, submit, approve, cancel }, applied, restored };
}

async function main() {
  const { values } = parseArgs({
    options: {
      rows: { type: "string", default: "100000" },
      items: { type: "string", default: "1" },
      keep: { type: "boolean", default: false },
      lookups: { type: "boolean", default: false },
      seconds: { type: "string", default: "10" },
      connections: { type: "string", default: "4" },
      rounds: { type: "string", default: "2" },
      out: { type: "string" },
      "d1-apart": { type: "boolean", default: false },
      "shared-cpus": { type: "boolean", default: false },
    },
  });
  const rows = Number(values.rows);
  if (!Number.isSafeInteger(rows) || rows < 1 || rows > 1_000_000)
    throw new Error(`--rows ${values.rows}: 1-1000000`);
  const dir = mkdtempSync(join(tmpdir(), "pricing-bench-change-request-"));
  /** @type {(() => Promise<void>) | undefined} */
  let stopService;
  const stop = () => stopService?.();
  process.on("SIGINT", () => {
    stop();
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    const items = Number(values.items);
    if (!Number.isSafeInteger(items) || items < 1 || items > 100)
      throw new Error(`--items ${values.items}: 1-100`);
    // Two calls per 1,000 rows, at most 250 a loader key: under its write limit of 300 a minute.
    const loaders = Math.ceil((2 * Math.ceil(rows / CHUNK)) / 250);
    const service = await startService(dir, {
      approver: true,
      readers: values.lookups ? 8 : 0,
      loaders,
      d1Apart: values["d1-apart"],
      sharedCpus: values["shared-cpus"],
    });
    stopService = service.stop;
    const how = values["d1-apart"] ? "the built Worker, its D1 apart," : "wrangler dev";
    step(`${how} on ${service.url}, empty D1 in ${dir}, migrations applied`);
    const list = await loadCatalogue(service, rows);
    const approverKey = /** @type {string} */ (service.approverKey);
    if (values.lookups) {
      const subjects = await lookupSubjects(service, list);
      const runs = await lookupsUnderChangeRequest({
        base: service.url,
        key: service.key,
        approverKey,
        body: requestBody(list, items),
        subjects,
        connections: Number(values.connections),
        seconds: Number(values.seconds),
        rounds: Number(values.rounds),
        log: step,
      });
      if (values.out) {
        const at = new Date().toISOString();
        const result = { at, rows, items, connections: Number(values.connections), runs };
        writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
        step(`written to ${values.out}`);
      }
      return;
    }
    const { runs, applied, restored } = await changeRequest(
      { ...service, approverKey },
      list,
      items,
    );
    if (applied !== 2 * rows || restored !== rows) {
      throw new Error(`rows: ${applied} after the approval, ${restored} after the cancel`);
    }
    step(
      `${thousands(rows)} rows: ${thousands(applied)} once applied, ${thousands(restored)} once cancelled`,
    );
    for (const [name, run] of Object.entries(runs)) {
      console.log(`${name.padEnd(8)} ${String(Math.round(run.ms)).padStart(7)} ms  ${run.timing}`);
    }
  } finally {
    await stop();
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[bench:change-request] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
