import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convert, exponentOf, parseRate, roundHalfUp, type Rational } from "../../src/pricing";

/**
 * The exact arithmetic of exchange rates (src/pricing/exchange.ts; pricing rules v3 §3.2, §3.3):
 * rates parsed from decimal text, conversions as BigInt rationals, one rounding half up. The
 * properties hold it against a reference that works on the decimal digits as text.
 */

const RUNS = { seed: 24, numRuns: 500 };

const rational = (numerator: bigint, denominator: bigint): Rational => ({
  numerator,
  denominator,
});
const same = (a: Rational, b: Rational) =>
  a.numerator * b.denominator === b.numerator * a.denominator;
const valueOf = (text: string) => {
  const rate = parseRate(text);
  if (!rate.ok) throw new Error(`${text}: ${rate.message}`);
  return rate.value;
};

describe("parseRate", () => {
  it.each([
    ["0.92", "0.92", 92n, 100n],
    ["150.25", "150.25", 15025n, 100n],
    ["0.3075", "0.3075", 3075n, 10000n],
    ["2", "2", 2n, 1n],
    ["2.0", "2", 2n, 1n],
    ["000.9200", "0.92", 92n, 100n],
    ["1000", "1000", 1000n, 1n],
    ["0.000000000125", "0.000000000125", 125n, 10n ** 12n],
    ["123456789012", "123456789012", 123456789012n, 1n],
    ["1234567.89012", "1234567.89012", 123456789012n, 100000n],
  ])("%s is %s", (text, normal, numerator, denominator) => {
    const rate = parseRate(text);
    expect(rate).toEqual({ ok: true, text: normal, value: rational(numerator, denominator) });
  });

  const FORMAT =
    'must be a decimal number written with digits and at most one decimal point, such as "0.92" (no sign, exponent, spaces or thousands separators)';
  it.each([
    ["0", "must be greater than 0"],
    ["0.000", "must be greater than 0"],
    ["-0.92", "must be greater than 0"],
    ["1234567890123", "has 13 significant digits; at most 12 are allowed"],
    ["0.92000000000000003552", "has 20 significant digits; at most 12 are allowed"],
    ["1.0000000000001", "has 14 significant digits; at most 12 are allowed"],
    ["0." + "0".repeat(30) + "1", "must be at most 32 characters"],
    ["", FORMAT],
    [".92", FORMAT],
    ["92.", FORMAT],
    ["+0.92", FORMAT],
    ["9.2e-1", FORMAT],
    ["0,92", FORMAT],
    [" 0.92", FORMAT],
    ["1,000.5", FORMAT],
    ["0.9.2", FORMAT],
    ["NaN", FORMAT],
    ["١٫٥", FORMAT],
  ])("refuses %j: %s", (text, message) => {
    expect(parseRate(text)).toEqual({ ok: false, message });
  });

  it("gives one normal text per value, whatever zeros pad it", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 999_999_999_999n }),
        fc.nat({ max: 12 }),
        fc.nat({ max: 3 }),
        fc.nat({ max: 3 }),
        (digits, scale, leading, trailing) => {
          const text = digits.toString().padStart(scale + 1, "0");
          const whole = text.slice(0, text.length - scale);
          const fraction = text.slice(text.length - scale);
          const padded = "0".repeat(leading) + whole + "." + fraction + "0".repeat(trailing);
          const plain = scale ? `${whole}.${fraction}` : whole;
          const a = parseRate(padded.endsWith(".") ? padded.slice(0, -1) : padded);
          const b = parseRate(plain);
          expect(a.ok && b.ok).toBe(true);
          if (!a.ok || !b.ok) return;
          expect(a.text).toBe(b.text);
          expect(same(a.value, rational(digits, 10n ** BigInt(scale)))).toBe(true);
          // The normal text parses to itself.
          expect(parseRate(a.text)).toEqual(a);
        },
      ),
      RUNS,
    );
  });
});

describe("roundHalfUp", () => {
  it.each([
    [15025n, 10n, 1503n], // 1502.5
    [15024n, 10n, 1502n],
    [15026n, 10n, 1503n],
    [-195n, 10n, -20n], // halves away from zero, as the engine rounds
    [-194n, 10n, -19n],
    [0n, 7n, 0n],
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [-1n, 2n, -1n],
    [10n ** 30n + 1n, 2n, 5n * 10n ** 29n + 1n],
  ])("%d / %d → %d", (numerator, denominator, expected) => {
    expect(roundHalfUp(rational(numerator, denominator))).toBe(expected);
  });

  it("refuses a denominator that is not positive", () => {
    expect(() => roundHalfUp(rational(1n, 0n))).toThrow(RangeError);
  });

  it("is the nearest integer, a tie going away from zero", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        (numerator, denominator) => {
          const rounded = roundHalfUp(rational(numerator, denominator));
          // |n/d − r| ≤ 1/2  ⇔  |2n − 2rd| ≤ d
          const twice = 2n * numerator - 2n * rounded * denominator;
          expect(twice <= denominator && twice >= -denominator).toBe(true);
          if (twice === denominator || twice === -denominator) {
            // A tie: the magnitude went up.
            expect(rounded * rounded * denominator * denominator).toBeGreaterThan(
              numerator * numerator,
            );
          }
        },
      ),
      RUNS,
    );
  });
});

