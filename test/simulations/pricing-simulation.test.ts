import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolvePrices, type PricelistLevel } from "../../src/pricing";
import {
  applyChangeSet,
  compareLines,
  comparePrices,
  FirstInOrder,
  MarginTotals,
  rowOrder,
  sameJson,
  sortRows,
  summarize,
  SUMMARY_TOP,
  type ChangeSet,
  type PriceChangeItem,
  type PriceChangeRow,
  type PriceChangeSummary,
  type PricingRecords,
  type SimulationInput,
} from "../../src/pricing/simulation";
import {
  AT,
  condition,
  facts,
  floor,
  line,
  pricelist,
  primary,
  promotion,
} from "../shared/pricing-engine-factories";

/** The publish simulation's pure part (docs/simulation.md §4–§5): overlay and comparison. */

const none = { pricelistIds: [], tradeConditionIds: [], promotionIds: [] };
const changeSet = (extra: Partial<ChangeSet>): ChangeSet => ({
  activate: none,
  deactivate: none,
  prices: [],
  ...extra,
});

describe("applyChangeSet", () => {
  const records: PricingRecords = {
    pricelists: [primary(1000), pricelist(2, ["CUSTOMER"], { P: [[1, 900]] }, { status: "DRAFT" })],
    priceBases: [{ id: 1, currency: "EUR", derivation: null, prices: [] }],
    floors: [floor(3, { P: [[1, 500]] }, { status: "DRAFT" })],
    tradeConditions: [condition(10, { status: "DRAFT" }), condition(11)],
    promotions: [promotion(20), promotion(21, { status: "INACTIVE" })],
  };
  const frozen = JSON.stringify(records);

  it("restates statuses and sets tiers, leaving its input and every unnamed record as they are", () => {
    const after = applyChangeSet(
      records,
      changeSet({
        activate: { pricelistIds: [2, 3], tradeConditionIds: [10], promotionIds: [21] },
        deactivate: { pricelistIds: [], tradeConditionIds: [11], promotionIds: [20] },
        prices: [
          { pricelistId: 1, productCode: "P", minQuantity: 1, amount: 1100 },
          { pricelistId: 1, productCode: "P", minQuantity: 10, amount: 950000, priceUnit: 1000 },
        ],
      }),
    );
    expect(JSON.stringify(records)).toBe(frozen);
    expect(after.pricelists.map((p) => p.status)).toEqual(["ACTIVE", "ACTIVE"]);
    expect(after.floors[0]!.status).toBe("ACTIVE");
    expect(after.tradeConditions.map((c) => c.status)).toEqual(["ACTIVE", "INACTIVE"]);
    expect(after.promotions.map((p) => p.status)).toEqual(["INACTIVE", "ACTIVE"]);
    // A tier of list 1 is set wherever list 1 is: candidate and base; the others stay whole.
    // A set tier is the row in force at the simulated moment: undated, per its price unit
    // (docs/pricing-rules.md §20; absent: 1).
    const undated = { validFrom: null, validTo: null };
    const tiers = [
      { productCode: "P", minQuantity: 1, amount: 1100, priceUnit: 1, flatAmount: 0, ...undated },
      {
        productCode: "P",
        minQuantity: 10,
        amount: 950000,
        priceUnit: 1000,
        flatAmount: 0,
        ...undated,
      },
    ];
    expect(after.pricelists[0]!.prices).toEqual(tiers);
    expect(after.priceBases[0]!.prices).toEqual(tiers);
    const untouched = applyChangeSet(
      records,
      changeSet({ activate: { ...none, promotionIds: [21] } }),
    );
    expect(untouched.pricelists[0]).toBe(records.pricelists[0]);
    expect(untouched.tradeConditions[1]).toBe(records.tradeConditions[1]);
  });

  it("ignores ids it does not find among the records (another channel's)", () => {
    const after = applyChangeSet(
      records,
      changeSet({ activate: { pricelistIds: [99], tradeConditionIds: [98], promotionIds: [97] } }),
    );
    expect(JSON.stringify(after)).toBe(frozen);
  });
});

