import { describe, expect, it } from "vitest";
import {
  deriveAmount,
  isAllowed,
  quantityRuleOf,
  resolvePrices,
  roundToEnding,
  suggestionsFor,
  type Derivation,
  type LinePrice,
  type PriceRequest,
  type PricelistCandidate,
  type RoundingMode,
  type TradeConditionCandidate,
} from "../../src/pricing";
import {
  ALWAYS,
  condition,
  facts,
  floor,
  line,
  pricelist,
  primary,
  productsOf,
  promotion,
  request,
  t,
} from "../shared/pricing-engine-factories";

/**
 * Unit tests of the B2B rules of docs/pricing-rules.md (§3.7 derived lists, §4 groups and
 * order-level scales, §5.4 thresholds, §12 product groups, §13 quantity rules, §14 floors, §15
 * order of the computation), with the worked example of §16 and its variant, without a Worker.
 */

// ---------------------------------------------------------------------------------------------
// The worked example (docs/pricing-rules.md §16)
// ---------------------------------------------------------------------------------------------

const FROM = t("2025-01-01T00:00:00Z");
const TO = t("2026-01-01T00:00:00Z");
const DEALER: Partial<TradeConditionCandidate> = {
  scope: "CUSTOMER_GROUP",
  customerGroupCodes: ["DEALER"],
};

const example: PriceRequest = {
  at: t("2025-09-01T12:00:00Z"),
  currency: "EUR",
  channel: { code: "B2B-AT" },
  customer: { code: "K-7" },
  groupCodes: ["DEALER"],
  // FAST > SCREWS > WOOD, and TOOLS; X-1 is in no group. W-1 comes in boxes of 100.
  products: new Map([
    ["W-1", facts(["WOOD", "SCREWS", "FAST"], 100, 100)],
    ["S-1", facts(["SCREWS", "FAST"])],
    ["T-1", facts(["TOOLS"])],
    ["X-1", facts([])],
  ]),
  explain: false,
  pricelists: [
    pricelist(10, ["CHANNEL_PRIMARY"], {
      "W-1": [[1, 1200]],
      "S-1": [
        [1, 400],
        [500, 360],
      ],
      "T-1": [[1, 8000]],
      "X-1": [[1, 1500]],
    }),
    pricelist(
      20,
      ["CUSTOMER_GROUP"],
      { "W-1": [[1, 1100]] },
      {
        derivation: {
          basePricelistId: 10,
          adjustmentBp: -1000,
          rounding: { mode: "NEAREST", step: 10, ending: 9 },
        },
      },
    ),
  ],
  priceBases: [],
  floors: [
    floor(30, {
      "S-1": [[1, 310]],
      "T-1": [[1, 5000]],
    }),
  ],
  tradeConditions: [
    condition(41, { ...DEALER, value: 1000, productGroupCodes: ["FAST"] }),
    condition(42, { ...DEALER, value: 500, productGroupCodes: ["SCREWS"] }),
    condition(43, {
      scope: "CUSTOMER",
      customerCodes: ["K-7"],
      value: 2500,
      productCodes: ["T-1"],
    }),
    condition(44, {
      scope: "GLOBAL",
      stackable: true,
      value: 200,
      productGroupCodes: ["FAST"],
      scaleBasis: "ORDER_QUANTITY",
      scales: [{ minimum: 1000, value: 200 }],
    }),
    condition(45, {
      scope: "CHANNEL",
      channelCodes: ["B2B-AT"],
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 50,
      productCodes: ["X-1"],
    }),
  ],
  promotions: [
    promotion(51, {
      channelCodes: ["B2B-AT"],
      productGroupCodes: ["TOOLS"],
      value: 1500,
      currency: "EUR",
      stacking: "ON_TOP",
      threshold: { basis: "VALUE", minimum: 10000 },
    }),
  ],
  lines: [
    { productCode: "W-1", quantity: 600 },
    { productCode: "S-1", quantity: 500 },
    { productCode: "T-1", quantity: 2 },
    { productCode: "X-1", quantity: 3 },
  ],
};
// Every record of the example is valid all of 2025.
for (const list of [
  example.pricelists,
  example.floors,
  example.tradeConditions,
  example.promotions,
]) {
  for (const record of list) expect([record.validFrom, record.validTo]).toEqual([FROM, TO]);
}

const ONE = { minimum: 1, increment: 1, maximum: null };
const discount = (id: number, scope: string, rung: number, valueBp: number, amount: number) => ({
  kind: "DISCOUNT",
  id,
  scope,
  rung,
  valueBp,
  amount,
});
const floorAdjustment = (amount: number) => ({
  kind: "FLOOR",
  id: 30,
  scope: null,
  rung: null,
  valueBp: null,
  amount,
});

