import { describe, expect, it } from "vitest";
import { resolvePrices, type PriceRequest, type PricelistCandidate } from "../../src/pricing";
import {
  WORKED_EXAMPLE_G as G,
  WORKED_EXAMPLE_H as H,
} from "../../scripts/lib/worked-examples.mjs";
import {
  ALWAYS,
  condition,
  facts,
  floor,
  line,
  pricelist,
  productsOf,
  promotion,
  request,
} from "../shared/pricing-engine-factories";

/**
 * Graduated tiers and the buyer's tier ladder in the engine (docs/pricing-rules.md §29, §30),
 * worked examples G and H (§29.1, §30.1; their data and figures in scripts/lib/worked-examples.mjs,
 * which the API tests and the demo data read too) and the edges around them.
 */

/**
 * PL-G: example G's tiers for P (1+: 100, 10+: 90, 50+: 80), GRADUATED unless said otherwise;
 * `flat` on the row of example G's flat amount (50+).
 */
function plG(extra: Partial<PricelistCandidate> = {}, flat = 0): PricelistCandidate {
  const list = pricelist(1, ["CHANNEL_PRIMARY"], {}, { tierMode: "GRADUATED", ...extra });
  return {
    ...list,
    prices: G.tiers.map(({ minQuantity, amount, flatAmount }) => ({
      productCode: "P",
      minQuantity,
      amount,
      flatAmount: minQuantity === G.flat.minQuantity ? flat : flatAmount,
      ...ALWAYS,
    })),
  };
}

/** Example G's lot of `quantity` pieces. */
const lotOf = (quantity: number) => G.lots.find((l) => l.quantity === quantity)!;
/** The line's tiers as the answer shows them, `flat` on the 50+ row. */
const tiersOf = (flat = 0) =>
  G.tiers.map(({ minQuantity, amount, flatAmount }) => ({
    minQuantity,
    amount,
    priceUnit: 1,
    flatAmount: minQuantity === G.flat.minQuantity ? flat : flatAmount,
  }));

const at = (quantity: number, extra: Partial<PriceRequest> = {}) =>
  line({ pricelists: [plG()], lines: [{ productCode: "P", quantity }], ...extra });

const fivePercent = condition(7, { value: G.discount.valueBp });

