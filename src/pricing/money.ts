/**
 * Integer money arithmetic. Amounts are minor units, percentages basis points; no value here
 * ever goes through a fraction, so results are exact for every safe integer.
 */

const MAX = Number.MAX_SAFE_INTEGER;

/** Raised when a result would leave the range JSON numbers hold exactly; the line reports OUT_OF_RANGE. */
export class AmountOutOfRange extends Error {
  constructor() {
    super("amount exceeds 2^53 - 1 minor units");
  }
}

function checked(value: number): number {
  if (value > MAX || value < -MAX) throw new AmountOutOfRange();
  return value;
}

/** Exact floor(n / 10000) for a non-negative safe integer: the remainder is exact in doubles. */
const div10k = (n: number) => (n - (n % 10_000)) / 10_000;

/**
 * round(amount × bp / 10000), half up on the magnitude (docs/pricing-rules.md §6), so −19.25 → −19 and
 * 27.5 → 28. Switches to BigInt only when amount × bp could exceed 2^53.
 */
export function percentOf(amount: number, bp: number): number {
  const sign = amount < 0 !== bp < 0 ? -1 : 1;
  const a = Math.abs(amount);
  const b = Math.abs(bp);
  let magnitude: number;
  // A double product of integers is exact whenever the true product is safe, and rounding is
  // monotonic, so this test is exact too.
  if (a * b <= MAX - 5_000) {
    magnitude = div10k(a * b + 5_000);
  } else {
    magnitude = checked(Number((BigInt(a) * BigInt(b) + 5_000n) / 10_000n));
  }
  return magnitude === 0 ? 0 : sign * magnitude;
}

/** a + b, refusing results that are no longer exact. */
export const add = (a: number, b: number): number => checked(a + b);

/** unit × quantity; a double product of two integers is exact whenever the true product is safe. */
export const times = (unit: number, quantity: number): number => checked(unit * quantity);

/** −x without producing −0 (which would make equal answers compare unequal). */
export const negate = (x: number): number => (x === 0 ? 0 : -x);

export const clamp = (value: number, low: number, high: number): number =>
  value < low ? low : value > high ? high : value;
