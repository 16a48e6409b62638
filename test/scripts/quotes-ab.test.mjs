/**
 * The A/B comparison of `npm run bench:quotes-ab` (bench/lib/ab.mjs; docs/performance.md "Quotes
 * in the lookup"): the blocks alternate ABBA, a side's blocks are pooled over their whole time,
 * the ratio of the sides and its rounds are what the blocks say, and the verdict on a fall of at
 * most 5 % holds at its edge and refuses blocks with failed answers. A Node test (node:test), no
 * Worker. Run by `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  abbaOrder,
  beyondControls,
  changeOf,
  compareSides,
  pooled,
  withinFall,
} from "../../bench/lib/ab.mjs";

/**
 * A block of `requests` answers in `seconds`, each `ms` long.
 * @param {number} requests @param {number} seconds
 * @param {{ ms?: number, cpuMs?: number, failed?: number }} [more]
 * @returns {import("../../bench/lib/ab.mjs").Block}
 */
const block = (requests, seconds, { ms = 3, cpuMs, failed = 0 } = {}) => ({
  requests,
  seconds,
  latencies: Array.from({ length: requests }, () => ms),
  cpuMs,
  failed,
});

describe("abbaOrder", () => {
  it("alternates which side goes first, round by round", () => {
    assert.deepEqual(abbaOrder(4), [
      ["a", "b"],
      ["b", "a"],
      ["a", "b"],
      ["b", "a"],
    ]);
  });

  it("gives each side the first place equally often over an even number of rounds", () => {
    const firsts = abbaOrder(8).map(([first]) => first);
    assert.equal(firsts.filter((s) => s === "a").length, 4);
    assert.equal(firsts.filter((s) => s === "b").length, 4);
  });

  it("refuses a count of rounds that is not a whole number ≥ 1", () => {
    for (const rounds of [0, -1, 1.5, Number.NaN])
      assert.throws(() => abbaOrder(rounds), /rounds/, String(rounds));
  });
});

describe("pooled", () => {
  it("takes req/s over the blocks' whole time, not the mean of their rates", () => {
    // 300 in 1 s and 100 in 3 s: 400 in 4 s = 100/s (the mean of the rates would be 166.7).
    const p = pooled([block(300, 1), block(100, 3)]);
    assert.equal(p.requests, 400);
    assert.equal(p.requestsPerSecond, 100);
    assert.equal(p.blocks, 2);
  });

  it("takes p50 and p99 over every answer of every block", () => {
    const p = pooled([block(99, 1, { ms: 2 }), block(1, 1, { ms: 50 })]);
    assert.equal(p.p50Ms, 2);
    assert.equal(p.p99Ms, 2);
    const q = pooled([block(98, 1, { ms: 2 }), block(2, 1, { ms: 50 })]);
    assert.equal(q.p99Ms, 50);
  });

  it("divides the CPU time by every answer, failed ones too; none when a block lacks it", () => {
    const p = pooled([block(90, 1, { cpuMs: 300, failed: 10 }), block(100, 1, { cpuMs: 300 })]);
    assert.equal(p.cpuMsPerRequest, 3);
    assert.equal(p.failed, 10);
    assert.equal(pooled([block(10, 1, { cpuMs: 30 }), block(10, 1)]).cpuMsPerRequest, undefined);
  });

  it("reads no block as nothing measured", () => {
    const p = pooled([]);
    assert.equal(p.requestsPerSecond, 0);
    assert.equal(p.p99Ms, undefined);
  });
});

