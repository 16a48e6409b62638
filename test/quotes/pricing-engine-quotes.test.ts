import { describe, expect, it } from "vitest";
import { resolvePrices, type PriceRequest, type QuoteTerms } from "../../src/pricing";
import { WORKED_EXAMPLE_F as F } from "../../scripts/lib/worked-examples.mjs";
import {
  ALWAYS,
  AT,
  condition,
  floor,
  line,
  pricelist,
  primary,
  productsOf,
  promotion,
  request,
} from "../shared/pricing-engine-factories";

/**
 * Step 7 of the engine (docs/pricing-rules.md §28): a quote replaces (FIXED) or caps (BETTER_OF)
 * the final amount of the lines it reaches, after every condition, promotion and floor.
 */

const DAY = 86_400_000;

const quote = (extra: Partial<QuoteTerms> = {}): QuoteTerms => ({
  id: 7,
  revision: 2,
  mode: "AGREEMENT",
  lock: "FIXED",
  acceptedAt: AT - DAY,
  validTo: AT + 10 * DAY,
  lines: [{ productCode: "P", quantity: 60, quotedUnitAmount: 800, priceUnit: 1 }],
  ...extra,
});

// Base 1000, a 10 % GLOBAL discount (900), a floor of 950 (regular 950), a 5 % ON_TOP promotion.
const usualTerms = {
  pricelists: [primary(1000)],
  tradeConditions: [condition(1, { value: 1000 })],
  floors: [floor(30, { P: [[1, 950]] })],
  promotions: [promotion(40, { value: 500, stacking: "ON_TOP" as const })],
};

describe("FIXED: the quoted amount is the price (docs/pricing-rules.md §28.3)", () => {
  it("no trade condition, promotion or floor changes it; adjustments empty, source QUOTE", () => {
    const usual = line({ ...usualTerms });
    expect(usual.finalUnitAmount).toBe(950);
    const l = line({ ...usualTerms, quotes: [quote()], explain: true });
    expect(l).toMatchObject({
      status: "OK",
      finalUnitAmount: 800,
      lineAmount: 800,
      regularUnitAmount: 950,
      adjustments: [],
      priceBreak: null,
      source: {
        level: "CHANNEL_PRIMARY",
        baseUnitAmount: 800,
        kind: "QUOTE",
        quoteId: 7,
        revision: 2,
      },
    });
    expect(l.explain!.quotes).toEqual([
      {
        quoteId: 7,
        revision: 2,
        mode: "AGREEMENT",
        lock: "FIXED",
        outcome: "APPLIED",
        quantity: 60,
        quotedUnitAmount: 800,
        priceUnit: 1,
        usualUnitAmount: 950,
        validTo: new Date(AT + 10 * DAY).toISOString(),
      },
    ]);
  });

  it("a FIXED quote above the usual price still holds", () => {
    const l = line({
      ...usualTerms,
      quotes: [
        quote({ lines: [{ productCode: "P", quantity: 1, quotedUnitAmount: 1200, priceUnit: 1 }] }),
      ],
    });
    expect(l.finalUnitAmount).toBe(1200);
  });

  it("a request without quotes answers as before: no kind, no explain.quotes", () => {
    const l = line({ ...usualTerms, explain: true });
    expect(l.source).not.toHaveProperty("kind");
    expect(l.explain).not.toHaveProperty("quotes");
  });
});

