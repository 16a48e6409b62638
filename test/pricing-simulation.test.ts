import { describe, expect, it } from "vitest";
import {
  applyChangeSet,
  compareLines,
  PriceChanges,
  sameJson,
  sortRows,
  type ChangeSet,
  type PriceChangeRow,
  type PricingRecords,
} from "../src/pricing/simulation";
import { condition, floor, line, pricelist, primary, promotion } from "./pricing-engine-factories";

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
      { productCode: "P", minQuantity: 1, amount: 1100, priceUnit: 1, ...undated },
      { productCode: "P", minQuantity: 10, amount: 950000, priceUnit: 1000, ...undated },
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
    // Exact far past 2^53 / 10000: integers all the way.
    const huge = Number.MAX_SAFE_INTEGER - 1;
    expect(compareLines(null, at(1), at(huge))!.differenceBp).toBe((huge - 1) * 10000);
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

describe("PriceChanges", () => {
  const row = (customerCode: string | null, productCode: string, bp: number | null) =>
    ({ customerCode, productCode, difference: bp, differenceBp: bp }) as PriceChangeRow;

  it("keeps the first maxRows rows in row order whatever the order they come in, and counts all", () => {
    const rows = Array.from({ length: 5000 }, (_, i) =>
      row(`C${i % 7}`, `P${i}`, ((i * 7919) % 2001) - 1000),
    );
    rows.push(row(null, "P-NEW", null));
    const changes = new PriceChanges(25);
    for (const r of rows) changes.add(r);
    const result = changes.result(9999);
    expect(result.rows).toEqual(sortRows([...rows]).slice(0, 25));
    expect(result.rows[0]!.productCode).toBe("P-NEW");
    expect(result.rowsOmitted).toBe(5001 - 25);
    expect(result.summary).toMatchObject({ evaluated: 9999, changed: 5001 });
    expect(result.summary.distribution.reduce((n, b) => n + b.count, 0)).toBe(5000);
    expect(new PriceChanges(0).result(1).rows).toEqual([]);
  });
});