describe("graduated tiers (docs/pricing-rules.md §29, example G)", () => {
  it("prices 60 pieces as one lot over three bands: 900 + 3600 + 880 = 5380", () => {
    const lot = lotOf(60);
    const l = at(lot.quantity);
    expect(l).toMatchObject({
      status: "OK",
      finalUnitAmount: lot.amount,
      lineAmount: lot.amount,
      regularUnitAmount: lot.amount,
      listUnitAmount: lot.amount,
      priceUnit: lot.quantity,
      priceBreak: null,
      adjustments: [],
    });
    expect(l.source).toEqual({
      level: "CHANNEL_PRIMARY",
      pricelistId: 1,
      tierMinQuantity: lot.tierMinQuantity,
      baseUnitAmount: lot.amount,
      derivedFrom: null,
      tierMode: "GRADUATED",
      bands: G.bands60,
    });
    expect(l.tiers).toEqual(tiersOf());
  });

  it("adds a band's flat amount once the line reaches it: 5380 + 500 = 5880", () => {
    const { flatAmount } = G.flat;
    const l = line({
      pricelists: [plG({}, flatAmount)],
      lines: [{ productCode: "P", quantity: 60 }],
    });
    expect(l.finalUnitAmount).toBe(G.flat.at60);
    expect(l.source?.bands?.[2]).toMatchObject({ flatAmount, amount: G.flat.band60Amount });
    expect(l.tiers).toEqual(tiersOf(flatAmount));
    // Below 50 the band is not reached, nor its flat amount.
    const l49 = line({
      pricelists: [plG({}, flatAmount)],
      lines: [{ productCode: "P", quantity: 49 }],
    });
    expect(l49.finalUnitAmount).toBe(G.flat.at49);
  });

  it("prices the same rows VOLUME as today: 60 × 80 = 4800", () => {
    const l = line({
      pricelists: [plG({ tierMode: "VOLUME" })],
      lines: [{ productCode: "P", quantity: G.volume.quantity }],
    });
    const { finalUnitAmount, lineAmount } = G.volume;
    expect(l).toMatchObject({ finalUnitAmount, lineAmount, priceUnit: 1 });
    expect(l.source).toMatchObject({
      tierMode: "VOLUME",
      bands: null,
      baseUnitAmount: finalUnitAmount,
    });
  });

  it("quantity 9 → 900, 10 → 990 (the 10th piece at 90)", () => {
    for (const quantity of [9, 10, 1]) {
      const { amount } = lotOf(quantity);
      expect(at(quantity)).toMatchObject({
        finalUnitAmount: amount,
        lineAmount: amount,
        priceUnit: quantity,
      });
    }
  });

  it("a 5 % discount applies to the lot: 5380 − 269 = 5111", () => {
    const l = at(60, { tradeConditions: [fivePercent] });
    const { valueBp, amount, finalUnitAmount } = G.discount;
    expect(l).toMatchObject({ finalUnitAmount, lineAmount: finalUnitAmount });
    expect(l.adjustments).toEqual([
      { kind: "DISCOUNT", id: 7, scope: "GLOBAL", rung: 12, valueBp, amount },
    ]);
  });

  it("a floor enters the lot as floor × q / u: 10 % gives 4842, the floor 85 × 60 = 5100 wins", () => {
    const { amount, discountBp, discount, lift, finalUnitAmount } = G.floor;
    const l = at(60, {
      tradeConditions: [condition(7, { value: discountBp })],
      floors: [floor(300, { P: [[1, amount]] })],
    });
    expect(l).toMatchObject({
      finalUnitAmount,
      lineAmount: finalUnitAmount,
      regularUnitAmount: finalUnitAmount,
    });
    expect(l.adjustments).toEqual([
      { kind: "DISCOUNT", id: 7, scope: "GLOBAL", rung: 12, valueBp: discountBp, amount: discount },
      { kind: "FLOOR", id: 300, scope: null, rung: null, valueBp: null, amount: lift },
    ]);
  });

  it("an ABSOLUTE value per u pieces enters as value × q / u, half up", () => {
    // 3 per 2 pieces off a lot of 9: 3 × 9 / 2 = 13.5 → 14.
    const off = condition(8, { discountType: "ABSOLUTE", value: 3, priceUnit: 2, currency: "EUR" });
    expect(at(9, { tradeConditions: [off] }).finalUnitAmount).toBe(900 - 14);
    const net = condition(9, {
      type: "NET_PRICE",
      discountType: "ABSOLUTE",
      value: 70,
      currency: "EUR",
    });
    expect(at(60, { tradeConditions: [net] }).finalUnitAmount).toBe(70 * 60);
    const promo = promotion(4, {
      discountType: "ABSOLUTE",
      value: 5,
      currency: "EUR",
      stacking: "ON_TOP",
    });
    expect(at(10, { promotions: [promo] }).finalUnitAmount).toBe(990 - 50);
  });

  it("has no price below the first tier; the first band starts at piece 1 all the same", () => {
    const list = pricelist(
      1,
      ["CHANNEL_PRIMARY"],
      {
        P: [
          [5, 100],
          [10, 90],
        ],
      },
      { tierMode: "GRADUATED" },
    );
    expect(line({ pricelists: [list], lines: [{ productCode: "P", quantity: 4 }] }).status).toBe(
      "NO_PRICE",
    );
    const l = line({ pricelists: [list], lines: [{ productCode: "P", quantity: 12 }] });
    expect(l.finalUnitAmount).toBe(9 * 100 + 3 * 90);
    expect(l.source?.bands?.[0]).toMatchObject({ fromQuantity: 1, toQuantity: 9, quantity: 9 });
  });

  it("rounds each band half up by its own price unit", () => {
    const list = pricelist(1, ["CHANNEL_PRIMARY"], {}, { tierMode: "GRADUATED" });
    list.prices = [
      { productCode: "P", minQuantity: 1, amount: 1005, priceUnit: 100, ...ALWAYS },
      { productCode: "P", minQuantity: 3, amount: 333, priceUnit: 10, ...ALWAYS },
    ];
    // 2 × 1005 / 100 = 20.1 → 20; 3 × 333 / 10 = 99.9 → 100.
    const l = line({ pricelists: [list], lines: [{ productCode: "P", quantity: 5 }] });
    expect(l.source?.bands?.map((b) => b.amount)).toEqual([20, 100]);
    expect(l.finalUnitAmount).toBe(120);
  });

  it("gives no price-break advice for a graduated line; VOLUME still does", () => {
    expect(at(45).priceBreak).toBeNull();
    const volume = line({
      pricelists: [plG({ tierMode: "VOLUME" })],
      lines: [{ productCode: "P", quantity: 45 }],
    });
    expect(volume.priceBreak).toEqual({ quantity: 50, lineAmount: 4000 });
  });

  it("derives a graduated list from a VOLUME base: its own mode, flat amounts adjusted half up", () => {
    const base = { ...plG({ tierMode: "VOLUME" }, 333), id: 5, levels: [] };
    const derived = pricelist(
      1,
      ["CHANNEL_PRIMARY"],
      {},
      {
        tierMode: "GRADUATED",
        derivation: { basePricelistId: 5, adjustmentBp: 1000, rounding: null },
      },
    );
    const l = line({
      pricelists: [derived],
      priceBases: [base],
      lines: [{ productCode: "P", quantity: 60 }],
    });
    // 110 × 9 + 99 × 40 + 88 × 11 + round(333 × 1.1 = 366.3) = 990 + 3960 + 968 + 366.
    expect(l.finalUnitAmount).toBe(990 + 3960 + 968 + 366);
    expect(l.source?.derivedFrom).toMatchObject({ pricelistId: 5, unitAmount: 80 });
  });

  it("ranks a graduated lot against a volume price per piece", () => {
    const cheaper = plG({ id: 2, levels: ["CHANNEL"], priority: 0 });
    const volume = pricelist(3, ["CHANNEL"], { P: [[1, 91]] });
    // 60 at 91 = 5460 against the lot's 5380 / 60: the lot is cheaper per piece.
    const l = line({ pricelists: [volume, cheaper], lines: [{ productCode: "P", quantity: 60 }] });
    expect(l.source).toMatchObject({ pricelistId: 2, tierMode: "GRADUATED" });
  });
});