describe("BETTER_OF: min(quoted, usual)", () => {
  it("the quote when it is lower, the usual price and its adjustments when that is", () => {
    const lower = line({ ...usualTerms, quotes: [quote({ lock: "BETTER_OF" })] });
    expect(lower).toMatchObject({ finalUnitAmount: 800, adjustments: [] });
    const dear = quote({
      lock: "BETTER_OF",
      lines: [{ productCode: "P", quantity: 1, quotedUnitAmount: 960, priceUnit: 1 }],
    });
    const plain = line({ ...usualTerms });
    const l = line({ ...usualTerms, quotes: [dear], explain: true });
    expect(l.finalUnitAmount).toBe(plain.finalUnitAmount);
    expect(l.adjustments).toEqual(plain.adjustments);
    expect(l.source).toEqual({ ...plain.source, kind: "QUOTE", quoteId: 7, revision: 2 });
    expect(l.explain!.quotes![0]).toMatchObject({
      outcome: "USUAL_PRICE_WON",
      quotedUnitAmount: 960,
      usualUnitAmount: plain.finalUnitAmount,
    });
  });

  it("a tie is the quote's", () => {
    const tie = quote({
      lock: "BETTER_OF",
      lines: [{ productCode: "P", quantity: 1, quotedUnitAmount: 950, priceUnit: 1 }],
    });
    const l = line({
      pricelists: [primary(1000)],
      floors: [floor(30, { P: [[1, 950]] })],
      quotes: [tie],
    });
    expect(l).toMatchObject({ finalUnitAmount: 950, adjustments: [] });
  });
});

describe("price units: the quoted amount in the line's unit, half up, exact", () => {
  const per100 = pricelist(
    1,
    ["CHANNEL_PRIMARY"],
    {},
    {
      prices: [{ productCode: "P", minQuantity: 1, amount: 12_345, priceUnit: 100, ...ALWAYS }],
    },
  );
  const at = (quotedUnitAmount: number, priceUnit: number) =>
    line({
      pricelists: [per100],
      lines: [{ productCode: "P", quantity: 250 }],
      quotes: [quote({ lines: [{ productCode: "P", quantity: 1, quotedUnitAmount, priceUnit }] })],
    });

  it.each([
    [125, 1, 12_500, 31_250],
    [1234, 10, 12_340, 30_850],
    [100, 3, 3_333, 8_333], // 3333.3 → 3333; 3333 × 250 / 100 = 8332.5 → 8333
    // Worked example F: 101 per 3 pieces = 3366.7 → 3367 per 100; 8417.5 → 8418.
    [
      F.honoured.priceUnits.quotedUnitAmount,
      F.honoured.priceUnits.quotedPriceUnit,
      F.honoured.priceUnits.finalUnitAmount,
      8_418,
    ],
    [12_345, 100, 12_345, 30_863],
  ])("%i per %i pieces → %i per 100 pieces, line %i", (quoted, unit, final, lineAmount) => {
    const l = at(quoted, unit);
    expect(l).toMatchObject({ priceUnit: 100, finalUnitAmount: final, lineAmount });
    expect(l.source!.baseUnitAmount).toBe(final);
  });
});

