import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The pricing data version: one row (id 1), bumped by triggers on every table that can change a
 * price answer (migration 0003), so no write path can forget it and it commits with the write.
 * The next value is the later of previous + 1 and the writing statement's clock in ms, so it only
 * grows, also after a Time Travel restore. Read with the price context; the cached contexts and
 * admin keys' ETags derive from it.
 */
export const pricingVersion = sqliteTable(
  "pricing_version",
  {
    id: integer("id").primaryKey(),
    version: integer("version").notNull(),
    /**
     * The version of what a read key sees (migration 0027, docs/api/access.md §18): bumped with
     * `version` by every write but those of a COST list no FLOOR derives from and of an ACCRUAL
     * condition, which no read key's answer depends on. Read keys' ETags derive from it.
     */
    seenVersion: integer("seen_version").notNull().default(0),
  },
  (t) => [check("pricing_version_one_row", sql`${t.id} = 1`)],
);

/**
 * Row counts kept by triggers (migration 0003; today only `products`), so an unfiltered list
 * reads its total from one row instead of counting a catalogue.
 */
export const rowCounts = sqliteTable("row_counts", {
  tableName: text("table_name").primaryKey(),
  n: integer("n").notNull(),
});
