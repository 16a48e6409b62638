import { BulkPlan, upsertInBulk } from "../../db/bulk-plan";
import type { Db } from "../../db/client";
import { notFound } from "../../core/errors";
import { iso } from "../../core/schemas";
import {
  deleteExchangeRate,
  rateCode,
  rateFacts,
  rateWrites,
  type RateKey,
  type RateRecord,
  type StoredRate,
} from "./exchange-rates.repo";
import type { ExchangeRatesUpsertResult, ExchangeRateUpsert } from "./exchange-rates.schemas";

export const missingExchangeRate = (key: RateKey) =>
  notFound(`exchange rate ${key.from}→${key.to} from ${iso(key.validFrom)} not found`);

const recordOf = (row: ExchangeRateUpsert): RateRecord => ({
  code: rateCode(row.from, row.to, row.validFrom),
  fromCurrency: row.from,
  toCurrency: row.to,
  validFrom: row.validFrom,
  rate: row.rate,
});

/** Every row is valid by its schema; the stored rates only decide created, updated, unchanged. */
function judgeRates(rows: ExchangeRateUpsert[], facts: StoredRate[]) {
  const stored = new Map(
    facts.map((rate) => [
      rateCode(rate.fromCurrency, rate.toCurrency, rate.validFrom),
      { code: rateCode(rate.fromCurrency, rate.toCurrency, rate.validFrom), ...rate },
    ]),
  );
  const plan = new BulkPlan<RateRecord, RateRecord>("rates");
  for (const row of rows) {
    const record = recordOf(row);
    plan.add(stored.get(record.code), record);
  }
  return plan;
}

/**
 * `PUT /v1/api/exchange-rates`: 1-1000 rates by (from, to, validFrom), all or nothing, in two
 * round trips (a read of the stored rates, one statement writing what changes) by the
 * read-judge-write of every bulk upsert (db/bulk-plan.ts). Answers counts: a rate has no code.
 */
export async function upsertExchangeRates(
  db: Db,
  rows: ExchangeRateUpsert[],
): Promise<ExchangeRatesUpsertResult> {
  const keys = rows.map((row) => ({ from: row.from, to: row.to, validFrom: row.validFrom }));
  const result = await upsertInBulk<{ rates: StoredRate[] }>(
    db,
    "the exchange rates",
    rateFacts(keys),
    (facts) => {
      const plan = judgeRates(rows, facts.rates);
      return { plan, writes: () => rateWrites(db, plan.created, plan.updated) };
    },
  );
  return {
    created: result.created.length,
    updated: result.updated.length,
    unchanged: result.unchanged,
  };
}

export async function removeExchangeRate(db: Db, key: RateKey) {
  if (!(await deleteExchangeRate(db, key))) throw missingExchangeRate(key);
}
