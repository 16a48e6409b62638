import { describe, expect, it } from "vitest";
import {
  resolvePrices,
  type ChannelRoundingMode,
  type ExchangeRate,
  type LinePrice,
  type PriceBase,
  type PriceRequest,
  type PricelistCandidate,
} from "../../src/pricing";
import {
  condition,
  facts,
  floor,
  line,
  pricelist,
  primary,
  promotion,
  request,
  t,
} from "../shared/pricing-engine-factories";

/**
 * Unit tests of the money rules of docs/pricing-rules.md: derived lists across currencies (§19),
 * price units (§20), rounding modes (§21) and price-break advice (§22), with the worked examples
 * B, C and D of pricing rules v3 exactly, without a Worker.
 */

// ---------------------------------------------------------------------------------------------
// Worked example B: currencies (docs/pricing-rules.md §19)
// ---------------------------------------------------------------------------------------------

const rate = (from: string, to: string, value: string, validFrom: string): ExchangeRate => ({
  from,
  to,
  rate: value,
  validFrom: t(validFrom),
});

const RATES = [
  rate("USD", "EUR", "0.92", "2027-01-01T00:00:00Z"),
  rate("USD", "EUR", "0.90", "2027-02-01T00:00:00Z"),
  rate("USD", "JPY", "150.25", "2027-01-01T00:00:00Z"),
  rate("USD", "KWD", "0.3075", "2027-01-01T00:00:00Z"),
];

/** PL-U (id 2, USD): P-1 1+: 1000, the base of every derived list here. */
const PL_U: PriceBase = {
  id: 2,
  currency: "USD",
  derivation: null,
  prices: [{ productCode: "P-1", minQuantity: 1, amount: 1000, validFrom: null, validTo: null }],
};

/** A list in `currency` derived from PL-U, the channel's primary, with no window. */
const derivedList = (
  currency: string,
  extra: Partial<PricelistCandidate["derivation"] & object> = {},
): PricelistCandidate =>
  pricelist(
    1,
    ["CHANNEL_PRIMARY"],
    {},
    {
      currency,
      validFrom: null,
      validTo: null,
      derivation: { basePricelistId: 2, adjustmentBp: 0, rounding: null, ...extra },
    },
  );

function exampleB(currency: string, at: string, extra = {}, explain = false): LinePrice {
  const answer = resolvePrices(
    request({
      at: t(at),
      currency,
      customer: null,
      products: new Map([["P-1", facts()]]),
      pricelists: [derivedList(currency, extra)],
      priceBases: [PL_U],
      exchangeRates: RATES,
      explain,
      lines: [{ productCode: "P-1", quantity: 1 }],
    }),
  );
  return { ...answer.lines[0]!, validUntil: answer.validUntil } as LinePrice & {
    validUntil: string | null;
  };
}