describe("which quote reaches which line", () => {
  it("a ONCE quote prices its product at its quantity only; another quantity says QUOTE_QUANTITY_MISMATCH", () => {
    const once = quote({ mode: "ONCE" });
    const answer = resolvePrices(
      request({
        pricelists: [primary(1000)],
        quotes: [once],
        explain: true,
        lines: [
          { productCode: "P", quantity: 60 },
          { productCode: "P", quantity: 50 },
        ],
      }),
    );
    expect(answer.lines.map((l) => l.finalUnitAmount)).toEqual([800, 1000]);
    expect(answer.lines[1]!.explain!.quotes).toMatchObject([
      { outcome: "QUOTE_QUANTITY_MISMATCH", quantity: 60, usualUnitAmount: 1000 },
    ]);
    expect(answer.lines[1]!.source).not.toHaveProperty("kind");
  });

  it("an AGREEMENT at any quantity from its acceptance until its validTo, which bound validUntil", () => {
    const terms = {
      pricelists: [primary(1000, { validTo: null })],
      quotes: [quote()],
      explain: true,
    };
    const within = resolvePrices(request({ ...terms, lines: [{ productCode: "P", quantity: 3 }] }));
    expect(within.lines[0]!.finalUnitAmount).toBe(800);
    expect(within.validUntil).toBe(new Date(AT + 10 * DAY).toISOString());
    const before = resolvePrices(request({ ...terms, at: AT - 2 * DAY }));
    expect(before.lines[0]!.finalUnitAmount).toBe(1000);
    expect(before.lines[0]!.explain!.quotes![0]!.outcome).toBe("OUT_OF_WINDOW");
    expect(before.validUntil).toBe(new Date(AT - DAY).toISOString());
    const after = resolvePrices(request({ ...terms, at: AT + 10 * DAY }));
    expect(after.lines[0]!.finalUnitAmount).toBe(1000);
    expect(after.lines[0]!.explain!.quotes![0]!.outcome).toBe("OUT_OF_WINDOW");
  });

  it("of two agreements the one accepted last wins, the other is LOWER_RANK, in any order", () => {
    const older = quote({ id: 9, acceptedAt: AT - 5 * DAY });
    const newer = quote({
      id: 8,
      acceptedAt: AT - DAY,
      lines: [{ productCode: "P", quantity: 1, quotedUnitAmount: 870, priceUnit: 1 }],
    });
    const price = (quotes: QuoteTerms[]) =>
      line({ pricelists: [primary(1000)], quotes, explain: true });
    const a = price([older, newer]);
    expect(a.finalUnitAmount).toBe(870);
    expect(a.explain!.quotes!.map((q) => [q.quoteId, q.outcome])).toEqual([
      [8, "APPLIED"],
      [9, "LOWER_RANK"],
    ]);
    expect(JSON.stringify(price([newer, older]))).toBe(JSON.stringify(a));
  });

  it("the named ONCE quote ranks before an agreement; at another quantity the agreement prices", () => {
    const once = quote({ id: 3, mode: "ONCE" });
    const agreement = quote({
      id: 4,
      lines: [{ productCode: "P", quantity: 1, quotedUnitAmount: 900, priceUnit: 1 }],
    });
    const answer = resolvePrices(
      request({
        pricelists: [primary(1000)],
        quotes: [agreement, once],
        lines: [
          { productCode: "P", quantity: 60 },
          { productCode: "P", quantity: 2 },
        ],
      }),
    );
    expect(answer.lines.map((l) => [l.finalUnitAmount, l.source!.quoteId])).toEqual([
      [800, 3],
      [900, 4],
    ]);
  });

  it("a line not priced as usual stays so: NOT_ELIGIBLE", () => {
    const l = line({ pricelists: [], quotes: [quote()], explain: true });
    expect(l.status).toBe("NO_PRICE");
    expect(l.finalUnitAmount).toBeNull();
    expect(l.explain!.quotes![0]!.outcome).toBe("NOT_ELIGIBLE");
  });

  it("is independent of the order of lines and quotes", () => {
    const quotes = [
      quote({ id: 1 }),
      quote({
        id: 2,
        mode: "ONCE",
        lines: [{ productCode: "Q", quantity: 5, quotedUnitAmount: 111, priceUnit: 1 }],
      }),
    ];
    const lines = [
      { productCode: "P", quantity: 1 },
      { productCode: "Q", quantity: 5 },
      { productCode: "R", quantity: 2 },
    ];
    const base = { ...usualTerms, explain: true };
    const a = resolvePrices(request({ ...base, quotes, lines }));
    const b = resolvePrices(
      request({ ...base, quotes: [...quotes].reverse(), lines: [...lines].reverse() }),
    );
    expect(JSON.stringify([...b.lines].reverse())).toBe(JSON.stringify(a.lines));
    expect(b.totalAmount).toBe(a.totalAmount);
  });
});

