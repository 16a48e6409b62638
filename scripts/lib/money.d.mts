// The types of money.mjs for the Worker tests (tsconfig.json has no allowJs), emitted from its JSDoc:
// npx tsc --allowJs --declaration --emitDeclarationOnly --skipLibCheck --target ES2022 --module ES2022
//   --moduleResolution bundler --outDir scripts/lib scripts/lib/{csv,money,csv-kinds,csv-engine,csv-http}.mjs
// then prettier. Regenerate when its exports change; this header is kept by hand.

/**
 * A non-negative decimal string ("12.34", "12", "0.5") as an integer number of minor units.
 * Extra fraction digits are accepted only when they are zeros ("12.340" is 1234 for EUR: exact),
 * anything that would need rounding is refused.
 * @param {string} text
 * @param {number} digits minor-unit digits of the currency
 * @param {string} [currency] for the messages
 * @returns {{ ok: true, value: number } | { ok: false, error: string }}
 */
export function decimalToMinor(
  text: string,
  digits: number,
  currency?: string,
):
  | {
      ok: true;
      value: number;
    }
  | {
      ok: false;
      error: string;
    };
/**
 * Integer minor units as a decimal string with exactly `digits` decimals (1234, 2 → "12.34").
 * @param {number} amount a safe integer
 * @param {number} digits
 */
export function minorToDecimal(amount: number, digits: number): string;
/**
 * Decimal amounts ⇄ integer minor units, exactly: the decimal string is split and joined as
 * digits (integer arithmetic only, BigInt for the range check), never parsed as a float, so
 * `0.29` is 29 cents and not 28.999….
 */
/** The largest amount the API accepts (and JavaScript numbers hold exactly): 2^53 − 1. */
export const MAX_AMOUNT: number;
