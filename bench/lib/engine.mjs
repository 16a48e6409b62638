/**
 * The price engine alone, in Node: `resolvePrices` from src/pricing (bundled by esbuild into a
 * temporary .mjs) on 500 lines against 50 candidate trade conditions and 10 pricelists, the
 * issue's reference case, with product groups, a derivation chain, floors, order-level scales,
 * thresholds and quantity rules in play (issue 12). CPU time per call from process.cpuUsage
 * (user + system), median of N. `npm run bench` runs it; `node bench/lib/engine.mjs [runs]` runs
 * it alone.
 */
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { ROOT } from "./common.mjs";

/** @typedef {import("../../src/pricing/types").PriceRequest} PriceRequest */
/** @typedef {import("../../src/pricing/vocabulary").PricelistLevel} PricelistLevel */

const AT = Date.UTC(2026, 5, 15, 12);
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2035, 0, 1);
const QUANTITIES = [1, 5, 12, 60, 150];
/** A price row in force whenever (docs/pricing-rules.md §17). */
const UNDATED = { validFrom: null, validTo: null };

/** @typedef {import("../../src/pricing/types").ProductFacts} ProductFacts */

/**
 * A group tree over the catalogue: 5 roots, 4 children each, 5 grandchildren each (125 groups);
 * product p sits in grandchild p mod 100. Returns each product's group path (own group first).
 * @param {string[]} codes
 */
function groupPaths(codes) {
  return codes.map((_, p) => {
    const leaf = p % 100;
    const child = Math.floor(leaf / 5);
    const root = Math.floor(child / 4);
    return [`G-${root}-${child}-${leaf}`, `G-${root}-${child}`, `G-${root}`];
  });
}

/**
 * Quantity rules: every 10th product has a maximum, every 50th comes in boxes of 5 (so some
 * lines are refused and leave the order-level sums).
 * @param {number} p
 * @returns {Pick<ProductFacts, "minOrderQuantity" | "orderIncrement" | "maxOrderQuantity">}
 */
const quantityRule = (p) =>
  p % 50 === 0
    ? { minOrderQuantity: 5, orderIncrement: 5, maxOrderQuantity: null }
    : { minOrderQuantity: 1, orderIncrement: 1, maxOrderQuantity: p % 10 === 0 ? 1000 : null };

/**
 * @param {string} productCode
 * @param {number} amount
 */
const threeTiers = (productCode, amount) => [
  { productCode, minQuantity: 1, amount, ...UNDATED },
  { productCode, minQuantity: 10, amount: Math.round(amount * 0.95), ...UNDATED },
  { productCode, minQuantity: 50, amount: Math.round(amount * 0.9), ...UNDATED },
];

/**
 * 10 pricelists over every level, 1+/10+/50+ tiers; lists 4, 5 and 6 are derived (a chain of 3
 * steps down to a catalogue base that is not a candidate, with price endings), with own rows for
 * some products.
 * @param {string[]} codes
 * @param {number} pricelists
 */