describe("worked example F honoured (docs/pricing-rules.md §28)", () => {
  const { codes, prices, honoured } = F;
  const product = codes.product;
  const revision2 = (extra: Partial<QuoteTerms> = {}) =>
    quote({
      revision: honoured.revision,
      mode: "ONCE",
      lines: [
        {
          productCode: product,
          quantity: honoured.once.quantity,
          quotedUnitAmount: F.quoted.envelope.unitAmount,
          priceUnit: 1,
        },
      ],
      ...extra,
    });
  /** PL-1 primary with P-B 1+ at `sales`, the FLOOR list of WEB at 320. */
  const terms = (sales: number = prices.sales) => ({
    channel: { code: codes.channel },
    customer: { code: codes.customer },
    products: productsOf([product]),
    pricelists: [pricelist(1, ["CHANNEL_PRIMARY"], { [product]: [[1, sales]] })],
    floors: [floor(30, { [product]: [[1, prices.floor]] })],
    explain: true,
  });

  it("ONCE, FIXED: P-B × 60 → 360, line 21600, source QUOTE; P-B × 50 → 391, QUOTE_QUANTITY_MISMATCH", () => {
    const answer = resolvePrices(
      request({
        ...terms(),
        quotes: [revision2()],
        lines: [
          { productCode: product, quantity: honoured.once.quantity },
          { productCode: product, quantity: honoured.mismatch.quantity },
        ],
      }),
    );
    const [quoted, usual] = answer.lines;
    expect(quoted).toMatchObject({
      finalUnitAmount: honoured.once.finalUnitAmount,
      lineAmount: honoured.once.lineAmount,
      regularUnitAmount: prices.sales,
      source: { kind: "QUOTE", revision: honoured.revision },
    });
    expect(usual).toMatchObject({
      finalUnitAmount: honoured.mismatch.finalUnitAmount,
      lineAmount: honoured.mismatch.lineAmount,
    });
    expect(usual!.explain!.quotes![0]!.outcome).toBe("QUOTE_QUANTITY_MISMATCH");
  });

  it("BETTER_OF after P-B 1+ becomes 345 → 345 (USUAL_PRICE_WON); FIXED → 360", () => {
    const at = (lock: "BETTER_OF" | "FIXED") =>
      line({
        ...terms(honoured.betterOf.salesAmount),
        quotes: [revision2({ lock })],
        lines: [{ productCode: product, quantity: honoured.once.quantity }],
      });
    const better = at("BETTER_OF");
    expect(better.finalUnitAmount).toBe(honoured.betterOf.finalUnitAmount);
    expect(better.explain!.quotes![0]!.outcome).toBe("USUAL_PRICE_WON");
    expect(at("FIXED").finalUnitAmount).toBe(honoured.once.finalUnitAmount);
  });

  it("AGREEMENT: K-1's P-B × 5 → 360 without naming it", () => {
    const l = line({
      ...terms(),
      quotes: [revision2({ mode: "AGREEMENT" })],
      lines: [{ productCode: product, quantity: honoured.agreement.quantity }],
    });
    expect(l).toMatchObject({
      finalUnitAmount: honoured.agreement.finalUnitAmount,
      lineAmount: honoured.agreement.lineAmount,
    });
  });
});

