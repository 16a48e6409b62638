import { and, count, eq, getTableColumns, sql } from "drizzle-orm";
import { insertRows, rowField, rowsOf } from "../../db/bulk";
import { factRows, type FactParts } from "../../db/bulk-facts";
import { jsonChunks } from "../../db/chunks";
import type { Db } from "../../db/client";
import { exchangeRates } from "../../db/schema";
import { iso, isoOrNull } from "../../core/schemas";
import { readPage, type ListRequest } from "../../list";

/** A rate's key: the pair and the instant (epoch ms) from which it holds. */
export interface RateKey {
  from: string;
  to: string;
  validFrom: number;
}

// The correlated subqueries name the outer row by hand: Drizzle may write a column unqualified,
// which inside a subquery over the same table would mean the inner row.
const OUTER = sql.raw(`"exchange_rates"`);

/**
 * Where a rate stops holding: the next validFrom of its pair (docs/api/prices.md §16.2), read from
 * the key index (pair, validFrom) in one step.
 */
const validTo = sql<number | null>`(select min(n.valid_from) from exchange_rates n
  where n.from_currency = ${OUTER}.from_currency and n.to_currency = ${OUTER}.to_currency
    and n.valid_from > ${OUTER}.valid_from)`.as("valid_to");

const rateColumns = { ...getTableColumns(exchangeRates), validTo };

export type ExchangeRateRow = typeof exchangeRates.$inferSelect & { validTo: number | null };

export const toExchangeRate = (row: ExchangeRateRow) => ({
  from: row.fromCurrency,
  to: row.toCurrency,
  rate: row.rate,
  validFrom: iso(row.validFrom),
  validTo: isoOrNull(row.validTo),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/** The rate of each pair in force at `at`: its validFrom is the pair's latest not after `at`. */
const inForceAt = (at: number) =>
  sql`${OUTER}.valid_from = (select max(n.valid_from) from exchange_rates n
    where n.from_currency = ${OUTER}.from_currency and n.to_currency = ${OUTER}.to_currency
      and n.valid_from <= ${at})`;

/** A page of rates and its count, in one round trip; `at` keeps the rates in force then. */
export function listExchangeRates(db: Db, list: ListRequest, at: number | undefined) {
  const where = at === undefined ? list.where : and(list.where, inForceAt(at));
  return readPage(
    db,
    db
      .select(rateColumns)
      .from(exchangeRates)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(exchangeRates).where(where),
  );
}

const byKey = (key: RateKey) =>
  and(
    eq(exchangeRates.fromCurrency, key.from),
    eq(exchangeRates.toCurrency, key.to),
    eq(exchangeRates.validFrom, key.validFrom),
  );

export const findExchangeRate = (db: Db, key: RateKey): Promise<ExchangeRateRow | undefined> =>
  db.select(rateColumns).from(exchangeRates).where(byKey(key)).get();

/** The id of the deleted rate; undefined when there was none. */
export const deleteExchangeRate = (db: Db, key: RateKey) =>
  db.delete(exchangeRates).where(byKey(key)).returning({ id: exchangeRates.id }).get();

// ---- bulk upserts by key (docs/api/prices.md §16.2, in the way of §5.12) ----

/** A rate as a bulk upsert judges and writes it; `code` is its key as text, for the bulk plan. */
export interface RateRecord {
  code: string;
  fromCurrency: string;
  toCurrency: string;
  validFrom: number;
  rate: string;
}

/** The bulk plan's code of a rate: one text per key. */
export const rateCode = (from: string, to: string, validFrom: number) =>
  `${from}>${to}@${validFrom}`;

const recordColumns = {
  fromCurrency: exchangeRates.fromCurrency,
  toCurrency: exchangeRates.toCurrency,
  validFrom: exchangeRates.validFrom,
  rate: exchangeRates.rate,
};

export type StoredRate = Omit<RateRecord, "code">;

/** The stored rates of the body's keys, as bulk facts (the keys travel as one parameter). */
export const rateFacts = (keys: RateKey[]): FactParts => ({
  rates: factRows(
    exchangeRates,
    recordColumns,
    sql`(${exchangeRates.fromCurrency}, ${exchangeRates.toCurrency}, ${exchangeRates.validFrom})
      in (select json_extract(value, '$.from'), json_extract(value, '$.to'),
        json_extract(value, '$.validFrom') from json_each(${JSON.stringify(keys)}))`,
  ),
});

/**
 * The new rates inserted and the changed ones updated by key, one statement per chunk each; an
 * update moves updatedAt forward, as every update does.
 */
export function rateWrites(db: Db, created: RateRecord[], updated: RateRecord[]) {
  const t = exchangeRates;
  const strip = (records: RateRecord[]) => records.map(({ code: _code, ...rate }) => rate);
  const updates = jsonChunks(strip(updated)).map((json) =>
    db
      .update(t)
      .set({
        rate: rowField("rate"),
        updatedAt: sql`max(cast(unixepoch('subsec') * 1000 as integer), ${t.updatedAt} + 1)`,
      } as never)
      .from(rowsOf(json))
      .where(
        sql`${t.fromCurrency} = ${rowField("fromCurrency")} and ${t.toCurrency} = ${rowField("toCurrency")}
          and ${t.validFrom} = ${rowField("validFrom")}`,
      ),
  );
  return [...(created.length ? insertRows(db, t, strip(created)) : []), ...updates];
}