function pricelistsOf(codes, pricelists) {
  /** @type {PricelistLevel[]} */
  const LEVELS = ["INDIVIDUAL", "CUSTOMER", "CUSTOMER", "CUSTOMER_GROUP", "CUSTOMER_GROUP"];
  const levelOf = (/** @type {number} */ i) =>
    i === pricelists - 1 ? "CHANNEL_PRIMARY" : (LEVELS[i] ?? "CHANNEL");
  /** @type {Record<number, import("../../src/pricing/types").Derivation>} */
  const DERIVED = {
    4: { basePricelistId: 5, adjustmentBp: -500, rounding: { mode: "UP", step: 5, ending: 0 } },
    5: { basePricelistId: 6, adjustmentBp: 0, rounding: { mode: "DOWN", step: 10, ending: 9 } },
    6: {
      basePricelistId: 100,
      adjustmentBp: -1000,
      rounding: { mode: "NEAREST", step: 10, ending: 9 },
    },
  };
  return Array.from({ length: pricelists }, (_, i) => ({
    id: i + 1,
    name: `PL-${i + 1}`,
    status: /** @type {const} */ ("ACTIVE"),
    currency: "EUR",
    priority: i % 3,
    validFrom: FROM,
    validTo: i % 2 ? TO : null,
    allowsTradeDiscounts: i !== 0,
    taxInclusive: false,
    levels: [levelOf(i)],
    derivation: DERIVED[i + 1] ?? null,
    // Lists high up reach a part of the products only, so many lines fall through a level or two;
    // derived lists hold own rows for a few products and derive the rest.
    prices: codes
      .filter((_, p) =>
        DERIVED[i + 1] ? p % 7 === i : levelOf(i) === "CHANNEL_PRIMARY" || (p + i) % (i + 2) === 0,
      )
      .flatMap((productCode, p) => threeTiers(productCode, 1000 + ((p * 37 + i * 11) % 900))),
  }));
}

/** A root group (odd i) or a child group (even i) of the tree of `groupPaths`. */
const groupOf = (/** @type {number} */ i) => {
  const child = i % 20;
  return i % 2 ? `G-${i % 5}` : `G-${Math.floor(child / 4)}-${child}`;
};

/**
 * 50 trade conditions of every scope and type: a third list products, a third list groups (a
 * root or a child), the rest reach all products; some scale on the line quantity, some on the
 * order quantity, some on the order value; some stackable.
 * @param {string[]} codes
 * @param {number} conditions
 */
function conditionsOf(codes, conditions) {
  const SCOPES = /** @type {const} */ (["CUSTOMER", "CUSTOMER_GROUP", "CHANNEL", "GLOBAL"]);
  const TYPES = /** @type {const} */ ([
    "DISCOUNT",
    "DISCOUNT",
    "DISCOUNT",
    "SURCHARGE",
    "NET_PRICE",
  ]);
  const BASES = /** @type {const} */ (["LINE_QUANTITY", "ORDER_QUANTITY", "ORDER_VALUE"]);
  return Array.from({ length: conditions }, (_, i) => {
    const type = TYPES[i % TYPES.length] ?? "DISCOUNT";
    const scope = SCOPES[i % SCOPES.length] ?? "GLOBAL";
    const reach = type === "NET_PRICE" ? 0 : i % 3;
    const absolute = type === "NET_PRICE" || i % 7 === 0;
    const scaleBasis = BASES[Math.floor(i / 6) % 3] ?? "LINE_QUANTITY";
    const unit = scaleBasis === "ORDER_VALUE" ? 10_000 : scaleBasis === "ORDER_QUANTITY" ? 100 : 1;
    const scaled = i % 6 === 1 && !absolute;
    return {
      id: i + 1,
      name: `TC-${i + 1}`,
      scope,
      status: /** @type {const} */ ("ACTIVE"),
      type,
      discountType: absolute
        ? /** @type {const} */ ("ABSOLUTE")
        : /** @type {const} */ ("PERCENTAGE"),
      value: type === "NET_PRICE" ? 900 : absolute ? 25 : 100 + (i % 10) * 50,
      currency: absolute || (scaled && scaleBasis === "ORDER_VALUE") ? "EUR" : null,
      validFrom: FROM,
      validTo: i % 4 ? TO : null,
      priority: i % 5,
      stackable: i % 11 === 0,
      productCodes: reach === 0 ? codes.filter((_, p) => (p + i) % 10 === 0) : [],
      productGroupCodes: reach === 1 ? [groupOf(i)] : [],
      channelCodes: scope === "CHANNEL" ? ["WEB-DE"] : [],
      scaleBasis: scaled ? scaleBasis : /** @type {const} */ ("LINE_QUANTITY"),
      scales: scaled
        ? [
            { minimum: 10 * unit, value: 400 },
            { minimum: 50 * unit, value: 700 },
          ]
        : [],
      customerCodes: scope === "CUSTOMER" ? ["C-1"] : [],
      customerGroupCodes: scope === "CUSTOMER_GROUP" ? ["G-1"] : [],
    };
  });
}

