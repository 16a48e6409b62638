// The types of csv-engine.mjs for the Worker tests (tsconfig.json has no allowJs), emitted from its JSDoc:
// npx tsc --allowJs --declaration --emitDeclarationOnly --skipLibCheck --target ES2022 --module ES2022
//   --moduleResolution bundler --outDir scripts/lib scripts/lib/{csv,money,csv-kinds,csv-engine,csv-http}.mjs
// then prettier. Regenerate when its exports change; this header is kept by hand.

/**
 * The issues of a 400 by row of the body: `body.products.17.code` is row 17, field `code`.
 * Issues that name no row (`body.products`, a summary) are returned apart.
 * @param {{ path?: unknown, message?: unknown }[]} errors the `errors` of the problem body
 * @param {string} bodyKey
 * @returns {{ byRow: Map<number, { field: string, message: string }[]>, unmapped: string[] }}
 */
export function rowIssues(
  errors: {
    path?: unknown;
    message?: unknown;
  }[],
  bodyKey: string,
): {
  byRow: Map<
    number,
    {
      field: string;
      message: string;
    }[]
  >;
  unmapped: string[];
};
/**
 * @param {ImportOptions} options
 * @returns {Promise<ImportResult>}
 */
export function importCsv(options: ImportOptions): Promise<ImportResult>;
/**
 * @typedef {{
 *   kind: Kind, ctx: Context, api: Api, write: (text: string) => void | Promise<void>,
 *   concurrency?: number,
 *   onProgress?: (p: { rows: number, totalItems: number }) => void,
 * }} ExportOptions
 */
/**
 * Writes the header and every record of the kind, in the kind's order, paging through its list
 * with `concurrency` pages in flight, written in page order.
 * @param {ExportOptions} options
 * @returns {Promise<{ rows: number, totalItems: number, pages: number }>}
 */
export function exportCsv(options: ExportOptions): Promise<{
  rows: number;
  totalItems: number;
  pages: number;
}>;
/** The bulk endpoints take 1-1000 rows; bodies stay well under the service's 1 MiB cap. */
export const MAX_ROWS: 1000;
export const MAX_BODY_BYTES: number;
export const DEFAULT_CONCURRENCY: 4;
/**
 * `source`: the file as text pieces of any size; `resume`: the checkpoint of an earlier run,
 * whose lines are read again only to remember their keys (`--from-line` is a checkpoint without
 * rejections); `shouldStop`: asked after each record, true ends the import after the bodies in
 * flight; `maxRows`: rows per body (default MAX_ROWS)
 */
export type ImportOptions = {
  kind: Kind;
  ctx: Context;
  api: Api;
  source: AsyncIterable<string>;
  resume?: {
    committedLine: number;
    rejected?: Rejection[];
    totals?: Totals;
  };
  concurrency?: number;
  maxRows?: number;
  dryRun?: boolean;
  shouldStop?: () => boolean;
  onCommit?: (checkpoint: Checkpoint) => void;
  onProgress?: (p: { read: number; written: number; rejected: number }) => void;
};
/**
 * `read`: rows read and checked in this run
 */
export type ImportResult = {
  totals: Totals;
  read: number;
  rejected: Rejection[];
  committedLine: number;
  interrupted: boolean;
};
export type ExportOptions = {
  kind: Kind;
  ctx: Context;
  api: Api;
  write: (text: string) => void | Promise<void>;
  concurrency?: number;
  onProgress?: (p: { rows: number; totalItems: number }) => void;
};
export type Kind = import("./csv-kinds.mjs").Kind;
export type Context = import("./csv-kinds.mjs").Context;
export type Row = import("./csv-kinds.mjs").Row;
export type Api = import("./csv-http.mjs").Api;
export type Rejection = {
  line: number;
  reason: string;
};
/**
 * `rows` written; the rest as the bulk endpoints answer (codes, or counts for exchange rates;
 * prices answer only `upserted`)
 */
export type Totals = {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
};
/**
 * every line up to `committedLine` is written or among `rejected`
 */
export type Checkpoint = {
  committedLine: number;
  rejected: Rejection[];
  totals: Totals;
};
/**
 * a row of the file with its line
 */
export type Entry = {
  row: Row;
  line: number;
  reason: string;
};
