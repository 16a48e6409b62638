/**
 * Two builds of the price engine in ONE process: `node bench/lib/engine-compare.mjs <before-src>
 * [runs]` bundles `<before-src>/pricing/index.ts` (e.g. a `git archive` of an earlier commit's
 * src/) and this checkout's src/pricing/index.ts, checks that both answer every variant of the
 * engine bench's case byte for byte alike (explain, ladder, margin, graduated, separate orders,
 * the lines reversed), then times them alternately, call by call, so the machine's load moves
 * both sides alike: CPU ms per call (process.cpuUsage, user + system), median, and the ratio
 * after ÷ before. The ladder's cost is measured the same way: the 50-line cart without and with
 * `ladder`, alternating, in each build; and as the engine bench measures it (`ladderInBlocks`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./common.mjs";
import { bundleEngine, engineCase, quantile } from "./engine.mjs";

/** @typedef {import("../../src/pricing/types").PriceRequest} PriceRequest */
/** @typedef {import("./engine.mjs").Engine} Engine */

/** The variants whose answers must not change, each a request. */
export function variants() {
  const base = engineCase();
  const cart = engineCase(50);
  const graduated = {
    ...base,
    pricelists: base.pricelists.map((p) => ({
      ...p,
      tierMode: /** @type {const} */ ("GRADUATED"),
    })),
  };
  /** @type {Record<string, PriceRequest>} */
  const cases = {
    plain: base,
    explain: { ...base, explain: true },
    margin: { ...base, margin: true },
    marginExplain: { ...base, margin: true, explain: true },
    ladder: { ...base, ladder: true },
    ladderExplain: { ...cart, ladder: true, explain: true },
    graduated,
    graduatedLadder: { ...graduated, ladder: true, explain: true },
    separate: { ...base, separateOrders: true },
    reversed: { ...base, lines: [...base.lines].reverse() },
    cart,
    halfDown: { ...base, roundingMode: "HALF_EVEN" },
    anonymous: { ...base, customer: null, explain: true },
    fewConditions: engineCase(200, 7, 4),
    manyConditions: { ...engineCase(120, 200, 10), explain: true },
  };
  return cases;
}

/**
 * CPU ms of one call.
 * @param {Engine} engine
 * @param {PriceRequest} request
 */
function cpuOf(engine, request) {
  const c0 = process.cpuUsage();
  engine.resolvePrices(request);
  const c1 = process.cpuUsage(c0);
  return (c1.user + c1.system) / 1000;
}

/**
 * Alternates a and b, call by call; returns the medians and b ÷ a.
 * @param {[Engine, PriceRequest]} a
 * @param {[Engine, PriceRequest]} b
 * @param {number} runs
 */
export function alternate(a, b, runs) {
  for (let i = 0; i < Math.max(20, runs / 5); i++) {
    a[0].resolvePrices(a[1]);
    b[0].resolvePrices(b[1]);
  }
  /** @type {number[]} */
  const as = [];
  /** @type {number[]} */
  const bs = [];
  for (let i = 0; i < runs; i++) {
    // Which goes first alternates too.
    let ax, y;
    if (i % 2) {
      ax = cpuOf(...a);
      y = cpuOf(...b);
    } else {
      y = cpuOf(...b);
      ax = cpuOf(...a);
    }
    as.push(ax);
    bs.push(y);
  }
  const ma = quantile(as, 0.5);
  const mb = quantile(bs, 0.5);
  // The lower decile too: under others' load (2 cores shared) it moves less than the median.
  const la = quantile(as, 0.1);
  const lb = quantile(bs, 0.1);
  return {
    aMs: Number(ma.toFixed(3)),
    bMs: Number(mb.toFixed(3)),
    ratio: Number((mb / ma).toFixed(3)),
    aP10: Number(la.toFixed(3)),
    bP10: Number(lb.toFixed(3)),
    ratioP10: Number((lb / la).toFixed(3)),
  };
}

