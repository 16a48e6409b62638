import { describe, expect, it } from "vitest";
import {
  percentOf,
  primaryCustomerPricelist,
  rankCustomerPricelists,
  resolvePrices,
  rungOf,
  type LinePrice,
  type PriceRequest,
  type PricelistCandidate,
  type PricelistLevel,
  type PromotionCandidate,
  type TradeConditionCandidate,
} from "../../src/pricing";
import { workedExampleAnswer } from "../../src/resources/prices/prices.examples";
import {
  AT,
  condition,
  floor,
  line,
  pricelist,
  primary,
  productsOf,
  promotion,
  request,
  type Rows,
  workedExample,
  Y2025,
  Y2026,
} from "../shared/pricing-engine-factories";

/** Unit tests of the price engine against docs/pricing-rules.md, rule by rule, without a Worker. */

const t = (iso: string) => Date.parse(iso);

// ---------------------------------------------------------------------------------------------

describe("worked example of docs/pricing-rules.md §10", () => {
  // The example's data (scripts/lib/worked-examples.mjs), as the engine takes it.
  const example: PriceRequest = workedExample();
  const { pricelists, promotions } = example;

  it("reproduces every amount, source and adjustment", () => {
    expect(resolvePrices(example)).toEqual({
      channelCode: "WEB-DE",
      customerCode: "C-1001",
      currency: "EUR",
      at: "2025-06-15T10:00:00.000Z",
      totalAmount: 27710,
      pricedTotalAmount: 27710,
      complete: true,
      validUntil: "2025-07-01T00:00:00.000Z",
      lines: [
        {
          productCode: "P-A",
          quantity: 3,
          status: "OK",
          finalUnitAmount: 850,
          lineAmount: 2550,
          regularUnitAmount: 850,
          listUnitAmount: 1000,
          currency: "EUR",
          priceUnit: 1,
          taxInclusive: false,
          source: {
            level: "INDIVIDUAL",
            pricelistId: 900,
            tierMinQuantity: 1,
            baseUnitAmount: 850,
            derivedFrom: null,
            tierMode: "VOLUME",
            bands: null,
          },
          adjustments: [],
          tiers: [{ minQuantity: 1, amount: 850, priceUnit: 1, flatAmount: 0 }],
          quantityRule: { minimum: 1, increment: 1, maximum: null },
          suggestedQuantities: null,
          priceBreak: null,
          explain: null,
        },
        {
          productCode: "P-B",
          quantity: 60,
          status: "OK",
          finalUnitAmount: 391,
          lineAmount: 23460,
          regularUnitAmount: 391,
          listUnitAmount: 450,
          currency: "EUR",
          priceUnit: 1,
          taxInclusive: false,
          source: {
            level: "CUSTOMER_GROUP",
            pricelistId: 200,
            tierMinQuantity: 50,
            baseUnitAmount: 385,
            derivedFrom: null,
            tierMode: "VOLUME",
            bands: null,
          },
          adjustments: [
            {
              kind: "DISCOUNT",
              id: 2,
              scope: "CUSTOMER_GROUP",
              rung: 6,
              valueBp: 500,
              amount: -19,
            },
            { kind: "SURCHARGE", id: 4, scope: "CHANNEL", rung: 7, valueBp: null, amount: 25 },
          ],
          tiers: [
            { minQuantity: 1, amount: 420, priceUnit: 1, flatAmount: 0 },
            { minQuantity: 50, amount: 385, priceUnit: 1, flatAmount: 0 },
          ],
          quantityRule: { minimum: 1, increment: 1, maximum: null },
          suggestedQuantities: null,
          priceBreak: null,
          explain: null,
        },
        {
          productCode: "P-C",
          quantity: 10,
          status: "OK",
          finalUnitAmount: 170,
          lineAmount: 1700,
          regularUnitAmount: 184,
          listUnitAmount: 200,
          currency: "EUR",
          priceUnit: 1,
          taxInclusive: false,
          source: {
            level: "CHANNEL_PRIMARY",
            pricelistId: 100,
            tierMinQuantity: 1,
            baseUnitAmount: 200,
            derivedFrom: null,
            tierMode: "VOLUME",
            bands: null,
          },
          adjustments: [
            { kind: "PROMOTION", id: 7, scope: null, rung: null, valueBp: 1500, amount: -30 },
          ],
          tiers: [{ minQuantity: 1, amount: 200, priceUnit: 1, flatAmount: 0 }],
          quantityRule: { minimum: 1, increment: 1, maximum: null },
          suggestedQuantities: null,
          priceBreak: null,
          explain: null,
        },
      ],
    });
  });

  it("is the answer /doc shows as the example (prices.examples.ts)", () => {
    expect(resolvePrices(example)).toEqual(workedExampleAnswer);
  });

  it("variant: one product the catalogue does not know → 27710 priced, no totalAmount", () => {
    const answer = resolvePrices({
      ...example,
      lines: [...example.lines, { productCode: "P-X", quantity: 1 }],
    });
    expect(answer).toMatchObject({ totalAmount: null, pricedTotalAmount: 27710, complete: false });
    expect(answer.lines.map((l) => l.status)).toEqual(["OK", "OK", "OK", "UNKNOWN_PRODUCT"]);
  });

  it("variant: currency USD → every line NO_PRICE, pricedTotalAmount 0, no totalAmount", () => {
    const answer = resolvePrices({ ...example, currency: "USD" });
    expect(answer).toMatchObject({ totalAmount: null, pricedTotalAmount: 0, complete: false });
    expect(answer.lines.map((l) => l.status)).toEqual(["NO_PRICE", "NO_PRICE", "NO_PRICE"]);
  });

  it("keys come out in the documented order", () => {
    const answer = resolvePrices(example);
    expect(Object.keys(answer)).toEqual([
      "channelCode",
      "customerCode",
      "currency",
      "at",
      "totalAmount",
      "pricedTotalAmount",
      "complete",
      "validUntil",
      "lines",
    ]);
    expect(Object.keys(answer.lines[0]!)).toEqual([
      "productCode",
      "quantity",
      "status",
      "finalUnitAmount",
      "lineAmount",
      "regularUnitAmount",
      "listUnitAmount",
      "currency",
      "priceUnit",
      "taxInclusive",
      "source",
      "adjustments",
      "tiers",
      "quantityRule",
      "suggestedQuantities",
      "priceBreak",
      "explain",
    ]);
  });

  it("variant: PL-900 in DRAFT → P-A falls through to PL-100 and TC-2 makes it 950", () => {
    const draft = pricelists.map((p) => (p.id === 900 ? { ...p, status: "DRAFT" as const } : p));
    const pa = resolvePrices({ ...example, pricelists: draft }).lines[0]!;
    expect(pa).toMatchObject({
      finalUnitAmount: 950,
      lineAmount: 2850,
      regularUnitAmount: 950,
      listUnitAmount: 1000,
      source: { level: "CHANNEL_PRIMARY", pricelistId: 100, baseUnitAmount: 1000 },
      adjustments: [
        { kind: "DISCOUNT", id: 2, scope: "CUSTOMER_GROUP", rung: 6, valueBp: 500, amount: -50 },
      ],
    });
  });

  it("variant: PR-7 ON_TOP → P-C = 184 − 28 = 156", () => {
    const onTop = promotions.map((p) => ({ ...p, stacking: "ON_TOP" as const }));
    const pc = resolvePrices({ ...example, promotions: onTop }).lines[2]!;
    expect(pc).toMatchObject({
      finalUnitAmount: 156,
      lineAmount: 1560,
      regularUnitAmount: 184,
      adjustments: [
        { kind: "DISCOUNT", id: 3, scope: "CUSTOMER", rung: 1, valueBp: 800, amount: -16 },
        { kind: "PROMOTION", id: 7, scope: null, rung: null, valueBp: 1500, amount: -28 },
      ],
    });
  });

  it("explains why every candidate won or lost", () => {
    const [pa, pb, pc] = resolvePrices({ ...example, explain: true }).lines;
    const pricelistOutcomes = (l: LinePrice | undefined) =>
      l!.explain!.pricelists.map((e) => [e.level, e.pricelistId, e.outcome, e.decidedBy]);
    const conditionOutcomes = (l: LinePrice | undefined) =>
      Object.fromEntries(l!.explain!.tradeConditions.map((e) => [e.id, e.outcome]));

    expect(pricelistOutcomes(pa)).toEqual([
      ["INDIVIDUAL", 900, "USED", null],
      ["CUSTOMER_GROUP", 200, "NO_PRICE_FOR_PRODUCT", null],
      ["CUSTOMER_GROUP", 210, "NO_PRICE_FOR_PRODUCT", null],
      ["CHANNEL_PRIMARY", 100, "LOWER_LEVEL", null],
      ["CHANNEL", 101, "NO_PRICE_FOR_PRODUCT", null],
    ]);
    expect(pa!.explain!.pricelists.find((e) => e.usedForListPrice)?.pricelistId).toBe(100);
    expect(conditionOutcomes(pa)).toEqual({
      1: "NOT_DISCOUNTABLE",
      2: "NOT_DISCOUNTABLE",
      3: "OTHER_PRODUCT",
      4: "OTHER_PRODUCT",
      5: "NOT_ACTIVE",
      6: "OUT_OF_WINDOW",
    });

    // PL-200 beats the cheaper PL-210 on priority.
    expect(pricelistOutcomes(pb)).toEqual([
      ["INDIVIDUAL", 900, "NO_PRICE_FOR_PRODUCT", null],
      ["CUSTOMER_GROUP", 200, "USED", null],
      ["CUSTOMER_GROUP", 210, "LOWER_RANK", "PRIORITY"],
      ["CHANNEL_PRIMARY", 100, "LOWER_LEVEL", null],
      ["CHANNEL", 101, "NO_PRICE_FOR_PRODUCT", null],
    ]);
    expect(conditionOutcomes(pb)).toEqual({
      1: "LOWER_RUNG",
      2: "APPLIED",
      3: "OTHER_PRODUCT",
      4: "APPLIED",
      5: "NOT_ACTIVE",
      6: "OUT_OF_WINDOW",
    });
    expect(pb!.explain!.promotions).toEqual([
      {
        id: 7,
        name: "PR-7",
        stacking: "BEST_OF",
        priority: 0,
        outcome: "OTHER_PRODUCT",
        decidedBy: null,
        discountType: "PERCENTAGE",
        value: 1500,
        priceUnit: 1,
        amount: null,
        saving: null,
        threshold: null,
      },
    ]);

    expect(pricelistOutcomes(pc)).toEqual([
      ["INDIVIDUAL", 900, "NO_PRICE_FOR_PRODUCT", null],
      ["CUSTOMER_GROUP", 200, "NO_PRICE_FOR_PRODUCT", null],
      ["CUSTOMER_GROUP", 210, "NO_PRICE_FOR_PRODUCT", null],
      ["CHANNEL_PRIMARY", 100, "USED", null],
      ["CHANNEL", 101, "LOWER_LEVEL", null],
    ]);
    // TC-3 made the regular price; the BEST_OF promotion superseded it.
    expect(conditionOutcomes(pc)).toEqual({
      1: "LOWER_RUNG",
      2: "LOWER_RUNG",
      3: "SUPERSEDED_BY_PROMOTION",
      4: "OTHER_PRODUCT",
      5: "NOT_ACTIVE",
      6: "OUT_OF_WINDOW",
    });
    expect(pc!.explain!.tradeConditions.find((e) => e.id === 3)).toEqual({
      id: 3,
      name: "TC-3",
      type: "DISCOUNT",
      scope: "CUSTOMER",
      rung: 1,
      distance: null,
      stackable: false,
      priority: 0,
      outcome: "SUPERSEDED_BY_PROMOTION",
      decidedBy: null,
      discountType: "PERCENTAGE",
      priceUnit: 1,
      scaleBasis: "LINE_QUANTITY",
      basisValue: null,
      value: 800,
      amount: -16,
    });
    expect(pc!.explain!.promotions[0]).toMatchObject({
      id: 7,
      outcome: "APPLIED",
      amount: -30,
      saving: 14,
    });
  });

  it("with ON_TOP the promotion is applied after the trade conditions, which stay APPLIED", () => {
    const onTop = promotions.map((p) => ({ ...p, stacking: "ON_TOP" as const }));
    const pc = resolvePrices({ ...example, promotions: onTop, explain: true }).lines[2]!;
    expect(pc.explain!.tradeConditions.find((e) => e.id === 3)!.outcome).toBe("APPLIED");
    expect(pc.explain!.promotions[0]).toMatchObject({
      outcome: "APPLIED",
      amount: -28,
      saving: 28,
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe("explain: what a candidate that did not apply is set to do (docs/pricing-rules.md §9)", () => {
  const USD = { currency: "USD" };
  const late = { validFrom: t("2025-07-01T00:00:00Z") };
  const scales = [
    { minimum: 5, value: 700 },
    { minimum: 20, value: 900 },
  ];
  const conditions = [
    condition(1, { status: "DRAFT", value: 1500 }),
    condition(2, { status: "INACTIVE", discountType: "ABSOLUTE", value: 250, currency: "EUR" }),
    condition(3, { discountType: "ABSOLUTE", value: 300, ...USD }),
    condition(4, { channelCodes: ["ELSEWHERE"], value: 400 }),
    condition(5, { scope: "CUSTOMER", customerCodes: ["C-OTHER"], value: 500 }),
    condition(6, { productCodes: ["Q"], value: 600 }),
    condition(7, {
      ...late,
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      value: 70,
      currency: "EUR",
    }),
    condition(8, {
      status: "DRAFT",
      type: "NET_PRICE",
      discountType: "ABSOLUTE",
      value: 777,
      currency: "EUR",
    }),
    condition(9, { value: 200, scales: [{ minimum: 50, value: 300 }] }),
    condition(10, { status: "DRAFT", value: 100, scales }),
  ];
  const lists = [
    pricelist(
      20,
      ["CUSTOMER"],
      {
        P: [
          [1, 800],
          [10, 700],
        ],
      },
      { status: "DRAFT", priority: 9 },
    ),
    pricelist(21, ["CUSTOMER_GROUP"], { P: [[1, 600]] }, late),
    pricelist(22, ["CUSTOMER_GROUP"], { P: [[1, 650]] }, USD),
    pricelist(23, ["CHANNEL"], { P: [[1, 550]] }, { status: "INACTIVE", ...USD }),
    pricelist(24, ["CHANNEL"], { P: [[20, 500]] }, { status: "DRAFT" }),
    primary(1000),
  ];
  const floors = [
    floor(30, { P: [[1, 950]] }, { status: "DRAFT" }),
    floor(
      31,
      {
        P: [
          [1, 960],
          [10, 940],
        ],
      },
      late,
    ),
    floor(32, { P: [[1, 990]] }, USD),
  ];
  const ask = (explain: boolean, quantity = 10) =>
    resolvePrices(
      request({
        pricelists: lists,
        tradeConditions: conditions,
        floors,
        explain,
        lines: [{ productCode: "P", quantity }],
      }),
    );

  it("conditions stopped by a check show their configured value and type; amount stays null", () => {
    const byId = Object.fromEntries(
      ask(true).lines[0]!.explain!.tradeConditions.map((e) => [
        e.id,
        [e.outcome, e.type, e.discountType, e.value, e.basisValue, e.amount],
      ]),
    );
    expect(byId).toEqual({
      1: ["NOT_ACTIVE", "DISCOUNT", "PERCENTAGE", 1500, null, null],
      2: ["NOT_ACTIVE", "DISCOUNT", "ABSOLUTE", 250, null, null],
      3: ["OTHER_CURRENCY", "DISCOUNT", "ABSOLUTE", 300, null, null],
      4: ["OTHER_CHANNEL", "DISCOUNT", "PERCENTAGE", 400, null, null],
      5: ["NOT_TARGETED", "DISCOUNT", "PERCENTAGE", 500, null, null],
      6: ["OTHER_PRODUCT", "DISCOUNT", "PERCENTAGE", 600, null, null],
      7: ["OUT_OF_WINDOW", "SURCHARGE", "ABSOLUTE", 70, null, null],
      8: ["NOT_ACTIVE", "NET_PRICE", "ABSOLUTE", 777, null, null],
      // Its scales were looked up at the basis 10 and no row applies: no value.
      9: ["NO_SCALE", "DISCOUNT", "PERCENTAGE", null, 10, null],
      // Stopped before its scales: its own value.
      10: ["NOT_ACTIVE", "DISCOUNT", "PERCENTAGE", 100, null, null],
    });
  });

  it("a condition that passed every check on an unpriced line shows the value it found", () => {
    const [entry] = resolvePrices(
      request({
        tradeConditions: [condition(1, { value: 100, scales })],
        explain: true,
        lines: [{ productCode: "P", quantity: 20 }],
      }),
    ).lines[0]!.explain!.tradeConditions;
    expect(entry).toMatchObject({
      outcome: "NO_BASE_PRICE",
      basisValue: 20,
      value: 900,
      amount: null,
    });
  });

  it("pricelists and floors stopped by status or window show the tier they hold for the line", () => {
    const [l] = ask(true).lines;
    expect(
      l!.explain!.pricelists.map((e) => [e.pricelistId, e.outcome, e.tierMinQuantity, e.amount]),
    ).toEqual([
      [20, "NOT_ACTIVE", 10, 700],
      [21, "OUT_OF_WINDOW", 1, 600],
      // Another currency's amounts are not this request's money: not shown.
      [22, "OTHER_CURRENCY", null, null],
      [1, "USED", 1, 1000],
      [23, "NOT_ACTIVE", null, null],
      // No tier at quantity 10, whatever its status.
      [24, "NOT_ACTIVE", null, null],
    ]);
    expect(
      l!.explain!.floors.map((e) => [
        e.pricelistId,
        e.outcome,
        e.tierMinQuantity,
        e.amount,
        e.effectiveAmount,
      ]),
    ).toEqual([
      [30, "NOT_ACTIVE", 1, 950, null],
      [31, "OUT_OF_WINDOW", 10, 940, null],
      [32, "OTHER_CURRENCY", null, null, null],
    ]);
  });

  it("changes nothing but explain: the same prices with and without it", () => {
    for (const quantity of [1, 10, 20]) {
      const plain = ask(false, quantity);
      const explained = ask(true, quantity);
      expect(explained.lines.map((l) => ({ ...l, explain: null }))).toEqual(plain.lines);
      expect({ ...explained, lines: [] }).toEqual({ ...plain, lines: [] });
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("step 1: pricelist levels", () => {
  const LEVELS: PricelistLevel[] = [
    "INDIVIDUAL",
    "CUSTOMER",
    "CUSTOMER_GROUP",
    "CHANNEL_PRIMARY",
    "CHANNEL",
  ];

  it.each(LEVELS.map((level, i) => [level, i]))(
    "%s wins over every less specific level, however cheap",
    (level, i) => {
      // One pricelist per level from this one down; the less specific, the cheaper.
      const pricelists = LEVELS.slice(i).map((l, j) =>
        pricelist(10 + j, [l], { P: [[1, 1000 - 100 * j]] }),
      );
      const l = line({ pricelists });
      expect(l.source).toEqual({
        level,
        pricelistId: 10,
        tierMinQuantity: 1,
        baseUnitAmount: 1000,
        derivedFrom: null,
        tierMode: "VOLUME",
        bands: null,
      });
    },
  );

  it("a level without a price for the product is skipped", () => {
    const l = line({
      pricelists: [
        pricelist(1, ["INDIVIDUAL"], { Q: [[1, 10]] }),
        pricelist(2, ["CUSTOMER"], { P: [[1, 700]] }),
      ],
    });
    expect(l.source?.level).toBe("CUSTOMER");
  });

  it("a pricelist at several levels counts at the most specific one", () => {
    const l = line({
      pricelists: [
        pricelist(5, ["CUSTOMER_GROUP", "CUSTOMER"], { P: [[1, 900]] }),
        pricelist(6, ["CUSTOMER"], { P: [[1, 800]] }, { priority: -1 }),
      ],
    });
    expect(l.source).toMatchObject({ level: "CUSTOMER", pricelistId: 5 });
  });

  it("entries repeated per level are merged by id", () => {
    const pl = pricelist(5, ["CUSTOMER_GROUP"], { P: [[1, 900]] });
    const l = line({ pricelists: [pl, { ...pl, levels: ["CHANNEL"] }], explain: true });
    expect(l.explain!.pricelists.map((e) => [e.level, e.outcome])).toEqual([
      ["CUSTOMER_GROUP", "USED"],
      ["CHANNEL", "LOWER_LEVEL"],
    ]);
    expect(l.listUnitAmount).toBe(900);
  });

  it("listUnitAmount looks at the two channel levels only", () => {
    const base = pricelist(1, ["CUSTOMER"], { P: [[1, 700]] });
    expect(line({ pricelists: [base] }).listUnitAmount).toBeNull();
    expect(
      line({ pricelists: [base, pricelist(2, ["CHANNEL"], { P: [[1, 990]] })] }).listUnitAmount,
    ).toBe(990);
    expect(
      line({
        pricelists: [
          base,
          pricelist(2, ["CHANNEL"], { P: [[1, 990]] }),
          pricelist(3, ["CHANNEL_PRIMARY"], { P: [[1, 995]] }),
        ],
      }).listUnitAmount,
    ).toBe(995);
  });

  it("taxInclusive and tiers come from the base pricelist", () => {
    const l = line({
      pricelists: [
        pricelist(
          1,
          ["CUSTOMER"],
          {
            P: [
              [10, 80],
              [1, 100],
            ],
            Q: [[1, 5]],
          },
          { taxInclusive: true },
        ),
        pricelist(2, ["CHANNEL"], {
          P: [
            [1, 120],
            [5, 110],
          ],
        }),
      ],
    });
    expect(l.taxInclusive).toBe(true);
    expect(l.tiers).toEqual([
      { minQuantity: 1, amount: 100, priceUnit: 1, flatAmount: 0 },
      { minQuantity: 10, amount: 80, priceUnit: 1, flatAmount: 0 },
    ]);
  });
});

describe("step 1: tiers", () => {
  const pricelists = [
    pricelist(1, ["CHANNEL_PRIMARY"], {
      P: [
        [1, 100],
        [10, 90],
        [50, 80],
      ],
    }),
  ];
  it.each([
    [1, 1, 100],
    [9, 1, 100],
    [10, 10, 90],
    [49, 10, 90],
    [50, 50, 80],
    [1_000_000, 50, 80],
  ])("q = %i uses the %i+ tier (%i)", (quantity, tierMinQuantity, amount) => {
    const l = line({ pricelists, lines: [{ productCode: "P", quantity }] });
    expect(l.source).toMatchObject({ tierMinQuantity, baseUnitAmount: amount });
    expect(l.lineAmount).toBe(amount * quantity);
  });

  it("below the smallest tier a pricelist has no price; the next one is used", () => {
    const tiered = [
      pricelist(1, ["CUSTOMER"], { P: [[10, 50]] }),
      pricelist(2, ["CHANNEL_PRIMARY"], { P: [[1, 100]] }),
    ];
    const at = (quantity: number) =>
      line({ pricelists: tiered, lines: [{ productCode: "P", quantity }], explain: true });
    expect(at(9).source).toMatchObject({ pricelistId: 2, baseUnitAmount: 100 });
    expect(at(9).explain!.pricelists[0]!.outcome).toBe("NO_TIER_FOR_QUANTITY");
    expect(at(10).source).toMatchObject({ pricelistId: 1, baseUnitAmount: 50 });
  });

  it("no price anywhere → NO_PRICE", () => {
    const l = line({
      pricelists: [pricelist(1, ["CHANNEL_PRIMARY"], { P: [[10, 50]] })],
      lines: [{ productCode: "P", quantity: 9 }],
    });
    expect(l).toMatchObject({ status: "NO_PRICE", finalUnitAmount: null, source: null, tiers: [] });
  });
});

describe("step 1: ranking inside a level", () => {
  const rank = (...pricelists: PricelistCandidate[]) =>
    line({ pricelists, explain: true }).explain!.pricelists.map((e) => [
      e.pricelistId,
      e.outcome,
      e.decidedBy,
    ]);

  it("priority descending beats a lower amount", () => {
    expect(
      rank(
        pricelist(1, ["CUSTOMER_GROUP"], { P: [[1, 500]] }, { priority: 1 }),
        pricelist(2, ["CUSTOMER_GROUP"], { P: [[1, 400]] }, { priority: 0 }),
      ),
    ).toEqual([
      [1, "USED", null],
      [2, "LOWER_RANK", "PRIORITY"],
    ]);
  });

  it("a pricelist with a validTo beats an open-ended one of the same priority, even if dearer", () => {
    expect(
      rank(
        pricelist(1, ["CUSTOMER_GROUP"], { P: [[1, 400]] }, { validTo: null }),
        pricelist(2, ["CUSTOMER_GROUP"], { P: [[1, 500]] }, { validTo: Y2026 }),
      ),
    ).toEqual([
      [1, "LOWER_RANK", "VALID_TO"],
      [2, "USED", null],
    ]);
  });

  it("two bounded pricelists tie on VALID_TO whatever their end dates; the tier amount decides", () => {
    expect(
      rank(
        pricelist(1, ["CUSTOMER_GROUP"], { P: [[1, 400]] }, { validTo: Y2026 + 1000 }),
        pricelist(2, ["CUSTOMER_GROUP"], { P: [[1, 500]] }, { validTo: Y2026 }),
      ),
    ).toEqual([
      [1, "USED", null],
      [2, "LOWER_RANK", "AMOUNT"],
    ]);
  });

  it("the amount compared is the tier for this quantity", () => {
    const a = pricelist(1, ["CHANNEL"], {
      P: [
        [1, 100],
        [10, 60],
      ],
    });
    const b = pricelist(2, ["CHANNEL"], { P: [[1, 90]] });
    expect(line({ pricelists: [a, b] }).source?.pricelistId).toBe(2);
    expect(
      line({ pricelists: [a, b], lines: [{ productCode: "P", quantity: 10 }] }).source?.pricelistId,
    ).toBe(1);
  });

  it("last key: id ascending", () => {
    expect(
      rank(
        pricelist(8, ["CHANNEL"], { P: [[1, 100]] }),
        pricelist(7, ["CHANNEL"], { P: [[1, 100]] }),
      ),
    ).toEqual([
      [7, "USED", null],
      [8, "LOWER_RANK", "ID"],
    ]);
  });
});

describe("status, window and currency of pricelists", () => {
  const candidate = (extra: Partial<PricelistCandidate>) => [
    pricelist(1, ["CUSTOMER"], { P: [[1, 500]] }, extra),
    pricelist(2, ["CHANNEL_PRIMARY"], { P: [[1, 1000]] }),
  ];
  const outcome = (extra: Partial<PricelistCandidate>, at = AT) => {
    const l = line({ pricelists: candidate(extra), at, explain: true });
    return [l.source?.pricelistId, l.explain!.pricelists[0]!.outcome];
  };

  it.each([["DRAFT"], ["INACTIVE"], ["ARCHIVED"]] as const)("%s never prices", (status) => {
    expect(outcome({ status })).toEqual([2, "NOT_ACTIVE"]);
  });

  it("another currency never prices (no conversion)", () => {
    expect(outcome({ currency: "USD" })).toEqual([2, "OTHER_CURRENCY"]);
  });

  it("the window is half-open: in at exactly validFrom, out at exactly validTo", () => {
    const from = t("2025-03-01T00:00:00Z");
    const to = t("2025-04-01T00:00:00Z");
    expect(outcome({ validFrom: from, validTo: to }, from - 1)).toEqual([2, "OUT_OF_WINDOW"]);
    expect(outcome({ validFrom: from, validTo: to }, from)).toEqual([1, "USED"]);
    expect(outcome({ validFrom: from, validTo: to }, to - 1)).toEqual([1, "USED"]);
    expect(outcome({ validFrom: from, validTo: to }, to)).toEqual([2, "OUT_OF_WINDOW"]);
    expect(outcome({ validFrom: null, validTo: null }, 0)).toEqual([1, "USED"]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("step 2: rungs", () => {
  it.each([
    ["CUSTOMER", "PRODUCT", 1],
    ["CUSTOMER", "GROUP", 2],
    ["CUSTOMER", "ALL", 3],
    ["CUSTOMER_GROUP", "PRODUCT", 4],
    ["CUSTOMER_GROUP", "GROUP", 5],
    ["CUSTOMER_GROUP", "ALL", 6],
    ["CHANNEL", "PRODUCT", 7],
    ["CHANNEL", "GROUP", 8],
    ["CHANNEL", "ALL", 9],
    ["GLOBAL", "PRODUCT", 10],
    ["GLOBAL", "GROUP", 11],
    ["GLOBAL", "ALL", 12],
  ] as const)("%s, product reach %s → rung %i", (scope, reach, rung) => {
    expect(rungOf(scope, reach)).toBe(rung);
  });

  /**
   * A condition for each rung, reaching customer C-1 in group G-1 in channel WEB-DE, and product
   * P by listing it, through its group SCREWS, or as an all-products condition.
   */
  const atRung = (rung: number, extra: Partial<TradeConditionCandidate> = {}) => {
    const scope = (["CUSTOMER", "CUSTOMER_GROUP", "CHANNEL", "GLOBAL"] as const)[
      Math.floor((rung - 1) / 3)
    ]!;
    const reach = (rung - 1) % 3;
    return condition(rung, {
      scope,
      productCodes: reach === 0 ? ["P"] : [],
      productGroupCodes: reach === 1 ? ["SCREWS"] : [],
      customerCodes: ["C-1"],
      customerGroupCodes: ["G-1"],
      channelCodes: scope === "CHANNEL" ? ["WEB-DE"] : [],
      // Smaller rungs save less, so only the ladder can make them win.
      value: 100 * rung,
      ...extra,
    });
  };
  const RUNGS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

  it.each(RUNGS)(
    "rung %i beats every less specific rung, whatever their priority or saving",
    (rung) => {
      const tradeConditions = RUNGS.filter((r) => r >= rung).map((r) =>
        atRung(r, { priority: r === rung ? 0 : 100 }),
      );
      const l = line({ pricelists: [primary()], tradeConditions, explain: true });
      expect(l.adjustments).toEqual([
        {
          kind: "DISCOUNT",
          id: rung,
          scope: atRung(rung).scope,
          rung,
          valueBp: 100 * rung,
          amount: -10 * rung,
        },
      ]);
      for (const e of l.explain!.tradeConditions) {
        expect(e.outcome).toBe(e.id === rung ? "APPLIED" : "LOWER_RUNG");
      }
    },
  );

  it("each type has its own winner and ladder", () => {
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [
        atRung(3, { value: 1000 }),
        condition(20, { type: "SURCHARGE", discountType: "ABSOLUTE", currency: "EUR", value: 7 }),
      ],
    });
    expect(l.adjustments.map((a) => [a.kind, a.id, a.amount])).toEqual([
      ["DISCOUNT", 3, -100],
      ["SURCHARGE", 20, 7],
    ]);
    expect(l.finalUnitAmount).toBe(907);
  });
});

describe("step 2: targeting", () => {
  const reach = (extra: Partial<TradeConditionCandidate>, req: Partial<PriceRequest> = {}) => {
    const l = line({
      pricelists: [primary()],
      tradeConditions: [condition(1, extra)],
      explain: true,
      ...req,
    });
    return l.explain!.tradeConditions[0]!.outcome;
  };

  it.each([
    ["GLOBAL", {}, "APPLIED"],
    ["CHANNEL in this channel", { scope: "CHANNEL", channelCodes: ["WEB-DE"] }, "APPLIED"],
    ["CHANNEL elsewhere", { scope: "CHANNEL", channelCodes: ["SHOP-AT"] }, "OTHER_CHANNEL"],
    ["GLOBAL limited to another channel", { channelCodes: ["SHOP-AT"] }, "OTHER_CHANNEL"],
    ["CUSTOMER linked", { scope: "CUSTOMER", customerCodes: ["C-1"] }, "APPLIED"],
    ["CUSTOMER not linked", { scope: "CUSTOMER", customerCodes: ["C-2"] }, "NOT_TARGETED"],
    ["group in G", { scope: "CUSTOMER_GROUP", customerGroupCodes: ["G-1"] }, "APPLIED"],
    ["group not in G", { scope: "CUSTOMER_GROUP", customerGroupCodes: ["G-2"] }, "NOT_TARGETED"],
    ["other product", { productCodes: ["Q"] }, "OTHER_PRODUCT"],
    ["this product among others", { productCodes: ["Q", "P"] }, "APPLIED"],
    ["DRAFT", { status: "DRAFT" }, "NOT_ACTIVE"],
    ["INACTIVE", { status: "INACTIVE" }, "NOT_ACTIVE"],
  ] as const)("%s → %s", (_, extra, outcome) => {
    expect(reach(extra as Partial<TradeConditionCandidate>)).toBe(outcome);
  });

  it("anonymous requests see only GLOBAL and CHANNEL conditions, and have no groups", () => {
    const anonymous = { customer: null, groupCodes: ["G-1"] };
    expect(reach({ scope: "GLOBAL" }, anonymous)).toBe("APPLIED");
    expect(reach({ scope: "CHANNEL", channelCodes: ["WEB-DE"] }, anonymous)).toBe("APPLIED");
    expect(reach({ scope: "CUSTOMER", customerCodes: ["C-1"] }, anonymous)).toBe("NOT_TARGETED");
    expect(reach({ scope: "CUSTOMER_GROUP", customerGroupCodes: ["G-1"] }, anonymous)).toBe(
      "NOT_TARGETED",
    );
    expect(resolvePrices(request(anonymous)).customerCode).toBeNull();
  });

  it("window edges: in at exactly validFrom, out at exactly validTo", () => {
    const from = t("2025-03-01T00:00:00Z");
    const to = t("2025-04-01T00:00:00Z");
    const window = { validFrom: from, validTo: to };
    expect(reach(window, { at: from - 1 })).toBe("OUT_OF_WINDOW");
    expect(reach(window, { at: from })).toBe("APPLIED");
    expect(reach(window, { at: to - 1 })).toBe("APPLIED");
    expect(reach(window, { at: to })).toBe("OUT_OF_WINDOW");
  });

  it("ABSOLUTE values count only in the request's currency; percentages in any", () => {
    const absolute = { discountType: "ABSOLUTE", value: 50 } as const;
    expect(reach({ ...absolute, currency: "EUR" })).toBe("APPLIED");
    expect(reach({ ...absolute, currency: "USD" })).toBe("OTHER_CURRENCY");
    expect(reach({ ...absolute, currency: null })).toBe("OTHER_CURRENCY");
    expect(reach({ type: "NET_PRICE", ...absolute, currency: "USD" })).toBe("OTHER_CURRENCY");
    expect(reach({ value: 500, currency: null })).toBe("APPLIED");
    expect(reach({ value: 500, currency: "USD" })).toBe("APPLIED");
  });
});

describe("step 2: ranking inside a rung", () => {
  const winner = (tradeConditions: TradeConditionCandidate[]) => {
    const l = line({ pricelists: [primary(1000)], tradeConditions, explain: true });
    const loser = l.explain!.tradeConditions.find((e) => e.outcome === "LOWER_RANK");
    return [l.adjustments[0]?.id, loser?.id, loser?.decidedBy];
  };

  it("priority descending beats a larger saving", () => {
    expect(
      winner([condition(1, { value: 100, priority: 2 }), condition(2, { value: 900 })]),
    ).toEqual([1, 2, "PRIORITY"]);
  });

  it("DISCOUNT: the larger saving wins, comparing percentage and absolute on the amount", () => {
    expect(
      winner([
        condition(1, { value: 500 }), // 50
        condition(2, { discountType: "ABSOLUTE", currency: "EUR", value: 60 }),
      ]),
    ).toEqual([2, 1, "AMOUNT"]);
  });

  it("SURCHARGE: the smaller charge wins", () => {
    const surcharge = { type: "SURCHARGE" } as const;
    expect(
      winner([
        condition(1, { ...surcharge, value: 500 }), // +50
        condition(2, { ...surcharge, discountType: "ABSOLUTE", currency: "EUR", value: 40 }),
      ]),
    ).toEqual([2, 1, "AMOUNT"]);
  });

  it("NET_PRICE: the lower price wins", () => {
    const net = { type: "NET_PRICE", discountType: "ABSOLUTE", currency: "EUR" } as const;
    expect(
      winner([condition(1, { ...net, value: 700 }), condition(2, { ...net, value: 800 })]),
    ).toEqual([1, 2, "AMOUNT"]);
  });

  it("last key: id ascending", () => {
    expect(winner([condition(9, { value: 500 }), condition(4, { value: 500 })])).toEqual([
      4,
      9,
      "ID",
    ]);
  });
});

describe("step 2: NET_PRICE, DISCOUNT, SURCHARGE", () => {
  const net = (value: number, extra: Partial<TradeConditionCandidate> = {}) =>
    condition(50, {
      type: "NET_PRICE",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value,
      ...extra,
    });
  const surcharge = (id: number, value: number, extra: Partial<TradeConditionCandidate> = {}) =>
    condition(id, { type: "SURCHARGE", value, ...extra });

  it("a net price replaces the amount and switches off every discount, stackable or not", () => {
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [
        net(700, { scope: "GLOBAL" }),
        condition(1, { scope: "CUSTOMER", customerCodes: ["C-1"], value: 5000 }),
        condition(2, { stackable: true, value: 100 }),
        surcharge(3, 1000),
      ],
      explain: true,
    });
    expect(l.adjustments.map((a) => [a.kind, a.id, a.amount])).toEqual([
      ["NET_PRICE", 50, -300],
      ["SURCHARGE", 3, 70],
    ]);
    expect(l.regularUnitAmount).toBe(770);
    expect(
      l.explain!.tradeConditions.filter((e) => e.type === "DISCOUNT").map((e) => e.outcome),
    ).toEqual(["SWITCHED_OFF_BY_NET_PRICE", "SWITCHED_OFF_BY_NET_PRICE"]);
  });

  it("a net price above the base replaces it too (a positive adjustment)", () => {
    const l = line({ pricelists: [primary(1000)], tradeConditions: [net(1200)] });
    expect(l.adjustments).toEqual([
      { kind: "NET_PRICE", id: 50, scope: "GLOBAL", rung: 12, valueBp: null, amount: 200 },
    ]);
    expect(l.finalUnitAmount).toBe(1200);
  });

  it("a non-discountable base pricelist takes no DISCOUNT but NET_PRICE and SURCHARGE", () => {
    const base = primary(1000, { allowsTradeDiscounts: false });
    const l = line({
      pricelists: [base],
      tradeConditions: [
        condition(1),
        surcharge(2, 25, { discountType: "ABSOLUTE", currency: "EUR" }),
      ],
      explain: true,
    });
    expect(l.finalUnitAmount).toBe(1025);
    expect(l.explain!.tradeConditions.map((e) => [e.id, e.outcome])).toEqual([
      [1, "NOT_DISCOUNTABLE"],
      [2, "APPLIED"],
    ]);
    expect(line({ pricelists: [base], tradeConditions: [net(600)] }).finalUnitAmount).toBe(600);
  });

  it("a discount never takes the amount below 0", () => {
    const l = line({
      pricelists: [primary(40)],
      tradeConditions: [
        condition(1, { discountType: "ABSOLUTE", currency: "EUR", value: 100 }),
        condition(2, { stackable: true, value: 5000 }),
      ],
    });
    expect(l.adjustments.map((a) => a.amount)).toEqual([-40, 0]);
    expect(l.finalUnitAmount).toBe(0);
    expect(l.lineAmount).toBe(0);
  });

  it("a surcharge is a percentage of the running amount or an absolute amount per unit", () => {
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [
        condition(1, { value: 2000 }), // −200 → 800
        surcharge(2, 250), // +20 → 820
        surcharge(3, 15, { discountType: "ABSOLUTE", currency: "EUR", stackable: true }), // +15
      ],
      lines: [{ productCode: "P", quantity: 4 }],
    });
    expect(l.adjustments.map((a) => a.amount)).toEqual([-200, 20, 15]);
    expect(l).toMatchObject({ finalUnitAmount: 835, lineAmount: 3340 });
  });

  it("a zero base stays zero under percentages", () => {
    const l = line({
      pricelists: [primary(0)],
      tradeConditions: [condition(1), surcharge(2, 500)],
    });
    expect(l.finalUnitAmount).toBe(0);
  });
});

describe("step 2: scales", () => {
  const scaled = condition(1, {
    value: 100,
    scales: [
      { minimum: 10, value: 500 },
      { minimum: 100, value: 1000 },
    ],
  });
  const fallback = condition(2, { value: 50, priority: -1 });

  it.each([
    [9, 2, -5], // no scale row applies: the condition is not a candidate; the other wins
    [10, 1, -50],
    [99, 1, -50],
    [100, 1, -100],
  ])("q = %i → condition %i, %i per unit", (quantity, id, amount) => {
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [scaled, fallback],
      lines: [{ productCode: "P", quantity }],
      explain: true,
    });
    expect(l.adjustments.map((a) => [a.id, a.amount])).toEqual([[id, amount]]);
    if (quantity < 10) expect(l.explain!.tradeConditions[0]!.outcome).toBe("NO_SCALE");
  });

  it("absolute scales are amounts per unit", () => {
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [
        condition(1, {
          discountType: "ABSOLUTE",
          currency: "EUR",
          value: 10,
          scales: [{ minimum: 5, value: 30 }],
        }),
      ],
      lines: [{ productCode: "P", quantity: 5 }],
    });
    expect(l.adjustments.map((a) => [a.amount, a.valueBp])).toEqual([[-30, null]]);
  });
});

describe("step 2: stackables", () => {
  it("apply after the winner in rung, priority, id order, each on the running amount", () => {
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [
        condition(1, { value: 1000 }), // winner, rung 12: −100 → 900
        condition(5, { stackable: true, value: 1000 }), // rung 12, prio 0
        condition(4, { stackable: true, value: 1000, priority: 1 }), // rung 12, prio 1
        condition(6, { stackable: true, value: 1000, productCodes: ["P"] }), // rung 10
        condition(3, { scope: "CUSTOMER", customerCodes: ["C-1"], stackable: true, value: 1000 }), // rung 3
      ],
      explain: true,
    });
    expect(l.adjustments.map((a) => [a.id, a.rung, a.amount])).toEqual([
      [1, 12, -100],
      [3, 3, -90], // 900 → 810
      [6, 10, -81], // → 729
      [4, 12, -73], // 72.9 → 73, → 656
      [5, 12, -66], // 65.6 → 66, → 590
    ]);
    expect(l.finalUnitAmount).toBe(590);
    expect(l.explain!.tradeConditions.every((e) => e.outcome === "APPLIED")).toBe(true);
  });

  it("do not take the winner's place: the winner comes from the first rung with a non-stackable", () => {
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [
        condition(1, { scope: "CUSTOMER", customerCodes: ["C-1"], stackable: true, value: 100 }),
        condition(2, { value: 200 }),
      ],
    });
    expect(l.adjustments.map((a) => a.id)).toEqual([2, 1]);
  });

  it("apply alone when there is no winner", () => {
    const l = line({
      pricelists: [primary(1000)],
      tradeConditions: [condition(1, { stackable: true, value: 100 })],
    });
    expect(l.finalUnitAmount).toBe(990);
  });
});

// ---------------------------------------------------------------------------------------------

describe("step 3: promotions", () => {
  const cond = (value: number) => condition(1, { value });
  const resolveWith = (
    promotions: PromotionCandidate[],
    extra: Partial<PriceRequest> = {},
    base = 1000,
  ) => line({ pricelists: [primary(base)], promotions, explain: true, ...extra });

  it("BEST_OF: base − saving on base + surcharges, when below the regular price", () => {
    const l = resolveWith([promotion(7, { value: 1500 })], {
      tradeConditions: [
        cond(1000),
        condition(2, { type: "SURCHARGE", discountType: "ABSOLUTE", currency: "EUR", value: 25 }),
      ],
    });
    // regular: 1000 − 100 + 25 = 925; promotion: 1000 − 150 + 25 = 875.
    expect(l).toMatchObject({ regularUnitAmount: 925, finalUnitAmount: 875 });
    expect(l.adjustments.map((a) => [a.kind, a.amount])).toEqual([
      ["PROMOTION", -150],
      ["SURCHARGE", 25],
    ]);
  });

  it("BEST_OF keeps the step-2 surcharge amounts (computed on the regular running amount)", () => {
    const l = resolveWith([promotion(7, { value: 5000 })], {
      tradeConditions: [cond(1000), condition(2, { type: "SURCHARGE", value: 1000 })],
    });
    // regular: 1000 − 100 = 900, +90 = 990; promotion: 1000 − 500 + 90 = 590.
    expect(l.finalUnitAmount).toBe(590);
  });

  it("BEST_OF never raises a price: a regular price that is lower supersedes it", () => {
    const l = resolveWith([promotion(7, { value: 500 })], { tradeConditions: [cond(2000)] });
    expect(l).toMatchObject({ regularUnitAmount: 800, finalUnitAmount: 800 });
    expect(l.adjustments.map((a) => a.kind)).toEqual(["DISCOUNT"]);
    expect(l.explain!.promotions[0]).toMatchObject({
      outcome: "SUPERSEDED_BY_REGULAR_PRICE",
      amount: -50,
      saving: 0,
    });
  });

  it("BEST_OF at a tie with the regular price keeps the regular price", () => {
    const l = resolveWith([promotion(7, { value: 1000 })], { tradeConditions: [cond(1000)] });
    expect(l.adjustments.map((a) => a.kind)).toEqual(["DISCOUNT"]);
    expect(l.explain!.promotions[0]!.outcome).toBe("SUPERSEDED_BY_REGULAR_PRICE");
  });

  it("ON_TOP applies to the regular amount", () => {
    const l = resolveWith([promotion(7, { value: 1000, stacking: "ON_TOP" })], {
      tradeConditions: [cond(1000)],
    });
    expect(l.adjustments.map((a) => [a.kind, a.amount])).toEqual([
      ["DISCOUNT", -100],
      ["PROMOTION", -90],
    ]);
    expect(l.finalUnitAmount).toBe(810);
  });

  it("the best single promotion wins by the customer's saving, then priority, then id", () => {
    const outcomes = (promotions: PromotionCandidate[]) =>
      resolveWith(promotions, { tradeConditions: [cond(1000)] }).explain!.promotions.map((e) => [
        e.id,
        e.outcome,
        e.decidedBy,
        e.saving,
      ]);
    // BEST_OF 15 % of 1000 → 850 (saves 50 vs 900); ON_TOP 10 % of 900 → 810 (saves 90).
    expect(
      outcomes([promotion(1, { value: 1500 }), promotion(2, { value: 1000, stacking: "ON_TOP" })]),
    ).toEqual([
      [1, "LOWER_RANK", "AMOUNT", 50],
      [2, "APPLIED", null, 90],
    ]);
    expect(
      outcomes([promotion(1, { value: 2000 }), promotion(2, { value: 2000, priority: 1 })]),
    ).toEqual([
      [2, "APPLIED", null, 100],
      [1, "LOWER_RANK", "PRIORITY", 100],
    ]);
    expect(outcomes([promotion(3, { value: 2000 }), promotion(2, { value: 2000 })])).toEqual([
      [2, "APPLIED", null, 100],
      [3, "LOWER_RANK", "ID", 100],
    ]);
  });

  it("a promotion never takes the amount below 0", () => {
    const absolute = { discountType: "ABSOLUTE", currency: "EUR", value: 5000 } as const;
    expect(resolveWith([promotion(1, absolute)]).finalUnitAmount).toBe(0);
    expect(
      resolveWith([promotion(1, { ...absolute, stacking: "ON_TOP" })]).adjustments,
    ).toMatchObject([{ kind: "PROMOTION", amount: -1000 }]);
  });

  it("ON_TOP that saves nothing is reported NO_SAVING", () => {
    const l = resolveWith([promotion(1, { value: 1, stacking: "ON_TOP" })], {}, 10);
    expect(l.finalUnitAmount).toBe(10);
    expect(l.explain!.promotions[0]!.outcome).toBe("NO_SAVING");
  });

  it.each([
    ["channel listed", { channelCodes: ["WEB-DE"] }, "APPLIED"],
    ["other channel", { channelCodes: ["SHOP-AT"] }, "OTHER_CHANNEL"],
    ["group in G", { customerGroupCodes: ["G-1"] }, "APPLIED"],
    ["group not in G", { customerGroupCodes: ["G-2"] }, "NOT_TARGETED"],
    ["other product", { productCodes: ["Q"] }, "OTHER_PRODUCT"],
    ["DRAFT", { status: "DRAFT" }, "NOT_ACTIVE"],
    ["ABSOLUTE in EUR", { discountType: "ABSOLUTE", currency: "EUR", value: 100 }, "APPLIED"],
    [
      "ABSOLUTE in USD",
      { discountType: "ABSOLUTE", currency: "USD", value: 100 },
      "OTHER_CURRENCY",
    ],
    ["before validFrom", { validFrom: AT + 1 }, "OUT_OF_WINDOW"],
    ["at validFrom", { validFrom: AT }, "APPLIED"],
    ["at validTo", { validTo: AT }, "OUT_OF_WINDOW"],
  ] as const)("%s → %s", (_, extra, outcome) => {
    const l = resolveWith([promotion(1, extra as Partial<PromotionCandidate>)]);
    expect(l.explain!.promotions[0]!.outcome).toBe(outcome);
    expect(l.finalUnitAmount).toBe(outcome === "APPLIED" ? 900 : 1000);
  });

  it("anonymous requests get only promotions for everyone", () => {
    const anonymous = { customer: null, groupCodes: ["G-1"] };
    expect(resolveWith([promotion(1)], anonymous).finalUnitAmount).toBe(900);
    expect(
      resolveWith([promotion(1, { customerGroupCodes: ["G-1"] })], anonymous).finalUnitAmount,
    ).toBe(1000);
  });

  it("applies to a non-discountable base pricelist too", () => {
    const l = line({
      pricelists: [primary(1000, { allowsTradeDiscounts: false })],
      promotions: [promotion(1)],
    });
    expect(l.finalUnitAmount).toBe(900);
  });
});

// ---------------------------------------------------------------------------------------------

describe("integers only: rounding and currencies", () => {
  it.each([
    [385, 500, 19], // 19.25
    [345, 800, 28], // 27.6
    [100, 50, 1], // 0.5 rounds up
    [100, 49, 0], // 0.49
    [-385, 500, -19], // half up on the magnitude
    [-100, 50, -1],
    [1, 10_000, 1],
    [Number.MAX_SAFE_INTEGER, 10_000, Number.MAX_SAFE_INTEGER],
    [9_007_199_254_740_990, 5_000, 4_503_599_627_370_495],
    [9_007_199_254_740_991, 1, 900_719_925_474],
  ])("round(%i × %i bp / 10000) = %i", (amount, bp, expected) => {
    expect(percentOf(amount, bp)).toBe(expected);
  });

  it("JPY (0 decimals): amounts are whole yen", () => {
    const l = line({
      currency: "JPY",
      pricelists: [primary(1999, { currency: "JPY" })],
      tradeConditions: [condition(1, { value: 1250 })], // 249.875 → 250
      lines: [{ productCode: "P", quantity: 3 }],
    });
    expect(l).toMatchObject({ currency: "JPY", finalUnitAmount: 1749, lineAmount: 5247 });
  });

  it("KWD (3 decimals): amounts are fils", () => {
    const l = line({
      currency: "KWD",
      pricelists: [primary(12_345, { currency: "KWD" })],
      tradeConditions: [
        condition(1, { value: 250 }), // 308.625 → 309
        condition(2, { type: "SURCHARGE", discountType: "ABSOLUTE", currency: "KWD", value: 500 }),
      ],
    });
    expect(l.finalUnitAmount).toBe(12_345 - 309 + 500);
  });

  it("only pricelists in the request's currency take part", () => {
    const l = line({
      currency: "JPY",
      pricelists: [
        primary(1000),
        pricelist(2, ["CHANNEL"], { P: [[1, 150]] }, { currency: "JPY" }),
      ],
    });
    expect(l.source).toMatchObject({ pricelistId: 2, baseUnitAmount: 150 });
  });

  it("an amount beyond 2^53 − 1 makes only its line OUT_OF_RANGE", () => {
    const answer = resolvePrices(
      request({
        pricelists: [
          pricelist(1, ["CHANNEL_PRIMARY"], {
            P: [[1, Number.MAX_SAFE_INTEGER]],
            Q: [[1, 10]],
            R: [[1, Number.MAX_SAFE_INTEGER]],
          }),
        ],
        tradeConditions: [
          condition(1, {
            type: "SURCHARGE",
            discountType: "ABSOLUTE",
            currency: "EUR",
            value: 1,
            productCodes: ["P"],
          }),
        ],
        lines: [
          { productCode: "P", quantity: 1 },
          { productCode: "Q", quantity: 2 },
          { productCode: "R", quantity: 2 },
        ],
      }),
    );
    expect(answer.lines.map((l) => [l.status, l.finalUnitAmount])).toEqual([
      ["OUT_OF_RANGE", null],
      ["OK", 10],
      ["OUT_OF_RANGE", null],
    ]);
    expect(answer.lines[0]!.source?.pricelistId).toBe(1);
    expect(answer).toMatchObject({ totalAmount: null, pricedTotalAmount: 20, complete: false });
  });
});

describe("batches and the answer", () => {
  it("NO_PRICE and UNKNOWN_PRODUCT lines do not fail the batch, and leave the total unanswered", () => {
    const answer = resolvePrices(
      request({
        products: productsOf(["P", "Q"]),
        pricelists: [primary(1000)],
        lines: [
          { productCode: "P", quantity: 2 },
          { productCode: "Q", quantity: 1 },
          { productCode: "NOPE", quantity: 1 },
          { productCode: "P", quantity: 1 },
        ],
        explain: true,
      }),
    );
    expect(answer.lines.map((l) => [l.productCode, l.status, l.lineAmount])).toEqual([
      ["P", "OK", 2000],
      ["Q", "NO_PRICE", null],
      ["NOPE", "UNKNOWN_PRODUCT", null],
      ["P", "OK", 1000],
    ]);
    expect(answer).toMatchObject({ totalAmount: null, pricedTotalAmount: 3000, complete: false });
    expect(answer.lines[1]).toEqual({
      productCode: "Q",
      quantity: 1,
      status: "NO_PRICE",
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
      quantityRule: { minimum: 1, increment: 1, maximum: null },
      suggestedQuantities: null,
      priceBreak: null,
      explain: {
        pricelists: [
          {
            level: "CHANNEL_PRIMARY",
            pricelistId: 1,
            name: "PL-1",
            outcome: "NO_PRICE_FOR_PRODUCT",
            decidedBy: null,
            tierMinQuantity: null,
            amount: null,
            priceUnit: null,
            usedForListPrice: false,
            derivedFrom: null,
          },
        ],
        tradeConditions: [],
        promotions: [],
        floors: [],
      },
    });
    // An unknown product has no quantity rule either.
    expect(answer.lines[2]).toMatchObject({ quantityRule: null, suggestedQuantities: null });
    expect(answer.lines[2]!.explain).toEqual({
      pricelists: [],
      tradeConditions: [],
      promotions: [],
      floors: [],
    });
  });

  it("a product known but priced nowhere lists its candidate conditions as NO_BASE_PRICE", () => {
    const l = line({
      tradeConditions: [condition(1), condition(2, { status: "DRAFT" })],
      promotions: [promotion(3)],
      explain: true,
    });
    expect(l.status).toBe("NO_PRICE");
    expect(l.explain!.tradeConditions.map((e) => e.outcome)).toEqual([
      "NO_BASE_PRICE",
      "NOT_ACTIVE",
    ]);
    expect(l.explain!.promotions.map((e) => e.outcome)).toEqual(["NO_BASE_PRICE"]);
  });

  it("an empty request prices nothing", () => {
    expect(resolvePrices(request({ lines: [] }))).toEqual({
      channelCode: "WEB-DE",
      customerCode: "C-1",
      currency: "EUR",
      at: "2025-06-15T10:00:00.000Z",
      totalAmount: 0,
      pricedTotalAmount: 0,
      complete: true,
      validUntil: null,
      lines: [],
    });
  });
});

describe("totals: totalAmount only for a complete cart (docs/pricing-rules.md §8)", () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  const HALF = 2 ** 52; // two lines of HALF pass 2^53 − 1 by one
  // P 1000, Q 500 (no conditions, so line amounts are plain); R is known but unpriced unless noted.
  const totals = (lines: PriceRequest["lines"], rows: Rows = {}) => {
    const answer = resolvePrices(
      request({
        products: productsOf(["P", "Q", "R"]),
        pricelists: [pricelist(1, ["CHANNEL_PRIMARY"], { P: [[1, 1000]], Q: [[1, 500]], ...rows })],
        lines,
      }),
    );
    return {
      statuses: answer.lines.map((l) => l.status),
      totalAmount: answer.totalAmount,
      pricedTotalAmount: answer.pricedTotalAmount,
      complete: answer.complete,
    };
  };
  const P2 = { productCode: "P", quantity: 2 };
  const Q1 = { productCode: "Q", quantity: 1 };

  it.each([
    {
      name: "every line OK: totalAmount = pricedTotalAmount, complete",
      lines: [P2, Q1],
      rows: {},
      want: { statuses: ["OK", "OK"], totalAmount: 2500, pricedTotalAmount: 2500, complete: true },
    },
    {
      name: "one UNKNOWN_PRODUCT line: no totalAmount, the others priced",
      lines: [P2, { productCode: "NOPE", quantity: 1 }, Q1],
      rows: {},
      want: {
        statuses: ["OK", "UNKNOWN_PRODUCT", "OK"],
        totalAmount: null,
        pricedTotalAmount: 2500,
        complete: false,
      },
    },
    {
      name: "one NO_PRICE line: no totalAmount, the others priced",
      lines: [{ productCode: "R", quantity: 3 }, P2, Q1],
      rows: {},
      want: {
        statuses: ["NO_PRICE", "OK", "OK"],
        totalAmount: null,
        pricedTotalAmount: 2500,
        complete: false,
      },
    },
    {
      name: "one OUT_OF_RANGE line: no totalAmount, the others priced",
      lines: [P2, Q1, { productCode: "R", quantity: 2 }],
      rows: { R: [[1, MAX]] } as Rows,
      want: {
        statuses: ["OK", "OK", "OUT_OF_RANGE"],
        totalAmount: null,
        pricedTotalAmount: 2500,
        complete: false,
      },
    },
    {
      name: "no line OK: pricedTotalAmount 0",
      lines: [
        { productCode: "NOPE", quantity: 1 },
        { productCode: "R", quantity: 1 },
      ],
      rows: {},
      want: {
        statuses: ["UNKNOWN_PRODUCT", "NO_PRICE"],
        totalAmount: null,
        pricedTotalAmount: 0,
        complete: false,
      },
    },
    {
      name: "a sum of exactly 2^53 − 1 is answered",
      lines: [P2, Q1],
      rows: { P: [[1, HALF / 2]], Q: [[1, HALF - 1]] } as Rows,
      want: { statuses: ["OK", "OK"], totalAmount: MAX, pricedTotalAmount: MAX, complete: true },
    },
    {
      name: "every line OK but the sum passes 2^53 − 1: complete, neither total answered",
      lines: [
        { productCode: "P", quantity: 1 },
        { productCode: "Q", quantity: 1 },
      ],
      rows: { P: [[1, HALF]], Q: [[1, HALF]] } as Rows,
      want: { statuses: ["OK", "OK"], totalAmount: null, pricedTotalAmount: null, complete: true },
    },
    {
      name: "the priced lines pass 2^53 − 1 and one line is not OK: neither total answered",
      lines: [
        { productCode: "P", quantity: 1 },
        { productCode: "NOPE", quantity: 1 },
        { productCode: "Q", quantity: 1 },
      ],
      rows: { P: [[1, HALF]], Q: [[1, HALF]] } as Rows,
      want: {
        statuses: ["OK", "UNKNOWN_PRODUCT", "OK"],
        totalAmount: null,
        pricedTotalAmount: null,
        complete: false,
      },
    },
  ])("$name", ({ lines, rows, want }) => {
    expect(totals(lines, rows)).toEqual(want);
  });
});

describe("validUntil", () => {
  const until = (extra: Partial<PriceRequest>) => resolvePrices(request(extra)).validUntil;
  const soon = t("2025-06-20T00:00:00Z");
  const later = t("2025-08-01T00:00:00Z");

  it("is the earliest edge after `at` of the records looked at", () => {
    expect(until({ pricelists: [primary(1000, { validTo: later })] })).toBe(
      "2025-08-01T00:00:00.000Z",
    );
    expect(
      until({
        pricelists: [primary(1000, { validTo: later })],
        tradeConditions: [condition(1, { validFrom: soon, validTo: null })],
      }),
    ).toBe("2025-06-20T00:00:00.000Z");
  });

  it("counts a pricelist that is not yet valid, and a lower level nobody used", () => {
    expect(
      until({
        pricelists: [
          primary(1000, { validTo: null }),
          pricelist(2, ["CUSTOMER"], { P: [[1, 1]] }, { validFrom: soon, validTo: null }),
        ],
      }),
    ).toBe("2025-06-20T00:00:00.000Z");
    expect(
      until({
        pricelists: [
          pricelist(2, ["CUSTOMER"], { P: [[1, 1]] }, { validFrom: null, validTo: null }),
          primary(1000, { validFrom: null, validTo: soon }),
        ],
      }),
    ).toBe("2025-06-20T00:00:00.000Z");
  });

  it("ignores what can never apply: not ACTIVE, other currency, other product, other channel, edges in the past", () => {
    expect(
      until({
        pricelists: [
          primary(1000, { validFrom: null, validTo: null }),
          pricelist(2, ["CUSTOMER"], { P: [[1, 1]] }, { status: "DRAFT", validTo: soon }),
          pricelist(3, ["CUSTOMER"], { P: [[1, 1]] }, { currency: "USD", validTo: soon }),
          pricelist(4, ["CUSTOMER"], { Q: [[1, 1]] }, { validTo: soon }),
        ],
        tradeConditions: [
          condition(1, { status: "INACTIVE", validTo: soon }),
          condition(2, { productCodes: ["Q"], validTo: soon }),
          condition(3, { channelCodes: ["SHOP-AT"], validTo: soon }),
          condition(4, { validFrom: Y2025, validTo: AT }), // already over
        ],
        promotions: [promotion(1, { status: "DRAFT", validTo: soon })],
      }),
    ).toBeNull();
  });

  it("is null when every record is open-ended", () => {
    expect(until({ pricelists: [primary(1000, { validFrom: null, validTo: null })] })).toBeNull();
  });
});

describe("a customer's primary pricelist (GET /customer/{code})", () => {
  const own = (
    id: number,
    scope: "GENERAL" | "INDIVIDUAL",
    extra: Partial<{
      status: "ACTIVE" | "DRAFT";
      priority: number;
      validFrom: number | null;
      validTo: number | null;
    }> = {},
  ) => ({
    id,
    scope,
    status: "ACTIVE" as const,
    priority: 0,
    validFrom: null,
    validTo: null,
    ...extra,
  });

  it("ranks INDIVIDUAL first, then priority descending, then id ascending", () => {
    const ranked = rankCustomerPricelists(
      [
        own(1, "GENERAL", { priority: 9 }),
        own(5, "INDIVIDUAL"),
        own(3, "INDIVIDUAL"),
        own(4, "INDIVIDUAL", { priority: 1 }),
        own(2, "GENERAL", { priority: 9 }),
      ],
      AT,
    );
    expect(ranked.map((p) => p.id)).toEqual([4, 3, 5, 1, 2]);
  });

  it("takes only ACTIVE pricelists in their window at `at`", () => {
    const list = [
      own(1, "INDIVIDUAL", { status: "DRAFT" }),
      own(2, "INDIVIDUAL", { validTo: AT }),
      own(3, "INDIVIDUAL", { validFrom: AT + 1 }),
      own(4, "GENERAL", { validFrom: AT }),
    ];
    expect(primaryCustomerPricelist(list, AT)?.id).toBe(4);
    expect(primaryCustomerPricelist(list.slice(0, 3), AT)).toBeNull();
  });
});