describe("worked example of docs/pricing-rules.md §16", () => {
  it("prices every line exactly: amounts, sources, rungs, adjustments, totals", () => {
    expect(resolvePrices(example)).toEqual({
      channelCode: "B2B-AT",
      customerCode: "K-7",
      currency: "EUR",
      at: "2025-09-01T12:00:00.000Z",
      totalAmount: 783597,
      pricedTotalAmount: 783597,
      complete: true,
      validUntil: "2026-01-01T00:00:00.000Z",
      lines: [
        {
          productCode: "W-1",
          quantity: 600,
          status: "OK",
          finalUnitAmount: 1024,
          lineAmount: 614400,
          regularUnitAmount: 1024,
          listUnitAmount: 1200,
          currency: "EUR",
          priceUnit: 1,
          taxInclusive: false,
          // PL-20's own row overrides its base.
          source: {
            level: "CUSTOMER_GROUP",
            pricelistId: 20,
            tierMinQuantity: 1,
            baseUnitAmount: 1100,
            derivedFrom: null,
            tierMode: "VOLUME",
            bands: null,
          },
          adjustments: [
            discount(42, "CUSTOMER_GROUP", 5, 500, -55), // distance 1 beats TC-41's 2
            discount(44, "GLOBAL", 11, 200, -21), // order quantity 1100 ≥ 1000
          ],
          tiers: [{ minQuantity: 1, amount: 1100, priceUnit: 1, flatAmount: 0 }],
          quantityRule: { minimum: 100, increment: 100, maximum: null },
          suggestedQuantities: null,
          priceBreak: null,
          explain: null,
        },
        {
          productCode: "S-1",
          quantity: 500,
          status: "OK",
          finalUnitAmount: 310,
          lineAmount: 155000,
          regularUnitAmount: 310,
          listUnitAmount: 360,
          currency: "EUR",
          priceUnit: 1,
          taxInclusive: false,
          // 360 − 10 % = 324, NEAREST …9: 319 and 329 tie, so up.
          source: {
            level: "CUSTOMER_GROUP",
            pricelistId: 20,
            tierMinQuantity: 500,
            baseUnitAmount: 329,
            derivedFrom: { pricelistId: 10, unitAmount: 360, exchangeRate: null },
            tierMode: "VOLUME",
            bands: null,
          },
          adjustments: [
            discount(42, "CUSTOMER_GROUP", 5, 500, -16),
            discount(44, "GLOBAL", 11, 200, -6),
            floorAdjustment(3), // 307 → 310
          ],
          // 400 − 10 % = 360 → 359 (1 below, 9 above).
          tiers: [
            { minQuantity: 1, amount: 359, priceUnit: 1, flatAmount: 0 },
            { minQuantity: 500, amount: 329, priceUnit: 1, flatAmount: 0 },
          ],
          quantityRule: ONE,
          suggestedQuantities: null,
          priceBreak: null,
          explain: null,
        },
        {
          productCode: "T-1",
          quantity: 2,
          status: "OK",
          finalUnitAmount: 5000,
          lineAmount: 10000,
          regularUnitAmount: 5399,
          listUnitAmount: 8000,
          currency: "EUR",
          priceUnit: 1,
          taxInclusive: false,
          source: {
            level: "CUSTOMER_GROUP",
            pricelistId: 20,
            tierMinQuantity: 1,
            baseUnitAmount: 7199,
            derivedFrom: { pricelistId: 10, unitAmount: 8000, exchangeRate: null },
            tierMode: "VOLUME",
            bands: null,
          },
          adjustments: [
            discount(43, "CUSTOMER", 1, 2500, -1800),
            { kind: "PROMOTION", id: 51, scope: null, rung: null, valueBp: 1500, amount: -810 },
            floorAdjustment(411), // 4589 → 5000
          ],
          tiers: [{ minQuantity: 1, amount: 7199, priceUnit: 1, flatAmount: 0 }],
          quantityRule: ONE,
          suggestedQuantities: null,
          priceBreak: null,
          explain: null,
        },
        {
          productCode: "X-1",
          quantity: 3,
          status: "OK",
          finalUnitAmount: 1399,
          lineAmount: 4197,
          regularUnitAmount: 1399,
          listUnitAmount: 1500,
          currency: "EUR",
          priceUnit: 1,
          taxInclusive: false,
          source: {
            level: "CUSTOMER_GROUP",
            pricelistId: 20,
            tierMinQuantity: 1,
            baseUnitAmount: 1349,
            derivedFrom: { pricelistId: 10, unitAmount: 1500, exchangeRate: null },
            tierMode: "VOLUME",
            bands: null,
          },
          adjustments: [
            { kind: "SURCHARGE", id: 45, scope: "CHANNEL", rung: 7, valueBp: null, amount: 50 },
          ],
          tiers: [{ minQuantity: 1, amount: 1349, priceUnit: 1, flatAmount: 0 }],
          quantityRule: ONE,
          suggestedQuantities: null,
          priceBreak: null,
          explain: null,
        },
      ],
    });
  });

  it("explains the distance, the order quantity, the threshold and the floors", () => {
    const [w, s, tools, x] = resolvePrices({ ...example, explain: true }).lines;
    const condition = (l: LinePrice | undefined, id: number) =>
      l!.explain!.tradeConditions.find((e) => e.id === id)!;

    expect(condition(w, 41)).toMatchObject({ rung: 5, distance: 2, outcome: "LOWER_RANK" });
    expect(condition(w, 41).decidedBy).toBe("DISTANCE");
    expect(condition(w, 42)).toMatchObject({ rung: 5, distance: 1, outcome: "APPLIED" });
    expect(condition(s, 41)).toMatchObject({ distance: 1, decidedBy: "DISTANCE" });
    expect(condition(s, 42)).toMatchObject({ distance: 0, outcome: "APPLIED" });
    for (const l of [w, s]) {
      expect(condition(l, 44)).toMatchObject({
        rung: 11,
        distance: 2 - (l === s ? 1 : 0),
        scaleBasis: "ORDER_QUANTITY",
        basisValue: 1100,
        value: 200,
        outcome: "APPLIED",
      });
    }
    // TC-44 lists FAST only: T-1 and X-1 are not in it.
    expect(condition(tools, 44)).toMatchObject({ outcome: "OTHER_PRODUCT", rung: 11 });
    expect(condition(x, 44).outcome).toBe("OTHER_PRODUCT");
    expect(condition(x, 41)).toMatchObject({ outcome: "OTHER_PRODUCT", distance: null });

    expect(tools!.explain!.promotions).toEqual([
      {
        id: 51,
        name: "PR-51",
        stacking: "ON_TOP",
        priority: 0,
        outcome: "APPLIED",
        decidedBy: null,
        discountType: "PERCENTAGE",
        value: 1500,
        priceUnit: 1,
        amount: -810,
        saving: 810,
        threshold: { basis: "VALUE", minimum: 10000, sum: 10798 },
      },
    ]);
    expect(s!.explain!.promotions[0]).toMatchObject({ outcome: "OTHER_PRODUCT" });

    expect(s!.explain!.floors).toEqual([
      {
        pricelistId: 30,
        name: "FL-30",
        priority: 0,
        outcome: "USED",
        decidedBy: null,
        tierMinQuantity: 1,
        amount: 310,
        priceUnit: 1,
        effectiveAmount: 310,
        regularAdjustment: 3,
        finalAdjustment: 0,
      },
    ]);
    expect(tools!.explain!.floors[0]).toMatchObject({
      outcome: "USED",
      amount: 5000,
      effectiveAmount: 5000,
      regularAdjustment: 0,
      finalAdjustment: 411,
    });
    expect(w!.explain!.floors[0]!.outcome).toBe("NO_PRICE_FOR_PRODUCT");
    // The base's pricelist explains where its amount came from.
    expect(s!.explain!.pricelists).toEqual([
      expect.objectContaining({
        level: "CUSTOMER_GROUP",
        pricelistId: 20,
        outcome: "USED",
        amount: 329,
        derivedFrom: { pricelistId: 10, unitAmount: 360, exchangeRate: null },
      }),
      expect.objectContaining({
        level: "CHANNEL_PRIMARY",
        pricelistId: 10,
        outcome: "LOWER_LEVEL",
        amount: 360,
        usedForListPrice: true,
        derivedFrom: null,
      }),
    ]);
  });

  it("variant W-1 × 650: W-1 refused (600 / 700), so TC-44 misses 1000 and S-1 is 313", () => {
    const variant = {
      ...example,
      lines: example.lines.map((l) => (l.productCode === "W-1" ? { ...l, quantity: 650 } : l)),
    };
    const answer = resolvePrices({ ...variant, explain: true });
    expect(answer).toMatchObject({
      totalAmount: null,
      pricedTotalAmount: 170697,
      complete: false,
      validUntil: "2026-01-01T00:00:00.000Z",
    });
    const [w, s, tools, x] = answer.lines;
    expect({ ...w, explain: null }).toEqual({
      productCode: "W-1",
      quantity: 650,
      status: "QUANTITY_NOT_ALLOWED",
      finalUnitAmount: null,
      lineAmount: null,
      regularUnitAmount: null,
      listUnitAmount: null,
      currency: "EUR",
      priceUnit: null,
      taxInclusive: null,
      source: null,
      adjustments: [],
      tiers: [],
      quantityRule: { minimum: 100, increment: 100, maximum: null },
      suggestedQuantities: { below: 600, above: 700 },
      priceBreak: null,
      explain: null,
    });
    expect(w!.explain!.tradeConditions.find((e) => e.id === 42)!.outcome).toBe("NOT_ELIGIBLE");
    expect(w!.explain!.pricelists[0]).toMatchObject({ pricelistId: 20, outcome: "USED" });
    expect(s).toMatchObject({
      finalUnitAmount: 313,
      lineAmount: 156500,
      adjustments: [discount(42, "CUSTOMER_GROUP", 5, 500, -16)],
    });
    expect(s!.explain!.tradeConditions.find((e) => e.id === 44)).toMatchObject({
      outcome: "NO_SCALE",
      basisValue: 500,
    });
    expect(s!.explain!.floors[0]).toMatchObject({ regularAdjustment: 0, finalAdjustment: 0 });
    expect([tools!.lineAmount, x!.lineAmount]).toEqual([10000, 4197]);
  });

  it("answers the same for every order of the lines", () => {
    const original = resolvePrices({ ...example, explain: true });
    const reversed = resolvePrices({
      ...example,
      explain: true,
      lines: [...example.lines].reverse(),
    });
    expect(reversed.lines).toEqual([...original.lines].reverse());
    expect(reversed.totalAmount).toBe(783597);
  });
});

