import { describe, expect, it } from "vitest";
import { resolvePrices, type PriceBase, type PricelistCandidate } from "../../src/pricing";
import { pricelist, request, type Rows } from "../shared/pricing-engine-factories";

/**
 * A list's derived rows are computed once per request and reused where it is the base of another
 * list (src/pricing/derivation.ts, `rowsAlong`): only along the same chain, so neither the order
 * of the candidates nor a chain cut at 3 steps (docs/pricing-rules.md §3.7) changes an answer.
 */

const derived = (basePricelistId: number, adjustmentBp = -1000) => ({
  derivation: { basePricelistId, adjustmentBp, rounding: null },
});

const base = (id: number, rows: Rows, basePricelistId?: number): PriceBase => ({
  ...pricelist(id, [], rows),
  derivation: basePricelistId === undefined ? null : derived(basePricelistId).derivation,
});

/** Lines P and Q, explained, with the candidates in the given order. */
function answerWith(candidates: PricelistCandidate[], priceBases: PriceBase[]) {
  return resolvePrices(
    request({
      pricelists: candidates,
      priceBases,
      explain: true,
      lines: [
        { productCode: "P", quantity: 1 },
        { productCode: "Q", quantity: 1 },
      ],
    }),
  );
}

describe("derived rows reused along a chain", () => {
  it("a candidate that is also a base prices the same whichever comes first", () => {
    // 4 → 5 → 6, all candidates; P has rows in 6 only, Q in 5.
    const lists = [
      pricelist(4, ["CUSTOMER"], {}, derived(5)),
      pricelist(5, ["CUSTOMER_GROUP"], { Q: [[1, 2000]] }, derived(6)),
      pricelist(6, ["CHANNEL_PRIMARY"], { P: [[1, 1000]] }),
    ];
    const forward = answerWith(lists, []);
    expect(forward).toEqual(answerWith([...lists].reverse(), []));
    const [p, q] = forward.lines;
    // 1000 − 10 % = 900 in 5, − 10 % = 810 in 4; Q: 2000 − 10 % = 1800 in 4.
    expect(p!.source).toMatchObject({
      pricelistId: 4,
      baseUnitAmount: 810,
      derivedFrom: { pricelistId: 5, unitAmount: 900 },
    });
    expect(q!.source).toMatchObject({
      pricelistId: 4,
      baseUnitAmount: 1800,
      derivedFrom: { pricelistId: 5, unitAmount: 2000 },
    });
    const shown = p!.explain!.pricelists.map((e) => [e.pricelistId, e.amount, e.derivedFrom]);
    expect(shown).toEqual([
      [4, 810, { pricelistId: 5, unitAmount: 900, exchangeRate: null }],
      [5, 900, { pricelistId: 6, unitAmount: 1000, exchangeRate: null }],
      [6, 1000, null],
    ]);
  });

  it("a chain cut at 3 steps does not take rows its base reaches one step further", () => {
    // 4 → 5 → 6 → 7 → 8: from 4 the chain ends at 7, from 5 at 8. P has rows in 8 only.
    const lists = [
      pricelist(4, ["CUSTOMER"], {}, derived(5)),
      pricelist(5, ["CUSTOMER_GROUP"], {}, derived(6)),
    ];
    const bases = [base(6, {}, 7), base(7, { Q: [[1, 1000]] }, 8), base(8, { P: [[1, 1000]] })];
    for (const order of [lists, [...lists].reverse()]) {
      const [p, q] = answerWith(order, bases).lines;
      // P: list 4 has none (8 is a fourth step from it); list 5 derives it in 3 steps.
      expect(p!.explain!.pricelists.map((e) => [e.pricelistId, e.outcome])).toEqual([
        [4, "NO_PRICE_FOR_PRODUCT"],
        [5, "USED"],
      ]);
      // 1000 → 900 (7) → 810 (6) → 729 (5)
      expect(p!.source).toMatchObject({ pricelistId: 5, baseUnitAmount: 729 });
      // Q: 1000 → 900 (6) → 810 (5) → 729 (4)
      expect(q!.source).toMatchObject({ pricelistId: 4, baseUnitAmount: 729 });
    }
  });
});

describe("a derived tier past 2^53 − 1 (docs/pricing-rules.md §3.7, §8)", () => {
  // Base 1: P 1+: 100, 50+: 2^50; list 2 derives × 11: 1100, and 11 × 2^50 passes 2^53 − 1.
  const terms = {
    customer: null,
    groupCodes: [],
    pricelists: [pricelist(2, ["CHANNEL_PRIMARY"], {}, derived(1, 100_000))],
    priceBases: [
      base(1, {
        P: [
          [1, 100],
          [50, 2 ** 50],
        ],
      }),
    ],
  };

  it("is left out of tiers and of the ladder; the line that would use it is OUT_OF_RANGE", () => {
    const [small, large] = resolvePrices(
      request({
        ...terms,
        ladder: true,
        lines: [
          { productCode: "P", quantity: 1 },
          { productCode: "P", quantity: 50 },
        ],
      }),
    ).lines;
    expect(small).toMatchObject({
      status: "OK",
      finalUnitAmount: 1100,
      lineAmount: 1100,
      listUnitAmount: 1100,
      source: {
        pricelistId: 2,
        baseUnitAmount: 1100,
        derivedFrom: { pricelistId: 1, unitAmount: 100 },
      },
      adjustments: [],
      tiers: [{ minQuantity: 1, amount: 1100, priceUnit: 1, flatAmount: 0 }],
      priceBreak: null,
      ladder: [
        { minQuantity: 1, quantity: 1, finalUnitAmount: 1100, priceUnit: 1, lineAmount: 1100 },
      ],
    });
    // JSON writes what the engine answers: every amount an integer, none a null.
    expect(JSON.parse(JSON.stringify(small))).toEqual(small);
    expect(large).toMatchObject({ status: "OUT_OF_RANGE", finalUnitAmount: null, ladder: null });
  });
});
