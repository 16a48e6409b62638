import { sql, type SQL } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { is } from "drizzle-orm";
import * as schema from "../db/schema";
import { entityName } from "../db/audit";

/*
 * Audit entity names (`tradeConditionProduct`) and row fields (`productId`) back to the tables and
 * columns they were written from, read off the Drizzle schema, so the feed's SQL names no table
 * twice. Names come from the schema only, never from input.
 */

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const TABLES = new Map(
  (Object.values(schema) as unknown[])
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
    .map((table) => {
      const config = getTableConfig(table);
      const columns = new Map(config.columns.map((c) => [camel(c.name), c.name]));
      return [entityName(config.name), { name: config.name, columns }] as const;
    }),
);

function table(entity: string) {
  const found = TABLES.get(entity);
  if (!found) throw new Error(`no table for entity ${entity}`);
  return found;
}

/** The field names of an entity's row (its columns, camelCase), in the table's order. */
export const fieldsOf = (entity: string) => [...table(entity).columns.keys()];

/** The table of an entity, as SQL. */
export const tableSql = (entity: string): SQL => sql.raw(`"${table(entity).name}"`);

/** A column of an entity's table by its field name, as SQL, optionally aliased to the field. */
export function columnSql(entity: string, field: string, alias = false): SQL {
  const column = table(entity).columns.get(field);
  if (!column) throw new Error(`no column ${field} in ${entity}`);
  return sql.raw(alias ? `"${column}" as "${field}"` : `"${column}"`);
}