// ---------------------------------------------------------------------------------------------
// §12 product groups and the 12-rung ladder (request(): P in SCREWS < FAST, Q in FAST, R none)
// ---------------------------------------------------------------------------------------------

describe("product groups: reach, rungs and distance", () => {
  const winner = (tradeConditions: TradeConditionCandidate[], productCode = "P") => {
    const l = line({
      pricelists: [pricelist(1, ["CHANNEL_PRIMARY"], { P: [[1, 1000]], Q: [[1, 1000]] })],
      tradeConditions,
      lines: [{ productCode, quantity: 1 }],
      explain: true,
    });
    const lost = l.explain!.tradeConditions.filter((e) => e.outcome !== "APPLIED");
    return {
      applied: l.adjustments.map((a) => [a.id, a.rung]),
      lost: lost.map((e) => [e.id, e.outcome, e.decidedBy, e.distance]),
    };
  };

  it.each([
    ["own group", ["SCREWS"], 0],
    ["parent group", ["FAST"], 1],
    ["both: the closer counts", ["FAST", "SCREWS"], 0],
  ])("a condition on the %s reaches P on the group rung at that distance", (_, groups, d) => {
    const l = line({
      pricelists: [primary()],
      tradeConditions: [condition(1, { productGroupCodes: groups })],
      explain: true,
    });
    expect(l.adjustments).toEqual([discount(1, "GLOBAL", 11, 1000, -100)]);
    expect(l.explain!.tradeConditions[0]).toMatchObject({ rung: 11, distance: d });
  });

  it("a group the product is not in does not reach it, nor does a child group", () => {
    const groups = (productGroupCodes: string[], productCode: string) =>
      winner([condition(1, { productGroupCodes })], productCode).lost;
    expect(groups(["TOOLS"], "P")).toEqual([[1, "OTHER_PRODUCT", null, null]]);
    // Q is in FAST itself: a condition on SCREWS (a child of FAST) does not reach it.
    expect(groups(["SCREWS"], "Q")).toEqual([[1, "OTHER_PRODUCT", null, null]]);
    expect(groups(["FAST"], "Q")).toEqual([]);
  });

  it("listing the product beats reaching it through a group, whatever priority or saving", () => {
    const result = winner([
      condition(1, { productGroupCodes: ["SCREWS"], priority: 9, value: 5000 }),
      condition(2, { productCodes: ["P"], value: 100 }),
    ]);
    expect(result.applied).toEqual([[2, 10]]);
    expect(result.lost).toEqual([[1, "LOWER_RUNG", null, 0]]);
  });

  it("a record listing the product and one of its groups sits on the product rung", () => {
    const both = condition(1, { productCodes: ["P"], productGroupCodes: ["FAST"] });
    expect(winner([both]).applied).toEqual([[1, 10]]);
    // On Q (in FAST, not listed) the same record is on the group rung.
    expect(winner([both], "Q").applied).toEqual([[1, 11]]);
  });

  it("the group rung beats the all-products rung, whatever priority or saving", () => {
    const result = winner([
      condition(1, { priority: 9, value: 5000 }),
      condition(2, { productGroupCodes: ["FAST"], value: 100 }),
    ]);
    expect(result.applied).toEqual([[2, 11]]);
    expect(result.lost).toEqual([[1, "LOWER_RUNG", null, null]]);
  });

  it.each([
    // [a's groups, a's priority, a's value, b's ..., winner, decidedBy]
    [["SCREWS"], 0, 100, ["FAST"], 9, 5000, 1, "DISTANCE"],
    [["FAST"], 0, 100, ["FAST"], 1, 100, 2, "PRIORITY"],
    [["FAST"], 0, 100, ["FAST"], 0, 200, 2, "AMOUNT"],
    [["SCREWS"], 0, 100, ["SCREWS"], 0, 100, 1, "ID"],
  ] as const)(
    "distance ties: %j (prio %i, %i bp) vs %j (prio %i, %i bp) → %i by %s",
    (aGroups, aPriority, aValue, bGroups, bPriority, bValue, won, key) => {
      const result = winner([
        condition(1, { productGroupCodes: [...aGroups], priority: aPriority, value: aValue }),
        condition(2, { productGroupCodes: [...bGroups], priority: bPriority, value: bValue }),
      ]);
      expect(result.applied).toEqual([[won, 11]]);
      expect(result.lost.map((l) => l.slice(0, 3))).toEqual([[3 - won, "LOWER_RANK", key]]);
    },
  );

  it("each audience has its three product steps: a customer group condition beats a global one", () => {
    const result = winner([
      condition(1, { productCodes: ["P"] }), // rung 10
      condition(2, { scope: "CUSTOMER_GROUP", customerGroupCodes: ["G-1"] }), // rung 6
      condition(3, { scope: "CUSTOMER", customerCodes: ["C-1"], productGroupCodes: ["FAST"] }), // 2
    ]);
    expect(result.applied).toEqual([[3, 2]]);
  });

  it("promotions reach products through groups too", () => {
    const l = line({
      pricelists: [primary()],
      promotions: [
        promotion(1, { productGroupCodes: ["TOOLS"], value: 5000 }),
        promotion(2, { productGroupCodes: ["FAST"], value: 1000 }),
      ],
      explain: true,
    });
    expect(l.adjustments.map((a) => [a.kind, a.id, a.amount])).toEqual([["PROMOTION", 2, -100]]);
    expect(l.explain!.promotions.map((e) => [e.id, e.outcome])).toEqual([
      [1, "OTHER_PRODUCT"],
      [2, "APPLIED"],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// §4.4 scales on the line quantity, the order quantity and the order value
// ---------------------------------------------------------------------------------------------

describe("scales and their basis", () => {
  const lists = [
    pricelist(1, ["CHANNEL_PRIMARY"], { P: [[1, 1000]], Q: [[1, 500]], R: [[1, 200]] }),
  ];
  const scaled = (extra: Partial<TradeConditionCandidate>) =>
    condition(1, {
      productGroupCodes: ["FAST"], // P and Q, not R
      scales: [
        { minimum: 10, value: 500 },
        { minimum: 100, value: 1000 },
      ],
      ...extra,
    });
  const price = (tc: TradeConditionCandidate, lines: [string, number][], currency = "EUR") =>
    resolvePrices(
      request({
        currency,
        pricelists: lists.map((l) => ({ ...l, currency })),
        tradeConditions: [tc],
        lines: lines.map(([productCode, quantity]) => ({ productCode, quantity })),
        explain: true,
      }),
    ).lines.map((l) => {
      const e = l.explain!.tradeConditions[0]!;
      return [l.finalUnitAmount, e.outcome, e.basisValue];
    });

  it.each([
    [[["P", 9]], [[1000, "NO_SCALE", 9]]],
    [[["P", 10]], [[950, "APPLIED", 10]]],
    [
      [
        ["P", 5],
        ["Q", 99],
      ],
      [
        [1000, "NO_SCALE", 5],
        [475, "APPLIED", 99],
      ],
    ],
  ] as const)("LINE_QUANTITY (the default): each line its own quantity: %j", (lines, expected) => {
    expect(price(scaled({}), lines as never)).toEqual(expected);
  });

  it.each([
    // Σ quantities of the lines the condition reaches (P, Q; never R, unknown or refused lines)
    [[["P", 5]], 5, [1000]],
    [
      [
        ["P", 5],
        ["Q", 5],
      ],
      10,
      [950, 475],
    ],
    [
      [
        ["P", 60],
        ["Q", 30],
        ["P", 10],
      ],
      100,
      [900, 450, 900],
    ],
  ] as const)("ORDER_QUANTITY sums the reached lines: %j → %i", (lines, basis, finals) => {
    const result = price(scaled({ scaleBasis: "ORDER_QUANTITY" }), lines as never);
    expect(result.map((r) => r[0])).toEqual(finals);
    expect(result.map((r) => r[2])).toEqual(finals.map(() => basis));
  });

  it("ORDER_QUANTITY leaves out lines it does not reach and lines that are not eligible", () => {
    const tc = scaled({ scaleBasis: "ORDER_QUANTITY" });
    const result = resolvePrices(
      request({
        products: productsOf(["P", "Q", "R", "S"], { P: ["SCREWS", "FAST"], Q: ["FAST"] }),
        pricelists: lists,
        tradeConditions: [tc],
        lines: [
          { productCode: "P", quantity: 6 },
          { productCode: "R", quantity: 50 }, // not reached
          { productCode: "S", quantity: 50 }, // no price
          { productCode: "Z", quantity: 50 }, // unknown
        ],
        explain: true,
      }),
    ).lines[0]!;
    expect(result.explain!.tradeConditions[0]).toMatchObject({
      outcome: "NO_SCALE",
      basisValue: 6,
    });
  });

  it("ORDER_VALUE sums base × quantity (before any adjustment) of the reached lines", () => {
    const tc = scaled({
      scaleBasis: "ORDER_VALUE",
      currency: "EUR",
      scales: [{ minimum: 10_000, value: 1000 }],
    });
    // 1000 × 6 + 500 × 8 = 10000: reached exactly; R's 200 × 100 does not count.
    expect(
      price(tc, [
        ["P", 6],
        ["Q", 8],
        ["R", 100],
      ]),
    ).toEqual([
      [900, "APPLIED", 10_000],
      [450, "APPLIED", 10_000],
      [200, "OTHER_PRODUCT", null],
    ]);
    expect(
      price(tc, [
        ["P", 6],
        ["Q", 7],
      ]),
    ).toEqual([
      [1000, "NO_SCALE", 9500],
      [500, "NO_SCALE", 9500],
    ]);
  });

  it("ORDER_VALUE needs the request's currency, even for a percentage", () => {
    const tc = scaled({
      scaleBasis: "ORDER_VALUE",
      currency: "EUR",
      scales: [{ minimum: 1, value: 1000 }],
    });
    expect(price(tc, [["P", 1]], "USD")).toEqual([[1000, "OTHER_CURRENCY", null]]);
    expect(price(tc, [["P", 1]], "EUR")).toEqual([[900, "APPLIED", 1000]]);
  });

  it("with separateOrders (GET /v1/api/prices) each line is an order of its own", () => {
    const tc = scaled({ scaleBasis: "ORDER_QUANTITY" });
    const run = (separateOrders: boolean) =>
      resolvePrices(
        request({
          pricelists: lists,
          tradeConditions: [tc],
          promotions: [promotion(2, { threshold: { basis: "QUANTITY", minimum: 10 } })],
          lines: [
            { productCode: "P", quantity: 6 },
            { productCode: "Q", quantity: 6 },
          ],
          separateOrders,
          explain: true,
        }),
      ).lines.map((l) => [
        l.finalUnitAmount,
        l.explain!.tradeConditions[0]!.basisValue,
        l.explain!.promotions[0]!.threshold!.sum,
      ]);
    expect(run(false)).toEqual([
      // One order of 12: the scale gives 5 % (950), the promotion 10 % of the base (900 < 950).
      [900, 12, 12],
      [450, 12, 12],
    ]);
    // Two orders of 6: neither the scale (10) nor the threshold (10) is reached.
    expect(run(true)).toEqual([
      [1000, 6, 6],
      [500, 6, 6],
    ]);
  });

  it("an order-level basis ignores the line order and which condition wins the line", () => {
    const stacked = scaled({ scaleBasis: "ORDER_QUANTITY", stackable: true });
    const winnerTc = condition(2, { productCodes: ["P", "Q"], value: 100 });
    const lines: [string, number][] = [
      ["Q", 4],
      ["P", 6],
    ];
    const run = (ls: [string, number][]) =>
      resolvePrices(
        request({
          pricelists: lists,
          tradeConditions: [stacked, winnerTc],
          lines: ls.map(([productCode, quantity]) => ({ productCode, quantity })),
        }),
      ).lines.map((l) => [l.productCode, l.finalUnitAmount]);
    expect(run(lines)).toEqual([
      ["Q", 470], // 500 − 1 % = 495, then 5 % (basis 10) = −25 → 470
      ["P", 940],
    ]);
    expect(run([...lines].reverse())).toEqual([...run(lines)].reverse());
  });
});

// ---------------------------------------------------------------------------------------------
// §5.4 promotion thresholds
// ---------------------------------------------------------------------------------------------

describe("promotion thresholds", () => {
  const lists = [
    pricelist(1, ["CHANNEL_PRIMARY"], { P: [[1, 1000]], Q: [[1, 500]], R: [[1, 200]] }),
  ];
  const run = (
    threshold: NonNullable<Parameters<typeof promotion>[1]>["threshold"],
    lines: [string, number][],
    extra: Partial<PriceRequest> = {},
  ) =>
    resolvePrices(
      request({
        pricelists: lists,
        promotions: [
          promotion(1, {
            productGroupCodes: ["FAST"],
            stacking: "ON_TOP",
            currency: "EUR",
            threshold,
          }),
        ],
        lines: lines.map(([productCode, quantity]) => ({ productCode, quantity })),
        explain: true,
        ...extra,
      }),
    ).lines.map((l) => {
      const e = l.explain!.promotions[0]!;
      return [l.finalUnitAmount, e.outcome, e.threshold?.sum ?? null];
    });

  it.each([
    // QUANTITY: Σ quantities of the eligible lines the promotion reaches (P and Q, not R)
    [
      { basis: "QUANTITY", minimum: 10 },
      [
        ["P", 9],
        ["R", 50],
      ],
      [
        [1000, "THRESHOLD_NOT_REACHED", 9],
        [200, "OTHER_PRODUCT", 9],
      ],
    ],
    [
      { basis: "QUANTITY", minimum: 10 },
      [
        ["P", 9],
        ["Q", 1],
      ],
      [
        [900, "APPLIED", 10],
        [450, "APPLIED", 10],
      ],
    ],
    // VALUE: Σ regular × quantity
    [
      { basis: "VALUE", minimum: 10_000 },
      [
        ["P", 9],
        ["Q", 1],
      ],
      [
        [1000, "THRESHOLD_NOT_REACHED", 9500],
        [500, "THRESHOLD_NOT_REACHED", 9500],
      ],
    ],
    [
      { basis: "VALUE", minimum: 10_000 },
      [
        ["P", 9],
        ["Q", 2],
      ],
      [
        [900, "APPLIED", 10_000],
        [450, "APPLIED", 10_000],
      ],
    ],
  ] as const)("%j over %j", (threshold, lines, expected) => {
    expect(run(threshold, lines as never)).toEqual(expected);
  });

  it("VALUE counts the regular amount: after trade conditions, not the base", () => {
    const tradeConditions = [condition(5, { productCodes: ["P"], value: 1000 })]; // P: 1000 → 900
    const threshold = { basis: "VALUE", minimum: 10_000 } as const;
    // 900 × 11 = 9900 < 10000 although the base value is 11000.
    expect(run(threshold, [["P", 11]], { tradeConditions })).toEqual([
      [900, "THRESHOLD_NOT_REACHED", 9900],
    ]);
    expect(run(threshold, [["P", 12]], { tradeConditions })).toEqual([[810, "APPLIED", 10_800]]);
  });

  it("a VALUE threshold needs the request's currency, even for a percentage", () => {
    const l = line({
      pricelists: [primary(1000, { currency: "USD" })],
      currency: "USD",
      promotions: [promotion(1, { currency: "EUR", threshold: { basis: "VALUE", minimum: 1 } })],
      explain: true,
    });
    expect(l.explain!.promotions[0]).toMatchObject({ outcome: "OTHER_CURRENCY", threshold: null });
  });

  it("refused and unpriced lines do not count", () => {
    const products = new Map([
      ["P", facts(["SCREWS", "FAST"], 1, 1, 5)],
      ["Q", facts(["FAST"])],
      ["S", facts(["FAST"])], // no price
    ]);
    const threshold = { basis: "QUANTITY", minimum: 10 } as const;
    const lines: [string, number][] = [
      ["P", 9],
      ["Q", 9],
      ["S", 9],
    ];
    expect(run(threshold, lines, { products })).toEqual([
      [null, "THRESHOLD_NOT_REACHED", 9],
      [500, "THRESHOLD_NOT_REACHED", 9],
      [null, "THRESHOLD_NOT_REACHED", 9],
    ]);
    // Once reached, a line that is not eligible says so.
    expect(run(threshold, [...lines, ["Q", 1]], { products })).toEqual([
      [null, "NOT_ELIGIBLE", 10],
      [450, "APPLIED", 10],
      [null, "NO_BASE_PRICE", 10],
      [450, "APPLIED", 10],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// §13 quantity rules
// ---------------------------------------------------------------------------------------------

describe("quantity rules", () => {
  it.each([
    // [min, increment, max, q, allowed, below, above]
    [1, 1, null, 1, true, null, null],
    [1, 1, null, 1_000_000, true, null, null],
    [100, 100, null, 650, false, 600, 700],
    [100, 100, null, 100, true, null, null],
    [100, 100, null, 99, false, null, 100],
    [100, 100, null, 1, false, null, 100],
    [5, 3, null, 6, false, 5, 8],
    [5, 3, null, 11, true, null, null],
    [5, 3, 11, 12, false, 11, null],
    [5, 3, 12, 14, false, 11, null], // 12 is not on the grid: the last allowed is 11
    [5, 3, 12, 15, false, 11, null],
    [5, 3, 12, 10, false, 8, 11],
    [1, 1, 10, 11, false, 10, null],
    [1, 1, 10, 10, true, null, null],
    [10, 1, 5, 7, false, null, null], // a maximum below the minimum allows nothing
    [0, 0, null, 3, true, null, null], // values below 1 read as 1
  ] as const)(
    "min %i, increment %i, max %s: q %i allowed %s, suggests %s / %s",
    (min, inc, max, q, allowed, below, above) => {
      const rule = quantityRuleOf(facts([], min, inc, max));
      expect(isAllowed(rule, q)).toBe(allowed);
      if (!allowed) expect(suggestionsFor(rule, q)).toEqual({ below, above });
    },
  );

  it("a refused line has no amounts, no source, and suggestions; the rest of the cart prices", () => {
    const answer = resolvePrices(
      request({
        products: new Map([
          ["P", facts([], 10, 5, 50)],
          ["Q", facts([])],
        ]),
        pricelists: [pricelist(1, ["CHANNEL_PRIMARY"], { P: [[1, 100]], Q: [[1, 100]] })],
        lines: [
          { productCode: "P", quantity: 12 },
          { productCode: "Q", quantity: 12 },
          { productCode: "P", quantity: 15 },
        ],
      }),
    );
    expect(answer).toMatchObject({ totalAmount: null, pricedTotalAmount: 2700, complete: false });
    expect(answer.lines.map((l) => [l.status, l.lineAmount, l.suggestedQuantities])).toEqual([
      ["QUANTITY_NOT_ALLOWED", null, { below: 10, above: 15 }],
      ["OK", 1200, null],
      ["OK", 1500, null],
    ]);
    expect(answer.lines[0]).toMatchObject({
      source: null,
      tiers: [],
      adjustments: [],
      quantityRule: { minimum: 10, increment: 5, maximum: 50 },
    });
  });

  it("the base price comes first: a product without a price is NO_PRICE, not refused", () => {
    const l = line({
      products: new Map([["P", facts([], 10)]]),
      lines: [{ productCode: "P", quantity: 1 }],
    });
    expect([l.status, l.suggestedQuantities, l.quantityRule]).toEqual([
      "NO_PRICE",
      null,
      { minimum: 10, increment: 1, maximum: null },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// §3.7 derived pricelists and price endings
// ---------------------------------------------------------------------------------------------

describe("price endings", () => {
  it.each([
    // [a, mode, step, ending, result]
    [324, "NEAREST", 10, 9, 329], // 319 and 329 tie: up
    [323, "NEAREST", 10, 9, 319],
    [325, "NEAREST", 10, 9, 329],
    [7200, "NEAREST", 10, 9, 7199],
    [329, "NEAREST", 10, 9, 329],
    [324, "UP", 10, 9, 329],
    [320, "UP", 10, 9, 329],
    [319, "UP", 10, 9, 319],
    [324, "DOWN", 10, 9, 319],
    [328, "DOWN", 10, 9, 319],
    [5, "DOWN", 10, 9, 5], // no amount of the form k × 10 + 9 below 5: it stays
    [5, "UP", 10, 9, 9],
    [5, "NEAREST", 10, 9, 9],
    [1250, "NEAREST", 100, 0, 1300], // 1200 and 1300 tie: up
    [1249, "NEAREST", 100, 0, 1200],
    [1234, "UP", 1, 0, 1234],
    [1234, "NEAREST", 50, 49, 1249],
    [1224, "NEAREST", 50, 49, 1249], // 1199 is 25 away, 1249 is 25: a tie goes up
    [1223, "NEAREST", 50, 49, 1199],
  ] as const)("%i %s step %i ending %i → %i", (a, mode, step, ending, result) => {
    expect(roundToEnding(a, { mode: mode as RoundingMode, step, ending })).toBe(result);
  });

  it.each([
    // [base, adjustmentBp, rounding, result]
    [1000, 0, null, 1000],
    [1000, -1000, null, 900],
    [1005, -1000, null, 905], // 904.5 → 905, half up
    [1, -5000, null, 1], // 0.5 → 1
    [999, 100_000, null, 10_989],
    [1000, -9999, null, 0], // 0.1 → 0
    [360, -1000, { mode: "NEAREST", step: 10, ending: 9 }, 329],
  ] as const)("base %i, %i bp, %j → %i", (base, adjustmentBp, rounding, result) => {
    expect(deriveAmount(base, { basePricelistId: 1, adjustmentBp, rounding })).toBe(result);
  });
});

describe("derived pricelists", () => {
  const D = (
    basePricelistId: number,
    adjustmentBp = -1000,
    rounding: Derivation["rounding"] = null,
  ) => ({
    derivation: { basePricelistId, adjustmentBp, rounding },
  });
  /** A candidate at the CUSTOMER level (1) and the channel primary list (9, P at 1000). */
  const derivedLine = (
    derived: Partial<PricelistCandidate>,
    priceBases: PriceRequest["priceBases"],
    rows: Parameters<typeof pricelist>[2] = {},
  ) =>
    line({
      pricelists: [
        pricelist(1, ["CUSTOMER"], rows, derived),
        pricelist(9, ["CHANNEL_PRIMARY"], { P: [[1, 1000]] }),
      ],
      priceBases,
      explain: true,
    });
  const base = (
    id: number,
    prices: [number, number][],
    extra: Partial<PriceRequest["priceBases"][number]> = {},
  ) => ({
    id,
    currency: "EUR",
    derivation: null,
    prices: prices.map(([minQuantity, amount]) => ({
      productCode: "P",
      minQuantity,
      amount,
      ...ALWAYS,
    })),
    ...extra,
  });

  it("takes every tier of its base, transformed, when it has no own rows", () => {
    const l = line({
      pricelists: [pricelist(1, ["CUSTOMER"], {}, D(2))],
      priceBases: [
        base(2, [
          [1, 1000],
          [10, 800],
        ]),
      ],
      lines: [{ productCode: "P", quantity: 10 }],
    });
    expect(l.source).toEqual({
      level: "CUSTOMER",
      pricelistId: 1,
      tierMinQuantity: 10,
      baseUnitAmount: 720,
      derivedFrom: { pricelistId: 2, unitAmount: 800, exchangeRate: null },
      tierMode: "VOLUME",
      bands: null,
    });
    expect(l.tiers).toEqual([
      { minQuantity: 1, amount: 900, priceUnit: 1, flatAmount: 0 },
      { minQuantity: 10, amount: 720, priceUnit: 1, flatAmount: 0 },
    ]);
  });

  it("its own rows for a product override the base for that product (all tiers)", () => {
    const l = derivedLine(
      D(2),
      [
        base(2, [
          [1, 1000],
          [10, 800],
        ]),
      ],
      { P: [[5, 950]] },
    );
    // Below its own smallest tier it has no price (the base's 1+ tier does not fill in).
    expect(l.source).toMatchObject({ level: "CHANNEL_PRIMARY", pricelistId: 9 });
    expect(l.explain!.pricelists[0]).toMatchObject({
      pricelistId: 1,
      outcome: "NO_TIER_FOR_QUANTITY",
    });
    const at10 = line({
      pricelists: [pricelist(1, ["CUSTOMER"], { P: [[5, 950]] }, D(2))],
      priceBases: [
        base(2, [
          [1, 1000],
          [10, 800],
        ]),
      ],
      lines: [{ productCode: "P", quantity: 10 }],
    });
    expect(at10.source).toMatchObject({ pricelistId: 1, baseUnitAmount: 950, derivedFrom: null });
    expect(at10.tiers).toEqual([{ minQuantity: 5, amount: 950, priceUnit: 1, flatAmount: 0 }]);
  });

  it("follows a chain of 3 steps, each step transforming the previous one's amount", () => {
    const l = derivedLine(D(2, -1000), [
      base(2, [], D(3, 1000)),
      base(3, [], D(4, 0, { mode: "UP", step: 100, ending: 99 })),
      base(4, [[1, 1000]]),
    ]);
    // 1000 → UP …99 = 1099 → +10 % = 1209 (1208.9) → −10 % = 1088 (1088.1)
    expect(l.source).toMatchObject({
      pricelistId: 1,
      baseUnitAmount: 1088,
      derivedFrom: { pricelistId: 2, unitAmount: 1209, exchangeRate: null },
      tierMode: "VOLUME",
      bands: null,
    });
  });

  it("refuses a fourth step, a cycle, a missing base, and a base in another currency without a rate", () => {
    const noPrice = (priceBases: PriceRequest["priceBases"]) => {
      const l = derivedLine(D(2), priceBases);
      return [l.source?.pricelistId, l.explain!.pricelists[0]!.outcome];
    };
    const fallback = [9, "NO_PRICE_FOR_PRODUCT"];
    expect(
      noPrice([base(2, [], D(3)), base(3, [], D(4)), base(4, [], D(5)), base(5, [[1, 1000]])]),
    ).toEqual(fallback);
    expect(noPrice([base(2, [], D(3)), base(3, [], D(2))])).toEqual(fallback);
    expect(noPrice([base(2, [], D(1))])).toEqual(fallback); // back to the candidate itself
    // Also when the candidate comes as a base too (by id, whatever object holds it).
    expect(noPrice([base(2, [], D(1)), base(1, [[1, 500]], D(2))])).toEqual(fallback);
    expect(noPrice([])).toEqual(fallback);
    // A base in another currency needs a rate (docs/pricing-rules.md §19); there is none here.
    expect(noPrice([base(2, [[1, 1000]], { currency: "USD" })])).toEqual([9, "NO_EXCHANGE_RATE"]);
    // A base in a cycle that has its own rows still prices: the cycle is never followed.
    expect(noPrice([base(2, [[1, 1000]], D(1))])).toEqual([1, "USED"]);
  });

  it("a base prices whatever its status and window; the derived list's own ones decide", () => {
    // PL-9 is a candidate too (the channel primary): as a base its status does not matter.
    const inactive = pricelist(
      9,
      ["CHANNEL_PRIMARY"],
      { P: [[1, 1000]] },
      { status: "INACTIVE", validTo: t("2025-02-01") },
    );
    const l = line({ pricelists: [pricelist(1, ["CUSTOMER"], {}, D(9)), inactive], explain: true });
    expect(l.source).toMatchObject({ pricelistId: 1, baseUnitAmount: 900 });
    const off = line({
      pricelists: [
        pricelist(1, ["CUSTOMER"], {}, { ...D(9), status: "DRAFT" }),
        { ...inactive, status: "ACTIVE" as const, validTo: null },
      ],
    });
    expect(off.source).toMatchObject({ pricelistId: 9, baseUnitAmount: 1000, derivedFrom: null });
  });

  it("a priceBases entry is used over a candidate with the same id", () => {
    const l = line({
      pricelists: [pricelist(1, ["CUSTOMER"], {}, D(9, 0)), pricelist(9, ["CHANNEL_PRIMARY"], {})],
      priceBases: [base(9, [[1, 777]])],
    });
    expect(l.source).toMatchObject({ pricelistId: 1, baseUnitAmount: 777 });
  });

  it("a derived amount past 2^53 − 1 makes that line OUT_OF_RANGE, not the request", () => {
    const answer = resolvePrices(
      request({
        pricelists: [pricelist(1, ["CUSTOMER"], { Q: [[1, 5]] }, D(2, 100_000))],
        priceBases: [base(2, [[1, Number.MAX_SAFE_INTEGER]])],
        lines: [
          { productCode: "P", quantity: 1 },
          { productCode: "Q", quantity: 1 },
        ],
        explain: true,
      }),
    );
    expect(answer.lines.map((l) => [l.status, l.source, l.finalUnitAmount])).toEqual([
      ["OUT_OF_RANGE", null, null],
      ["OK", expect.objectContaining({ baseUnitAmount: 5 }), 5],
    ]);
    expect(answer.lines[0]!.explain!.pricelists[0]).toMatchObject({
      outcome: "USED",
      amount: null,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// §14 floors
// ---------------------------------------------------------------------------------------------

describe("floors", () => {
  const run = (
    baseAmount: number,
    floorAmount: number,
    extra: Partial<PriceRequest> = {},
  ): LinePrice =>
    line({
      pricelists: [primary(baseAmount)],
      floors: [floor(7, { P: [[1, floorAmount]] })],
      explain: true,
      ...extra,
    });
  const steps = (l: LinePrice) => l.adjustments.map((a) => [a.kind, a.amount]);

  it.each([
    // [base, floor, discount bp, regular, final, adjustments]
    [1000, 800, 1000, 900, [["DISCOUNT", -100]]], // above the floor: nothing
    [
      1000,
      950,
      1000,
      950,
      [
        ["DISCOUNT", -100],
        ["FLOOR", 50],
      ],
    ], // floor below the base
    [
      1000,
      1200,
      1000,
      1000,
      [
        ["DISCOUNT", -100],
        ["FLOOR", 100],
      ],
    ], // floor above the base: the base
    [1000, 1000, 0, 1000, []],
  ] as const)(
    "base %i, floor %i, discount %i bp → %i",
    (baseAmount, floorAmount, bp, final, adjustments) => {
      const tradeConditions = bp > 0 ? [condition(1, { value: bp })] : [];
      const l = run(baseAmount, floorAmount, { tradeConditions });
      expect([l.regularUnitAmount, l.finalUnitAmount]).toEqual([final, final]);
      expect(steps(l)).toEqual(adjustments);
    },
  );

  it("a base price below the floor is kept; a surcharge is not clawed back", () => {
    expect(steps(run(500, 800))).toEqual([]);
    const l = run(500, 800, {
      tradeConditions: [
        condition(1, { type: "SURCHARGE", discountType: "ABSOLUTE", currency: "EUR", value: 50 }),
      ],
    });
    expect([l.finalUnitAmount, steps(l)]).toEqual([550, [["SURCHARGE", 50]]]);
  });

  it("guards the final amount after promotions (ON_TOP, and BEST_OF without the regular floor)", () => {
    const onTop = run(1000, 850, {
      tradeConditions: [condition(1, { value: 1000 })],
      promotions: [promotion(2, { stacking: "ON_TOP", value: 2000 })],
    });
    expect([onTop.regularUnitAmount, onTop.finalUnitAmount]).toEqual([900, 850]);
    expect(steps(onTop)).toEqual([
      ["DISCOUNT", -100],
      ["PROMOTION", -180],
      ["FLOOR", 130],
    ]);

    const bestOf = run(1000, 950, {
      tradeConditions: [condition(1, { value: 1000 })],
      promotions: [promotion(2, { value: 2000 })],
    });
    // Regular 900 → 950 by the floor; the promotion's 800 < 950 wins and is raised to 950.
    expect([bestOf.regularUnitAmount, bestOf.finalUnitAmount]).toEqual([950, 950]);
    expect(steps(bestOf)).toEqual([
      ["PROMOTION", -200],
      ["FLOOR", 150],
    ]);
    expect(bestOf.explain!.floors[0]).toMatchObject({
      regularAdjustment: 50,
      finalAdjustment: 150,
    });
  });

  it("takes the first list by priority desc, id asc that has a price for the line", () => {
    const floors = [
      floor(3, { P: [[1, 700]] }),
      floor(2, { P: [[1, 600]] }),
      floor(1, { P: [[10, 990]] }, { priority: 5 }), // no tier at q 1: the next one
      floor(4, { P: [[1, 900]] }, { status: "INACTIVE", priority: 9 }),
      floor(5, { P: [[1, 900]] }, { currency: "USD", priority: 9 }),
      floor(6, { P: [[1, 900]] }, { validTo: t("2025-03-01T00:00:00Z"), priority: 9 }),
    ];
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [condition(1, { value: 5000 })],
      floors,
      explain: true,
    });
    expect(steps(l)).toEqual([
      ["DISCOUNT", -500],
      ["FLOOR", 100],
    ]);
    expect(l.adjustments[1]!.id).toBe(2);
    expect(l.explain!.floors.map((e) => [e.pricelistId, e.outcome, e.decidedBy])).toEqual([
      [4, "NOT_ACTIVE", null],
      [5, "OTHER_CURRENCY", null],
      [6, "OUT_OF_WINDOW", null],
      [1, "NO_TIER_FOR_QUANTITY", null],
      [2, "USED", null],
      [3, "LOWER_RANK", "ID"],
    ]);
  });

  it("a floor's tier follows the quantity; its window counts for validUntil", () => {
    const floors = [
      floor(
        1,
        {
          P: [
            [1, 900],
            [10, 700],
          ],
        },
        { validTo: t("2025-08-01T00:00:00Z") },
      ),
    ];
    const at = (quantity: number) =>
      resolvePrices(
        request({
          pricelists: [primary(1000)],
          tradeConditions: [condition(1, { value: 5000 })],
          floors,
          lines: [{ productCode: "P", quantity }],
        }),
      );
    expect(at(9).lines[0]!.finalUnitAmount).toBe(900);
    expect(at(10).lines[0]!.finalUnitAmount).toBe(700);
    expect(at(10).validUntil).toBe("2025-08-01T00:00:00.000Z");
  });
});
