import { describe, expect, it } from "vitest";
import type { LinePrice, PriceBase, PricelistLevel } from "../../src/pricing";
import { line, pricelist } from "../shared/pricing-engine-factories";

/**
 * A derived amount that rounds to 0 is no price (docs/pricing-rules.md §19): the line falls to
 * the next list that has a price, in its own level first (§3.1), and the list price reads the
 * channel levels only (§3.4), wherever the zero list sorts in its level.
 */

/** Base 9 holds P 1+: 1; a list derived from it with −60 % has 1 × 0.4 = 0.4 → 0. */
const tiny: PriceBase = { ...pricelist(9, [], { P: [[1, 1]] }), derivation: null };
const zero = (id: number, level: PricelistLevel) =>
  pricelist(
    id,
    [level],
    {},
    {
      derivation: { basePricelistId: 9, adjustmentBp: -6000, rounding: null },
    },
  );

/** What an OK line of P × 1 answers when list `id` at `level` prices it at `amount`, no steps. */
const okLine = (id: number, level: PricelistLevel, amount: number, list: number | null) => ({
  productCode: "P",
  quantity: 1,
  status: "OK",
  finalUnitAmount: amount,
  lineAmount: amount,
  regularUnitAmount: amount,
  listUnitAmount: list,
  currency: "EUR",
  priceUnit: 1,
  taxInclusive: false,
  source: {
    level,
    pricelistId: id,
    tierMinQuantity: 1,
    baseUnitAmount: amount,
    derivedFrom: null,
    tierMode: "VOLUME",
    bands: null,
  },
  adjustments: [],
  tiers: [{ minQuantity: 1, amount, priceUnit: 1, flatAmount: 0 }],
  quantityRule: { minimum: 1, increment: 1, maximum: null },
  suggestedQuantities: null,
  priceBreak: null,
});

const outcomes = (l: LinePrice) =>
  l.explain!.pricelists.map((e) => [
    e.pricelistId,
    e.level,
    e.outcome,
    e.amount,
    e.usedForListPrice,
  ]);

describe("a list that rounds to 0, last of its level (docs/pricing-rules.md §19, §3.1)", () => {
  it("the other list of the level prices the line: OK at 100, not NO_PRICE", () => {
    const l = line({
      customer: null,
      groupCodes: [],
      pricelists: [pricelist(1, ["CHANNEL"], { P: [[1, 100]] }), zero(2, "CHANNEL")],
      priceBases: [tiny],
      explain: true,
    });
    expect(l).toMatchObject(okLine(1, "CHANNEL", 100, 100));
    expect(outcomes(l)).toEqual([
      [1, "CHANNEL", "USED", 100, true],
      [2, "CHANNEL", "ROUNDS_TO_ZERO", 0, false],
    ]);
  });

  it("the customer's own list beats a cheaper channel list: 500 from list 1", () => {
    const l = line({
      pricelists: [
        pricelist(1, ["CUSTOMER"], { P: [[1, 500]] }),
        zero(2, "CUSTOMER"),
        pricelist(3, ["CHANNEL_PRIMARY"], { P: [[1, 100]] }),
      ],
      priceBases: [tiny],
      explain: true,
    });
    expect(l).toMatchObject(okLine(1, "CUSTOMER", 500, 100));
    expect(outcomes(l)).toEqual([
      [1, "CUSTOMER", "USED", 500, false],
      [2, "CUSTOMER", "ROUNDS_TO_ZERO", 0, false],
      [3, "CHANNEL_PRIMARY", "LOWER_LEVEL", 100, true],
    ]);
  });

  it("the list price stays the channel's (§3.4): 500, not the group list's 300", () => {
    const l = line({
      pricelists: [
        pricelist(1, ["CUSTOMER_GROUP"], { P: [[1, 300]] }),
        zero(2, "CUSTOMER_GROUP"),
        pricelist(3, ["CHANNEL_PRIMARY"], { P: [[1, 500]] }),
      ],
      priceBases: [tiny],
      explain: true,
    });
    expect(l).toMatchObject(okLine(1, "CUSTOMER_GROUP", 300, 500));
    expect(outcomes(l)).toEqual([
      [1, "CUSTOMER_GROUP", "USED", 300, false],
      [2, "CUSTOMER_GROUP", "ROUNDS_TO_ZERO", 0, false],
      [3, "CHANNEL_PRIMARY", "LOWER_LEVEL", 500, true],
    ]);
  });
});

describe("a chain keeps a zero: a later step does not revive it (docs/pricing-rules.md §19)", () => {
  // Base 1: P 1. Base 2 derives −60 %: 0.4 → 0. List 3 derives from 2 with an ending of 9.
  const chain = (adjustmentBp: number, mode: "UP" | "NEAREST") => ({
    customer: null,
    groupCodes: [],
    explain: true,
    pricelists: [
      pricelist(
        3,
        ["CHANNEL_PRIMARY"],
        {},
        {
          derivation: { basePricelistId: 2, adjustmentBp, rounding: { mode, step: 10, ending: 9 } },
        },
      ),
    ],
    priceBases: [
      {
        ...pricelist(2, [], {}),
        derivation: { basePricelistId: 1, adjustmentBp: -6000, rounding: null },
      },
      { ...pricelist(1, [], { P: [[1, 1]] }), derivation: null },
    ],
  });

  it.each([
    [0, "UP"],
    [5000, "NEAREST"],
  ] as const)("%i bp, %s to ending 9: NO_PRICE, explain ROUNDS_TO_ZERO at 0, not 9", (bp, mode) => {
    const l = line(chain(bp, mode));
    expect(l).toMatchObject({
      status: "NO_PRICE",
      finalUnitAmount: null,
      lineAmount: null,
      regularUnitAmount: null,
      listUnitAmount: null,
      priceUnit: null,
      source: null,
      adjustments: [],
      tiers: [],
      priceBreak: null,
    });
    expect(l.explain!.pricelists).toEqual([
      {
        level: "CHANNEL_PRIMARY",
        pricelistId: 3,
        name: "PL-3",
        outcome: "ROUNDS_TO_ZERO",
        decidedBy: null,
        tierMinQuantity: 1,
        amount: 0,
        priceUnit: 1,
        usedForListPrice: false,
        derivedFrom: { pricelistId: 2, unitAmount: 0, exchangeRate: null },
      },
    ]);
  });
});