describe("convert (pricing rules v3, worked example B)", () => {
  const USD = exponentOf("USD")!;
  it.each([
    ["EUR", "0.92", 0, 920n],
    ["EUR", "0.90", 0, 900n],
    ["EUR", "0.92", -1000, 828n],
    ["JPY", "150.25", 0, 1503n], // 1502.5
    ["KWD", "0.3075", 0, 3075n],
  ])("1000 USD cents to %s at %s, adjustment %d bp → %d", (to, rate, adjustmentBp, expected) => {
    const exact = convert(1000, USD, exponentOf(to)!, valueOf(rate), adjustmentBp);
    expect(roundHalfUp(exact)).toBe(expected);
  });

  it("keeps the exact value: 1502.5 yen before the rounding", () => {
    const exact = convert(1000, 2, 0, valueOf("150.25"));
    expect(same(exact, rational(15025n, 10n))).toBe(true);
  });

  it("goes down in exponent as exactly as up: 3075 fils at 2 are 615 cents (exponent 3 → 2)", () => {
    const exact = convert(3075, 3, 2, valueOf("2"));
    expect(same(exact, rational(615n, 1n))).toBe(true);
    expect(roundHalfUp(convert(1, 3, 0, valueOf("500")))).toBe(1n); // 0.5 → 1
    expect(roundHalfUp(convert(1, 3, 0, valueOf("499")))).toBe(0n); // 0.499 → 0
  });

  it("takes amounts beyond 2^53 without losing a digit", () => {
    const amount = 2n ** 60n + 1n;
    expect(roundHalfUp(convert(amount, 2, 2, valueOf("1")))).toBe(amount);
  });

  /**
   * The reference: the exact result is a decimal (every denominator is a power of ten), so it is
   * written out as digits and rounded by looking at the first dropped digit.
   */
  function reference(amount: bigint, from: number, to: number, rate: string, bp: number) {
    const [whole, fraction = ""] = rate.split(".");
    const digits = amount * BigInt(whole! + fraction) * BigInt(10_000 + bp);
    let scale = fraction.length + 4 + from - to; // value = digits / 10^scale
    let text = (digits < 0n ? -digits : digits).toString();
    if (scale < 0) {
      text += "0".repeat(-scale);
      scale = 0;
    }
    text = text.padStart(scale + 1, "0");
    const kept = BigInt(text.slice(0, text.length - scale));
    const up = scale > 0 && text[text.length - scale]! >= "5";
    const magnitude = up ? kept + 1n : kept;
    return digits < 0n ? -magnitude : magnitude;
  }

  const rateText = fc
    .tuple(fc.bigInt({ min: 1n, max: 999_999_999_999n }), fc.nat({ max: 14 }))
    .map(([digits, scale]) => {
      const text = digits.toString().padStart(scale + 1, "0");
      return scale ? `${text.slice(0, -scale)}.${text.slice(-scale)}` : text;
    });

  it("agrees with the decimal reference for every amount, rate, pair of exponents and adjustment", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
        fc.constantFrom(0, 2, 3),
        fc.constantFrom(0, 2, 3),
        rateText,
        fc.integer({ min: -10_000, max: 10_000 }),
        (amount, from, to, rate, bp) => {
          const exact = convert(amount, from, to, valueOf(rate), bp);
          expect(roundHalfUp(exact)).toBe(reference(amount, from, to, rate, bp));
        },
      ),
      RUNS,
    );
  });

  it("is the product of its factors: converting there at r and back at 1/r gives the amount", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.constantFrom(0, 2, 3),
        fc.constantFrom(0, 2, 3),
        fc.nat({ max: 6 }),
        (amount, from, to, k) => {
          // 10^k and 10^-k are both rates with a finite decimal.
          const there = convert(amount, from, to, valueOf(`1${"0".repeat(k)}`));
          const back = convert(1, to, from, valueOf(k ? `0.${"0".repeat(k - 1)}1` : "1"));
          const product = rational(
            there.numerator * back.numerator,
            there.denominator * back.denominator,
          );
          expect(same(product, rational(amount, 1n))).toBe(true);
        },
      ),
      RUNS,
    );
  });
});
