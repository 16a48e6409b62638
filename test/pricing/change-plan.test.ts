import { describe, expect, it } from "vitest";
import {
  ChangeAmountOutOfRange,
  isChangeOverlap,
  planChanges,
  planChangesInSteps,
  type ChangePlan,
  type SelectedItem,
} from "../../src/pricing/change-plan";
import { deriveAmount } from "../../src/pricing";
import type { KeyedRow } from "../../src/pricing/timeline";

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
): KeyedRow => ({ productCode, minQuantity, amount, priceUnit, flatAmount: 0, validFrom, validTo });

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
      {
        pricelistId: 1,
        productCode: "P-1",
        minQuantity: 1,
        amount: 519,
        priceUnit: 1,
        flatAmount: 0,
      },
      {
        pricelistId: 1,
        productCode: "P-2",
        minQuantity: 1,
        amount: 1039,
        priceUnit: 1,
        flatAmount: 0,
      },
      {
        pricelistId: 1,
        productCode: "P-2",
        minQuantity: 10,
        amount: 929,
        priceUnit: 1,
        flatAmount: 0,
      },
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
      {
        pricelistId: 1,
        productCode: "P-1",
        minQuantity: 1,
        amount: 779,
        priceUnit: 1,
        flatAmount: 0,
      },
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
      {
        pricelistId: 1,
        productCode: "SCREW",
        minQuantity: 1,
        amount: 1289,
        priceUnit: 1000,
        flatAmount: 0,
      },
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

describe("planChanges at scale (docs/api/change-requests.md §17.7)", () => {
  const catalogue = (n: number) =>
    Array.from({ length: n }, (_, i) => row(`P-${String(i).padStart(7, "0")}`, 1000 + (i % 997)));

  it(
    "plans 1,000,000 rows of one item: every row cut at T, a new one each",
    { timeout: 300_000 },
    () => {
      const stored = catalogue(1_000_000);
      const result = plan([adjust(250, stored)]);
      const lists = result.lists.get(1)!;
      expect(result.tiers).toHaveLength(1_000_000);
      expect(lists.inserts).toHaveLength(1_000_000);
      expect(lists.updates).toHaveLength(1_000_000);
      expect(lists.closed).toBe(1_000_000);
      // 999,999 % 997 = 8: 1008 + 2.5 % = 1033.2 → 1033, up to …9: 1039.
      expect(result.tiers[999_999]).toEqual({
        pricelistId: 1,
        productCode: "P-0999999",
        minQuantity: 1,
        amount: 1039,
        priceUnit: 1,
        flatAmount: 0,
      });
    },
  );

  it(
    "ten items over the same 31,800 rows: each on the rows as the ones before left them",
    { timeout: 120_000 },
    () => {
      const stored = catalogue(31_800);
      const items = Array.from({ length: 10 }, () => adjust(100, stored));
      const started = performance.now();
      const result = plan(items);
      const ms = performance.now() - started;
      console.log(JSON.stringify({ plan: { rows: 31_800, items: 10, ms: Math.round(ms) } }));
      // 1000 → ten times +1 % and up to …9, each on the amount the one before left.
      let amount = 1000;
      for (let i = 0; i < 10; i += 1) {
        amount = deriveAmount(amount, {
          basePricelistId: 1,
          adjustmentBp: 100,
          rounding: { mode: "UP", step: 10, ending: 9 },
        });
      }
      expect(result.tiers[0]).toMatchObject({ productCode: "P-0000000", amount });
      // One new row per tier (each later write replaced the one before), every old row cut once.
      expect(result.lists.get(1)!.inserts).toHaveLength(31_800);
      expect(result.lists.get(1)!.closed).toBe(31_800);
    },
  );

  it("pauses between steps, and answers the same whatever the step size", () => {
    const stored = catalogue(5_000);
    const items = [adjust(250, stored), adjust(-100, stored.slice(0, 2_500))];
    const whole = plan(items);
    for (const size of [1, 7, 100, 10_000]) {
      const steps = planChangesInSteps(items, T, size);
      let pauses = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) pauses += 1;
      expect(step.value).toEqual(whole);
      // Each row is looked at and each tier written: at least one pause per `size` of them.
      expect(pauses).toBeGreaterThanOrEqual(Math.floor(15_000 / size));
    }
  });

  it("an adjusted amount past 2^53 − 1 is a ChangeAmountOutOfRange naming the item and tier", () => {
    const big = row("HUGE", 9_000_000_000_000_000, null, null, 10);
    const fine: SelectedItem = {
      ...adjust(100, [row("P-1", 500)]),
      item: { ...adjust(100, []).item, pricelistId: 2 },
    };
    let thrown: unknown;
    try {
      planChanges([fine, adjust(100, [row("P-1", 500), big])], T);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ChangeAmountOutOfRange);
    expect(thrown).toMatchObject({ item: 1, productCode: "HUGE", minQuantity: 10 });
  });
});

describe("flat amounts of GRADUATED rows (docs/pricing-rules.md §29)", () => {
  it("ADJUST_PRICES adjusts a flat amount like the amount, half up, with no ending", () => {
    const stored = [{ ...row("P-G", 80, null, null, 50), flatAmount: 333 }];
    // 80 + 10 % = 88 → 89 (UP to …9); 333 + 10 % = 366.3 → 366, no ending.
    expect(plan([adjust(1000, stored)]).tiers).toEqual([
      {
        pricelistId: 1,
        productCode: "P-G",
        minQuantity: 50,
        amount: 89,
        priceUnit: 1,
        flatAmount: 366,
      },
    ]);
  });

  it("SET_PRICES keeps the flat amount in force unless the row names one", () => {
    const stored = [{ ...row("P-G", 80, null, null, 50), flatAmount: 500 }];
    const set = (extra: object): SelectedItem => ({
      item: {
        kind: "SET_PRICES",
        pricelistId: 1,
        rows: [{ productCode: "P-G", minQuantity: 50, amount: 75, priceUnit: 1, ...extra }],
      },
      rows: stored,
    });
    expect(plan([set({})]).tiers[0]?.flatAmount).toBe(500);
    expect(plan([set({ flatAmount: 0 })]).tiers[0]?.flatAmount).toBe(0);
  });
});
