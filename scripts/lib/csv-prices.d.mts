// The types of csv-prices.mjs for the Worker tests (tsconfig.json has no allowJs), emitted from its JSDoc:
// npx tsc --allowJs --declaration --emitDeclarationOnly --skipLibCheck --target ES2022 --module ES2022
//   --moduleResolution bundler --outDir scripts/lib scripts/lib/{csv,money,csv-prices}.mjs
// then prettier. Regenerate when its exports change; this header is kept by hand.

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
export function readHeader(fields: string[]):
  | {
      ok: true;
      columns: Columns;
    }
  | {
      ok: false;
      error: string;
    };
/**
 * One data record as the API's price input.
 * @param {string[]} fields
 * @param {Columns} columns
 * @param {{ digits: number, currency: string }} money
 * @returns {{ ok: true, row: PriceRow } | { ok: false, error: string }}
 */
export function readPriceRow(
  fields: string[],
  columns: Columns,
  money: {
    digits: number;
    currency: string;
  },
):
  | {
      ok: true;
      row: PriceRow;
    }
  | {
      ok: false;
      error: string;
    };
/**
 * Remembers each (productCode, minQuantity) of the file, so a repeated tier is refused whichever
 * chunk it falls into (the API refuses repeats inside one body; across bodies the last would win
 * silently).
 */
export function createTierTracker(): {
  /**
   * @param {PriceRow} row
   * @param {number} line
   * @returns {number | undefined} the earlier line with the same tier, if any
   */
  see(row: PriceRow, line: number): number | undefined;
};
/**
 * Maps the issues of a 400 for one chunk back to CSV lines: `body.prices.17.productCode` is the
 * 18th row of the chunk, i.e. `lines[17]`. Issues that name no row (`body.prices`, a summary)
 * are returned apart.
 * @param {{ path?: unknown, message?: unknown }[]} errors the `errors` of the problem body
 * @param {readonly number[]} lines CSV line of each row of the chunk, in body order
 * @returns {{ byLine: Map<number, string[]>, unmapped: string[] }}
 */
export function rejectedLines(
  errors: {
    path?: unknown;
    message?: unknown;
  }[],
  lines: readonly number[],
): {
  byLine: Map<number, string[]>;
  unmapped: string[];
};
export const COLUMNS: readonly ["productCode", "minQuantity", "amount"];
export function priceRecord(price: PriceRow, digits: number): [string, number, string];
export type Columns = {
  productCode: number;
  minQuantity: number;
  amount: number;
  width: number;
};
export type PriceRow = {
  productCode: string;
  minQuantity: number;
  amount: number;
};
export type Rejection = {
  line: number;
  reason: string;
};
