/**
 * The parts of drizzle-orm the Worker bundle leaves out (wrangler.toml [alias], by the relative
 * paths drizzle's own modules import them with; docs/performance.md "The Worker bundle"). Its SQL
 * builder refers to them, so a bundler keeps them, but the service never runs them: relational
 * queries (`db.query.*`, which need a `schema` that src/db/client.ts does not pass), PostgreSQL's
 * enums and primary keys (asked about by `sql` and `relations` of every dialect), and the column
 * builders of the callback form of `sqliteTable` other than `integer` and `text`. What is asked
 * stays answered: no PostgreSQL enum is ever met, no entity is a PostgreSQL primary key or a
 * relation; a relational query would throw.
 */
import { entityKind } from "drizzle-orm/entity";
// The column modules themselves, as drizzle's own `columns/all.js` imports them: the index of
// drizzle-orm/sqlite-core would be a cycle through the table module that imports this one.
import { integer } from "drizzle-orm/sqlite-core/columns/integer";
import { text } from "drizzle-orm/sqlite-core/columns/text";

const absent = (): never => {
  throw new Error("drizzle's relational queries are not in the Worker bundle");
};

/** For `sql` (drizzle-orm/sql/sql.js): a SQLite query holds no PostgreSQL enum. */
export const isPgEnum = (_value: unknown): boolean => false;

/** Entity kinds that `is(…)` compares with; no object in the service is one of them. */
export class PrimaryKeyBuilder {
  static readonly [entityKind] = "PgPrimaryKeyBuilder";
}
export class One {
  static readonly [entityKind] = "One";
}
export class Many {
  static readonly [entityKind] = "Many";
}
export class RelationalQueryBuilder {
  static readonly [entityKind] = "SQLiteAsyncRelationalQueryBuilder";
  constructor() {
    absent();
  }
}

export const getOperators = absent;
export const getOrderByOperators = absent;
export const normalizeRelation = absent;
export const createTableRelationsHelpers = absent;
export const extractTablesRelationalConfig = absent;
export const mapRelationalRow = absent;

/** `sqliteTable(name, (t) => …)`: the service's tables use only these two column types. */
export const getSQLiteColumnBuilders = () => ({ integer, text });
