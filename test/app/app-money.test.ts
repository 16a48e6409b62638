import { describe, expect, it } from "vitest";
import { formatCount, formatMoney, formatPer } from "../../app/src/lib/money";

/**
 * The back office formats amounts by each currency's ISO 4217 exponent (app/src/lib/money.ts,
 * docs/app.md §3): integer minor units to an exact decimal, never through a float. The Workers
 * runtime formats in en-US, as the browser check's page does (a no-break space after a code).
 */
describe("formatMoney: minor units by the currency's exponent", () => {
  it.each([
    [39100, "EUR", "€391.00"],
    [1503, "JPY", "¥1,503"],
    [3075, "KWD", "KWD\u00a03.075"],
    [5, "BHD", "BHD\u00a00.005"],
    [1230, "CHF", "CHF\u00a012.30"],
    [-19, "EUR", "-€0.19"],
    // Past 2^53 / 100 a float would lose cents; the decimal text keeps them.
    [Number.MAX_SAFE_INTEGER, "EUR", "€90,071,992,547,409.91"],
  ])("%i %s → %s", (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });

  it("signs a change, and shows none for null", () => {
    expect(formatMoney(25, "EUR", true)).toBe("+€0.25");
    expect(formatMoney(null, "JPY")).toBe("–");
  });

  it("says the price unit when it is not 1 (docs/pricing-rules.md §20)", () => {
    expect(formatPer(1250, "EUR", 1000)).toBe("€12.50 per 1,000");
    expect(formatPer(1250, "EUR", 1)).toBe("€12.50");
    expect(formatPer(1503, "JPY", 100)).toBe("¥1,503 per 100");
    expect(formatCount(10_000)).toBe("10,000");
  });
});
