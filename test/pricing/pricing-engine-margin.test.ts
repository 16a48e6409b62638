import { describe, expect, it } from "vitest";
import { SEES_NO_COSTS } from "../../src/db/visibility";
import { resolvePrices, type PriceRequest, type TradeConditionCandidate } from "../../src/pricing";
import {
  condition,
  cost,
  exampleERecords,
  floor,
  line,
  primary,
  promotion,
  request,
  t,
  workedExample,
} from "../shared/pricing-engine-factories";

/**
 * Unit tests of cost, margin and pocket price (docs/pricing-rules.md §23–§26), with worked
 * example E of pricing rules v3 exactly, without a Worker.
 */

const MARGIN_FIELDS = [
  "costUnitAmount",
  "marginAmount",
  "marginBp",
  "accruals",
  "pocketUnitAmount",
  "pocketMarginBp",
];

/** An ACCRUAL trade condition: an off-invoice rebate (§25). */
const accrual = (id: number, extra: Partial<TradeConditionCandidate> = {}) =>
  condition(id, { name: `AC-${id}`, type: "ACCRUAL", ...extra });

// ---------------------------------------------------------------------------------------------
// Worked example E (pricing rules v3): the v1 worked example with a cost, an accrual and a floor
// derived from the cost.
// ---------------------------------------------------------------------------------------------

/**
 * CO-40, the COST list of WEB-DE (P-B 1+: 300); FL-41, a FLOOR derived from it, + 10 %: "never
 * below cost + 10 %"; AC-8: 200 bp accrued on P-B for C-1001. The data is
 * scripts/lib/worked-examples.mjs (the API tests and the demo hold the same records).
 */
const {
  cost: COST_40,
  floor: FL_41,
  accrual: AC_8,
} = exampleERecords({
  cost: 40,
  floor: 41,
  accrual: 8,
});

/** What a read key's lookup gives the engine (its scope, src/db/visibility.ts). */
const READ_KEY = {
  margin: SEES_NO_COSTS.costs,
  hiddenConditionTypes: SEES_NO_COSTS.hiddenConditionTypes,
};

function exampleE(extra: Partial<PriceRequest> = {}): PriceRequest {
  const base = workedExample();
  return workedExample({
    margin: true,
    costs: [COST_40],
    priceBases: [{ id: 40, currency: "EUR", derivation: null, prices: COST_40.prices }],
    floors: [FL_41],
    tradeConditions: [...base.tradeConditions, AC_8],
    ...extra,
  });
}

const pb = (answer: ReturnType<typeof resolvePrices>) =>
  answer.lines.find((l) => l.productCode === "P-B")!;