/**
 * 500 products in a group tree with quantity rules; 10 pricelists (a derivation chain of 3 steps
 * with price endings), 50 trade conditions (groups, order-level scales) and 5 promotions (groups,
 * thresholds), 2 FLOOR lists close under the prices, so floors lift many lines — all reaching
 * the customer, so every line does full work.
 * @returns {PriceRequest}
 */
export function engineCase(lines = 500, conditions = 50, pricelists = 10) {
  const codes = Array.from({ length: lines }, (_, i) => `P-${String(i + 1).padStart(5, "0")}`);
  const paths = groupPaths(codes);
  const promotions = Array.from({ length: 5 }, (_, i) => ({
    id: i + 1,
    name: `PR-${i + 1}`,
    status: /** @type {const} */ ("ACTIVE"),
    discountType: /** @type {const} */ ("PERCENTAGE"),
    value: 500 + i * 300,
    currency: "EUR",
    validFrom: FROM,
    validTo: TO,
    priority: i,
    stacking: i % 2 ? /** @type {const} */ ("ON_TOP") : /** @type {const} */ ("BEST_OF"),
    productCodes: i < 3 ? codes.filter((_, p) => (p + i) % 25 === 0) : [],
    productGroupCodes: i >= 3 ? [`G-${i}`] : [],
    channelCodes: [],
    customerGroupCodes: [],
    threshold:
      i === 3
        ? { basis: /** @type {const} */ ("QUANTITY"), minimum: 500 }
        : i === 4
          ? { basis: /** @type {const} */ ("VALUE"), minimum: 1_000_000 }
          : null,
  }));
  const floors = [0, 1].map((f) => ({
    id: 200 + f,
    name: `FL-${f}`,
    status: /** @type {const} */ ("ACTIVE"),
    currency: "EUR",
    priority: f,
    validFrom: FROM,
    validTo: TO,
    prices: codes
      .filter((_, p) => p % (f + 2) === 0)
      .map((productCode, p) => ({
        productCode,
        minQuantity: 1,
        amount: 800 + ((p * 13) % 200),
        ...UNDATED,
      })),
  }));
  return {
    at: AT,
    currency: "EUR",
    channel: { code: "WEB-DE" },
    customer: { code: "C-1" },
    groupCodes: ["G-1"],
    products: new Map(
      codes.map((code, p) => [code, { groupPath: paths[p] ?? [], ...quantityRule(p) }]),
    ),
    explain: false,
    pricelists: pricelistsOf(codes, pricelists),
    priceBases: [
      {
        id: 100,
        currency: "EUR",
        derivation: null,
        prices: codes.flatMap((productCode, p) => threeTiers(productCode, 1200 + ((p * 29) % 800))),
      },
    ],
    floors,
    tradeConditions: conditionsOf(codes, conditions),
    promotions,
    lines: codes.map((productCode, i) => ({
      productCode,
      quantity: QUANTITIES[i % QUANTITIES.length] ?? 1,
    })),
  };
}

/**
 * @param {number[]} values
 * @param {number} q 0..1
 */
export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return /** @type {number} */ (sorted[index]);
}

/** @typedef {{ resolvePrices: (r: PriceRequest) => import("../../src/pricing/types").PriceAnswer }} Engine */

/**
 * The engine of the `src/` folder `src`, bundled by esbuild into `dir`/`name`.mjs and imported.
 * @param {string} src
 * @param {string} dir
 * @param {string} name
 * @returns {Promise<Engine>}
 */
export async function bundleEngine(src, dir, name) {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [join(src, "pricing", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    outfile,
    logLevel: "silent",
  });
  return import(pathToFileURL(outfile).href);
}

