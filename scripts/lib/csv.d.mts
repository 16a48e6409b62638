// The types of csv.mjs for the Worker tests (tsconfig.json has no allowJs), emitted from its JSDoc:
// npx tsc --allowJs --declaration --emitDeclarationOnly --skipLibCheck --target ES2022 --module ES2022
//   --moduleResolution bundler --outDir scripts/lib scripts/lib/{csv,money,csv-kinds,csv-engine,csv-http}.mjs
// then prettier. Regenerate when its exports change; this header is kept by hand.

export function createCsvParser(): {
  push: (text: string) => CsvRecord[];
  end: () => CsvRecord[];
};
/**
 * Every record of a whole text (tests, small files).
 * @param {string} text
 * @returns {CsvRecord[]}
 */
export function parseCsv(text: string): CsvRecord[];
/**
 * One field, quoted only when it has to be (comma, quote, line break, edge spaces, or empty: `""`
 * is the empty text, an empty field is null).
 * @param {string | null} value
 */
export function csvField(value: string | null): string;
/**
 * One line of CSV, LF-terminated.
 * @param {readonly (string | number | null)[]} values
 */
export function csvRow(values: readonly (string | number | null)[]): string;
/**
 * `quotedEmpty`: the indexes of the fields written `""` (absent when there are none)
 */
export type CsvRecord = {
  line: number;
  fields: string[];
  error?: string;
  quotedEmpty?: number[];
};