describe("worked example E (docs/pricing-rules.md §26)", () => {
  it("P-B at 391 over a cost of 300: margin 91 (2327 bp), accrual 8, pocket 383 (2167 bp)", () => {
    const line = pb(resolvePrices(exampleE()));
    expect(line).toMatchObject({
      status: "OK",
      finalUnitAmount: 391,
      lineAmount: 23460,
      costUnitAmount: 300,
      marginAmount: 91,
      marginBp: 2327,
      accruals: [{ id: 8, amount: 8 }],
      pocketUnitAmount: 383,
      pocketMarginBp: 2167,
    });
    // The fields sit after priceBreak, before explain, in this order.
    const keys = Object.keys(line);
    expect(keys.slice(keys.indexOf("priceBreak") + 1)).toEqual([...MARGIN_FIELDS, "explain"]);
  });

  it("the FLOOR derived from the COST list is 330 (300 + 10 %) and does not touch 391", () => {
    const line = pb(resolvePrices(exampleE({ explain: true })));
    expect(line.adjustments.map((a) => a.kind)).toEqual(["DISCOUNT", "SURCHARGE"]);
    expect(line.explain!.floors).toEqual([
      {
        pricelistId: 41,
        name: "FL-41",
        priority: 0,
        outcome: "USED",
        decidedBy: null,
        tierMinQuantity: 1,
        amount: 330,
        priceUnit: 1,
        effectiveAmount: 330,
        regularAdjustment: 0,
        finalAdjustment: 0,
      },
    ]);
    expect(line.explain!.costs).toEqual([
      {
        pricelistId: 40,
        name: "CO-40",
        priority: 0,
        outcome: "USED",
        decidedBy: null,
        tierMinQuantity: 1,
        amount: 300,
        priceUnit: 1,
        costUnitAmount: 300,
      },
    ]);
    const ac8 = line.explain!.tradeConditions.find((c) => c.id === 8);
    expect(ac8).toMatchObject({
      type: "ACCRUAL",
      outcome: "APPLIED",
      rung: 1,
      value: 200,
      amount: 8,
    });
  });

  it("the other lines have no cost: their margins are null, and so is the order's", () => {
    const answer = resolvePrices(exampleE());
    const pa = answer.lines[0]!;
    expect(pa).toMatchObject({
      productCode: "P-A",
      costUnitAmount: null,
      marginAmount: null,
      marginBp: null,
      accruals: [],
      pocketUnitAmount: 850,
      pocketMarginBp: null,
    });
    expect(answer).toMatchObject({ totalAmount: 27710, costAmount: null, marginAmount: null });
  });

  it("with a cost on every line the order has its cost and margin", () => {
    const costs = [cost(40, { "P-A": [[1, 600]], "P-B": [[1, 300]], "P-C": [[1, 123]] })];
    const answer = resolvePrices(exampleE({ costs }));
    // 600 × 3 + 300 × 60 + 123 × 10 = 21030; 27710 − 21030 = 6680.
    expect(answer).toMatchObject({ totalAmount: 27710, costAmount: 21030, marginAmount: 6680 });
    const keys = Object.keys(answer);
    expect(keys.slice(keys.indexOf("complete") + 1, keys.indexOf("validUntil"))).toEqual([
      "costAmount",
      "marginAmount",
    ]);
  });

  it("the same lookup without margin (a read key) has none of these fields", () => {
    const answer = resolvePrices(exampleE({ ...READ_KEY, explain: true }));
    expect(answer).not.toHaveProperty("costAmount");
    expect(answer).not.toHaveProperty("marginAmount");
    for (const l of answer.lines) {
      for (const field of MARGIN_FIELDS) expect(l).not.toHaveProperty(field);
      expect(l.explain).not.toHaveProperty("costs");
      expect(l.explain!.tradeConditions.map((c) => c.type)).not.toContain("ACCRUAL");
    }
    // The price is the same: the floor derived from the cost is a price rule; but it is as
    // hidden as the cost (its 330 tells it, docs/pricing-rules.md §24): no entry in explain.
    expect(pb(answer).finalUnitAmount).toBe(391);
    expect(pb(answer).explain!.floors).toEqual([]);
    const text = JSON.stringify(answer);
    for (const field of MARGIN_FIELDS) expect(text).not.toContain(field);
  });

  it("margin changes nothing else of the answer", () => {
    const withMargin = resolvePrices(exampleE({ explain: true }));
    const without = resolvePrices(exampleE({ explain: true, ...READ_KEY }));
    const strip = (answer: typeof withMargin) => {
      const { costAmount: _c, marginAmount: _m, ...rest } = answer;
      return {
        ...rest,
        // validUntil also counts the COST lists' and accruals' edges; none here.
        lines: rest.lines.map((l) => {
          const copy: Record<string, unknown> = { ...l };
          for (const field of MARGIN_FIELDS) delete copy[field];
          const { costs: _costs, ...explain } = l.explain!;
          copy.explain = {
            ...explain,
            tradeConditions: explain.tradeConditions.filter((c) => c.type !== "ACCRUAL"),
            // The floor derived from the cost (FL-41) is hidden without margin (§24).
            floors: explain.floors.filter((f) => f.pricelistId !== 41),
          };
          copy.adjustments = l.adjustments.map((a) =>
            a.kind === "FLOOR" && a.id === 41 ? { ...a, id: null } : a,
          );
          return copy;
        }),
      };
    };
    expect(strip(withMargin)).toEqual(strip(without));
  });
});