describe("worked example B: derived lists across currencies (§19)", () => {
  it("PL-E at 2027-01-15: 1000 × 0.92 = 920, valid until the next rate of the pair", () => {
    const l = exampleB("EUR", "2027-01-15T00:00:00Z");
    expect(l).toMatchObject({
      status: "OK",
      finalUnitAmount: 920,
      lineAmount: 920,
      priceUnit: 1,
      validUntil: "2027-02-01T00:00:00.000Z",
    });
    expect(l.source!.derivedFrom).toEqual({
      pricelistId: 2,
      unitAmount: 1000,
      exchangeRate: {
        from: "USD",
        to: "EUR",
        rate: "0.92",
        validFrom: "2027-01-01T00:00:00.000Z",
      },
    });
    expect(l.tiers).toEqual([{ minQuantity: 1, amount: 920, priceUnit: 1, flatAmount: 0 }]);
  });

  it("PL-E at 2027-02-15: the next rate, 900", () => {
    const l = exampleB("EUR", "2027-02-15T00:00:00Z");
    expect(l.finalUnitAmount).toBe(900);
    expect(l.source!.derivedFrom!.exchangeRate).toMatchObject({
      rate: "0.9",
      validFrom: "2027-02-01T00:00:00.000Z",
    });
  });

  it("−1000 bp, NEAREST step 10 ending 9: 828 → 829, rounded once before the ending", () => {
    const l = exampleB("EUR", "2027-01-15T00:00:00Z", {
      adjustmentBp: -1000,
      rounding: { mode: "NEAREST", step: 10, ending: 9 },
    });
    expect(l.finalUnitAmount).toBe(829);
  });

  it("PL-J (JPY, no decimals): 1502.5 → 1503; PL-K (KWD, three): 3075", () => {
    expect(exampleB("JPY", "2027-01-15T00:00:00Z").finalUnitAmount).toBe(1503);
    expect(exampleB("KWD", "2027-01-15T00:00:00Z").finalUnitAmount).toBe(3075);
  });

  it("at 2026-12-31 no rate is in force: NO_PRICE, explain NO_EXCHANGE_RATE, valid until the first rate", () => {
    const l = exampleB("EUR", "2026-12-31T00:00:00Z", {}, true);
    expect(l).toMatchObject({
      status: "NO_PRICE",
      source: null,
      validUntil: "2027-01-01T00:00:00.000Z",
    });
    expect(l.explain!.pricelists).toEqual([
      expect.objectContaining({ pricelistId: 1, outcome: "NO_EXCHANGE_RATE", amount: null }),
    ]);
  });

  it("a list without a rate lets the line fall to the next source", () => {
    const answer = resolvePrices(
      request({
        at: t("2026-12-31T00:00:00Z"),
        customer: null,
        products: new Map([["P-1", facts()]]),
        pricelists: [
          { ...derivedList("EUR"), priority: 5 },
          pricelist(3, ["CHANNEL"], { "P-1": [[1, 950]] }, { validFrom: null, validTo: null }),
        ],
        priceBases: [PL_U],
        exchangeRates: RATES,
        lines: [{ productCode: "P-1", quantity: 1 }],
      }),
    );
    expect(answer.lines[0]).toMatchObject({
      status: "OK",
      finalUnitAmount: 950,
      source: { level: "CHANNEL", pricelistId: 3 },
    });
  });

  it("a chain converts at each step between two currencies: USD → EUR → CHF", () => {
    const eur: PriceBase = {
      id: 4,
      currency: "EUR",
      derivation: { basePricelistId: 2, adjustmentBp: 0, rounding: null },
      prices: [],
    };
    const chf = pricelist(
      1,
      ["CHANNEL_PRIMARY"],
      {},
      {
        currency: "CHF",
        validFrom: null,
        validTo: null,
        derivation: { basePricelistId: 4, adjustmentBp: 1000, rounding: null },
      },
    );
    const answer = resolvePrices(
      request({
        at: t("2027-01-15T00:00:00Z"),
        currency: "CHF",
        customer: null,
        products: new Map([["P-1", facts()]]),
        pricelists: [chf],
        priceBases: [PL_U, eur],
        exchangeRates: [...RATES, rate("EUR", "CHF", "0.9375", "2026-01-01T00:00:00Z")],
        lines: [{ productCode: "P-1", quantity: 1 }],
      }),
    );
    // 1000 USD cents → 920 EUR cents, then 920 × 0.9375 × 1.1 = 948.75 → 949 CHF cents.
    expect(answer.lines[0]!.finalUnitAmount).toBe(949);
    expect(answer.lines[0]!.source!.derivedFrom).toMatchObject({
      pricelistId: 4,
      unitAmount: 920,
      exchangeRate: { from: "EUR", to: "CHF", rate: "0.9375" },
    });
  });

  it("in one currency the derived list needs no rate: exchangeRate is null", () => {
    const l = line({
      pricelists: [
        pricelist(
          1,
          ["CHANNEL_PRIMARY"],
          {},
          { derivation: { basePricelistId: 2, adjustmentBp: -1000, rounding: null } },
        ),
      ],
      priceBases: [
        { ...PL_U, currency: "EUR", prices: [{ ...PL_U.prices[0]!, productCode: "P" }] },
      ],
    });
    expect(l.source!.derivedFrom).toEqual({
      pricelistId: 2,
      unitAmount: 1000,
      exchangeRate: null,
    });
    expect(l.finalUnitAmount).toBe(900);
  });
});

// ---------------------------------------------------------------------------------------------
// Worked example C: price units and rounding modes (§20, §21)
// ---------------------------------------------------------------------------------------------

/** P with one row `amount` per `priceUnit`, the channel's primary. */
const perUnit = (amount: number, priceUnit: number) =>
  pricelist(
    1,
    ["CHANNEL_PRIMARY"],
    {},
    {
      prices: [
        { productCode: "P", minQuantity: 1, amount, priceUnit, validFrom: null, validTo: null },
      ],
    },
  );

const linePer = (
  amount: number,
  priceUnit: number,
  quantity: number,
  roundingMode: ChannelRoundingMode,
  extra: Partial<PriceRequest> = {},
) =>
  line({
    pricelists: [perUnit(amount, priceUnit)],
    roundingMode,
    lines: [{ productCode: "P", quantity }],
    ...extra,
  });