describe("the buyer's tier ladder (docs/pricing-rules.md §30, example H)", () => {
  it("VOLUME with 5 %: 95, 85 (90 × 5 % = 4.5 → 5), 76, at any quantity", () => {
    for (const quantity of [1, 7, 60]) {
      const l = line({
        pricelists: [plG({ tierMode: "VOLUME" })],
        tradeConditions: [fivePercent],
        ladder: true,
        lines: [{ productCode: "P", quantity }],
      });
      expect(l.ladder).toEqual(H.volume);
    }
  });

  it("GRADUATED without the discount: 100, 990 per 10, 4580 per 50", () => {
    const l = line({
      pricelists: [plG()],
      ladder: true,
      lines: [{ productCode: "P", quantity: 3 }],
    });
    expect(l.ladder).toEqual(H.graduated);
  });

  it("takes the smallest allowed quantity: min 5, increment 5 → {1, 5, 95, 1, 475}", () => {
    const l = line({
      pricelists: [plG({ tierMode: "VOLUME" })],
      tradeConditions: [fivePercent],
      products: new Map([["P", facts([], H.boxed.minOrderQuantity, H.boxed.orderIncrement)]]),
      ladder: true,
      lines: [{ productCode: "P", quantity: 20 }],
    });
    expect(l.ladder?.[0]).toEqual(H.boxed.first);
    expect(l.ladder?.map((e) => e.quantity)).toEqual(H.boxed.quantities);
  });

  it("leaves out a tier no allowed quantity reaches, and answers ladder only when asked", () => {
    const l = line({
      pricelists: [plG({ tierMode: "VOLUME" })],
      products: new Map([["P", facts([], 1, 1, 40)]]),
      ladder: true,
      lines: [{ productCode: "P", quantity: 2 }],
    });
    expect(l.ladder?.map((e) => e.minQuantity)).toEqual([1, 10]);
    expect("ladder" in at(2)).toBe(false);
  });

  it("is null on lines that are not OK", () => {
    const answer = resolvePrices(
      request({
        pricelists: [plG()],
        products: productsOf(["P", "Q"]),
        ladder: true,
        lines: [
          { productCode: "Q", quantity: 1 },
          { productCode: "X", quantity: 1 },
        ],
      }),
    );
    expect(answer.lines.map((l) => [l.status, l.ladder])).toEqual([
      ["NO_PRICE", null],
      ["UNKNOWN_PRODUCT", null],
    ]);
  });

  it("keeps the order's sums: an ORDER_QUANTITY scale met by the cart holds on every rung", () => {
    const scaled = condition(11, {
      scaleBasis: "ORDER_QUANTITY",
      value: 0,
      scales: [{ minimum: 100, value: 1000 }],
    });
    const answer = resolvePrices(
      request({
        pricelists: [
          pricelist(1, ["CHANNEL_PRIMARY"], {
            P: [
              [1, 100],
              [10, 90],
            ],
            Q: [[1, 50]],
          }),
        ],
        products: productsOf(["P", "Q"]),
        tradeConditions: [scaled],
        ladder: true,
        lines: [
          { productCode: "P", quantity: 1 },
          { productCode: "Q", quantity: 100 },
        ],
      }),
    );
    expect(answer.lines[0]?.ladder).toEqual([
      { minQuantity: 1, quantity: 1, finalUnitAmount: 90, priceUnit: 1, lineAmount: 90 },
      { minQuantity: 10, quantity: 10, finalUnitAmount: 81, priceUnit: 1, lineAmount: 810 },
    ]);
  });

  it("gives the same price-break advice with the ladder as without", () => {
    const base = { pricelists: [plG({ tierMode: "VOLUME" })], tradeConditions: [fivePercent] };
    for (const quantity of [1, 9, 45, 49, 60]) {
      const lines = [{ productCode: "P", quantity }];
      const without = line({ ...base, lines });
      const withLadder = line({ ...base, lines, ladder: true });
      expect(withLadder.priceBreak).toEqual(without.priceBreak);
    }
  });
});
