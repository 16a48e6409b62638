// The types of demo-sql.mjs that test/tools/demo-data.test.ts uses (tsconfig.json has no allowJs),
// written by hand from its JSDoc; keep them in step with its exports.

/** Children first: the order in which `--force` empties the tables. */
export const DATA_TABLES: string[];

/**
 * The whole demo data set as one SQL script (statements end with ";" and a line break).
 * @param options `wipe`: empty every data table first
 */
export function demoSql(options?: { wipe?: boolean }): string;