/**
 * The ladder's ratio as `node bench/lib/engine.mjs` measures it (its `alternatedMedians`: blocks
 * of 20 calls, the cart then the cart with `ladder`), for both builds in turn, block pair by block
 * pair: per call, the alternation above lets each ladder call disturb the next cart call, which
 * makes the cart look dearer and the ratio smaller than the bench's.
 * @param {Engine} before
 * @param {Engine} after
 * @param {number} rounds
 */
function ladderInBlocks(before, after, rounds) {
  const BLOCK = 20;
  const cart = engineCase(50);
  const laddered = { ...cart, ladder: true };
  /** @param {Engine} engine @param {PriceRequest} request */
  const block = (engine, request) => {
    const c0 = process.cpuUsage();
    for (let i = 0; i < BLOCK; i++) engine.resolvePrices(request);
    const c1 = process.cpuUsage(c0);
    return (c1.user + c1.system) / 1000 / BLOCK;
  };
  for (const engine of [before, after]) {
    for (let i = 0; i < 100; i++) {
      engine.resolvePrices(cart);
      engine.resolvePrices(laddered);
    }
  }
  /** @type {Record<string, [number[], number[]]>} */
  const ms = { before: [[], []], after: [[], []] };
  for (let k = 0; k < rounds; k++) {
    /** @type {[string, Engine][]} */
    const order = [
      ["before", before],
      ["after", after],
    ];
    for (const [name, engine] of k % 2 ? order : order.reverse()) {
      ms[name]?.[0].push(block(engine, cart));
      ms[name]?.[1].push(block(engine, laddered));
    }
  }
  /** @param {[number[], number[]]} pair @param {number} q */
  const ratio = ([c, l], q) => Number((quantile(l, q) / quantile(c, q)).toFixed(3));
  return Object.fromEntries(
    Object.entries(ms).map(([name, pair]) => [
      `ladder ÷ cart in blocks of 20, ${name}`,
      {
        cartMs: Number(quantile(pair[0], 0.5).toFixed(3)),
        ladderMs: Number(quantile(pair[1], 0.5).toFixed(3)),
        ratio: ratio(pair, 0.5),
        ratioP10: ratio(pair, 0.1),
      },
    ]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const beforeSrc = resolve(process.argv[2] ?? "");
  const runs = Number(process.argv[3] ?? 400);
  const dir = mkdtempSync(join(tmpdir(), "pricing-engine-compare-"));
  try {
    const before = await bundleEngine(beforeSrc, dir, "before");
    const after = await bundleEngine(process.env.AFTER_SRC ?? join(ROOT, "src"), dir, "after");
    let same = 0;
    for (const [name, request] of Object.entries(variants())) {
      const x = JSON.stringify(before.resolvePrices(request));
      const y = JSON.stringify(after.resolvePrices(request));
      if (x !== y) {
        let at = 0;
        while (x[at] === y[at]) at++;
        console.error(
          `DIFFERENT: ${name} at ${at}:\n  before …${x.slice(at - 200, at + 200)}\n  after  …${y.slice(at - 200, at + 200)}`,
        );
        process.exitCode = 1;
      } else same++;
    }
    console.log(`answers byte-identical: ${same} of ${Object.keys(variants()).length} variants`);
    const big = engineCase();
    const cart = engineCase(50);
    const laddered = { ...cart, ladder: true };
    const graduated = {
      ...big,
      pricelists: big.pricelists.map((p) => ({
        ...p,
        tierMode: /** @type {const} */ ("GRADUATED"),
      })),
    };
    const rows = {
      "500 lines": alternate([before, big], [after, big], runs),
      "500 lines, explain": alternate(
        [before, { ...big, explain: true }],
        [after, { ...big, explain: true }],
        Math.max(20, runs / 10),
      ),
      "500 lines, all GRADUATED": alternate([before, graduated], [after, graduated], runs),
      "50-line cart": alternate([before, cart], [after, cart], runs * 4),
      "50-line cart, ladder": alternate([before, laddered], [after, laddered], runs * 4),
      "ladder ÷ cart, before": alternate([before, cart], [before, laddered], runs * 4),
      "ladder ÷ cart, after": alternate([after, cart], [after, laddered], runs * 4),
    };
    console.table(rows);
    console.table(ladderInBlocks(before, after, Math.max(20, runs / 10)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