/**
 * Bundles src/pricing/index.ts into `dir` and times `resolvePrices` on `engineCase()`.
 * @param {string} dir a temporary folder
 * @param {{ runs: number }} options
 */
async function benchEngine(dir, { runs }) {
  const engine = await bundleEngine(join(ROOT, "src"), dir, "pricing");
  const request = engineCase();
  const answer = engine.resolvePrices(request);
  const ok = answer.lines.filter((l) => l.status === "OK").length;
  const adjusted = answer.lines.filter((l) => l.adjustments.length > 0).length;
  const count = (/** @type {(l: import("../../src/pricing/types").LinePrice) => boolean} */ f) =>
    answer.lines.filter(f).length;
  for (let i = 0; i < Math.max(10, Math.round(runs / 3)); i++) engine.resolvePrices(request);
  /** @type {number[]} */
  const cpu = [];
  /** @type {number[]} */
  const wall = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    engine.resolvePrices(request);
    const w1 = performance.now();
    const c1 = process.cpuUsage(c0);
    cpu.push((c1.user + c1.system) / 1000);
    wall.push(w1 - w0);
  }
  const explained = [];
  for (let i = 0; i < Math.min(runs, 10); i++) {
    const w0 = performance.now();
    engine.resolvePrices({ ...request, explain: true });
    explained.push(performance.now() - w0);
  }
  const tiers = tierCases(engine, runs);
  return {
    lines: request.lines.length,
    tradeConditions: request.tradeConditions.length,
    pricelists: request.pricelists.length,
    promotions: request.promotions.length,
    priceRows: request.pricelists.reduce((s, p) => s + p.prices.length, 0),
    baseRows: request.priceBases.reduce((s, p) => s + p.prices.length, 0),
    floorRows: request.floors.reduce((s, p) => s + p.prices.length, 0),
    linesOk: ok,
    linesAdjusted: adjusted,
    linesDerived: count((l) => l.source?.derivedFrom != null),
    linesFloored: count((l) => l.adjustments.some((a) => a.kind === "FLOOR")),
    linesThroughGroups: count((l) =>
      l.adjustments.some((a) => a.rung !== null && a.rung % 3 === 2),
    ),
    linesQuantityRefused: count((l) => l.status === "QUANTITY_NOT_ALLOWED"),
    runs,
    cpuMsMedian: Number(quantile(cpu, 0.5).toFixed(3)),
    cpuMsP90: Number(quantile(cpu, 0.9).toFixed(3)),
    wallMsMedian: Number(quantile(wall, 0.5).toFixed(3)),
    explainWallMsMedian: Number(quantile(explained, 0.5).toFixed(3)),
    ...tiers,
  };
}

/**
 * CPU ms per call of `request`, median of `runs` after a warm-up.
 * @param {{ resolvePrices: (r: PriceRequest) => unknown }} engine
 * @param {PriceRequest} request
 * @param {number} runs
 */
function cpuMedian(engine, request, runs) {
  for (let i = 0; i < Math.max(10, Math.round(runs / 3)); i++) engine.resolvePrices(request);
  /** @type {number[]} */
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    engine.resolvePrices(request);
    const c1 = process.cpuUsage(c0);
    cpu.push((c1.user + c1.system) / 1000);
  }
  return Number(quantile(cpu, 0.5).toFixed(3));
}

/**
 * CPU ms per call of each request, measured in alternation: blocks of `BLOCK` calls of each in
 * turn, the median block of each over about `runs` calls, and at least `MIN_BLOCKS` blocks after
 * at least `MIN_WARMUP` calls of each (about a second in all): a median of the 5 blocks that
 * `runs` = 50 gives moved from 1.3× to 2.3× between two runs of the same code. A call of a 50-line
 * cart takes a quarter of a millisecond, so a call alone is near the clock's grain, and timing one
 * request's calls all before the other's lets the machine's drift (JIT, GC, others' load) fall on
 * one side only.
 * @param {{ resolvePrices: (r: PriceRequest) => unknown }} engine
 * @param {[PriceRequest, PriceRequest]} requests
 * @param {number} runs
 * @returns {[number, number]}
 */
