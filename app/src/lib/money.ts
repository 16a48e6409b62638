import { minorToDecimal } from "../../../scripts/lib/money.mjs";
import { exponentOf } from "../../../src/pricing/currencies";

/**
 * Amounts are integer minor units everywhere in the API. The page never computes with them as
 * floats: an amount becomes an exact decimal string with its currency's ISO 4217 exponent and
 * Intl formats that string, which it does exactly. The exponents are the service's own table
 * (src/pricing/currencies.ts, the one GET /v1/api/currencies answers), bundled into the page at
 * build time (docs/app.md §3).
 */
const formatters = new Map<string, Intl.NumberFormat>();

function formatterOf(currency: string, digits: number, signed: boolean): Intl.NumberFormat {
  const id = `${currency}:${digits}:${signed}`;
  let formatter = formatters.get(id);
  if (!formatter) {
    formatter = new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      signDisplay: signed ? "exceptZero" : "auto",
    });
    formatters.set(id, formatter);
  }
  return formatter;
}

/** 39100, "EUR" → "€391.00" (in the browser's locale); null → "–". */
export function formatMoney(amount: number | null, currency: string, signed = false): string {
  if (amount === null) return "–";
  // Every currency the API answers has an exponent; 2 is ISO 4217's usual one, for safety only.
  const digits = exponentOf(currency) ?? 2;
  const decimal = minorToDecimal(amount, digits) as Intl.StringNumericLiteral;
  return formatterOf(currency, digits, signed).format(decimal);
}

const percent = new Intl.NumberFormat(undefined, {
  style: "percent",
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
  signDisplay: "auto",
});
const signedPercent = new Intl.NumberFormat(undefined, {
  style: "percent",
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
  signDisplay: "exceptZero",
});

/** Basis points as a percentage: 250 → "2.5%", exactly (250 bp = the decimal 0.0250). */
export function formatBp(bp: number | null, signed = false): string {
  if (bp === null) return "–";
  const decimal = minorToDecimal(bp, 4) as Intl.StringNumericLiteral;
  return (signed ? signedPercent : percent).format(decimal);
}

const counts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

/** A number of pieces: 1000 → "1,000" (in the browser's locale). */
export const formatCount = (n: number): string => counts.format(n);

/**
 * An amount with its price unit when that is not 1 (docs/pricing-rules.md §20): 1250 per 1000
 * EUR → "€12.50 per 1,000".
 */
export function formatPer(amount: number | null, currency: string, priceUnit: number | null) {
  const money = formatMoney(amount, currency);
  return amount === null || priceUnit === null || priceUnit === 1
    ? money
    : `${money} per ${formatCount(priceUnit)}`;
}
