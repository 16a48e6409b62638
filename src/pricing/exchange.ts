/**
 * Exchange rates as exact numbers (docs/api/prices.md §16.2). A rate is a
 * decimal string, never a float: "0.92" is exactly 92/100. A conversion multiplies an amount in
 * minor units by the rate, by 10^(exponent of the target − exponent of the source) and by an
 * adjustment in basis points, all as a BigInt rational, and rounds once at the end. Nothing here
 * passes through a JavaScript number between the rate and the rounded amount.
 */

import { exponentOf } from "./currencies";
import type { ExchangeRate, ExchangeRateUsed, Instant } from "./types";

/** An exact rational numerator / denominator; the denominator is always positive. */
export interface Rational {
  numerator: bigint;
  denominator: bigint;
}

/** The most significant digits a rate may have (docs/api/prices.md §16.2). */
export const MAX_RATE_DIGITS = 12;

/** The longest rate text accepted, so a rate's size stays bounded whatever its zeros. */
export const MAX_RATE_LENGTH = 32;

/** A parsed rate: its normal text (as stored and answered) and its exact value. */
export interface Rate {
  text: string;
  value: Rational;
}

export type RateParse = ({ ok: true } & Rate) | { ok: false; message: string };

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

const refused = (message: string): RateParse => ({ ok: false, message });

/**
 * A rate from its decimal text: digits with at most one decimal point and digits on both sides
 * ("0.92", "150.25", "2"); greater than 0; at most MAX_RATE_DIGITS significant digits, counted
 * from the first non-zero digit to the last non-zero one ("0.000125" has 3, "1000" has 1). The
 * normal text drops leading zeros of the whole part and trailing zeros of the fraction
 * ("000.9200" → "0.92", "2.0" → "2"), so one value has one text.
 */
export function parseRate(text: string): RateParse {
  if (text.length > MAX_RATE_LENGTH) {
    return refused(`must be at most ${MAX_RATE_LENGTH} characters`);
  }
  const match = DECIMAL.exec(text);
  if (!match) {
    return refused(
      /^\s*-/.test(text)
        ? "must be greater than 0"
        : 'must be a decimal number written with digits and at most one decimal point, such as "0.92" (no sign, exponent, spaces or thousands separators)',
    );
  }
  const whole = match[1]!.replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  const significant = (whole + fraction).replace(/^0+/, "").replace(/0+$/, "");
  if (significant === "") return refused("must be greater than 0");
  if (significant.length > MAX_RATE_DIGITS) {
    return refused(
      `has ${significant.length} significant digits; at most ${MAX_RATE_DIGITS} are allowed`,
    );
  }
  return {
    ok: true,
    text: fraction ? `${whole}.${fraction}` : whole,
    value: {
      numerator: BigInt(whole + fraction),
      denominator: 10n ** BigInt(fraction.length),
    },
  };
}

const power10 = (exponent: number) => 10n ** BigInt(exponent);

/**
 * amount × rate × 10^(toExponent − fromExponent) × (10000 + adjustmentBp) / 10000, exactly: the
 * unrounded amount in the target currency's minor units (docs/api/prices.md §16.2). `amountMinor`
 * is in the source currency's minor units; the exponents are the currencies' ISO 4217 exponents
 * (src/pricing/currencies.ts).
 */
export function convert(
  amountMinor: number | bigint,
  fromExponent: number,
  toExponent: number,
  rate: Rational,
  adjustmentBp = 0,
): Rational {
  const shift = toExponent - fromExponent;
  return {
    numerator:
      BigInt(amountMinor) *
      rate.numerator *
      BigInt(10_000 + adjustmentBp) *
      (shift > 0 ? power10(shift) : 1n),
    denominator: rate.denominator * 10_000n * (shift < 0 ? power10(-shift) : 1n),
  };
}

/**
 * The nearest integer to a rational, halves away from zero (half up on the magnitude, as every
 * rounding of the engine: 1502.5 → 1503, −19.5 → −20; docs/pricing-rules.md §6).
 */
export function roundHalfUp({ numerator, denominator }: Rational): bigint {
  if (denominator <= 0n) throw new RangeError("a rational's denominator must be positive");
  const magnitude = numerator < 0n ? -numerator : numerator;
  // floor((2|n| + d) / 2d) = floor(|n|/d + 1/2): BigInt division truncates, exact for non-negatives.
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return numerator < 0n ? -rounded : rounded;
}

/** A rate in force, ready to convert with: its answer form and its exact value. */
export interface Conversion {
  used: ExchangeRateUsed;
  value: Rational;
  fromExponent: number;
  toExponent: number;
}

interface Pair {
  /** The rate with the latest validFrom ≤ at, if any (and parseable, between known currencies). */
  inForce: Conversion | undefined;
  /** The earliest validFrom after `at`: where the pair's rate changes next; null: none. */
  next: Instant | null;
}

const pairKey = (from: string, to: string) => `${from}>${to}`;

/**
 * A request's rates at `at` (docs/pricing-rules.md §19): per pair, the rate in force (the latest
 * validFrom ≤ at) and where the next one starts. Each rate text is parsed once per request; one
 * that does not parse, or a currency without a known exponent, counts as no rate.
 */
export class RatesAt {
  private readonly pairs = new Map<string, Pair>();

  constructor(rates: readonly ExchangeRate[], at: Instant) {
    const latest = new Map<string, ExchangeRate>();
    for (const rate of rates) {
      const key = pairKey(rate.from, rate.to);
      let pair = this.pairs.get(key);
      if (!pair) this.pairs.set(key, (pair = { inForce: undefined, next: null }));
      if (rate.validFrom > at) {
        if (pair.next === null || rate.validFrom < pair.next) pair.next = rate.validFrom;
        continue;
      }
      const seen = latest.get(key);
      if (!seen || rate.validFrom > seen.validFrom) latest.set(key, rate);
    }
    for (const [key, rate] of latest) this.pairs.get(key)!.inForce = conversionOf(rate);
  }

  /** The rate of `from` → `to` in force, or undefined. */
  inForce(from: string, to: string): Conversion | undefined {
    return this.pairs.get(pairKey(from, to))?.inForce;
  }

  /** Where the rate of `from` → `to` changes next, for `validUntil`; null: never. */
  nextChange(from: string, to: string): Instant | null {
    return this.pairs.get(pairKey(from, to))?.next ?? null;
  }
}

function conversionOf(rate: ExchangeRate): Conversion | undefined {
  const parsed = parseRate(rate.rate);
  const fromExponent = exponentOf(rate.from);
  const toExponent = exponentOf(rate.to);
  if (!parsed.ok || fromExponent === undefined || toExponent === undefined) return undefined;
  return {
    used: {
      from: rate.from,
      to: rate.to,
      rate: parsed.text,
      validFrom: new Date(rate.validFrom).toISOString(),
    },
    value: parsed.value,
    fromExponent,
    toExponent,
  };
}