function alternatedMedians(engine, requests, runs) {
  const [BLOCK, MIN_BLOCKS, MIN_WARMUP] = [20, 25, 100];
  for (const request of requests) {
    for (let i = 0; i < Math.max(MIN_WARMUP, Math.round(runs / 3)); i++) {
      engine.resolvePrices(request);
    }
  }
  /** @type {[number[], number[]]} */
  const blocks = [[], []];
  for (let b = 0; b < Math.max(MIN_BLOCKS, Math.round(runs / BLOCK)); b++) {
    requests.forEach((request, r) => {
      const c0 = process.cpuUsage();
      for (let i = 0; i < BLOCK; i++) engine.resolvePrices(request);
      const c1 = process.cpuUsage(c0);
      blocks[r === 0 ? 0 : 1].push((c1.user + c1.system) / 1000 / BLOCK);
    });
  }
  const median = (/** @type {number[]} */ ms) => Number(quantile(ms, 0.5).toFixed(3));
  return [median(blocks[0]), median(blocks[1])];
}

/**
 * Graduated tiers and the buyer's tier ladder (docs/pricing-rules.md §29, §30; issue 32): the
 * 500-line case with every candidate list GRADUATED (each line a lot of bands), and a 50-line
 * cart of the same case priced without and with `ladder` (every OK line priced again at each
 * tier of its base list), the two timed in alternation (`alternatedMedians`); the target: the
 * ladder costs at most 2× the cart without it.
 * @param {Engine} engine
 * @param {number} runs
 */
function tierCases(engine, runs) {
  const base = engineCase();
  /** @type {PriceRequest} */
  const graduated = {
    ...base,
    pricelists: base.pricelists.map((p) => ({
      ...p,
      tierMode: /** @type {const} */ ("GRADUATED"),
    })),
  };
  const graduatedLines = engine
    .resolvePrices(graduated)
    .lines.filter((l) => l.source?.tierMode === "GRADUATED").length;
  const cart = engineCase(50);
  const laddered = engine.resolvePrices({ ...cart, ladder: true });
  const [cartMs, ladderMs] = alternatedMedians(engine, [cart, { ...cart, ladder: true }], runs);
  return {
    graduatedLines,
    graduatedCpuMsMedian: cpuMedian(engine, graduated, runs),
    cartLines: cart.lines.length,
    ladderEntries: laddered.lines.reduce((n, l) => n + (l.ladder?.length ?? 0), 0),
    cartCpuMsMedian: cartMs,
    ladderCpuMsMedian: ladderMs,
    ladderRatio: Number((ladderMs / cartMs).toFixed(2)),
  };
}

/**
 * `benchEngine` in a Node process of its own (`npm run bench` uses it). Timed inside the bench's
 * own process, the same calls took 6.6–17.4 ms median against 2.5–4 ms alone on the same day
 * (2026-11-29): a process of its own measures the engine, not the bench around it.
 * @param {{ runs: number }} options
 * @returns {Promise<Awaited<ReturnType<typeof benchEngine>>>}
 */
export async function benchEngineApart({ runs }) {
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  const script = fileURLToPath(import.meta.url);
  const { stdout } = await promisify(execFile)(process.execPath, [script, String(runs), "--json"], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout);
}

// `node bench/lib/engine.mjs [runs] [--json]`: the engine bench alone, without the Worker or a
// data set (`--json`: the figures as JSON, for `benchEngineApart`).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "pricing-engine-bench-"));
  try {
    const figures = await benchEngine(dir, { runs: Number(process.argv[2] ?? 200) });
    console.log(process.argv.includes("--json") ? JSON.stringify(figures) : figures);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