describe("compareLines", () => {
  const at = (amount: number) => line({ pricelists: [primary(amount)] });

  it("answers null for the same line, else the difference, its basis points and what changed", () => {
    expect(compareLines("C", at(1000), at(1000))).toBeNull();
    expect(compareLines("C", at(2050), at(1800))).toMatchObject({
      difference: -250,
      differenceBp: -1220, // −1219.5, half away from zero
      changed: ["BASE"],
    });
    expect(compareLines(null, at(3), at(4))!.differenceBp).toBe(3333);
    expect(compareLines(null, at(3), at(2))!.differenceBp).toBe(-3333);
    expect(compareLines(null, at(2), at(1))!.differenceBp).toBe(-5000);
    expect(compareLines(null, at(0), at(5))).toMatchObject({ difference: 5, differenceBp: null });
    const unpriced = line({ pricelists: [] });
    expect(compareLines(null, at(5), unpriced)).toMatchObject({
      difference: null,
      differenceBp: null,
      changed: ["LEVEL", "BASE", "AVAILABILITY"],
    });
    // Exact integers all the way; a ratio past 2^53 − 1 bp is answered as 2^53 − 1 (an exact
    // integer, never a float past it: docs/simulation.md §4, issue 28 item 9).
    const huge = Number.MAX_SAFE_INTEGER - 1;
    expect(compareLines(null, at(1), at(huge))!.differenceBp).toBe(Number.MAX_SAFE_INTEGER);
    expect(compareLines(null, at(10_000), at(20_001))!.differenceBp).toBe(10_001);
  });

  it("takes lines priced per different units to the after line's unit; the ratio is per piece", () => {
    // docs/simulation.md §4, docs/pricing-rules.md §20.
    const per = (amount: number, priceUnit: number) => ({
      ...at(amount),
      finalUnitAmount: amount,
      priceUnit,
    });
    // 392 a piece → 4410 per 100 (44.10 a piece): 39200 per 100 before, −88.75 % per piece.
    expect(compareLines(null, per(392, 1), per(4410, 100))).toMatchObject({
      difference: -34790,
      differenceBp: -8875,
    });
    // 1250 per 1000 (1.25 a piece) → 2 a piece: 1.25 → 1 half up, +60 % per piece, exactly.
    expect(compareLines(null, per(1250, 1000), per(2, 1))).toMatchObject({
      difference: 1,
      differenceBp: 6000,
    });
    // The same unit on both sides: as ever.
    expect(compareLines(null, per(1250, 1000), per(1125, 1000))).toMatchObject({
      difference: -125,
      differenceBp: -1000,
    });
  });

  it("names the rung, the adjustments and the floor where those differ", () => {
    const tc = condition(1, { value: 1000 });
    const base = { pricelists: [primary(1000)] };
    expect(
      compareLines("C", line(base), line({ ...base, tradeConditions: [tc] }))!.changed,
    ).toEqual(["RUNG", "ADJUSTMENTS"]);
    const floored = { ...base, floors: [floor(3, { P: [[1, 950]] })] };
    expect(
      compareLines("C", line(floored), line({ ...floored, tradeConditions: [tc] }))!.changed,
    ).toEqual(["RUNG", "ADJUSTMENTS", "FLOOR"]);
  });
});