describe("the ladder and the price-break advice take step 7 (docs/pricing-rules.md §30, §22)", () => {
  // P 1+: 100, 10+: 90, 50+: 80 on the primary list; an AGREEMENT of P at 50 per piece.
  const tiers = {
    pricelists: [
      pricelist(1, ["CHANNEL_PRIMARY"], {
        P: [
          [1, 100],
          [10, 90],
          [50, 80],
        ],
      }),
    ],
  };
  const agreement = (extra: Partial<QuoteTerms> = {}) =>
    quote({
      lines: [{ productCode: "P", quantity: 1, quotedUnitAmount: 50, priceUnit: 1 }],
      ...extra,
    });
  const at = (quantity: number, extra: Partial<PriceRequest> = {}) =>
    resolvePrices(request({ ...tiers, lines: [{ productCode: "P", quantity }], ...extra }))
      .lines[0]!;
  /** The entry a resolve of P × q alone answers. */
  const entryOf = (minQuantity: number, extra: Partial<PriceRequest>) => {
    const { finalUnitAmount, lineAmount, priceUnit, status } = at(minQuantity, extra);
    expect(status).toBe("OK");
    return { minQuantity, quantity: minQuantity, finalUnitAmount, priceUnit, lineAmount };
  };

  it("a FIXED agreement prices every entry: 50 at 1, 10 and 50 pieces, as a resolve there", () => {
    const terms = { quotes: [agreement()] };
    const l = at(1, { ...terms, ladder: true });
    expect(l.ladder).toEqual([
      { minQuantity: 1, quantity: 1, finalUnitAmount: 50, priceUnit: 1, lineAmount: 50 },
      { minQuantity: 10, quantity: 10, finalUnitAmount: 50, priceUnit: 1, lineAmount: 500 },
      { minQuantity: 50, quantity: 50, finalUnitAmount: 50, priceUnit: 1, lineAmount: 2500 },
    ]);
    expect(l.ladder).toEqual([1, 10, 50].map((q) => entryOf(q, terms)));
    for (const q of [1, 10, 50]) {
      const there = at(q, { ...terms, ladder: true, explain: true });
      expect(there).toMatchObject({
        status: "OK",
        finalUnitAmount: 50,
        lineAmount: 50 * q,
        regularUnitAmount: q >= 50 ? 80 : q >= 10 ? 90 : 100,
        adjustments: [],
        priceBreak: null,
        source: { pricelistId: 1, baseUnitAmount: 50, kind: "QUOTE", quoteId: 7, revision: 2 },
      });
      expect(there.ladder).toEqual(l.ladder);
      // The ladder adds nothing to explain: the quote's note is the line's own.
      expect(there.explain!.quotes).toEqual([expect.objectContaining({ outcome: "APPLIED" })]);
      expect(there.explain).toEqual(at(q, { ...terms, explain: true }).explain);
    }
  });

  it("BETTER_OF at 85: the quote at 1 and 10 pieces, the usual 80 from 50 on", () => {
    const terms = {
      quotes: [
        agreement({
          lock: "BETTER_OF",
          lines: [{ productCode: "P", quantity: 1, quotedUnitAmount: 85, priceUnit: 1 }],
        }),
      ],
    };
    const l = at(1, { ...terms, ladder: true });
    expect(l.ladder).toEqual([
      { minQuantity: 1, quantity: 1, finalUnitAmount: 85, priceUnit: 1, lineAmount: 85 },
      { minQuantity: 10, quantity: 10, finalUnitAmount: 85, priceUnit: 1, lineAmount: 850 },
      { minQuantity: 50, quantity: 50, finalUnitAmount: 80, priceUnit: 1, lineAmount: 4000 },
    ]);
    expect(l.ladder).toEqual([1, 10, 50].map((q) => entryOf(q, terms)));
  });

  it("without a quote, or out of its window, the entries are the usual prices", () => {
    const usual = [
      { minQuantity: 1, quantity: 1, finalUnitAmount: 100, priceUnit: 1, lineAmount: 100 },
      { minQuantity: 10, quantity: 10, finalUnitAmount: 90, priceUnit: 1, lineAmount: 900 },
      { minQuantity: 50, quantity: 50, finalUnitAmount: 80, priceUnit: 1, lineAmount: 4000 },
    ];
    for (const terms of [{}, { quotes: [agreement({ validTo: AT })] }]) {
      expect(at(1, { ...terms, ladder: true }).ladder).toEqual(usual);
      expect(usual).toEqual([1, 10, 50].map((q) => entryOf(q, terms)));
    }
  });

  it("a ONCE quote at 10 pieces: a line of 5 is advised 10 for 500, with or without the ladder", () => {
    const once = quote({
      mode: "ONCE",
      lines: [{ productCode: "P", quantity: 10, quotedUnitAmount: 50, priceUnit: 1 }],
    });
    for (const ladder of [false, true]) {
      const l = at(5, { quotes: [once], ladder });
      expect(l).toMatchObject({ status: "OK", finalUnitAmount: 100, lineAmount: 500 });
      expect(l.priceBreak).toEqual({ quantity: 10, lineAmount: 500 });
    }
    expect(at(10, { quotes: [once] })).toMatchObject({ finalUnitAmount: 50, lineAmount: 500 });
  });
});
