/**
 * Decimal amounts ⇄ integer minor units, exactly: the decimal string is split and joined as
 * digits (integer arithmetic only, BigInt for the range check), never parsed as a float, so
 * `0.29` is 29 cents and not 28.999….
 */

/*
 * The digits of each currency's minor unit are not kept here: the tools ask the service
 * (GET /v1/api/currencies, src/pricing/currencies.ts holds the one table) and the page /app
 * bundles the service's table, so a table of exponents exists once.
 */

/** The largest amount the API accepts (and JavaScript numbers hold exactly): 2^53 − 1. */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * A non-negative decimal string ("12.34", "12", "0.5") as an integer number of minor units.
 * Extra fraction digits are accepted only when they are zeros ("12.340" is 1234 for EUR: exact),
 * anything that would need rounding is refused.
 * @param {string} text
 * @param {number} digits minor-unit digits of the currency
 * @param {string} [currency] for the messages
 * @returns {{ ok: true, value: number } | { ok: false, error: string }}
 */
export function decimalToMinor(text, digits, currency = "the currency") {
  const value = text.trim();
  if (value === "") return { ok: false, error: "amount is empty" };
  const m = DECIMAL.exec(value);
  if (!m) {
    if (value.startsWith("-")) return { ok: false, error: `amount ${value} is negative` };
    if (/^\d+,\d+$/.test(value))
      return { ok: false, error: `amount ${value}: use a dot as the decimal separator` };
    return { ok: false, error: `amount ${value} is not a decimal number like 12.34` };
  }
  const whole = /** @type {string} */ (m[1]);
  const fraction = m[2] ?? "";
  const kept = fraction.slice(0, digits);
  if (/[^0]/.test(fraction.slice(digits))) {
    const allowed = digits === 0 ? "no decimals" : `at most ${digits} decimals`;
    return {
      ok: false,
      error: `amount ${value} has more decimals than ${currency} allows (${allowed})`,
    };
  }
  const minor = BigInt(whole + kept.padEnd(digits, "0"));
  if (minor > BigInt(MAX_AMOUNT))
    return { ok: false, error: `amount ${value} is too large (at most 2^53-1 minor units)` };
  return { ok: true, value: Number(minor) };
}

/**
 * Integer minor units as a decimal string with exactly `digits` decimals (1234, 2 → "12.34").
 * @param {number} amount a safe integer
 * @param {number} digits
 */
export function minorToDecimal(amount, digits) {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not a safe integer: ${amount}`);
  const sign = amount < 0 ? "-" : "";
  const units = String(Math.abs(amount));
  if (digits === 0) return sign + units;
  const padded = units.padStart(digits + 1, "0");
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}