describe("sameJson", () => {
  it("compares JSON values by structure", () => {
    expect(sameJson({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [1] })).toBe(false);
    expect(sameJson({ a: 1 }, { b: 1 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson("1", 1)).toBe(false);
  });
});

const item = (customerCode: string | null, productCode: string, bp: number | null) => ({
  customerCode,
  productCode,
  difference: bp,
  differenceBp: bp,
});

describe("FirstInOrder", () => {
  it("keeps the first n in order whatever the order they come in, never holding more", () => {
    const items = Array.from({ length: 5000 }, (_, i) =>
      item(`C${i % 7}`, `P${i}`, ((i * 7919) % 2001) - 1000),
    );
    items.push(item(null, "P-NEW", null));
    for (const order of [items, [...items].reverse(), sortRows([...items])]) {
      const first = new FirstInOrder<PriceChangeItem>(25, rowOrder);
      for (const i of order) {
        first.add(i);
        expect(first.length).toBeLessThanOrEqual(25);
      }
      expect(first.sorted()).toEqual(sortRows([...items]).slice(0, 25));
      expect(first.sorted()[0]!.productCode).toBe("P-NEW");
    }
    const none = new FirstInOrder<PriceChangeItem>(0, rowOrder);
    items.forEach((i) => none.add(i));
    expect(none.sorted()).toEqual([]);
  });
});

/** The summary of docs/simulation.md §4 computed the plain way: every item held, sorted, cut. */
function plainSummary(
  items: readonly PriceChangeItem[],
  evaluated: number,
  // Nothing summed: what `summarize` answers when it is given no margins.
  margin: PriceChangeSummary["margin"] = {
    before: new MarginTotals("HALF_UP").result(),
    after: new MarginTotals("HALF_UP").result(),
  },
): PriceChangeSummary {
  const larger = (a: number | null, b: number | null) =>
    a === b ? 0 : a === null ? -1 : b === null ? 1 : b - a;
  const text = (a: string | null, b: string | null) =>
    a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
  const pair = (a: PriceChangeItem, b: PriceChangeItem) =>
    text(a.customerCode, b.customerCode) || text(a.productCode, b.productCode);
  const neg = (n: number | null) => (n === null ? null : -n);
  const rises = items.filter((r) => (r.difference ?? 0) > 0);
  const cuts = items.filter((r) => (r.difference ?? 0) < 0);
  const customers = new Map<string | null, { changed: number; raised: number; lowered: number }>();
  const buckets = new Map<number, number>();
  for (const { customerCode, difference, differenceBp } of items) {
    const c = customers.get(customerCode) ?? { changed: 0, raised: 0, lowered: 0 };
    customers.set(customerCode, c);
    c.changed += 1;
    if ((difference ?? 0) > 0) c.raised += 1;
    if ((difference ?? 0) < 0) c.lowered += 1;
    if (differenceBp === null) continue;
    const rounded = Math.sign(differenceBp) * Math.round(Math.abs(differenceBp) / 100);
    const percent = Math.min(100, rounded) || 0;
    buckets.set(percent, (buckets.get(percent) ?? 0) + 1);
  }
  const top = (
    list: PriceChangeItem[],
    order: (a: PriceChangeItem, b: PriceChangeItem) => number,
  ) =>
    [...list]
      .sort(order)
      .slice(0, SUMMARY_TOP)
      .map(({ customerCode, productCode, difference, differenceBp }) => ({
        customerCode,
        productCode,
        difference,
        differenceBp,
      }));
  return {
    evaluated,
    changed: items.length,
    raised: rises.length,
    lowered: cuts.length,
    largestRises: top(
      rises,
      (a, b) =>
        larger(a.differenceBp, b.differenceBp) || larger(a.difference, b.difference) || pair(a, b),
    ),
    largestCuts: top(
      cuts,
      (a, b) =>
        larger(neg(a.differenceBp), neg(b.differenceBp)) ||
        larger(neg(a.difference), neg(b.difference)) ||
        pair(a, b),
    ),
    mostAffectedCustomers: [...customers]
      .map(([customerCode, c]) => ({ customerCode, ...c }))
      .sort((a, b) => b.changed - a.changed || text(a.customerCode, b.customerCode))
      .slice(0, SUMMARY_TOP),
    distribution: [...buckets]
      .sort(([a], [b]) => a - b)
      .map(([percent, count]) => ({ percent, count })),
    margin,
  };
}

describe("summarize", () => {
  it("counts as the plain way does, whatever the order of the pairs", () => {
    const customer = fc.constantFrom(null, "A", "B", "C", "D");
    const bp = fc.option(fc.integer({ min: -20000, max: 20000 }), { freq: 8 });
    const items = fc
      .uniqueArray(fc.tuple(customer, fc.integer({ min: 0, max: 60 }), bp, fc.boolean()), {
        selector: ([c, p]) => `${c} ${p}`,
        maxLength: 80,
      })
      .map((list) =>
        list.map(([c, p, b, flat]) => ({
          customerCode: c,
          productCode: `P${p}`,
          // Some pairs change without a price moving (difference 0 or null).
          difference: flat ? (b === null ? null : 0) : b,
          differenceBp: flat ? null : b,
        })),
      );
    fc.assert(
      fc.property(items, (list) => {
        expect(summarize(list, 999)).toEqual(plainSummary(list, 999));
        expect(summarize([...list].reverse(), 999)).toEqual(plainSummary(list, 999));
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});

/**
 * A channel of eight products and four buyers (the anonymous one; C-1 with a DRAFT list of its
 * own, the only one to price P8; C-2 in G-1, reached by a group list derived from the primary;
 * C-3 plain), with a floor, conditions and promotions, and a change set that moves most prices,
 * gives C-1 a price for P8 and leaves P7 (boxed in fives) refused: what comparePrices runs.
 */
function simulationWorld(maxRows: number): SimulationInput {
  const codes = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"];
  const rows = {
    P1: [[1, 1000]],
    P2: [[1, 2000]],
    P3: [
      [1, 3000],
      [5, 2800],
    ],
    P4: [[1, 999]],
    P5: [[1, 5000]],
    P6: [[1, 1200]],
    P7: [[1, 700]],
  } as Record<string, [number, number][]>;
  const primaryList = pricelist(1, [], rows);
  const own = pricelist(
    2,
    [],
    { P1: [[1, 900]], P3: [[1, 2500]], P8: [[1, 400]] },
    { status: "DRAFT" },
  );
  const derived = pricelist(
    3,
    [],
    {},
    { derivation: { basePricelistId: 1, adjustmentBp: -1000, rounding: null } },
  );
  const reach = (...extra: [number, PricelistLevel][]) => ({
    groupCodes: extra.some(([id]) => id === 3) ? ["G-1"] : [],
    reach: [[1, "CHANNEL_PRIMARY"] as [number, PricelistLevel], ...extra].map(
      ([pricelistId, level]) => ({ pricelistId, level }),
    ),
  });
  return {
    at: AT,
    currency: "EUR",
    roundingMode: "HALF_UP",
    channelCode: "WEB-DE",
    quantity: 1,
    buyers: [null, "C-1", "C-2", "C-3"],
    productCodes: codes,
    products: new Map(
      codes.map((code) => [
        code,
        code === "P7" ? facts([], 5) : facts(code <= "P2" ? ["G-A"] : code === "P3" ? ["G-B"] : []),
      ]),
    ),
    audiences: new Map([
      [null, reach()],
      ["C-1", reach([2, "CUSTOMER"])],
      ["C-2", reach([3, "CUSTOMER_GROUP"])],
      ["C-3", reach()],
    ]),
    records: {
      pricelists: [primaryList, own, derived],
      priceBases: [{ id: 1, currency: "EUR", derivation: null, prices: primaryList.prices }],
      floors: [floor(4, { P2: [[1, 1950]] })],
      tradeConditions: [
        condition(10, { status: "DRAFT" }),
        condition(11, {
          scope: "CUSTOMER",
          customerCodes: ["C-2"],
          productGroupCodes: ["G-A"],
          value: 500,
        }),
        condition(12, {
          scope: "CHANNEL",
          channelCodes: ["WEB-DE"],
          type: "SURCHARGE",
          discountType: "ABSOLUTE",
          currency: "EUR",
          value: 50,
          productCodes: ["P4"],
        }),
      ],
      promotions: [
        promotion(20, { status: "DRAFT", productCodes: ["P5"] }),
        promotion(21, { productCodes: ["P6"], value: 300 }),
      ],
    },
    changes: {
      activate: { pricelistIds: [2], tradeConditionIds: [10], promotionIds: [20] },
      deactivate: { pricelistIds: [], tradeConditionIds: [11, 12], promotionIds: [] },
      prices: [
        { pricelistId: 1, productCode: "P6", minQuantity: 1, amount: 1500 },
        { pricelistId: 1, productCode: "P3", minQuantity: 1, amount: 3100 },
      ],
    },
    maxRows,
  };
}

/** The simulation the plain way: each buyer priced once per side, every row held, sorted, cut. */
function plainSimulation(input: SimulationInput) {
  const sides = [input.records, applyChangeSet(input.records, input.changes)];
  const rows: PriceChangeRow[] = [];
  const margin = [new MarginTotals(input.roundingMode), new MarginTotals(input.roundingMode)];
  for (const customerCode of input.buyers) {
    const audience = input.audiences.get(customerCode)!;
    const [before, after] = sides.map(
      (records) =>
        resolvePrices({
          ...records,
          pricelists: audience.reach.map(({ pricelistId, level }) => ({
            ...records.pricelists.find((p) => p.id === pricelistId)!,
            levels: [level],
          })),
          at: input.at,
          currency: input.currency,
          channel: { code: input.channelCode },
          customer: customerCode === null ? null : { code: customerCode },
          groupCodes: audience.groupCodes,
          products: input.products,
          separateOrders: true,
          margin: true,
          lines: input.productCodes.map((productCode) => ({
            productCode,
            quantity: input.quantity,
          })),
        }).lines,
    );
    before!.forEach((l, i) => {
      margin[0]!.add(l);
      margin[1]!.add(after![i]!);
      const row = compareLines(customerCode, l, after![i]!);
      if (row) rows.push(row);
    });
  }
  const sorted = sortRows(rows);
  return {
    rows: sorted.slice(0, input.maxRows),
    rowsOmitted: Math.max(0, rows.length - input.maxRows),
    summary: plainSummary(rows, input.buyers.length * input.productCodes.length, {
      before: margin[0]!.result(),
      after: margin[1]!.result(),
    }),
  };
}

/** Runs the generator to its end, counting its pauses. */
function runToEnd<T>(steps: Generator<void, T>): { value: T; pauses: number } {
  let pauses = 0;
  for (let step = steps.next(); ; step = steps.next(), pauses++) {
    if (step.done) return { value: step.value, pauses };
  }
}

describe("comparePrices", () => {
  it("answers the plain simulation's rows and summary, in steps of any size", () => {
    const plain = plainSimulation(simulationWorld(100));
    // Most of its 32 prices move, up and down; C-1's P8 appears (no ratio); P7 stays refused.
    expect(plain.rows.length).toBeGreaterThan(15);
    expect(plain.summary.raised).toBeGreaterThan(0);
    expect(plain.summary.lowered).toBeGreaterThan(0);
    expect(plain.rows[0]).toMatchObject({
      customerCode: "C-1",
      productCode: "P8",
      differenceBp: null,
    });
    expect(plain.rows.some((r) => r.productCode === "P7")).toBe(false);
    for (const maxRows of [0, 1, 5, 100]) {
      const expected = plainSimulation(simulationWorld(maxRows));
      for (const size of [1, 2, 3, 7, 8, 50]) {
        const { value, pauses } = runToEnd(
          comparePrices(simulationWorld(maxRows), { productsPerStep: size }),
        );
        expect(JSON.stringify(value), `maxRows ${maxRows}, ${size} per step`).toBe(
          JSON.stringify(expected),
        );
        // A pause after each buyer's two set-ups and each step, in both passes.
        expect(pauses).toBeGreaterThanOrEqual(4 * (2 + Math.ceil(8 / size)));
      }
    }
  });
});
