import type { ChannelRoundingMode } from "./vocabulary";

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

/**
 * Whether a quotient goes up by one in `mode` (docs/pricing-rules.md §21), on a magnitude, from
 * the comparison of twice its remainder (≠ 0) with the divisor (−1 below a half, 0 a half, 1
 * above) and whether it is odd: HALF_UP from a half, HALF_EVEN past a half or at a half when odd,
 * UP always, DOWN never.
 */
function roundsUp(half: number, odd: boolean, mode: ChannelRoundingMode): boolean {
  if (mode === "UP") return true;
  if (mode === "DOWN") return false;
  return half > 0 || (half === 0 && (mode === "HALF_UP" || odd));
}

/**
 * round(amount × multiplier / divisor) in `mode`, on the magnitude (a negative amount rounds as
 * its magnitude does, then takes its sign back): the one rounding of the engine. `multiplier` and
 * `divisor` are positive safe integers, `divisor` ≥ 1. Doubles while the product is exact, else
 * BigInt; the result must be a safe integer (AmountOutOfRange).
 */
export function scale(
  amount: number,
  multiplier: number,
  divisor: number,
  mode: ChannelRoundingMode = "HALF_UP",
): number {
  const a = Math.abs(amount);
  let magnitude: number;
  const product = a * multiplier;
  // A double product of integers is exact whenever the true product is safe.
  if (product <= MAX) {
    const r = product % divisor;
    const q = (product - r) / divisor;
    const half = Math.sign(2 * r - divisor);
    magnitude = r !== 0 && roundsUp(half, q % 2 === 1, mode) ? q + 1 : q;
  } else {
    const p = BigInt(a) * BigInt(multiplier);
    const d = BigInt(divisor);
    const q = p / d;
    const r = p % d;
    const half = 2n * r > d ? 1 : 2n * r === d ? 0 : -1;
    magnitude = checked(Number(r !== 0n && roundsUp(half, q % 2n === 1n, mode) ? q + 1n : q));
  }
  return magnitude === 0 ? 0 : amount < 0 ? -magnitude : magnitude;
}

/**
 * round(amount × bp / 10000) on the magnitude (docs/pricing-rules.md §6): half up unless the
 * channel says otherwise (§21), so −19.25 → −19 and 27.5 → 28 (HALF_EVEN: 28, DOWN: 27, UP: 28).
 */
export function percentOf(amount: number, bp: number, mode: ChannelRoundingMode = "HALF_UP") {
  const magnitude = scale(Math.abs(amount), Math.abs(bp), 10_000, mode);
  return amount < 0 !== bp < 0 ? negate(magnitude) : magnitude;
}

/** a + b, refusing results that are no longer exact. */
export const add = (a: number, b: number): number => checked(a + b);

/** unit × quantity; a double product of two integers is exact whenever the true product is safe. */
export const times = (unit: number, quantity: number): number => checked(unit * quantity);

/** −x without producing −0 (which would make equal answers compare unequal). */
export const negate = (x: number): number => (x === 0 ? 0 : -x);

export const clamp = (value: number, low: number, high: number): number =>
  value < low ? low : value > high ? high : value;