// ---------------------------------------------------------------------------------------------
// §23: the cost of a line
// ---------------------------------------------------------------------------------------------

describe("the cost of a line (docs/pricing-rules.md §23)", () => {
  const margin = { margin: true, pricelists: [primary(1000)] };

  it("is the first COST list by priority desc, then id asc, that has a tier", () => {
    const costs = [
      cost(5, { P: [[1, 700]] }),
      cost(3, { P: [[1, 600]] }),
      cost(9, { P: [[1, 500]] }, { priority: 1 }),
    ];
    expect(line({ ...margin, costs }).costUnitAmount).toBe(500);
    expect(line({ ...margin, costs: costs.slice(0, 2) }).costUnitAmount).toBe(600);
  });

  it("passes over lists that fail for the line: inactive, other currency, no tier, out of window", () => {
    const costs = [
      cost(1, { P: [[1, 100]] }, { status: "DRAFT", priority: 9 }),
      cost(2, { P: [[1, 200]] }, { currency: "USD", priority: 8 }),
      cost(3, { P: [[5, 300]] }, { priority: 7 }),
      cost(4, { P: [[1, 400]] }, { validTo: t("2025-02-01T00:00:00Z"), priority: 6 }),
      cost(5, { Q: [[1, 500]] }, { priority: 5 }),
      cost(6, { P: [[1, 600]] }),
    ];
    const l = line({ ...margin, costs, explain: true });
    expect(l.costUnitAmount).toBe(600);
    expect(l.explain!.costs!.map((c) => [c.pricelistId, c.outcome])).toEqual([
      [1, "NOT_ACTIVE"],
      [2, "OTHER_CURRENCY"],
      [3, "NO_TIER_FOR_QUANTITY"],
      [4, "OUT_OF_WINDOW"],
      [5, "NO_PRICE_FOR_PRODUCT"],
      [6, "USED"],
    ]);
  });

  it("takes the tier for the quantity and converts it to the line's price unit, half up", () => {
    const costs = [
      cost(1, {
        P: [
          [1, 1250],
          [100, 1150],
        ],
      }),
    ];
    const perThousand = costs.map((c) => ({
      ...c,
      prices: c.prices.map((r) => ({ ...r, priceUnit: 1000 })),
    }));
    expect(line({ ...margin, costs, lines: [{ productCode: "P", quantity: 150 }] })).toMatchObject({
      costUnitAmount: 1150,
      marginAmount: -150,
      marginBp: -1500,
    });
    // 1250 per 1000 pieces is 1.25 per piece: 1 (half up), on a line priced per piece.
    expect(line({ ...margin, costs: perThousand }).costUnitAmount).toBe(1);
  });

  it("no cost: cost and margins null; a final amount of 0: no ratio", () => {
    expect(line(margin)).toMatchObject({
      costUnitAmount: null,
      marginAmount: null,
      marginBp: null,
      pocketUnitAmount: 1000,
      pocketMarginBp: null,
    });
    const free = line({ ...margin, pricelists: [primary(0)], costs: [cost(1, { P: [[1, 10]] })] });
    expect(free).toMatchObject({
      finalUnitAmount: 0,
      costUnitAmount: 10,
      marginAmount: -10,
      marginBp: null,
      pocketMarginBp: null,
    });
  });

  it("an unpriced line has every field, empty", () => {
    const l = line({ ...margin, costs: [cost(1, { P: [[1, 10]] })], pricelists: [] });
    expect(l.status).toBe("NO_PRICE");
    expect(l).toMatchObject({
      costUnitAmount: null,
      marginAmount: null,
      marginBp: null,
      accruals: [],
      pocketUnitAmount: null,
      pocketMarginBp: null,
    });
  });

  it("a COST list never prices: a channel with only a COST list has NO_PRICE", () => {
    const l = line({ margin: true, costs: [cost(1, { P: [[1, 10]] })] });
    expect(l.status).toBe("NO_PRICE");
  });

  it("a cost row that starts later ends the answer's validity (admin answers)", () => {
    const later = t("2025-09-01T00:00:00Z");
    const costs = [
      cost(
        1,
        {},
        {
          validFrom: null,
          validTo: null,
          prices: [
            { productCode: "P", minQuantity: 1, amount: 10, validFrom: null, validTo: later },
            { productCode: "P", minQuantity: 1, amount: 12, validFrom: later, validTo: null },
          ],
        },
      ),
    ];
    const priced = { pricelists: [primary(1000, { validFrom: null, validTo: null })], costs };
    const admin = resolvePrices(request({ ...priced, margin: true }));
    expect(admin.validUntil).toBe("2025-09-01T00:00:00.000Z");
    // A read key's answer does not depend on costs, and says nothing of their edges.
    expect(resolvePrices(request({ ...priced, ...READ_KEY })).validUntil).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// §24: floors derived from COST lists
// ---------------------------------------------------------------------------------------------

describe("FLOOR lists derived from a COST list (docs/pricing-rules.md §24)", () => {
  const base = {
    id: 40,
    currency: "EUR",
    derivation: null,
    prices: cost(40, { P: [[1, 600]] }).prices,
  };
  const derived = (adjustmentBp: number, extra = {}) =>
    floor(41, {}, { derivation: { basePricelistId: 40, adjustmentBp, rounding: null }, ...extra });

  it("keeps a discount from taking the price below cost + 10 %, for every key", () => {
    for (const margin of [true, false]) {
      const l = line({
        margin,
        pricelists: [primary(1000)],
        priceBases: [base],
        floors: [derived(1000)],
        tradeConditions: [condition(1, { value: 5000 })],
      });
      // 1000 − 50 % = 500 < 660: raised to the floor, which a read key's answer does not name.
      expect(l.finalUnitAmount).toBe(660);
      const id = margin ? 41 : null;
      expect(l.adjustments.at(-1)).toMatchObject({ kind: "FLOOR", id, amount: 160 });
    }
  });

  it("follows the cost: a new cost moves the floor", () => {
    const dearer = { ...base, prices: cost(40, { P: [[1, 700]] }).prices };
    const l = line({
      pricelists: [primary(1000)],
      priceBases: [dearer],
      floors: [derived(1000)],
      tradeConditions: [condition(1, { value: 5000 })],
    });
    expect(l.finalUnitAmount).toBe(770);
  });

  it("uses its own rows for a product it has them for, and a rounding ending", () => {
    const own = derived(1000, {
      prices: [{ productCode: "P", minQuantity: 1, amount: 555, validFrom: null, validTo: null }],
    });
    const rounded = floor(
      41,
      {},
      {
        derivation: {
          basePricelistId: 40,
          adjustmentBp: 1000,
          rounding: { mode: "UP", step: 10, ending: 9 },
        },
      },
    );
    const common = {
      pricelists: [primary(1000)],
      priceBases: [base],
      tradeConditions: [condition(1, { value: 5000 })],
    };
    expect(line({ ...common, floors: [own] }).finalUnitAmount).toBe(555);
    expect(line({ ...common, floors: [rounded] }).finalUnitAmount).toBe(669);
  });

  it("has no floor for a product whose base is missing", () => {
    const l = line({
      margin: true,
      explain: true,
      pricelists: [primary(1000)],
      priceBases: [],
      floors: [derived(1000)],
      tradeConditions: [condition(1, { value: 5000 })],
    });
    expect(l.finalUnitAmount).toBe(500);
    expect(l.explain!.floors[0]!.outcome).toBe("NO_PRICE_FOR_PRODUCT");
  });
});

// ---------------------------------------------------------------------------------------------
// §25: accruals
// ---------------------------------------------------------------------------------------------

describe("accruals (docs/pricing-rules.md §25)", () => {
  const margin = { margin: true, pricelists: [primary(1000)] };

  it("never change what the customer pays, whatever else applies", () => {
    const tradeConditions = [condition(1, { value: 1000 }), accrual(2, { value: 5000 })];
    const promotions = [promotion(3, { value: 2000, stacking: "ON_TOP" })];
    const l = line({ ...margin, tradeConditions, promotions });
    expect(l.finalUnitAmount).toBe(720);
    expect(l.adjustments.map((a) => a.id)).toEqual([1, 3]);
    // 50 % of the final 720.
    expect(l.accruals).toEqual([{ id: 2, amount: 360 }]);
    expect(l.pocketUnitAmount).toBe(360);
  });

  it("every accrual that reaches the line applies, in rung, priority, id order", () => {
    const tradeConditions = [
      accrual(7, { value: 100 }),
      accrual(5, { value: 200, priority: 2 }),
      accrual(6, {
        scope: "CUSTOMER",
        customerCodes: ["C-1"],
        discountType: "ABSOLUTE",
        currency: "EUR",
        value: 15,
      }),
      accrual(8, { scope: "CUSTOMER_GROUP", customerGroupCodes: ["OTHER"], value: 900 }),
      accrual(9, { channelCodes: ["SHOP-CH"], value: 900 }),
      accrual(10, { productCodes: ["Q"], value: 900 }),
      accrual(11, { status: "DRAFT", value: 900 }),
      accrual(12, { discountType: "ABSOLUTE", currency: "USD", value: 900 }),
    ];
    const l = line({ ...margin, tradeConditions, explain: true });
    expect(l.accruals).toEqual([
      { id: 6, amount: 15 },
      { id: 5, amount: 20 },
      { id: 7, amount: 10 },
    ]);
    expect(l.pocketUnitAmount).toBe(955);
    const outcome = Object.fromEntries(
      l.explain!.tradeConditions.map((c) => [c.id, c.outcome] as const),
    );
    expect(outcome).toEqual({
      5: "APPLIED",
      6: "APPLIED",
      7: "APPLIED",
      8: "NOT_TARGETED",
      9: "OTHER_CHANNEL",
      10: "OTHER_PRODUCT",
      11: "NOT_ACTIVE",
      12: "OTHER_CURRENCY",
    });
  });

  it("rounds half up whatever the channel, and never takes the pocket price below 0", () => {
    const half = line({
      ...margin,
      pricelists: [primary(25)],
      roundingMode: "DOWN",
      tradeConditions: [accrual(1, { value: 1000 })],
    });
    expect(half.accruals).toEqual([{ id: 1, amount: 3 }]);
    const big = line({
      ...margin,
      tradeConditions: [
        accrual(1, { discountType: "ABSOLUTE", currency: "EUR", value: 800 }),
        accrual(2, { discountType: "ABSOLUTE", currency: "EUR", value: 800 }),
      ],
    });
    expect(big.accruals).toEqual([
      { id: 1, amount: 800 },
      { id: 2, amount: 200 },
    ]);
    expect(big.pocketUnitAmount).toBe(0);
  });

  it("with scales, the row at the basis applies; none: NO_SCALE", () => {
    const scaled = accrual(1, { scales: [{ minimum: 10, value: 300 }] });
    expect(line({ ...margin, tradeConditions: [scaled] }).accruals).toEqual([]);
    expect(
      line({ ...margin, tradeConditions: [scaled], lines: [{ productCode: "P", quantity: 10 }] })
        .accruals,
    ).toEqual([{ id: 1, amount: 30 }]);
  });

  it("is ignored for a read key (hidden by its scope): no field, no explain entry, no validity edge", () => {
    const tradeConditions = [accrual(1, { validTo: t("2025-08-01T00:00:00Z") })];
    const pricelists = [primary(1000, { validTo: null })];
    const answer = resolvePrices(
      request({ pricelists, tradeConditions, explain: true, ...READ_KEY }),
    );
    expect(answer.lines[0]).not.toHaveProperty("accruals");
    expect(answer.lines[0]!.explain!.tradeConditions).toEqual([]);
    expect(answer.validUntil).toBeNull();
  });
});
