import { describe, expect, it } from "vitest";
import { actionsOf, selfApprovalText } from "../../app/src/changes/lifecycle";
import { marginRows } from "../../app/src/changes/margin";
import {
  adjustmentRequestOf,
  amountToMinor,
  emptyAdjustment,
  nextMonthLocal,
  parsePriceRows,
  percentToBp,
  rowsRequestOf,
  withRounding,
} from "../../app/src/changes/request";

/**
 * The Changes page's forms and lifecycle (app/src/changes, docs/app.md §1) as pure functions:
 * what the page sends for a form, and which actions it offers, against the API's rules
 * (docs/api/change-requests.md §17.1, §17.2). The page in a browser: test/browser/app-changes.mjs.
 */

const NOW = Date.parse("2026-11-27T10:00:00Z");

describe("percentages and amounts, exactly", () => {
  it.each([
    ["3", 300],
    ["+3", 300],
    ["-2.5", -250],
    ["+0,75 %", 75],
    ["1000", 100_000],
    ["-99.99", -9999],
  ])("%s %% is %d bp", (text, bp) => {
    expect(percentToBp(text)).toEqual({ ok: true, value: bp });
  });

  it.each([
    ["", "must be a percentage like 3 or -2.5, with at most two decimals"],
    ["3.333", "must be a percentage like 3 or -2.5, with at most two decimals"],
    ["abc", "must be a percentage like 3 or -2.5, with at most two decimals"],
    ["0", "must not be 0: an adjustment of 0 % changes nothing"],
    ["1000.01", "must be from -99.99 % to +1000 %"],
    ["-100", "must be from -99.99 % to +1000 %"],
  ])("%j is refused: %s", (text, error) => {
    expect(percentToBp(text)).toEqual({ ok: false, error });
  });

  it("amounts in the list's currency with its exponent; a decimal comma is read", () => {
    expect(amountToMinor("5.19", "EUR")).toEqual({ ok: true, value: 519 });
    expect(amountToMinor("5,19", "EUR")).toEqual({ ok: true, value: 519 });
    expect(amountToMinor("1503", "JPY")).toEqual({ ok: true, value: 1503 });
    expect(amountToMinor("3.075", "KWD")).toEqual({ ok: true, value: 3075 });
    expect(amountToMinor("1.5", "JPY")).toEqual({
      ok: false,
      error: "amount 1.5 has more decimals than JPY allows (no decimals)",
    });
  });

  it("dates are UTC; the default is the first of next month", () => {
    // ISO 8601, 24-hour, as the field shows it (not the browser's "12/01/2026, 12:00 AM").
    expect(nextMonthLocal(NOW)).toBe("2026-12-01 00:00");
    expect(nextMonthLocal(Date.parse("2026-12-31T23:59:59Z"))).toBe("2027-01-01 00:00");
  });
});

