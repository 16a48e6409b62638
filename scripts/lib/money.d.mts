// The types of money.mjs for the Worker tests (tsconfig.json has no allowJs), emitted from its JSDoc:
// npx tsc --allowJs --declaration --emitDeclarationOnly --skipLibCheck --target ES2022 --module ES2022
//   --moduleResolution bundler --outDir scripts/lib scripts/lib/{csv,money,csv-kinds,csv-engine,csv-http}.mjs
// then prettier. Regenerate when its exports change; this header is kept by hand.

/**
 * @param {string} currency ISO 4217 code
 * @returns {{ digits: number, known: boolean }} `known: false` = in neither table, 2 assumed
 */
export function minorDigits(currency: string): {
  digits: number;
  known: boolean;
};
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
/**
 * Minor-unit digits of the ISO 4217 currencies that do not have 2 (ISO 4217 list, 2024). Every
 * other code is taken to have 2 — the ISO default; for a code in neither this table nor the
 * common ones below, the tools say that they assume it.
 */
export const MINOR_DIGITS_EXCEPTIONS: Readonly<{
  BIF: 0;
  CLP: 0;
  DJF: 0;
  GNF: 0;
  ISK: 0;
  JPY: 0;
  KMF: 0;
  KRW: 0;
  PYG: 0;
  RWF: 0;
  UGX: 0;
  UYI: 0;
  VND: 0;
  VUV: 0;
  XAF: 0;
  XOF: 0;
  XPF: 0;
  BHD: 3;
  IQD: 3;
  JOD: 3;
  KWD: 3;
  LYD: 3;
  OMR: 3;
  TND: 3;
  CLF: 4;
  UYW: 4;
}>;
export const DEFAULT_MINOR_DIGITS: 2;
/** The largest amount the API accepts (and JavaScript numbers hold exactly): 2^53 − 1. */
export const MAX_AMOUNT: number;
