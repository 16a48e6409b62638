import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * `column IN (the values of one JSON parameter)`: a list of any length binds one parameter, so
 * 1000 codes stay far under D1's 100-bound-parameter limit. The one spelling of it.
 */
export const inJsonList = (column: SQLWrapper, values: readonly (string | number)[]): SQL =>
  sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