describe("the mass adjustment form", () => {
  const exampleA = {
    ...emptyAdjustment(NOW),
    title: " 2027 increase ",
    pricelistId: "1",
    productGroupCodes: "G",
    percent: "3",
    roundingMode: "UP" as const,
    step: "0.10",
    ending: "0.09",
    effectiveAt: "2027-01-01 00:00",
  };

  it("reads the effective date as UTC, empty as when approved, and names a date that is none", () => {
    const at = (effectiveAt: string) => adjustmentRequestOf({ ...exampleA, effectiveAt }, "EUR");
    expect(at("2027-01-01T00:00")).toMatchObject({
      ok: true,
      request: { effectiveAt: "2027-01-01T00:00:00Z" },
    });
    expect(at("")).toMatchObject({ ok: true, request: { effectiveAt: null } });
    expect(at("01/01/2027, 12:00 AM")).toEqual({
      ok: false,
      problems: [
        "Effective from: type the date and time as YYYY-MM-DD HH:MM (24-hour, UTC), e.g. 2026-12-01 00:00.",
      ],
    });
  });

  it("clears the rounding step and ending when rounding is none, and suggests them again", () => {
    expect(emptyAdjustment(NOW)).toMatchObject({ roundingMode: "", step: "", ending: "" });
    expect(withRounding(exampleA, "")).toEqual({ roundingMode: "", step: "", ending: "" });
    const none = { ...exampleA, roundingMode: "" as const, step: "", ending: "" };
    expect(withRounding(none, "DOWN")).toEqual({
      roundingMode: "DOWN",
      step: "0.10",
      ending: "0.09",
    });
    // What was typed stays when the mode changes from one rounding to another.
    const typed = { ...exampleA, step: "0.05", ending: "" };
    expect(withRounding(typed, "NEAREST")).toEqual({
      roundingMode: "NEAREST",
      step: "0.05",
      ending: "",
    });
    // None sends no rounding, whatever the fields held.
    expect(adjustmentRequestOf({ ...exampleA, roundingMode: "" }, "EUR")).toMatchObject({
      ok: true,
      request: { items: [{ rounding: null }] },
    });
  });

  it("sends worked example A's request (docs/pricing-rules.md §18)", () => {
    expect(adjustmentRequestOf(exampleA, "EUR")).toEqual({
      ok: true,
      request: {
        title: "2027 increase",
        effectiveAt: "2027-01-01T00:00:00Z",
        items: [
          {
            kind: "ADJUST_PRICES",
            pricelistId: 1,
            productGroupCodes: ["G"],
            adjustmentBp: 300,
            rounding: { mode: "UP", step: 10, ending: 9 },
          },
        ],
      },
    });
  });

  it("without groups or products the whole list; without rounding none; empty date: when approved", () => {
    const body = adjustmentRequestOf(
      { ...exampleA, productGroupCodes: "", roundingMode: "", effectiveAt: "" },
      "EUR",
    );
    expect(body).toMatchObject({
      ok: true,
      request: { effectiveAt: null, items: [{ rounding: null }] },
    });
    expect(body.ok && body.request.items[0]).not.toHaveProperty("productGroupCodes");
  });

  it("lists every problem of the form at once", () => {
    expect(
      adjustmentRequestOf(
        { ...exampleA, title: " ", pricelistId: "", percent: "x", step: "0.10", ending: "0.10" },
        "EUR",
      ),
    ).toEqual({
      ok: false,
      problems: [
        "Title: type what the change is.",
        "Pricelist: choose one.",
        "Change: must be a percentage like 3 or -2.5, with at most two decimals.",
        "Price ending: must be less than the rounding step.",
      ],
    });
  });
});

describe("pasted price rows", () => {
  it("reads tabs, semicolons and commas; skips a header; a minimum quantity is optional", () => {
    const text = "product;quantity;price\nP-1\t5.49\nP-2;10;8,99\r\n\nP-3,1,12.00\n";
    expect(parsePriceRows(text, "EUR")).toEqual({
      rows: [
        { productCode: "P-1", minQuantity: 1, amount: 549 },
        { productCode: "P-2", minQuantity: 10, amount: 899 },
        { productCode: "P-3", minQuantity: 1, amount: 1200 },
      ],
      problems: [],
    });
  });

  it("names the line of every problem", () => {
    const text = "P-1;5.49\nP-1;1;5.59\nP 2;1\nP-3;0;1\nP-4;1.234\nP-5";
    expect(parsePriceRows(text, "EUR").problems).toEqual([
      "Line 2: P-1 from 1 is on line 1 already.",
      'Line 3: "P 2" is not a product code.',
      'Line 4: minimum quantity "0" is not a whole number from 1.',
      "Line 5: amount 1.234 has more decimals than EUR allows (at most 2 decimals).",
      "Line 6: needs a product code, an optional minimum quantity and a price.",
    ]);
  });

  it("makes one SET_PRICES item, or says what is missing", () => {
    const form = {
      title: "Two prices",
      pricelistId: "7",
      rows: "P-1\t5.49",
      effectiveAt: "2027-02-01T06:30",
    };
    expect(rowsRequestOf(form, "EUR")).toEqual({
      ok: true,
      request: {
        title: "Two prices",
        effectiveAt: "2027-02-01T06:30:00Z",
        items: [
          {
            kind: "SET_PRICES",
            pricelistId: 7,
            rows: [{ productCode: "P-1", minQuantity: 1, amount: 549 }],
          },
        ],
      },
    });
    expect(rowsRequestOf({ ...form, rows: " \n" }, "EUR")).toEqual({
      ok: false,
      problems: ["Price rows: paste at least one row."],
    });
  });
});

