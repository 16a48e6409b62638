/**
 * The price engine alone, in Node: `resolvePrices` from src/pricing (bundled by esbuild into a
 * temporary .mjs) on 500 lines against 50 candidate trade conditions and 10 pricelists, the
 * issue's reference case. CPU time per call from process.cpuUsage (user + system), median of N.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { ROOT } from "./common.mjs";

/** @typedef {import("../../src/pricing/types").PriceRequest} PriceRequest */
/** @typedef {import("../../src/pricing/vocabulary").PricelistLevel} PricelistLevel */

const AT = Date.UTC(2026, 5, 15, 12);
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2035, 0, 1);
const QUANTITIES = [1, 5, 12, 60, 150];

/**
 * 500 products; 10 pricelists over every level, each with 1+/10+/50+ tiers for every product;
 * 50 trade conditions of every scope, type and rung (a third product-specific, some with scales,
 * some stackable) and 5 promotions — all reaching the customer, so every line does full work.
 * @returns {PriceRequest}
 */
export function engineCase(lines = 500, conditions = 50, pricelists = 10) {
  const codes = Array.from({ length: lines }, (_, i) => `P-${String(i + 1).padStart(5, "0")}`);
  /** @type {PricelistLevel[]} */
  const LEVELS = ["INDIVIDUAL", "CUSTOMER", "CUSTOMER", "CUSTOMER_GROUP", "CUSTOMER_GROUP"];
  const levelOf = (/** @type {number} */ i) =>
    i === pricelists - 1 ? "CHANNEL_PRIMARY" : (LEVELS[i] ?? "CHANNEL");
  const lists = Array.from({ length: pricelists }, (_, i) => ({
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
    // Lists high up reach a part of the products only, so many lines fall through a level or two.
    prices: codes
      .filter((_, p) => levelOf(i) === "CHANNEL_PRIMARY" || (p + i) % (i + 2) === 0)
      .flatMap((productCode, p) => {
        const amount = 1000 + ((p * 37 + i * 11) % 900);
        return [
          { productCode, minQuantity: 1, amount },
          { productCode, minQuantity: 10, amount: Math.round(amount * 0.95) },
          { productCode, minQuantity: 50, amount: Math.round(amount * 0.9) },
        ];
      }),
  }));
  const SCOPES = /** @type {const} */ (["CUSTOMER", "CUSTOMER_GROUP", "CHANNEL", "GLOBAL"]);
  const TYPES = /** @type {const} */ ([
    "DISCOUNT",
    "DISCOUNT",
    "DISCOUNT",
    "SURCHARGE",
    "NET_PRICE",
  ]);
  const tradeConditions = Array.from({ length: conditions }, (_, i) => {
    const type = TYPES[i % TYPES.length] ?? "DISCOUNT";
    const scope = SCOPES[i % SCOPES.length] ?? "GLOBAL";
    const productSpecific = type === "NET_PRICE" || i % 3 === 0;
    const absolute = type === "NET_PRICE" || i % 7 === 0;
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
      currency: absolute ? "EUR" : null,
      validFrom: FROM,
      validTo: i % 4 ? TO : null,
      priority: i % 5,
      stackable: i % 11 === 0,
      productCodes: productSpecific ? codes.filter((_, p) => (p + i) % 10 === 0) : [],
      channelCodes: scope === "CHANNEL" ? ["WEB-DE"] : [],
      scales:
        i % 6 === 1 && !absolute
          ? [
              { minQuantity: 10, value: 400 },
              { minQuantity: 50, value: 700 },
            ]
          : [],
      customerCodes: scope === "CUSTOMER" ? ["C-1"] : [],
      customerGroupCodes: scope === "CUSTOMER_GROUP" ? ["G-1"] : [],
    };
  });
  const promotions = Array.from({ length: 5 }, (_, i) => ({
    id: i + 1,
    name: `PR-${i + 1}`,
    status: /** @type {const} */ ("ACTIVE"),
    discountType: /** @type {const} */ ("PERCENTAGE"),
    value: 500 + i * 300,
    currency: null,
    validFrom: FROM,
    validTo: TO,
    priority: i,
    stacking: i % 2 ? /** @type {const} */ ("ON_TOP") : /** @type {const} */ ("BEST_OF"),
    productCodes: codes.filter((_, p) => (p + i) % 25 === 0),
    channelCodes: [],
    customerGroupCodes: [],
  }));
  return {
    at: AT,
    currency: "EUR",
    channel: { code: "WEB-DE" },
    customer: { code: "C-1" },
    groupCodes: ["G-1"],
    knownProducts: codes,
    explain: false,
    pricelists: lists,
    tradeConditions,
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

/**
 * Bundles src/pricing/index.ts into `dir` and times `resolvePrices` on `engineCase()`.
 * @param {string} dir a temporary folder
 * @param {{ runs: number }} options
 */
export async function benchEngine(dir, { runs }) {
  const outfile = join(dir, "pricing.mjs");
  await build({
    entryPoints: [join(ROOT, "src", "pricing", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    outfile,
    logLevel: "silent",
  });
  /** @type {{ resolvePrices: (r: PriceRequest) => import("../../src/pricing/types").PriceAnswer }} */
  const engine = await import(pathToFileURL(outfile).href);
  const request = engineCase();
  const answer = engine.resolvePrices(request);
  const ok = answer.lines.filter((l) => l.status === "OK").length;
  const adjusted = answer.lines.filter((l) => l.adjustments.length > 0).length;
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
  return {
    lines: request.lines.length,
    tradeConditions: request.tradeConditions.length,
    pricelists: request.pricelists.length,
    promotions: request.promotions.length,
    priceRows: request.pricelists.reduce((s, p) => s + p.prices.length, 0),
    linesOk: ok,
    linesAdjusted: adjusted,
    runs,
    cpuMsMedian: Number(quantile(cpu, 0.5).toFixed(3)),
    cpuMsP90: Number(quantile(cpu, 0.9).toFixed(3)),
    wallMsMedian: Number(quantile(wall, 0.5).toFixed(3)),
    explainWallMsMedian: Number(quantile(explained, 0.5).toFixed(3)),
  };
}