describe("compareSides", () => {
  it("is a's pooled req/s over b's, with each round's ratio, its median and range", () => {
    const c = compareSides(
      [block(100, 1), block(90, 1), block(110, 1)],
      [block(100, 1), block(100, 1), block(100, 1)],
    );
    assert.equal(c.ratio, 1);
    assert.deepEqual(c.rounds.ratios, [1, 0.9, 1.1]);
    assert.equal(c.rounds.median, 1);
    assert.equal(c.rounds.min, 0.9);
    assert.equal(c.rounds.max, 1.1);
  });

  it("gives the CPU ratio as b's CPU per answer over a's: above 1 when a costs less", () => {
    const c = compareSides([block(100, 1, { cpuMs: 200 })], [block(100, 1, { cpuMs: 300 })]);
    assert.equal(c.cpuRatio, 1.5);
    assert.equal(compareSides([block(1, 1)], [block(1, 1)]).cpuRatio, undefined);
  });

  it("gives a's p99 over b's", () => {
    const c = compareSides([block(10, 1, { ms: 6 })], [block(10, 1, { ms: 4 })]);
    assert.equal(c.p99Ratio, 1.5);
  });

  it("refuses sides with a different number of rounds", () => {
    assert.throws(() => compareSides([block(1, 1)], []), /every round/);
  });

  it("skips a round whose b block answered nothing, and has no ratio when b has none", () => {
    const c = compareSides([block(10, 1), block(10, 1)], [block(0, 1), block(10, 1)]);
    assert.deepEqual(c.rounds.ratios, [1]);
    assert.equal(compareSides([block(10, 1)], [block(0, 1)]).ratio, undefined);
  });
});

describe("withinFall", () => {
  const sides = (/** @type {number} */ a, /** @type {number} */ b, failed = 0) =>
    compareSides([block(a, 10, { failed })], [block(b, 10)]);

  it("passes a fall of exactly 5 % and anything better, misses a larger fall", () => {
    assert.equal(withinFall(sides(950, 1000), 0.05), true);
    assert.equal(withinFall(sides(1200, 1000), 0.05), true);
    assert.equal(withinFall(sides(949, 1000), 0.05), false);
  });

  it("judges nothing when answers failed or nothing was measured", () => {
    assert.equal(withinFall(sides(1000, 1000, 1), 0.05), null);
    assert.equal(withinFall(sides(1000, 0), 0.05), null);
  });
});

describe("changeOf", () => {
  it("shows a ratio as the change it is, with a true minus sign", () => {
    assert.equal(changeOf(1.031), "+3.1 %");
    assert.equal(changeOf(0.96), "−4.0 %");
    assert.equal(changeOf(1), "±0.0 %");
    assert.equal(changeOf(undefined), "-");
  });
});

describe("beyondControls", () => {
  it("is the subjects' geometric mean ratio over the controls'", () => {
    const b = beyondControls([0.9, 0.9, 0.9], [0.9, 0.9, 0.9], 0.05);
    assert.ok(Math.abs((b.effect ?? 0) - 1) < 1e-12);
    const c = beyondControls([0.8, 0.8], [1, 1], 0.05);
    assert.ok(Math.abs((c.effect ?? 0) - 0.8) < 1e-12);
    assert.equal(c.subjects, 2);
    assert.equal(c.controls, 2);
  });

  it("passes when the range's low end is within the fall, misses when its high end is not", () => {
    const pass = beyondControls([0.99, 1.01, 1, 1.02], [0.98, 1, 1.01, 1.0], 0.05);
    assert.equal(pass.verdict, true);
    assert.ok((pass.low ?? 0) >= 0.95);
    const miss = beyondControls([0.8, 0.81, 0.79, 0.8], [0.98, 1, 1.01, 1.0], 0.05);
    assert.equal(miss.verdict, false);
    assert.ok((miss.high ?? 1) < 0.95);
  });

  it("decides nothing when the range straddles the bound or there are too few ratios", () => {
    const wide = beyondControls([0.7, 1.2, 0.9, 1.1], [0.8, 1.25, 1, 0.95], 0.05);
    assert.equal(wide.verdict, null);
    assert.ok((wide.low ?? 1) < 0.95 && (wide.high ?? 0) > 0.95);
    assert.equal(beyondControls([0.9], [1, 1], 0.05).verdict, null);
    assert.equal(beyondControls([0.9, 0.9], [1], 0.05).effect, undefined);
  });
});
