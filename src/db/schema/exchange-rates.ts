import { sql } from "drizzle-orm";
import { check, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { instant, timestamps } from "./columns";

/**
 * Exchange rates (docs/api/prices.md §16.2): the rate `from` → `to` in force from
 * `validFrom` until the next `validFrom` of the same pair, directional. The rate is stored as its
 * normal decimal text ("0.92", never a float), so it reads back exactly as written and the
 * pricing core parses it into an exact rational (src/pricing/exchange.ts). The columns are not
 * named `from` and `to`: both are SQL keywords.
 */
export const exchangeRates = sqliteTable(
  "exchange_rates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    fromCurrency: text("from_currency").notNull(),
    toCurrency: text("to_currency").notNull(),
    validFrom: instant("valid_from").notNull(),
    rate: text("rate").notNull(),
    ...timestamps,
  },
  (t) => [
    check("exchange_rates_pair", sql`${t.fromCurrency} <> ${t.toCurrency}`),
    // The key of a rate; it also serves a pair's timeline in order (the next validFrom, ?at=).
    uniqueIndex("exchange_rates_key").on(t.fromCurrency, t.toCurrency, t.validFrom),
  ],
);
