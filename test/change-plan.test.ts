import { describe, expect, it } from "vitest";
import {
  isChangeOverlap,
  planChanges,
  type ChangePlan,
  type SelectedItem,
} from "../src/pricing/change-plan";
import type { KeyedRow } from "../src/pricing/timeline";

/** The price items of a change request as a pure plan (docs/pricing-rules.md §18). */

const T = Date.parse("2027-01-01T00:00:00Z");
const LATER = Date.parse("2027-06-01T00:00:00Z");

const row = (
  productCode: string,
  amount: number,
  validFrom: number | null = null,
  validTo: number | null = null,
  minQuantity = 1,
  priceUnit = 1,
): KeyedRow => ({ productCode, minQuantity, amount, priceUnit, validFrom, validTo });

const adjust = (adjustmentBp: number, rows: KeyedRow[]): SelectedItem => ({
  item: {
    kind: "ADJUST_PRICES",
    pricelistId: 1,
    adjustmentBp,
    rounding: { mode: "UP", step: 10, ending: 9 },
  },
  rows,
});

function plan(items: SelectedItem[]): ChangePlan {
  const result = planChanges(items, T);
  if (isChangeOverlap(result)) throw new Error("overlap");
  return result;
}

describe("planChanges", () => {
  it("worked example A: every tier in force adjusted from T, the old rows cut there", () => {
    const stored = [row("P-1", 500), row("P-2", 1000), row("P-2", 900, null, null, 10)];
    const result = plan([adjust(300, stored)]);
    expect(result.tiers).toEqual([
      { pricelistId: 1, productCode: "P-1", minQuantity: 1, amount: 519, priceUnit: 1 },
      { pricelistId: 1, productCode: "P-2", minQuantity: 1, amount: 1039, priceUnit: 1 },
      { pricelistId: 1, productCode: "P-2", minQuantity: 10, amount: 929, priceUnit: 1 },
    ]);
    const lists = result.lists.get(1)!;
    expect(lists.closed).toBe(3);
    expect(lists.updates.map((u) => [u.after.productCode, u.after.validTo])).toEqual([
      ["P-1", T],
      ["P-2", T],
      ["P-2", T],
    ]);
    expect(lists.inserts.every((r) => r.validFrom === T && r.validTo === null)).toBe(true);
  });

  it("leaves a row scheduled after T alone: the new row ends where it starts", () => {
    const stored = [row("P-1", 500, null, LATER), row("P-1", 600, LATER)];
    const { lists } = plan([adjust(300, stored)]);
    expect(lists.get(1)!.inserts).toEqual([row("P-1", 519, T, LATER)]);
    expect(lists.get(1)!.updates.map((u) => u.after)).toEqual([row("P-1", 500, null, T)]);
  });

  it("items in order: a SET_PRICES row is what a later ADJUST_PRICES adjusts", () => {
    const stored = [row("P-1", 500)];
    const set: SelectedItem = {
      item: {
        kind: "SET_PRICES",
        pricelistId: 1,
        rows: [{ productCode: "P-1", minQuantity: 1, amount: 700, priceUnit: 1 }],
      },
      rows: stored,
    };
    const { tiers, lists } = plan([set, adjust(1000, stored)]);
    // 700 × 1.1 = 770 → up to …9: 779; one new row (the second write replaced the first).
    expect(tiers).toEqual([
      { pricelistId: 1, productCode: "P-1", minQuantity: 1, amount: 779, priceUnit: 1 },
    ]);
    expect(lists.get(1)!.inserts).toEqual([row("P-1", 779, T)]);
  });

  it("writes nothing for a tier whose amount would not change", () => {
    const stored = [row("P-1", 519), row("P-2", 1000)];
    const set: SelectedItem = {
      item: {
        kind: "SET_PRICES",
        pricelistId: 1,
        rows: [
          { productCode: "P-1", minQuantity: 1, amount: 519, priceUnit: 1 },
          { productCode: "P-2", minQuantity: 1, amount: 990, priceUnit: 1 },
        ],
      },
      rows: stored,
    };
    const { tiers, lists } = plan([set]);
    expect(tiers.map((t) => t.productCode)).toEqual(["P-2"]);
    expect(lists.get(1)!.inserts).toEqual([row("P-2", 990, T)]);
    expect(plan([adjust(0, [row("P-1", 519)])]).lists.size).toBe(0);
  });

  it("price units (docs/pricing-rules.md §20): an adjustment keeps a row's unit, a new unit alone is a change", () => {
    // 1250 per 1,000 pieces + 3 % = 1287.5 → 1288, up to …9: 1289, still per 1,000.
    const stored = [row("SCREW", 1250, null, null, 1, 1000)];
    expect(plan([adjust(300, stored)]).tiers).toEqual([
      { pricelistId: 1, productCode: "SCREW", minQuantity: 1, amount: 1289, priceUnit: 1000 },
    ]);
    const perHundred: SelectedItem = {
      item: {
        kind: "SET_PRICES",
        pricelistId: 1,
        rows: [{ productCode: "SCREW", minQuantity: 1, amount: 1250, priceUnit: 100 }],
      },
      rows: stored,
    };
    expect(plan([perHundred]).lists.get(1)!.inserts).toEqual([row("SCREW", 1250, T, null, 1, 100)]);
  });

  it("a SET_PRICES row of a product without rows starts at T, open-ended", () => {
    const set: SelectedItem = {
      item: {
        kind: "SET_PRICES",
        pricelistId: 7,
        rows: [{ productCode: "NEW", minQuantity: 5, amount: 42, priceUnit: 1 }],
      },
      rows: [],
    };
    const { lists } = plan([set]);
    expect(lists.get(7)).toEqual({
      inserts: [row("NEW", 42, T, null, 5)],
      updates: [],
      closed: 0,
    });
  });
});