describe("the actions offered (docs/api/change-requests.md §17.2)", () => {
  const at = (status: string, effectiveAt: string | null, appliedAt: string | null = null) =>
    actionsOf({ status: status as never, effectiveAt, appliedAt }, NOW);

  it("by status; a cancel only until the request is in effect", () => {
    expect(at("DRAFT", null)).toEqual(["submit", "withdraw"]);
    expect(at("PENDING_APPROVAL", "2027-01-01T00:00:00.000Z")).toEqual([
      "approve",
      "reject",
      "withdraw",
    ]);
    expect(at("APPLIED", "2027-01-01T00:00:00.000Z")).toEqual(["cancel"]);
    expect(at("APPLIED", "2026-11-01T00:00:00.000Z")).toEqual([]);
    expect(at("APPLIED", null, "2026-11-27T09:00:00.000Z")).toEqual([]);
    expect(at("REJECTED", null)).toEqual([]);
    expect(at("CANCELLED", null)).toEqual([]);
  });

  it("tells a key that wrote a pending request that another must approve it", () => {
    const request = {
      status: "PENDING_APPROVAL" as const,
      writtenByCaller: true,
      writers: ["anna"],
    };
    expect(selfApprovalText(request)).toBe(
      "You cannot approve this request: the owner of the key you are signed in with wrote it " +
        "(written by anna), and a change needs a second person. An admin key of another owner " +
        "must approve it.",
    );
    expect(selfApprovalText({ ...request, writtenByCaller: false })).toBeNull();
    expect(selfApprovalText({ ...request, status: "DRAFT" })).toBeNull();
  });
});

describe("the impact's margin on the page (docs/api/change-requests.md §17.3)", () => {
  const format = (n: number) => `${n} ct`;
  const side = (revenue: number | null, margin: number | null, bp: number | null) => ({
    lines: 2,
    linesWithoutCost: 1,
    revenueAmount: revenue,
    costAmount: revenue === null ? null : 1100,
    marginAmount: margin,
    marginBp: bp,
  });

  it("before and after: margin, its basis points and the revenue; the lines left out", () => {
    const rows = marginRows(
      { before: side(1500, 400, 2667), after: side(1558, 458, 2940) },
      format,
    );
    expect(rows).toEqual([
      { label: "Margin before", field: "marginBefore", value: "400 ct (26.67%) on 1500 ct" },
      { label: "Margin after", field: "marginAfter", value: "458 ct (29.4%) on 1558 ct" },
      {
        label: "Prices without a cost (left out)",
        field: "linesWithoutCost",
        value: "1 before, 1 after",
      },
    ]);
  });

  it("a sum past 2^53 − 1 is a dash; no cost, or an impact stored without margin, says so", () => {
    const [before] = marginRows({ before: side(null, null, null), after: side(1, 1, 1) }, format);
    expect(before!.value).toBe("– (–) on –");
    const none = { ...side(0, 0, null), lines: 0 };
    expect(marginRows({ before: none, after: none }, format)).toEqual([
      {
        label: "Margin",
        field: "margin",
        value: "no cost: no COST pricelist of these channels has a cost for these prices",
      },
    ]);
    expect(marginRows(undefined, format)[0]!.value).toMatch(/^not reported/);
  });
});