describe("worked example C: price units and rounding modes (§20, §21)", () => {
  it("1250 per 1000 pieces, 2500 pieces: 3125, and the line says its priceUnit", () => {
    const l = linePer(1250, 1000, 2500, "HALF_UP");
    expect(l).toMatchObject({
      finalUnitAmount: 1250,
      lineAmount: 3125,
      priceUnit: 1000,
      source: { baseUnitAmount: 1250 },
      tiers: [{ minQuantity: 1, amount: 1250, priceUnit: 1000, flatAmount: 0 }],
    });
  });

  it.each([
    ["HALF_UP", 2813],
    ["UP", 2813],
    ["HALF_EVEN", 2812],
    ["DOWN", 2812],
  ] as const)("10 %% off: 1125 per 1000, 2812.5 → %s %i", (mode, amount) => {
    const l = linePer(1250, 1000, 2500, mode, { tradeConditions: [condition(10)] });
    expect(l.finalUnitAmount).toBe(1125);
    expect(l.lineAmount).toBe(amount);
  });

  it.each([
    ["HALF_UP", 3],
    ["HALF_EVEN", 2],
  ] as const)("125 per 100, 2 pieces: 2.5 → %s %i", (mode, amount) => {
    expect(linePer(125, 100, 2, mode).lineAmount).toBe(amount);
  });

  it.each([
    ["HALF_UP", -21],
    ["UP", -21],
    ["HALF_EVEN", -20],
    ["DOWN", -20],
  ] as const)("base 200, 1025 bp off: 20.5 → %s %i", (mode, amount) => {
    const l = linePer(200, 1, 1, mode, { tradeConditions: [condition(10, { value: 1025 })] });
    expect(l.adjustments[0]!.amount).toBe(amount);
    expect(l.finalUnitAmount).toBe(200 + amount);
  });

  it("a promotion's percentage rounds in the channel's mode too", () => {
    // 15 % of 30 = 4.5: HALF_UP 5, HALF_EVEN 4.
    const promo = { promotions: [promotion(7, { value: 1500 })] };
    expect(linePer(30, 1, 1, "HALF_UP", promo).finalUnitAmount).toBe(25);
    expect(linePer(30, 1, 1, "HALF_EVEN", promo).finalUnitAmount).toBe(26);
  });

  it("an ABSOLUTE value per u pieces enters a line per U pieces as value × U / u, half up", () => {
    // 3 per 2 pieces on a line per 1000: 1500; 1 per 3 pieces: 333.33 → 333.
    const off = (value: number, priceUnit: number) =>
      linePer(1250, 1000, 1000, "HALF_UP", {
        tradeConditions: [
          condition(10, { discountType: "ABSOLUTE", value, priceUnit, currency: "EUR" }),
        ],
      }).adjustments[0]!.amount;
    expect(off(3, 2)).toBe(-1250); // 1500 off 1250: never below 0
    expect(off(1, 3)).toBe(-333);
    expect(off(1, 1000)).toBe(-1);
  });

  it("a NET_PRICE per 100 on a line per 1000", () => {
    const l = linePer(1250, 1000, 1000, "HALF_UP", {
      tradeConditions: [
        condition(10, {
          type: "NET_PRICE",
          discountType: "ABSOLUTE",
          value: 110,
          priceUnit: 100,
          currency: "EUR",
        }),
      ],
    });
    expect(l).toMatchObject({ finalUnitAmount: 1100, lineAmount: 1100 });
  });

  it("a floor per piece guards a line per 1000, rounded up", () => {
    // Floor 1.2345 per piece is not a row: 12345 per 10000 pieces → 1234.5 per 1000 → 1235.
    const l = linePer(1250, 1000, 1000, "HALF_UP", {
      tradeConditions: [condition(10, { value: 5000 })],
      floors: [
        floor(
          30,
          {},
          {
            prices: [
              {
                productCode: "P",
                minQuantity: 1,
                amount: 12345,
                priceUnit: 10000,
                validFrom: null,
                validTo: null,
              },
            ],
          },
        ),
      ],
      explain: true,
    });
    expect(l.finalUnitAmount).toBe(1235);
    expect(l.adjustments.map((a) => [a.kind, a.amount])).toEqual([
      ["DISCOUNT", -625],
      ["FLOOR", 610],
    ]);
    expect(l.explain!.floors[0]).toMatchObject({
      amount: 12345,
      priceUnit: 10000,
      effectiveAmount: 1235,
    });
  });

  it("the list price comes in the line's price unit", () => {
    const l = line({
      customer: { code: "C-1" },
      pricelists: [
        pricelist(
          9,
          ["CUSTOMER"],
          {},
          {
            prices: [
              {
                productCode: "P",
                minQuantity: 1,
                amount: 1100,
                priceUnit: 1000,
                validFrom: null,
                validTo: null,
              },
            ],
          },
        ),
        pricelist(1, ["CHANNEL_PRIMARY"], { P: [[1, 2]] }),
      ],
      lines: [{ productCode: "P", quantity: 1000 }],
    });
    expect(l).toMatchObject({ priceUnit: 1000, finalUnitAmount: 1100, listUnitAmount: 2000 });
  });

  it("lists of different units rank per piece: 1100 per 1000 beats 2 per piece", () => {
    const l = line({
      pricelists: [
        pricelist(1, ["CHANNEL_PRIMARY"], { P: [[1, 2]] }),
        pricelist(
          2,
          ["CHANNEL_PRIMARY"],
          {},
          {
            prices: [
              {
                productCode: "P",
                minQuantity: 1,
                amount: 1100,
                priceUnit: 1000,
                validFrom: null,
                validTo: null,
              },
            ],
          },
        ),
      ],
      explain: true,
    });
    expect(l.source!.pricelistId).toBe(2);
    expect(l.explain!.pricelists.find((e) => e.pricelistId === 1)).toMatchObject({
      outcome: "LOWER_RANK",
      decidedBy: "AMOUNT",
      priceUnit: 1,
    });
  });

  it("ORDER_VALUE bases use the line amount's formula", () => {
    // 2 lines of 1500 pieces at 1250 per 1000: 1875 each, 3750 in all; the scale starts at 3750.
    const answer = resolvePrices(
      request({
        pricelists: [perUnit(1250, 1000)],
        tradeConditions: [
          condition(10, {
            scaleBasis: "ORDER_VALUE",
            currency: "EUR",
            scales: [{ minimum: 3750, value: 1000 }],
          }),
        ],
        products: new Map([
          ["P", facts()],
          ["Q", facts()],
        ]),
        lines: [
          { productCode: "P", quantity: 1500 },
          { productCode: "P", quantity: 1500 },
        ],
        explain: true,
      }),
    );
    expect(answer.lines[0]!.explain!.tradeConditions[0]).toMatchObject({
      outcome: "APPLIED",
      basisValue: 3750,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Worked example D: price-break advice (§22)
// ---------------------------------------------------------------------------------------------

const tiered = pricelist(1, ["CHANNEL_PRIMARY"], {
  P: [
    [1, 100],
    [50, 80],
  ],
});

const breakAt = (quantity: number, extra: Partial<PriceRequest> = {}) =>
  line({ pricelists: [tiered], lines: [{ productCode: "P", quantity }], ...extra });

describe("worked example D: price-break advice (§22)", () => {
  it("45 pieces cost 4500; 50 cost 4000: the advice", () => {
    expect(breakAt(45)).toMatchObject({
      lineAmount: 4500,
      priceBreak: { quantity: 50, lineAmount: 4000 },
    });
  });

  it("40 pieces cost 4000, as 50 do: advice given (no more)", () => {
    expect(breakAt(40)).toMatchObject({
      lineAmount: 4000,
      priceBreak: { quantity: 50, lineAmount: 4000 },
    });
  });

  it("39 pieces cost 3900, less than 50: none", () => {
    expect(breakAt(39)).toMatchObject({ lineAmount: 3900, priceBreak: null });
  });

  it("already on the top tier: none", () => {
    expect(breakAt(60).priceBreak).toBeNull();
  });

  it("orderIncrement 20 (minimum 20): from 40 the next allowed quantity reaching 50+ is 60, 4800 > 4000", () => {
    const l = breakAt(40, { products: new Map([["P", facts([], 20, 20)]]) });
    expect(l).toMatchObject({ status: "OK", lineAmount: 4000, priceBreak: null });
  });

  it("a maximum below the next tier: none", () => {
    expect(breakAt(45, { products: new Map([["P", facts([], 1, 1, 49)]]) }).priceBreak).toBeNull();
  });

  it("the line at the break takes the terms it would have there, the order's sums unchanged", () => {
    // A line-quantity scale of 10 % from 50 on: 45 pieces 4500, 50 pieces 50 × 72 = 3600.
    const l = breakAt(45, {
      tradeConditions: [condition(10, { scales: [{ minimum: 50, value: 1000 }] })],
    });
    expect(l.priceBreak).toEqual({ quantity: 50, lineAmount: 3600 });
  });

  it("unpriced lines have none", () => {
    expect(breakAt(45, { pricelists: [] })).toMatchObject({ status: "NO_PRICE", priceBreak: null });
  });

  it("explain is the same with and without the advice's second pricing", () => {
    const plain = breakAt(45, { tradeConditions: [condition(10)], explain: true });
    expect(plain.explain!.tradeConditions).toHaveLength(1);
    expect(plain.explain!.tradeConditions[0]).toMatchObject({ outcome: "APPLIED", amount: -10 });
  });
});

// Keeps the factory import of `primary` honest: a plain line still prices per piece.
it("a row without priceUnit is per piece", () => {
  expect(line({ pricelists: [primary(1000)] })).toMatchObject({ priceUnit: 1, lineAmount: 1000 });
});
