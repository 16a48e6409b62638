/**
 * The engine's quote honouring alone, in ONE process: `node bench/lib/engine-quotes.mjs [runs]`
 * bundles src/pricing/index.ts and times the engine bench's case (`engineCase`, 1, 50 and 500
 * lines) without quotes and with one accepted AGREEMENT of 20 lines (none, 1 or 20 of them in
 * the cart), alternating call by call so the machine's load moves both sides alike: CPU ms per
 * call (process.cpuUsage), median, and the change. A control pair (the same request on both
 * sides) shows the method's own noise. docs/performance.md "Quotes in the lookup".
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./common.mjs";
import { bundleEngine, engineCase, quantile } from "./engine.mjs";

/** @typedef {import("../../src/pricing/types").PriceRequest} PriceRequest */

/**
 * An accepted AGREEMENT over `codes`, in force from 2025 to 2035 (the engine case's instant is in
 * 2026), each line quoted at 1.00 a piece.
 * @param {string[]} codes
 * @returns {import("../../src/pricing/request").QuoteTerms}
 */
const agreement = (codes) => ({
  id: 1,
  revision: 1,
  mode: "AGREEMENT",
  lock: "FIXED",
  acceptedAt: Date.UTC(2025, 0, 1),
  validTo: Date.UTC(2035, 0, 1),
  lines: codes.map((productCode) => ({
    productCode,
    quantity: 1,
    quotedUnitAmount: 100,
    priceUnit: 1,
  })),
});

/** The cases: cart lines, and how many of the agreement's 20 products are in the cart (null: the control). */
const CASES = /** @type {const} */ ([
  [1, null],
  [1, 0],
  [50, null],
  [50, 1],
  [500, null],
  [500, 1],
  [500, 20],
]);

async function main() {
  const runs = Number(process.argv[2] ?? 1000);
  const dir = mkdtempSync(join(tmpdir(), "engine-quotes-"));
  try {
    const engine = await bundleEngine(join(ROOT, "src"), dir, "pricing");
    const cpuOf = (/** @type {PriceRequest} */ request) => {
      const c0 = process.cpuUsage();
      engine.resolvePrices(request);
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / 1000;
    };
    for (const [lines, inCart] of CASES) {
      const without = engineCase(lines);
      const codes = without.lines.map((l) => l.productCode);
      const quoted = [
        ...codes.slice(0, inCart ?? 0),
        ...Array.from({ length: 20 - (inCart ?? 0) }, (_, i) => `Q-${i}`),
      ];
      /** @type {PriceRequest} */
      const withQuotes =
        inCart === null ? { ...without } : { ...without, quotes: [agreement(quoted)] };
      const a = engine.resolvePrices(withQuotes).lines;
      const b = engine.resolvePrices(without).lines;
      const differ = a.filter((l, i) => JSON.stringify(l) !== JSON.stringify(b[i])).length;
      for (let i = 0; i < 50; i++) {
        engine.resolvePrices(without);
        engine.resolvePrices(withQuotes);
      }
      /** @type {number[]} */
      const w = [];
      /** @type {number[]} */
      const wo = [];
      for (let i = 0; i < runs; i++) {
        if (i % 2 === 0) {
          w.push(cpuOf(withQuotes));
          wo.push(cpuOf(without));
        } else {
          wo.push(cpuOf(without));
          w.push(cpuOf(withQuotes));
        }
      }
      const [mw, mwo] = [quantile(w, 0.5), quantile(wo, 0.5)];
      const what =
        inCart === null
          ? "control (the same request twice)"
          : `an agreement of 20 lines, ${inCart} in the cart, ${differ} lines priced from it`;
      process.stdout.write(
        `${lines} line(s), ${what}: median ${mwo.toFixed(3)} → ${mw.toFixed(3)} ms CPU ` +
          `(${mw >= mwo ? "+" : ""}${((mw / mwo - 1) * 100).toFixed(1)} %)\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
