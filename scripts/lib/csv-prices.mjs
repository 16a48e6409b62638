/**
 * The price CSV of `npm run prices:import` / `prices:export`, pure (no Node APIs):
 *
 *   productCode,minQuantity,amount
 *   P-A,1,12.50
 *   P-A,10,11.00
 *
 * A header is required; its columns may come in any order (names case-insensitive). `amount` is
 * a decimal in the pricelist's currency, converted exactly to minor units; an empty `minQuantity`
 * means 1. Rows are checked here as the API would check them, so a bad row is named by its line
 * before anything is sent; what only the service knows (unknown products) comes back in the 400 of
 * a chunk and is mapped to lines with `rejectedLines`.
 */
import { decimalToMinor, minorToDecimal } from "./money.mjs";

export const COLUMNS = /** @type {const} */ (["productCode", "minQuantity", "amount"]);

/** The API's code rule (docs/api.md §1): 1-64 of A-Z a-z 0-9 . _ - */
const CODE = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * @typedef {{ productCode: number, minQuantity: number, amount: number, width: number }} Columns
 * @typedef {{ productCode: string, minQuantity: number, amount: number }} PriceRow
 * @typedef {{ line: number, reason: string }} Rejection
 */

/**
 * Where each column is, from the header record.
 * @param {string[]} fields
 * @returns {{ ok: true, columns: Columns } | { ok: false, error: string }}
 */
export function readHeader(fields) {
  const names = fields.map((f) => f.trim().toLowerCase());
  const expected = COLUMNS.join(",");
  if (fields.length === 1 && /[;\t]/.test(fields[0] ?? ""))
    return {
      ok: false,
      error: `the header must be ${expected}, separated by commas (this file uses semicolons or tabs)`,
    };
  const unknown = fields.filter((_, i) => !COLUMNS.some((c) => c.toLowerCase() === names[i]));
  const missing = COLUMNS.filter((c) => !names.includes(c.toLowerCase()));
  const repeated = COLUMNS.filter((c) => names.filter((n) => n === c.toLowerCase()).length > 1);
  if (unknown.length || missing.length || repeated.length) {
    const problems = [
      missing.length ? `missing ${missing.join(", ")}` : "",
      unknown.length ? `unknown ${unknown.map((u) => JSON.stringify(u)).join(", ")}` : "",
      repeated.length ? `repeated ${repeated.join(", ")}` : "",
    ].filter(Boolean);
    return { ok: false, error: `the header must be ${expected} (${problems.join("; ")})` };
  }
  const at = (/** @type {string} */ c) => names.indexOf(c.toLowerCase());
  return {
    ok: true,
    columns: {
      productCode: at("productCode"),
      minQuantity: at("minQuantity"),
      amount: at("amount"),
      width: fields.length,
    },
  };
}

/**
 * One data record as the API's price input.
 * @param {string[]} fields
 * @param {Columns} columns
 * @param {{ digits: number, currency: string }} money
 * @returns {{ ok: true, row: PriceRow } | { ok: false, error: string }}
 */
export function readPriceRow(fields, columns, money) {
  if (fields.length !== columns.width)
    return { ok: false, error: `expected ${columns.width} fields, found ${fields.length}` };
  const code = (fields[columns.productCode] ?? "").trim();
  const quantity = (fields[columns.minQuantity] ?? "").trim();
  const errors = [];
  if (!CODE.test(code))
    errors.push(
      code === ""
        ? "productCode is empty"
        : `productCode ${JSON.stringify(code)} is not a code (1-64 of A-Z a-z 0-9 . _ -)`,
    );
  let minQuantity = 1;
  if (quantity !== "") {
    minQuantity = /^\d{1,16}$/.test(quantity) ? Number(quantity) : NaN;
    if (!(minQuantity >= 1 && Number.isSafeInteger(minQuantity))) {
      errors.push(`minQuantity ${JSON.stringify(quantity)} is not a whole number >= 1`);
    }
  }
  const amount = decimalToMinor(fields[columns.amount] ?? "", money.digits, money.currency);
  if (!amount.ok) errors.push(amount.error);
  if (errors.length || !amount.ok) return { ok: false, error: errors.join("; ") };
  return { ok: true, row: { productCode: code, minQuantity, amount: amount.value } };
}

/**
 * Remembers each (productCode, minQuantity) of the file, so a repeated tier is refused whichever
 * chunk it falls into (the API refuses repeats inside one body; across bodies the last would win
 * silently).
 */
export function createTierTracker() {
  /** @type {Map<string, number>} */
  const first = new Map();
  return {
    /**
     * @param {PriceRow} row
     * @param {number} line
     * @returns {number | undefined} the earlier line with the same tier, if any
     */
    see(row, line) {
      const key = `${row.productCode}\u0000${row.minQuantity}`;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, line);
      return earlier;
    },
  };
}

/**
 * Maps the issues of a 400 for one chunk back to CSV lines: `body.prices.17.productCode` is the
 * 18th row of the chunk, i.e. `lines[17]`. Issues that name no row (`body.prices`, a summary)
 * are returned apart.
 * @param {{ path?: unknown, message?: unknown }[]} errors the `errors` of the problem body
 * @param {readonly number[]} lines CSV line of each row of the chunk, in body order
 * @returns {{ byLine: Map<number, string[]>, unmapped: string[] }}
 */
export function rejectedLines(errors, lines) {
  /** @type {Map<number, string[]>} */
  const byLine = new Map();
  /** @type {string[]} */
  const unmapped = [];
  for (const issue of errors) {
    const path = String(issue.path ?? "");
    const message = String(issue.message ?? "");
    const m = /^body\.prices\.(\d+)(?:\.(.+))?$/.exec(path);
    const line = m ? lines[Number(m[1])] : undefined;
    if (line === undefined) {
      unmapped.push(path ? `${path}: ${message}` : message);
      continue;
    }
    const text = m?.[2] ? `${m[2]}: ${message}` : message;
    byLine.set(line, [...(byLine.get(line) ?? []), text]);
  }
  return { byLine, unmapped };
}

/**
 * One exported price as a CSV line's values.
 * @param {PriceRow} price
 * @param {number} digits
 * @returns {[string, number, string]}
 */
export const priceRecord = (price, digits) => [
  price.productCode,
  price.minQuantity,
  minorToDecimal(price.amount, digits),
];
