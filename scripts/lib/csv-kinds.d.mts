// The types of csv-kinds.mjs for the Worker tests (tsconfig.json has no allowJs), emitted from its JSDoc:
// npx tsc --allowJs --declaration --emitDeclarationOnly --skipLibCheck --target ES2022 --module ES2022
//   --moduleResolution bundler --outDir scripts/lib scripts/lib/{csv,money,csv-kinds,csv-engine,csv-http}.mjs
// then prettier. Regenerate when its exports change; this header is kept by hand.

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies, as the JSDoc says */

/**
 * The ISO 4217 exponent of a currency, as the service answers it (GET /v1/api/currencies, the
 * one table of exponents: docs/api/prices.md §16.1).
 * @param {Api} api
 * @param {string} currency
 * @returns {Promise<number>}
 */
export function exponentOf(api: Api, currency: string): Promise<number>;
/**
 * The kind named on the command line.
 * @param {string | undefined} name
 * @returns {Kind}
 */
export function kindOf(name: string | undefined): Kind;
/**
 * Where each column is, from the header record: names in any order and letter case; the required
 * ones must be there, the others may be.
 * @param {string[]} fields
 * @param {Kind} kind
 * @returns {{ ok: true, index: Map<string, number>, width: number } | { ok: false, error: string }}
 */
export function readHeader(
  fields: string[],
  kind: Kind,
):
  | {
      ok: true;
      index: Map<string, number>;
      width: number;
    }
  | {
      ok: false;
      error: string;
    };
/**
 * One data record as a row of the kind's upsert body.
 * @param {import("./csv.mjs").CsvRecord} record
 * @param {{ index: Map<string, number>, width: number }} header
 * @param {Kind} kind
 * @param {Context} ctx
 * @returns {ReadRow}
 */
export function readRow(
  record: import("./csv.mjs").CsvRecord,
  header: {
    index: Map<string, number>;
    width: number;
  },
  kind: Kind,
  ctx: Context,
): ReadRow;
/** Every kind by the name the command line takes, in the order a catalogue is best loaded. */
export const KINDS: Readonly<Record<string, Kind>>;
/**
 * a row's cell by column name: undefined when the header has no such column, null when the cell
 * is empty, else its text as written
 */
export type Cells = (column: string) => string | null | undefined;
/**
 * a row of a bulk upsert body
 */
export type Row = Record<string, unknown>;
export type ReadRow =
  | {
      ok: true;
      row: Row;
    }
  | {
      ok: false;
      error: string;
    };
/**
 * the options of the command line a kind reads
 */
export type KindOptions = {
  pricelist?: string;
};
/**
 * what `prepare` found (the
 *  pricelist of prices); `readOnly`: why an import cannot write
 */
export type Context = {
  label: string;
  notes: string[];
  stateKey: string;
  readOnly?: string;
  pricelistId?: number;
  digits?: number;
  currency?: string;
};
export type Api = import("./csv-http.mjs").Api;
/**
 * `bodyKey`: the array of the PUT body, named by its 400's issue paths (`body.<bodyKey>.<i>.<field>`);
 * `deferOn`: a field naming another row of the same kind, which may come later in the file;
 * `key`: what may appear once per file
 */
export type Kind = {
  name: string;
  columns: readonly string[];
  required: readonly string[];
  bodyKey: string;
  deferOn?: string;
  prepare: (api: Api, options: KindOptions) => Promise<Context>;
  importPath: (ctx: Context) => string;
  listPath: (ctx: Context) => string;
  key: (row: Row) => string;
  repeatMessage: (row: Row, line: number) => string;
  readRow: (cell: Cells, ctx: Context) => ReadRow;
  toRecord: (item: any, ctx: Context) => (string | number | null)[];
};
/**
 * how a cell becomes a field of the row, and back (as is by default)
 */
export type CellType = {
  read: (
    raw: string | null,
    column: string,
    ctx: Context,
  ) =>
    | {
        value: unknown;
      }
    | {
        error: string;
      };
  write?: (value: any, ctx: Context) => string | number | null;
};
